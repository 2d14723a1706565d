"""The global, deterministic plan: which dialogues get a variant and what is swapped.

Dialogues are walked in the order of ``sha256(seed:dialogue_id)`` (a pure function of the
seed and the ids, independent of sharding) and tried one by one until ``count`` variants
exist. Each dialogue gets one outcome; the stage turns outcomes into ledger rows.

Reasons (ledger, decision ``kept``: originals are never changed):
``variant_created``, ``no_candidate_span`` (nothing picturable in the user turns),
``no_safe_rewrite`` (every candidate was refused: it would stay named after the rewrite,
e.g. "the tower" after "the Eiffel Tower"; its rewrite would touch a PII span; it sits in a
simile, a quote, code or an exercise, or is in the sky; or the rewrite breaks agreement —
safety.py; it is a name, not a description: a title, a bare singular noun or a bare plural (a kind) — names.py; the
turn uses its word for other things too, ``other_referent`` — rewrite.py; the
detail counts each ``because``), ``language_unsupported`` (swaps are English-only),
``no_matching_image`` (no image scored at or above the threshold whose captions name the
thing; a name such as "Green Bay" must be named whole: a photo of a bay is another thing),
``duplicate_variant`` (the rewrite equals an existing dialogue), ``not_selected``
(never tried: the count was reached first), ``is_variant`` (already a variant).
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import polars as pl

from builder.records import dialogue_id
from builder.traits import of_row
from builder.swap import lexicon as lx
from builder.swap.rewrite import other_referent, rewrite
from builder.swap.names import bare_noun, named_in_other_turn, titled_elsewhere
from builder.swap.safety import grammar_refusal, word_sense
from builder.swap.sources import Query
from builder.swap.sources.bank import word_pattern
from builder.swap.spans import Candidate, categorise, categorise_by_similarity, mentions, rank
from builder.swap.variant import PlannedSwap, overlaps, swapped_turns

if TYPE_CHECKING:
    import numpy as np

PLAN_COLUMNS = ("dialogue_id", "turns", "pii", "variant_of", "language", "traits")
# Views of a place a place name may describe and still be shown ("the Tokyo skyline", "Prague's old town")
SCENES = frozenset("""skyline street streets crossing harbor harbour waterfront canal canals bridge river old town
rooftops roofs view views panorama square market beach coast bay""".split())
MODIFIER_DEPS = frozenset({"compound", "amod", "nmod", "poss"})  # "Boston" in "a Boston terrier", "Boston's harbor"
LANGUAGES = ("en",)  # the rewrite rules, lexicon and spaCy parser are English


@dataclass
class Outcome:
    reason: str
    detail: dict = field(default_factory=dict)
    swaps: list[PlannedSwap] = field(default_factory=list)
    variant_id: str | None = None
    candidates: int = 0


def selection_order(ids: list[str], seed: int) -> list[str]:
    return sorted(ids, key=lambda i: (hashlib.sha256(f"{seed}:{i}".encode()).hexdigest(), i))


class Planner:
    def __init__(self, config, nlp, embedder, source) -> None:
        self.config, self.nlp, self.embedder, self.source = config, nlp, embedder, source
        self._prototypes: np.ndarray | None = None  # the category prototypes' embeddings, made on first use
        self._shown: dict[tuple[str, str], bool] = {}

    def plan(self, frame: pl.DataFrame) -> dict[str, Outcome]:
        rows = {r["dialogue_id"]: r for r in frame.select(PLAN_COLUMNS).to_dicts()}
        outcomes = {i: Outcome("is_variant") for i, r in rows.items() if r["variant_of"] is not None}
        for i, r in rows.items():
            if i not in outcomes and r["language"] and r["language"] not in (*LANGUAGES, "und"):
                outcomes[i] = Outcome("language_unsupported", {"language": r["language"]})
        taken = set(rows)
        order = [i for i in selection_order(list(rows), self.config.seed) if i not in outcomes]
        made, pos = 0, 0
        while pos < len(order) and made < self.config.count:
            size = max(8, min(64, 2 * (self.config.count - made)))
            batch = order[pos:pos + size]
            pos += len(batch)
            for did, outcome in zip(batch, self._plan_batch([rows[i] for i in batch])):
                if made >= self.config.count:
                    outcome = Outcome("not_selected")
                elif outcome.reason == "variant_created":
                    if outcome.variant_id in taken:
                        outcome = Outcome("duplicate_variant", {"variant_id": outcome.variant_id},
                                          candidates=outcome.candidates)
                    else:
                        taken.add(outcome.variant_id)
                        made += 1
                outcomes[did] = outcome
        for did in order:
            outcomes.setdefault(did, Outcome("not_selected"))
        return outcomes

    # -- one batch ------------------------------------------------------------
    def _plan_batch(self, rows: list[dict]) -> list[Outcome]:
        texts = [(r_i, t_i, t["text"]) for r_i, r in enumerate(rows) for t_i, t in enumerate(r["turns"] or [])
                 if t["role"] == "user" and (t["text"] or "").strip()]
        docs = self.nlp.pipe([text for _, _, text in texts], batch_size=64)
        traits = [of_row(r) for r in rows]  # tagged by clean (or now, for a folder clean never saw)
        per_row: list[list[tuple[int, list, Candidate]]] = [[] for _ in rows]
        to_embed = []  # (row, turn, turn mentions, mention, candidate from the entity label or None)
        for (r_i, t_i, _), doc in zip(texts, docs):
            found = mentions(doc, traits[r_i].names_at(t_i))
            for m in found:
                cand = categorise(t_i, m)
                if cand is not None and cand.how == "lexicon":
                    per_row[r_i].append((t_i, found, cand))
                elif cand is not None or m.label != "ORG":  # company names: only via the lexicon
                    to_embed.append((r_i, t_i, found, m, cand))
        for (r_i, t_i, found, m, cand), sims in zip(to_embed, self._similarities([e[3].core for e in to_embed])):
            if cand is not None:
                # spaCy's small model calls many people GPE: the embedder can veto a label.
                cand = None if max(sims, key=sims.__getitem__) in lx.NOT_SWAPPABLE else cand
            else:
                cand = categorise_by_similarity(t_i, m, sims, self.config.min_category_score)
            if cand is not None:
                per_row[r_i].append((t_i, found, cand))
        plans = [self._rewrites(row, cands) for row, cands in zip(rows, per_row)]
        queries = [Query(c.mention.core, c.mention.sentence, c.category) for p in plans for c, _ in p["ok"]]
        matches = iter(self.source.find(queries) if queries else [])
        return [self._choose(row, plan, [next(matches) for _ in plan["ok"]]) for row, plan in zip(rows, plans)]

    def _similarities(self, texts: list[str]) -> list[dict[str, float]]:
        if not texts:
            return []
        if self._prototypes is None:
            self._prototypes = self.embedder.encode(list(lx.PROTOTYPES.values()))
        sims = self.embedder.encode(texts) @ self._prototypes.T
        return [{c: round(float(s), 4) for c, s in zip(lx.PROTOTYPES, row)} for row in sims]

    def _rewrites(self, row: dict, cands: list[tuple[int, list, Candidate]]) -> dict:
        by_candidate = {id(c): (t_i, found) for t_i, found, c in cands}
        seen, ok, refused = set(), [], 0
        why: dict[str, int] = {}  # refusal reason -> candidates refused for it
        for cand in rank([c for _, _, c in cands]):
            if (cand.turn, cand.key) in seen:
                continue
            seen.add((cand.turn, cand.key))
            if len(seen) > self.config.max_candidates:
                break
            t_i, found = by_candidate[id(cand)]
            text = row["turns"][t_i]["text"]
            refusal = (cand.mention.refusal or titled_elsewhere(row, cand.mention) or bare_noun(cand)
                       or named_in_other_turn(row, t_i, cand.mention))
            refusal = refusal or other_referent(cand, found)
            result = None if refusal else rewrite(text, cand, found)
            reason: str | None
            if refusal or result is None:
                reason = refusal or "still_named"
            else:
                reason = (("pii_overlap" if overlaps(result, row["pii"], row["turns"][t_i]["index"]) else None)
                          or grammar_refusal(result.text))
            if reason:
                refused += 1
                why[reason] = why.get(reason, 0) + 1
                continue
            ok.append((cand, result))
        if not self.source.thresholded:
            ok = ok[: self.config.swaps_per_dialogue]  # generation is costly: only what is used
        return {"ok": ok, "refused": refused, "why": why,
                "candidates": len({(c.turn, c.key) for _, _, c in cands})}

    def _same_sense(self, key: str, cand: Candidate) -> bool:
        """An ambiguous word ("lab") needs its sentence to show the sense the picture shows."""
        captions = getattr(self.source, "caption_text", None)
        if captions is None:
            return word_sense(cand.mention.lemma, cand.mention.sentence, cand.mention.sentence)
        return word_sense(cand.mention.lemma, cand.mention.sentence, captions(key))

    def _named(self, key: str, words: set[str], at_least: int = 2) -> bool:
        """An image bank's captions must name the thing; a generator is prompted with its name."""
        names = getattr(self.source, "names", None)
        return names is None or names(key, words, at_least)

    def _shows_name(self, key: str, name: str, at_least: int = 2) -> bool:
        """A bank picture shows a name ("Florida", "the Colosseum") when its captions are about the
        named thing, not when the name describes another thing: "their Florida Marlins hats" and
        "a Boston terrier" are photos of hats and a dog. A generator is prompted with the name."""
        lines = getattr(self.source, "caption_lines", None)
        if lines is None:
            return True
        if (key, name) not in self._shown:
            pattern = word_pattern({name}, re.I)
            captions = lines(key)
            about = 0
            for doc in self.nlp.pipe([line for line in captions if pattern.search(line)]):
                spans = (doc.char_span(m.start(), m.end(), alignment_mode="expand") for m in pattern.finditer(doc.text))
                about += any(span is not None and _names_itself(span) for span in spans)
            self._shown[(key, name)] = about >= min(at_least, len(captions))
        return self._shown[(key, name)]

    def _choose(self, row: dict, plan: dict, matches: list) -> Outcome:
        n = plan["candidates"]
        if n == 0:
            return Outcome("no_candidate_span")
        if not plan["ok"]:
            return Outcome("no_safe_rewrite", {"candidates": n, "refused": plan["refused"],
                                               "because": dict(sorted(plan["why"].items()))}, candidates=n)
        chosen: list[PlannedSwap] = []
        used_turns, used_images, best = set(), set(), None
        for (cand, result), found in zip(plan["ok"], matches):
            if found and found[0].score is not None and (best is None or found[0].score > best[1]):
                best = (cand.mention.core, found[0].score)
            if cand.turn in used_turns or len(chosen) >= self.config.swaps_per_dialogue:
                continue
            # A name ("Green Bay", "Snoop Dog", "the Bears") is shown only by a picture of that
            # named thing: a bank photo of a bay, a dog or bears is another thing with a shared word.
            # A hyphenated head word is one word: "the under-dog" is no dog, so the captions must name it whole.
            last = cand.mention.core.split()[-1]
            words = ({cand.mention.core} if cand.mention.proper
                     else {last, last.replace("-", " ")} if "-" in last
                     else {cand.mention.head, cand.mention.lemma, cand.mention.core})
            # "a kicked rugby ball": every word of a common compound must be named too ("balls" is not enough)
            compounds = [] if cand.mention.proper else cand.mention.core.split()[:-1]
            match = next((m for m in found if m.key not in used_images
                          and (m.score is None or m.score >= self.config.threshold)
                          and self._named(m.key, words) and all(self._named(m.key, {w}, 1) for w in compounds)
                          and (not cand.mention.proper or self._shows_name(m.key, cand.mention.core))
                          and self._same_sense(m.key, cand)), None)
            if match is None:
                continue
            _, info = self.source.load(match.key)
            chosen.append(PlannedSwap(cand.turn, cand, result, match.key, info, self.source.name, match.score))
            used_turns.add(cand.turn)
            used_images.add(match.key)
        if not chosen:
            detail = {"candidates": n, "best_span": best[0] if best else None,
                      "best_score": best[1] if best else None, "threshold": self.config.threshold}
            return Outcome("no_matching_image", detail, candidates=n)
        turns, _ = swapped_turns(row["turns"], chosen)
        return Outcome("variant_created", {"candidates": n}, chosen, dialogue_id(turns), candidates=n)


def _names_itself(span) -> bool:
    """Is the name in a caption the thing the caption is about? Not when it describes another thing
    ("a Boston terrier", "Florida Marlins hats", "Boston's harbor"), when it is the end of a longer
    name ("York" in "new york"), or when a one-word name is a common noun there ("Bears" the team,
    "bears" the animals)."""
    head = span[-1]
    if head.dep_ in MODIFIER_DEPS and head.head.lemma_.lower() in SCENES:
        return True  # "the Tokyo skyline", "a Lisbon street": a photo of the place's own scene
    if head.dep_ in MODIFIER_DEPS or any(c.dep_ == "compound" and c.i < span.start for c in head.children):
        return False
    return len(span) > 1 or head.pos_ == "PROPN"

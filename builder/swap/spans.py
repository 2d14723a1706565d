"""Candidate spans: noun phrases in a user turn that could be shown as an image instead.

A *mention* is a noun chunk whose shape we can rewrite safely: optional article or
possessive pronoun, optional adjectives/numbers (kept), then the words that name the
thing (the *core*: compounds + head noun, e.g. "Eiffel Tower", "pepperoni pizza").
A *candidate* is a mention whose core is picturable: a lexicon word, a place/work-of-art
entity, or a noun the embedder puts nearer a concrete prototype than a person or an
abstraction. spaCy's small model mislabels landmarks (the Colosseum comes out as ORG),
so entity labels only veto (people, dates, amounts) or fix an obvious category.
"""

from __future__ import annotations

from dataclasses import dataclass

from builder.swap import lexicon as lx
from builder.swap.names import is_bare
from builder.swap.safety import context_refusal

CORE_DEPS = frozenset({"compound", "flat", "nmod"})


@dataclass(frozen=True)
class Mention:
    start: int  # character offsets of the whole phrase in the turn text
    end: int
    text: str  # "the Colosseum"
    core: str  # "Colosseum"
    lemma: str  # lower-cased lemma of the head noun
    head: str  # head noun as written
    proper_words: tuple[str, ...]  # capitalised proper-noun words of the core
    proper: bool
    plural: bool
    possessive: str | None  # "mine", "ours", ... when the phrase had "my", "our", ...
    modifiers: str  # adjectives/numbers kept in the rewrite ("new", "two")
    sentence: str
    sentence_start: bool
    label: str  # spaCy entity label of the core ("" when none)
    refusal: str | None = None  # why the context forbids a swap (simile, quoted, code, exercise)
    bare: bool = False  # a singular common noun with no article or possessive ("south park", "by car")
    bare_plural: bool = False  # a plural with no article, possessive or number: a kind ("helmets")


@dataclass(frozen=True)
class Candidate:
    turn: int
    mention: Mention
    category: str
    picturability: float
    how: str  # lexicon | label | embedder

    @property
    def key(self) -> str:
        return self.mention.core.lower() if self.mention.proper else self.mention.lemma


def mentions(doc, traits: frozenset[str] = frozenset()) -> list[Mention]:
    """Every noun chunk of ``doc`` we know how to rewrite, in text order; ``traits`` are those of
    the turn (builder/traits) that the refusals read."""
    out = []
    for chunk in doc.noun_chunks:
        mention = _mention(doc, chunk, traits)
        if mention is not None:
            out.append(mention)
    return out


def _mention(doc, chunk, traits: frozenset[str] = frozenset()) -> Mention | None:
    root = chunk.root
    if root.pos_ not in ("NOUN", "PROPN") or root.i != chunk.end - 1 or root.dep_ in CORE_DEPS:
        return None
    if any(c in chunk.text for c in "<>[]{}@#/\\_|") or any(ch.isdigit() for ch in chunk.text):
        return None  # PII placeholders, handles, paths, addresses, model numbers
    text = doc.text
    if text[max(chunk.start_char - 1, 0):chunk.start_char] == "<" or text[chunk.end_char:chunk.end_char + 1] in (">", ":"):
        return None  # inside a redaction placeholder such as <LOCATION>
    core_start = root.i
    while core_start - 1 >= chunk.start and _is_core(doc[core_start - 1]):
        core_start -= 1
    while core_start < root.i and doc[core_start].text == "-":
        core_start += 1  # "a five-star hotel": the hyphen joins a word the core does not hold; refused below
    article = possessive = None
    modifiers: list[str] = []
    for tok in doc[chunk.start:core_start]:
        low = tok.lower_
        if low in lx.ARTICLES and article is None and possessive is None and not modifiers:
            article = low
        elif low in lx.POSSESSIVES and tok.dep_ == "poss" and article is None and possessive is None and not modifiers:
            possessive = lx.POSSESSIVES[low]
        elif tok.pos_ in ("ADJ", "NUM") and tok.is_alpha and tok.is_lower:
            modifiers.append(tok.text)  # "a new camera" -> "this new item"
        else:
            return None  # "Italy's best pizza", "all of the ...": not a shape we rewrite
    after = doc[chunk.end:chunk.end + 2]
    if len(after) == 2 and after[0].text == "," and after[1].pos_ == "PROPN":
        return None  # "Washington, D.C.", "Rome, Italy": the name goes on after the chunk
    core = doc[core_start:chunk.end]
    label = ""
    for ent in doc.ents:
        if ent.start <= root.i < ent.end:
            if ent.start < chunk.start or ent.end > chunk.end:
                return None  # the entity reaches outside the phrase
            label = ent.label_
    if label in lx.EXCLUDED_LABELS:
        return None
    proper = root.pos_ == "PROPN"
    if not proper and root.lemma_.lower() in lx.STOP_LEMMAS:
        return None
    sent = root.sent
    return Mention(
        start=chunk.start_char,
        end=chunk.end_char,
        text=chunk.text,
        core=core.text,
        lemma=root.lemma_.lower(),
        head=root.text,
        proper_words=tuple(t.text for t in core if t.pos_ == "PROPN" and len(t.text) > 2),
        proper=proper,
        plural=root.tag_ in ("NNS", "NNPS"),
        possessive=possessive,
        modifiers=" ".join(modifiers),
        sentence=sent.text.strip(),
        sentence_start=chunk.start == sent.start,
        label=label,
        refusal=context_refusal(doc, chunk.start, chunk.start_char, chunk.end_char, traits),
        bare=is_bare(chunk),
        bare_plural=is_bare(chunk, plural=True),
    )


def _is_core(tok) -> bool:
    return tok.dep_ in CORE_DEPS or tok.pos_ == "PROPN" or (tok.text == "-" and tok.whitespace_ == "")


def lexicon_category(mention: Mention) -> str | None:
    words = {mention.lemma, mention.head.lower(), mention.core.lower(), mention.core.lower().replace(" ", "-")}
    for category, lemmas in lx.LEXICON.items():
        if words & lemmas:
            return category
    return None


def categorise(turn: int, mention: Mention) -> Candidate | None:
    """The category the lexicon or the entity label gives, or None (ask the embedder)."""
    prior = _prior(mention)
    category = lexicon_category(mention)
    if category is not None:
        return Candidate(turn, mention, category, round(1.0 + prior, 4), "lexicon")
    if mention.label in lx.LABEL_CATEGORY:
        return Candidate(turn, mention, lx.LABEL_CATEGORY[mention.label], round(0.8 + prior, 4), "label")
    return None


def categorise_by_similarity(turn: int, mention: Mention, sims: dict[str, float],
                             min_score: float) -> Candidate | None:
    """Pick the best concrete prototype; refuse when a person/abstract one is as close."""
    if mention.label == "ORG":
        return None  # company names are rarely something one photographs
    concrete = {c: s for c, s in sims.items() if c not in lx.NOT_SWAPPABLE}
    category = max(sorted(concrete), key=lambda c: concrete[c])
    best = concrete[category]
    if best < min_score or best <= max(sims[c] for c in lx.NOT_SWAPPABLE):
        return None
    return Candidate(turn, mention, category, round(best + _prior(mention), 4), "embedder")


def _prior(mention: Mention) -> float:
    return lx.LABEL_PRIOR.get(mention.label, 0.0) + (lx.PROPER_BONUS if mention.proper else 0.0)


def rank(candidates: list[Candidate]) -> list[Candidate]:
    """Most picturable first; ties broken by position so the order is deterministic."""
    return sorted(candidates, key=lambda c: (-c.picturability, c.turn, c.mention.start))



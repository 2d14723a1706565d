"""The objective metrics of MMRC §4.1 as pure functions, exactly as the paper defines them.

- **EP** (extraction precision) = |model items ∩ gold items| / |model items| for one IE answer:
  the share of the items the answer lists that are right (an extra item lowers it).
- **IMP** (image-management precision) = |hit| / |hit ∪ miss| for one IM answer, where hit are
  the gold images the answer identifies and miss the gold images it leaves out: the share of
  the gold images it identifies (hit ∪ miss is the gold set).
- **RP** (refusal precision) = refused / should-refuse: the share of the questions whose ground
  truth is a refusal that the model refused (aggregated in ``score.py``).

Extras beside them, named as such and never in their place: ``imp_jaccard`` = |P ∩ G| / |P ∪ G|
(a model that names every image loses points), over-refusal (refusals of answerable questions)
and refusal agreement (refused == should_refuse over all questions).

Items come from the answer by ``items.split_items`` and images by ``image_answers`` (``--extract
parser``, the default, reproducible and judge-free) or from the judge (``--extract judge``).
An answer item matches a gold item when either normalised phrase contains the other as whole
words (so "a magnetic compass" matches "the magnetic compass they use"), or their content words
overlap with F1 >= 0.5 covering at least 60% of the gold's.
"""

from __future__ import annotations

import re

from builder.eval.items import split_items  # noqa: F401 - the EP parser, re-exported beside its metric
from builder.eval.text import content_words, normalise

# ---------------------------------------------------------------------------------------------
# information extraction
# ---------------------------------------------------------------------------------------------


def item_matches(item: str, gold: str) -> bool:
    """The answer's item names the gold item: it contains the whole gold phrase, or its content
    words cover at least 60% of the gold's (a fragment like "tree" or "they" does not)."""
    a, b = normalise(item), normalise(gold)
    wa, wb = content_words(item), content_words(gold)
    if not a or not b or not wa or not wb:
        return False
    if f" {b} " in f" {a} ":
        return True
    common = len(wa & wb)
    return common / len(wb) >= 0.6 and 2 * common / (len(wa) + len(wb)) >= 0.5


def extraction_precision(model_items: list[str], gold_items: list[str]) -> float | None:
    """EP for one answer; None when there are no gold items (not an extraction question).

    An answer that lists nothing scores 0: it extracted nothing that was asked for.
    """
    if not gold_items:
        return None
    if not model_items:
        return 0.0
    hits = sum(1 for item in model_items if any(item_matches(item, g) for g in gold_items))
    return hits / len(model_items)


# ---------------------------------------------------------------------------------------------
# image management
# ---------------------------------------------------------------------------------------------


def image_management_precision(identified: list[int], gold: list[int]) -> float | None:
    """The paper's IMP: |hit| / |hit ∪ miss| = |P ∩ G| / |G|; None without gold images."""
    gold_set = set(gold)
    if not gold_set:
        return None
    return len(set(identified) & gold_set) / len(gold_set)


def image_jaccard(identified: list[int], gold: list[int]) -> float | None:
    """The strict variant (not the paper's): |P ∩ G| / |P ∪ G|; None without gold images."""
    gold_set, pred_set = set(gold), set(identified)
    if not gold_set:
        return None
    return len(pred_set & gold_set) / len(pred_set | gold_set)


# ---------------------------------------------------------------------------------------------
# rule-scored formats and refusal
# ---------------------------------------------------------------------------------------------


def mcq_choice(answer: str | None, choices: list[str]) -> int | None:
    """The index of the option an answer picks, or None when it names none (or several)."""
    if not answer or not choices:
        return None
    letters = [chr(ord("A") + i) for i in range(len(choices))]
    text = answer.strip()
    patterns = (r"^\(?([A-Z])(?:[.):,]|\)|\s+-\s|$)",
                r"\b(?i:answer|option|choice)(?: (?i:is))?\s*[:\-]?\s*\(?([A-Z])\)?(?:[.,;)]|\s*$)",
                r"\(([A-Z])\)")
    for pattern in patterns:  # the letter itself is matched case-sensitively: "the answer is a kitchen" is no letter
        found = re.search(pattern, text)
        if found and found.group(1).upper() in letters:
            return letters.index(found.group(1).upper())
    named = [i for i, choice in enumerate(choices) if normalise(choice) and
             f" {normalise(choice)} " in f" {normalise(text)} "]
    return named[0] if len(named) == 1 else None


def tf_value(answer: str | None) -> bool | None:
    """True/False from an answer: the first of true/false/yes/no it says; None if neither."""
    if not answer:
        return None
    text = answer.casefold()
    found = re.search(r"(?:(\bnot|n't)\s+)?\b(true|false|correct|incorrect|right|wrong)\b", text) or \
        re.match(r"\W*()(yes|no)\b", text)
    if not found:
        return None
    value = found.group(2) in ("true", "yes", "correct", "right")
    return (not value) if found.group(1) else value


def gold_tf(answer: str) -> bool | None:
    return tf_value(answer)


def rule_correct(question: dict, answer: str | None) -> bool | None:
    """mcq/tf correctness (an unparseable answer is wrong); None for open questions."""
    if question["format"] == "mcq":
        choices = list(question.get("choices") or [])
        gold = next((i for i, c in enumerate(choices) if normalise(c) == normalise(question["answer"])), None)
        if gold is None:
            gold = mcq_choice(question["answer"], choices)
        return gold is not None and mcq_choice(answer, choices) == gold
    if question["format"] == "tf":
        gold = gold_tf(question["answer"])
        return gold is not None and tf_value(answer) == gold
    return None


def refusal_matches(refused: bool | None, should_refuse: bool | None) -> bool | None:
    if refused is None:
        return None
    return bool(refused) == bool(should_refuse)

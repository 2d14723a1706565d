"""The objective metrics of MMRC §4.1 as pure functions, and the parsers they rely on.

- EP (extraction precision) = |model items ∩ gold_items| / |model items| for one IE answer.
- IMP (image-management precision) = |hit| / |hit ∪ miss| for one IM answer, where hit are
  the gold images the answer names and miss are the gold images it leaves out *and* the
  images it names wrongly: IMP = |P ∩ G| / |P ∪ G| (a model that names every image does not
  get full marks).
- RP (refusal precision): share of questions whose refusal behaviour matches should_refuse.
- mcq / tf: scored by rule (a letter or the one choice named; true/false).

Items and image numbers come from the answer by the parsers below (``--extract parser``, the
default, reproducible and judge-free) or from the judge (``--extract judge``).

Normalisation (used to match items): NFKC, casefold, punctuation to spaces, leading
articles dropped, whitespace collapsed. An answer item matches a gold item when either
normalised phrase contains the other as whole words (so "a magnetic compass" matches
"the magnetic compass they use"), or their word sets overlap with F1 >= 0.6.
"""

from __future__ import annotations

import re
import unicodedata

ARTICLES = {"a", "an", "the"}
STOPWORDS = ARTICLES | {"and", "or", "of", "in", "on", "at", "to", "for", "with", "they", "it", "he", "she", "we",
                        "you", "i", "is", "are", "was", "were", "be", "that", "this", "these", "those", "their",
                        "his", "her", "its", "my", "your", "our", "use", "uses", "used", "some", "small", "big"}
ORDINALS = {"first": 1, "second": 2, "third": 3, "fourth": 4, "fifth": 5, "sixth": 6, "seventh": 7,
            "eighth": 8, "ninth": 9, "tenth": 10, "1st": 1, "2nd": 2, "3rd": 3, "4th": 4, "5th": 5,
            "6th": 6, "7th": 7, "8th": 8, "9th": 9, "10th": 10}
IMAGE_NOUN = r"\b(?:images?|photos?|photographs?|pictures?|pics?|imgs?|screenshots?)"
_LIST_MARK = re.compile(r"^\s*(?:[-*•·]|\d{1,2}[.)]|\(?[a-z][.)])\s+", re.IGNORECASE)
_IMAGE_NUMBERS = re.compile(IMAGE_NOUN + r"\s*(?:no\.?|number|#)?\s*(\d{1,3}(?:\s*(?:,|and|&|or|-|–|to)\s*#?\d{1,3})*)\b(?!\d)",
                            re.IGNORECASE)
_ORDINAL_IMAGE = re.compile(r"\b(" + "|".join(ORDINALS) + r"|last|final)\s+(?:\w+\s+)?(?:" + IMAGE_NOUN + r"|one)\b",
                            re.IGNORECASE)


def normalise(text: str) -> str:
    text = unicodedata.normalize("NFKC", text or "").casefold()
    text = "".join(" " if unicodedata.category(ch).startswith(("P", "S")) else ch for ch in text)
    words = text.split()
    while words and words[0] in ARTICLES:
        words = words[1:]
    return " ".join(words)


# ---------------------------------------------------------------------------------------------
# information extraction
# ---------------------------------------------------------------------------------------------


def split_items(answer: str | None) -> list[str]:
    """The items an answer lists: list lines when it has them, else pieces split at ; , "and" "&".

    Duplicates (after normalisation) count once; empty pieces are dropped.
    """
    if not answer or not answer.strip():
        return []
    lines = [line for line in answer.splitlines() if line.strip()]
    marked = [line for line in lines if _LIST_MARK.match(line)]
    if len(marked) >= 2:
        pieces = [_LIST_MARK.sub("", line) for line in marked]
    else:
        pieces = re.split(r"[;\n]|,|\band\b|&|\bas well as\b", answer, flags=re.IGNORECASE)
    items, seen = [], set()
    for piece in pieces:
        piece = piece.strip(" .:!?\t\"'")
        key = normalise(piece)
        if key and key not in seen:
            seen.add(key)
            items.append(piece)
    return items


def content_words(text: str) -> set[str]:
    return {w for w in normalise(text).split() if w not in STOPWORDS}


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


def image_refs(answer: str | None, n_images: int) -> list[int]:
    """0-based indices of the images an answer names: "Image 2", "photos 1 and 3", "the second
    picture", "the last image". Numbers out of range are kept (they are wrong answers)."""
    if not answer:
        return []
    found: set[int] = set()
    for match in _IMAGE_NUMBERS.finditer(answer):
        spec = match.group(1)
        for lo, hi in re.findall(r"(\d{1,3})\s*(?:-|–|to)\s*(\d{1,3})", spec):
            if int(lo) <= int(hi) <= int(lo) + 50:
                found.update(range(int(lo), int(hi) + 1))
        found.update(int(n) for n in re.findall(r"\d{1,3}", spec))
    for match in _ORDINAL_IMAGE.finditer(answer):
        word = match.group(1).casefold()
        if word in ("last", "final"):
            if n_images:
                found.add(n_images)
        else:
            found.add(ORDINALS[word])
    return sorted(n - 1 for n in found if n >= 1)


def image_management_precision(predicted: list[int], gold: list[int]) -> float | None:
    """|P ∩ G| / |P ∪ G|; None when the question has no gold images."""
    gold_set, pred_set = set(gold), set(predicted)
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

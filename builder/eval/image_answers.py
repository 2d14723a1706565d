"""Which of a dialogue's images an IM answer identifies (for IMP, MMRC §4.1), by rule.

Images are numbered in the prompt as ``[Image k]`` (k from 1), so an answer can name them:

- by number: "Image 2", "photos 1 and 3", "pictures 1-3", "image #2", "image two";
- by position: "the second photo", "the first and third images", "the first two pictures",
  "the last image", "the second one", "the second chart" (any picture-like noun: frame, chart,
  slide, screenshot, scan, ...);
- as a set: "both images" (when the dialogue has two), "all the images", "every photo";
- as none: an answer that starts with "neither", "none of" or "no image" names no image;
- through a multiple-choice option: the letter picks the option, the option's text is read;
- in a dialogue with one image only, an answer that is neither a refusal nor "none" can only
  be about that image ("A homemade pizza with a pale centre": image 1).

An answer that only describes one of several images names none by rule: `--extract judge`
asks the judge which images it identifies. Each reading says how it was made (``how``), and the
sample row keeps it, so a reader can see why an answer scored what it did.
"""

from __future__ import annotations

import re

ORDINALS = {"first": 1, "second": 2, "third": 3, "fourth": 4, "fifth": 5, "sixth": 6, "seventh": 7,
            "eighth": 8, "ninth": 9, "tenth": 10, "1st": 1, "2nd": 2, "3rd": 3, "4th": 4, "5th": 5,
            "6th": 6, "7th": 7, "8th": 8, "9th": 9, "10th": 10}
NUMBER_WORDS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
                "nine": 9, "ten": 10}
PICTURE_NOUNS = ("images?|photos?|photographs?|pictures?|pics?|imgs?|screenshots?|screen ?shots?|snapshots?|"
                 "shots?|frames?|charts?|graphs?|plots?|diagrams?|slides?|scans?|drawings?|sketch(?:es)?|"
                 "illustrations?|maps?|posters?|figures?|uploads?|attachments?")
_NOUN = rf"\b(?:{PICTURE_NOUNS})\b"
_ORD = "(?:" + "|".join(ORDINALS) + "|last|final)"
_NUM = r"(?:\d{1,3}|" + "|".join(NUMBER_WORDS) + ")"

_BY_NUMBER = re.compile(_NOUN + rf"\s*(?:no\.?|number|#)?\s*({_NUM}(?:\s*(?:,|and|&|or|-|–|to)\s*#?{_NUM})*)\b(?!\d)",
                        re.IGNORECASE)
_BY_POSITION = re.compile(rf"\b({_ORD}(?:\s*(?:,|and|&|or)\s*(?:the\s+)?{_ORD})*)\s+(?:[a-z-]+\s+)?(?:{_NOUN}|ones?\b)",
                          re.IGNORECASE)
_FIRST_N = re.compile(rf"\b(first|last)\s+({_NUM})\s+(?:[a-z-]+\s+)?{_NOUN}", re.IGNORECASE)
_BOTH = re.compile(rf"\bboth\b(?:\s+(?:of\s+)?(?:the\s+|these\s+|those\s+)?(?:[a-z-]+\s+)?(?:{_NOUN}|ones|of them))?|"
                   rf"^\W*both\W*$", re.IGNORECASE)
_ALL = re.compile(rf"\b(?:all|every|each)\s+(?:of\s+)?(?:the\s+)?(?:{_NUM}\s+)?(?:[a-z-]+\s+)?{_NOUN}", re.IGNORECASE)
_NONE = re.compile(rf"^\W*(?:(?:the\s+)?answer\s+is\s*:?\s*)?(?:neither|none\b|no\s+(?:[a-z-]+\s+)?{_NOUN})",
                   re.IGNORECASE)


def _number(token: str) -> int:
    token = token.casefold()
    return NUMBER_WORDS.get(token) or int(token)


def named_images(answer: str | None, n_images: int) -> tuple[list[int], str]:
    """(0-based indices the answer names, how). Numbers out of range are kept: they are wrong
    answers, not ignored. ``how``: named | all | both | none_named | explicit_none."""
    text = (answer or "").strip()
    if not text:
        return [], "none_named"
    if _NONE.search(text):
        return [], "explicit_none"
    found: set[int] = set()
    how = "named"
    for match in _BY_NUMBER.finditer(text):
        spec = match.group(1)
        for lo, hi in re.findall(rf"({_NUM})\s*(?:-|–|to)\s*({_NUM})", spec, flags=re.IGNORECASE):
            lo_n, hi_n = _number(lo), _number(hi)
            if lo_n <= hi_n <= lo_n + 50:
                found.update(range(lo_n, hi_n + 1))
        found.update(_number(n) for n in re.findall(_NUM, spec, flags=re.IGNORECASE))
    for match in _FIRST_N.finditer(text):
        count = _number(match.group(2))
        if match.group(1).casefold() == "first":
            found.update(range(1, count + 1))
        elif n_images:
            found.update(range(max(1, n_images - count + 1), n_images + 1))
    for match in _BY_POSITION.finditer(text):
        for word in re.findall(_ORD, match.group(1), flags=re.IGNORECASE):
            word = word.casefold()
            if word in ("last", "final"):
                if n_images:
                    found.add(n_images)
            else:
                found.add(ORDINALS[word])
    if not found and n_images and _ALL.search(text):
        found, how = set(range(1, n_images + 1)), "all"
    if not found and n_images == 2 and _BOTH.search(text):
        found, how = {1, 2}, "both"
    if not found:
        return [], "none_named"
    return sorted(n - 1 for n in found if n >= 1), how


def identified_images(answer: str | None, n_images: int, choices: list[str] | None = None,
                      refused: bool = False) -> tuple[list[int], str]:
    """(0-based images an IM answer identifies, how): a picked mcq option is read for its images;
    in a one-image dialogue an answer that is not a refusal and not "none" identifies image 1."""
    from builder.eval.metrics import mcq_choice

    if choices:
        picked = mcq_choice(answer, list(choices))
        if picked is not None:
            images, how = identified_images(choices[picked], n_images, None, False)
            return images, f"option {picked}: {how}"
    images, how = named_images(answer, n_images)
    if how == "none_named" and n_images == 1 and not refused and (answer or "").strip():
        return [0], "only_image"
    return images, how

"""The items an IE answer lists (for EP, MMRC §4.1), read the way the answer writes them.

An answer lists items in one of three ways, tried in this order:

1. **List lines**: two or more bulleted or numbered lines; each line is one item, whatever
   it holds ("- Smith, John", "1. salt and pepper").
2. **Semicolons**: a line with semicolons is split there only; each part is one item, commas
   and "and" inside it included ("test cameras, Face ID and charging; pay by a traceable method").
3. **Commas**: split at commas, and at "and" / "&" / "as well as" / "plus" where they join
   the last two items of the list ("roses, tulips and a lemon tree") or two short items with
   no comma ("roses and tulips").

Never split: inside brackets or quotes, between digits ("78,000"), at an "&" with no space
around it ("S&P 500", "AT&T"), or inside a gold item the answer writes whole (so "salt and
pepper" or "Smith, John" stays one item when the reference lists it as one; when the reference
lists "salt" and "pepper" apart, the answer's "salt and pepper" is two items). An intro line that
ends with a colon ("Here they are:") is no item. Items that say the same thing after
normalisation count once.
"""

from __future__ import annotations

import re

from builder.eval.text import normalise

_LIST_MARK = re.compile(r"^\s*(?:[-*•·▪◦‣–]|\d{1,2}[.)]|\(?[a-z][.)])\s+", re.IGNORECASE)
_CONJUNCTION = re.compile(r"\s+(?:and|&|as well as|plus)\s+", re.IGNORECASE)
_LEADING_CONJUNCTION = re.compile(r"^(?:and|&|as well as|plus|or)\s+", re.IGNORECASE)
_BRACKETED = re.compile(r"\([^()\n]*\)|\[[^\[\]\n]*\]|\{[^{}\n]*\}|\"[^\"\n]*\"|“[^”\n]*”|`[^`\n]*`")
_DIGIT_COMMA = re.compile(r"(?<=\d),(?=\d{3}\b)")
SHORT_ITEM_WORDS = 3  # "roses and tulips" is two items; "encourage women and older people to work" is one
_MASK = "\x00{}\x00"


def split_items(answer: str | None, gold_items: list[str] | tuple[str, ...] = ()) -> list[str]:
    """The distinct items ``answer`` lists, each as written (see the module docstring)."""
    if not answer or not answer.strip():
        return []
    answer = answer.replace("\x00", "")  # the mask's own mark (a NUL in a server's reply would loop _unmask)
    lines = [line.strip() for line in answer.splitlines() if line.strip()]
    marked = [line for line in lines if _LIST_MARK.match(line)]
    if len(marked) >= 2:
        pieces = [_LIST_MARK.sub("", line) for line in marked]
    else:
        pieces = [part for line in lines if not (len(lines) > 1 and line.endswith(":"))
                  for part in _split_line(line, gold_items)]
    items, seen = [], set()
    for piece in pieces:
        piece = _LEADING_CONJUNCTION.sub("", piece.strip(" .:!?\t\"'"))
        key = normalise(piece)
        if key and key not in seen:
            seen.add(key)
            items.append(piece)
    return items


def _split_line(line: str, gold_items) -> list[str]:
    masked, kept = _mask(line, gold_items)
    if ";" in masked:
        parts = masked.split(";")
    else:
        parts = masked.split(",")
        last = _CONJUNCTION.split(parts[-1])
        if len(parts) > 1 or all(len(p.split()) <= SHORT_ITEM_WORDS for p in last):
            parts = parts[:-1] + last
    return [_unmask(part, kept) for part in parts]


def _mask(text: str, gold_items) -> tuple[str, list[str]]:
    """``text`` with what must not be split replaced by placeholders, and the replaced texts."""
    kept: list[str] = []

    def hide(match: re.Match) -> str:
        kept.append(match.group(0))
        return _MASK.format(len(kept) - 1)

    for gold in sorted(gold_items, key=len, reverse=True):
        tokens = re.findall(r"\w+", gold)
        if len(tokens) > 1:  # the gold item as the answer writes it: same words, any punctuation but ; between
            pattern = r"(?<!\w)" + r"[^\w;\n\x00]*".join(re.escape(t) for t in tokens) + r"(?!\w)"
            text = re.sub(pattern, hide, text, flags=re.IGNORECASE)
    text = _BRACKETED.sub(hide, text)
    text = _DIGIT_COMMA.sub(hide, text)
    text = re.sub(r"(?<=\w)&(?=\w)", hide, text)
    return text, kept


def _unmask(text: str, kept: list[str]) -> str:
    while True:  # a kept text may hold an earlier mask
        done = re.sub(r"\x00(\d+)\x00", lambda m: kept[int(m.group(1))], text)
        if done == text:
            return text
        text = done

"""Big alternations Python's regex engine reads fast: the branches grouped under their first letter.

The engine tries every branch of an alternation at every position of a text, so 100 words cost
100 tries per character. Grouped under their first letter ("i(?:g|nsta(?:gram)?|gn)|s(?:nap...)"),
a position costs one try per group. Whether a match exists anywhere is unchanged: the same
branches are tried at the same positions. Which branch wins at a position may change, so only
a gate that asks "is there one" (``search(...) is not None``) uses it.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

QUANTIFIERS = ("?", "*", "+", "{")


def _structure(pattern: str) -> Iterator[tuple[int, str, int]]:
    """``(index, character, depth)`` of each character of ``pattern`` outside escapes and character
    classes; ``depth``: the groups open around it (a group's parentheses count as outside it)."""
    depth, i, in_class = 0, 0, False
    while i < len(pattern):
        c = pattern[i]
        if c == "\\":
            i += 2
            continue
        if in_class:
            in_class = c != "]"
        elif c == "[":
            in_class = True
            if pattern[i + 1:i + 2] == "]" or pattern[i + 1:i + 3] == "^]":  # "[]...]" holds a "]"
                i += 2 if pattern[i + 1] == "]" else 3
                continue
        else:
            depth -= c == ")"
            yield i, c, depth
            depth += c == "("
        i += 1


def _closing(pattern: str) -> int:
    """The index of the ``)`` closing the group that opens ``pattern``."""
    end = next((i for i, c, depth in _structure(pattern) if c == ")" and depth == 0), None)
    if end is None:
        raise ValueError(f"unbalanced group in {pattern!r}")
    return end


def _top_level(pattern: str) -> list[str]:
    """``pattern`` split at its top-level ``|``."""
    cuts = [i for i, c, depth in _structure(pattern) if c == "|" and depth == 0]
    return [pattern[start + 1:end] for start, end in zip([-1, *cuts], [*cuts, len(pattern)])]


def branches(pattern: str) -> list[str]:
    """The branches of ``pattern``'s top-level alternation, a leading non-capturing group spread
    over what follows it: ``(?:gate|door)\\s+code`` is ``gate\\s+code`` and ``door\\s+code``.
    A capturing group would be copied with its number: such a pattern is refused."""
    if re.compile(pattern).groups:
        raise ValueError(f"a gate holds no capturing group: {pattern[:80]!r}")
    out = []
    for branch in _top_level(pattern):
        if branch.startswith("(?:"):
            end = _closing(branch)
            tail = branch[end + 1:]
            if not tail.startswith(QUANTIFIERS):
                out += branches("|".join(inner + tail for inner in _top_level(branch[3:end])))
                continue
        out.append(branch)
    return out


def by_first_letter(pattern: str) -> str:
    """``pattern`` with its branches grouped under their first letter (exactly that character:
    under IGNORECASE a letter and its capital are grouped apart, and each matches what it did);
    the branches that start at a word boundary (``\\b``) are grouped alike behind one."""
    groups: dict[str, list[str]] = {}
    at_boundary, rest = [], []
    for branch in branches(pattern):
        if branch.startswith("\\b") and branch[2:3] not in QUANTIFIERS:
            at_boundary.append(branch[2:])
        elif branch[:1].isalpha() and not branch[1:2].startswith(QUANTIFIERS):
            groups.setdefault(branch[0], []).append(branch[1:])
        else:
            rest.append(branch)
    grouped = [first + (tails[0] if len(tails) == 1 else f"(?:{'|'.join(tails)})") for first, tails in groups.items()]
    if at_boundary:
        grouped.append(f"\\b(?:{by_first_letter('|'.join(at_boundary))})")
    return "|".join(grouped + rest)


GATES: list[tuple[str, int, re.Pattern]] = []  # every gate built below: (source, flags, compiled), for the exactness test


def gate(source: str, flags: int = 0) -> re.Pattern:
    """``source`` compiled with its branches grouped under their first letter, for ``search(...) is
    None`` tests only (tests/clean/test_clean_alternation.py checks each against its source)."""
    compiled = re.compile(by_first_letter(source), flags)
    GATES.append((source, flags, compiled))
    return compiled


NAMED_GROUP = re.compile(r"\(\?P<\w+>")


def gate_of(pattern: re.Pattern) -> re.Pattern:
    """A gate for ``pattern``: the same pattern, its named groups not capturing, its branches grouped.
    It finds a match exactly where ``pattern`` does (which one may differ), at a fraction of the cost."""
    return gate(NAMED_GROUP.sub("(?:", pattern.pattern), pattern.flags)


class Gated:
    """A pattern whose ``finditer`` first asks its gate (gate_of) whether it matches at all: most turns
    hold none of an identity document's, a birth date's or a greeting's cue words, and the gate reads
    a turn in a fraction of the time."""

    def __init__(self, pattern: re.Pattern):
        self.pattern, self.any = pattern, gate_of(pattern)

    def finditer(self, text: str) -> Iterator[re.Match]:
        return self.pattern.finditer(text) if self.any.search(text) else iter(())

    def search(self, text: str) -> re.Match | None:
        return self.pattern.search(text) if self.any.search(text) else None

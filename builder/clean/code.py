"""Where a chat turn holds code or tabular data: names are not looked for there.

Programming questions fill chat logs with identifiers that English NER takes for names
(``Roster``, ``Material currentMaterial``, a ``Female`` cell of a pasted table). Fenced
blocks, lines that look like code and tab-separated rows are skipped by the name finders;
structured values (e-mails, keys, IPs) are still found there.
"""

from __future__ import annotations

import re

FENCED = re.compile(r"```.*?(?:```|\Z)|~~~.*?(?:~~~|\Z)", re.S)
INLINE = re.compile(r"`[^`\n]{1,200}`")
CODE_LINE = re.compile(
    r"^\s*(?:def |class |import |from \S+ import|#include|#pragma|return\b|var |let |const |function\b|public |private "
    r"|protected |static |void |int |if\s*\(|for\s*\(|while\s*\(|elif |else\s*[:{]|try\s*[:{]|except\b|catch\s*\("
    r"|print\(|console\.|std::|\$ |>>> |<\/?[a-zA-Z][\w-]*[\s>]|[}{\])]+;?\s*$|//|/\*)"
    r"|^\s{2,}\S.*[,(\[{]\s*$|^\s*[\w.]+\s*:\s*['\"\[{(]"
    r"|[;{]\s*$|^\s*[\w.\[\]]+\s*[+\-*/]?=\s*\S|\w\(.*\)\s*[;:{]?\s*$|\t.*\t|->|=>|::")


def code_ranges(text: str) -> list[tuple[int, int]]:
    """Character ranges of fenced/inline code, code-like lines and tab-separated rows."""
    if not any(ch in text for ch in "`;{}()=\t<>:"):
        return []
    ranges = [(m.start(), m.end()) for m in FENCED.finditer(text)]
    ranges += [(m.start(), m.end()) for m in INLINE.finditer(text)]
    pos = 0
    for line in text.split("\n"):
        if CODE_LINE.search(line):
            ranges.append((pos, pos + len(line)))
        pos += len(line) + 1
    return sorted(ranges)


def in_ranges(start: int, end: int, ranges: list[tuple[int, int]]) -> bool:
    return any(s < end and start < e for s, e in ranges)

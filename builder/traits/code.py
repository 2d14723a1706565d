"""Trait ``code``: where a chat turn holds code or tabular data.

Programming questions fill chat logs with identifiers that English NER takes for names
(``Roster``, ``Material currentMaterial``, a ``Female`` cell of a pasted table), and words a
toxicity list knows (``kill -9``). ``code_ranges`` gives the character ranges of fenced and
inline code, lines that read as code and tab-separated rows: clean looks for no names there,
the toxicity lexicon reads no words there, swap swaps nothing there. ``has_code`` is the turn's
trait: it holds a fence, or code lines make up a good part of it (two or more and 30% of its
lines), or it names a source file (``README.md``, ``main.py``). A script's speaker line
(``Velma: "Technically speaking ..."``) or a labelled quote that goes on (``Reviews: "Great!" -
Marcus Delacroix``) is somebody's words, not a key and its value (``code_line``).
"""

from __future__ import annotations

import re

FENCED = re.compile(r"```.*?(?:```|\Z)|~~~.*?(?:~~~|\Z)", re.S)
INLINE = re.compile(r"`[^`\n]{1,200}`")
CODE_LINE = re.compile(
    r"^\s*(?:def |class |import |from \S+ import|#include|#pragma|return\b|var |let |const |function\b|public |private "
    r"|protected |static |void |int |if\s*\(|for\s*\(|while\s*\(|elif |else\s*[:{]|try\s*[:{]|except\b|catch\s*\("
    r"|print\(|console\.|std::|\$ |>>> |SELECT |INSERT |<\/?[a-zA-Z][\w-]*[\s>]|[}{\])]+;?\s*$|//|/\*)"
    r"|^\s{2,}\S.*[,(\[{]\s*$|^\s*[\w.]+\s*:\s*(?:[\[{]|\((?![+\d]))|^\s*(?:for|while|if|elif|with)\s+\w[^\n]*:\s*$"
    r"|[;{]\s*$|^\s*[\w.\[\]]+\s*[+\-*/]?=\s*\S|\w\(.*\)\s*[;:{]?\s*$|\t.*\t|->|=>|::")
# A key and a quoted value ("content: '';", "labelText: 'email',") is a line of code or config,
# unless it is somebody's words: a capitalised label (a speaker, a heading) before a quote that
# holds three words or more, or is followed by more words ("Healer: "It's not uncommon ..."",
# "Reviews: "Great product!" - Marcus Delacroix, 5 stars").
KEY_QUOTE = re.compile(r"""^\s*[\w.]+\s*:\s*['"]""")
SPOKEN = re.compile(r"""^\s*[A-Z][\w.]*\s*:\s*["“'](?P<said>[^"”'\n]*)["”']?(?P<rest>.*)$""")
FILE_NAME = re.compile(r"\b[\w-]+\.(?:md|py|txt|js|ts|json|ya?ml|csv|html|css|sh|cpp|java|rs|go)\b", re.I)

WHY = "identifiers and pasted data are no names, no insults and no scene of the user's"
EXAMPLES = (("```python\nprint(name)\n```", True), ("def main():\n    return roster\n", True),
            ("see README.md for the steps", True), ("I went to the store (the big one).", False),
            ('title: "Home",\n    content: "";\n', True),
            ('Velma: "Technically speaking, that is Scooby-Doo logic!"\nFred: "Looks like we took a wrong turn."', False))


def code_line(line: str) -> bool:
    if CODE_LINE.search(line):
        return True
    if not KEY_QUOTE.search(line):
        return False
    spoken = SPOKEN.match(line)
    return not (spoken and (len(spoken["said"].split()) >= 3
                            or (re.search(r"[^\W\d_]{2}", spoken["rest"]) and not re.search(r"[+=(){}]", spoken["rest"]))))


def code_ranges(text: str) -> list[tuple[int, int]]:
    """Character ranges of fenced/inline code, code-like lines and tab-separated rows."""
    if not any(ch in text for ch in "`;{}()=\t<>:"):
        return []
    ranges = [(m.start(), m.end()) for m in FENCED.finditer(text)]
    ranges += [(m.start(), m.end()) for m in INLINE.finditer(text)]
    pos = 0
    for line in text.split("\n"):
        if code_line(line):
            ranges.append((pos, pos + len(line)))
        pos += len(line) + 1
    return sorted(ranges)


# A line of a form or a message that holds contact data ("Customer: Ana Ruiz; tel. 555 0187 9921;",
# "Ana Ruiz -> ana.ruiz@mail.com"): in a turn that is no program, such a line is a record, not code.
CONTACT = re.compile(r"[\w.+-]+@[\w-]+\.[\w.]+|(?<![\w.])\+?\(?\d{2,4}\)?[ .-]?\d{3,4}[ .-]?\d{3,4}(?![\w.])")


def record_lines_out(text: str, ranges: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """``ranges`` without the code-like lines that hold contact data, unless the turn is code."""
    if not ranges or has_code(text):
        return ranges
    return [(s, e) for s, e in ranges if not CONTACT.search(text, s, e)]


def in_ranges(start: int, end: int, ranges: list[tuple[int, int]]) -> bool:
    return any(s < end and start < e for s, e in ranges)


def has_code(text: str) -> bool:
    if "```" in text or "~~~" in text or FILE_NAME.search(text):
        return True
    lines = [line for line in text.splitlines() if line.strip()]
    code = sum(1 for line in lines if code_line(line))
    return bool(lines) and code >= 2 and code / len(lines) >= 0.3


def detect(turn: dict) -> bool:
    return has_code(turn["text"] or "")

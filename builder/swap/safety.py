"""When a rewrite must be refused: spans in figures of speech, quotes, code or exercises, and
rewrites whose grammar would break. Each check names a reason (counted in the ledger detail of
``no_safe_rewrite``): a variant that reads wrongly or changes what is asked is worse than none.

* ``long_paste``: the user turn is longer than 1,200 characters (a pasted article, story or
  brief: what it names is not the user's own scene, and real logs show such swaps read wrongly);
* ``simile``: the span follows "like"/"as" used as a preposition ("fly like an eagle": the
  user does not mean a pictured eagle), or sits inside "as ... as";
* ``quoted``: the span is inside quotation marks (a title, a citation, someone's words);
* ``code``: the turn holds code (a fence, inline code around the span, lines that read as code,
  or a file name such as ``README.md``);
* ``exercise``: the turn is a fill-in-the-blank, a multiple-choice item (options on lines or
  inline: "a 87% b 89% c 64%"), a numbered list of three or more items or a sentence to complete or correct ("___", "fill in the blank");
* ``creation_request``: the span is what the user asks to be drawn, written or generated ("give me
  a painting of …", "draw a cat"): a photo of one would change the request;
* ``agreement`` (checked on the rewritten turn): "is these", "are this", "a this", "these X is".
"""

from __future__ import annotations

import re

QUOTES = {'"': '"', "“": "”", "«": "»", "„": "“", "「": "」"}
CODE_LINE = re.compile(r"^\s*(def |class |import |from \S+ import|#include|public |private |function |var |let |const |"
                       r"for \(|while \(|if \(|return\b|SELECT |INSERT |print\(|console\.|[{}]\s*$|.*;\s*$|"
                       r"\S+\s*=\s*\S+\(|<\w+[^>]*>|(for|while|if|elif|else|try|except|with)\b[^\n]*:\s*$|"
                       r"(    |\t)\S)")
EXERCISE = re.compile(r"_{3,}|\.\.\.\s*\(|\(\s*\)|\bfill in the blanks?\b|\bcomplete the (sentence|text|following)\b|"
                      r"\bchoose the (correct|right|best)\b|\bcorrect the (sentence|mistakes?|errors?)\b|"
                      r"^\s*\(?[a-dA-D][).]\s+\S+.*\n\s*\(?[a-dA-D][).]\s+|"
                      r"(^|\s)\(?a[).:\t]\s*\S.{0,60}?\s\(?b[).:\t]\s*\S.{0,60}?\s\(?c[).:\t]",
                      re.IGNORECASE | re.MULTILINE)
CREATE = {"draw", "paint", "write", "generate", "create", "design", "compose", "sketch", "render", "illustrate",
          "imagine", "invent"}
BAD_AGREEMENT = re.compile(
    r"\b(is|was|has|does|isn't|wasn't|doesn't)\s+these\b|\b(are|were|have|do|aren't|weren't|don't)\s+this\b|"
    r"\b(a|an|the)\s+(this|these)\b|\bthese\s+(\w+\s+){0,2}?\w+\s+(is|was|has|does)\b|"
    r"\bthis\s+(\w+\s+){0,2}?\w+\s+(are|were)\b", re.IGNORECASE)


MAX_TURN_CHARS = 1200  # longer user turns are pasted articles, stories, briefs: not the user's own scene
NUMBERED = re.compile(r"^\s*\d{1,2}[.)]\s", re.MULTILINE)
FILE_NAME = re.compile(r"\b[\w-]+\.(md|py|txt|js|ts|json|ya?ml|csv|html|css|sh|cpp|java|rs|go)\b", re.IGNORECASE)


def context_refusal(doc, chunk_start: int, start: int, end: int) -> str | None:
    """Why the span ``start:end`` (characters; token ``chunk_start`` begins it) in ``doc`` must
    not be swapped, or None."""
    text = doc.text
    if len(text) > MAX_TURN_CHARS:
        return "long_paste"
    if _in_code(text, start, end) or FILE_NAME.search(text):
        return "code"
    if len(NUMBERED.findall(text)) >= 3:
        return "exercise"  # a numbered list of items to answer or fill in
    if _in_code(text, start, end):
        return "code"
    if EXERCISE.search(text):
        return "exercise"
    if _quoted(text, start, end):
        return "quoted"
    if _simile(doc, chunk_start):
        return "simile"
    if _to_be_made(doc, chunk_start):
        return "creation_request"
    return None


def _to_be_made(doc, chunk_start: int) -> bool:
    """"Draw me a cat", "give me a painting of …": the user asks for the thing to be made; a photo of
    one would change the request."""
    chunk = next((c for c in doc.noun_chunks if c.start == chunk_start), None)
    if chunk is None:
        return False
    head = chunk.root.head
    if chunk.root.dep_ not in ("dobj", "obj", "dative", "attr") or head.pos_ != "VERB":
        return False
    if head.lemma_.lower() in CREATE:
        return True
    return head.lemma_.lower() in ("give", "make", "show") and any(
        c.dep_ in ("dative", "iobj") and c.lower_ in ("me", "us") for c in head.children)


def grammar_refusal(rewritten: str) -> str | None:
    return "agreement" if BAD_AGREEMENT.search(rewritten) else None


def _in_code(text: str, start: int, end: int) -> bool:
    if "```" in text or "~~~" in text:
        return True
    line_start = text.rfind("\n", 0, start) + 1
    line_end = text.find("\n", end)
    line = text[line_start:line_end if line_end != -1 else len(text)]
    if line[:start - line_start].count("`") % 2 == 1:
        return True
    lines = [ln for ln in text.splitlines() if ln.strip()]
    code = sum(1 for ln in lines if CODE_LINE.match(ln))
    return bool(lines) and (code >= 2 and code / len(lines) >= 0.3 or bool(CODE_LINE.match(line)))


def _quoted(text: str, start: int, end: int) -> bool:
    before = text[:start]
    para = before[before.rfind("\n\n") + 2:] if "\n\n" in before else before
    for open_q, close_q in QUOTES.items():
        if open_q == close_q:
            if para.count(open_q) % 2 == 1:
                return True
        elif para.count(open_q) > para.count(close_q):
            return True
    # 'single quotes' around the span (not apostrophes: a quote mark right before the span)
    return bool(re.search(r"(^|[\s(])'$", before)) and "'" in text[end:end + 2]


def _simile(doc, chunk_start: int) -> bool:
    prev = [t for t in doc[max(chunk_start - 3, 0):chunk_start]]
    if not prev:
        return False
    last = prev[-1]
    if last.lower_ == "like" and last.pos_ in ("ADP", "SCONJ", "INTJ"):
        return True
    if last.lower_ in ("as", "than") and last.pos_ in ("ADP", "SCONJ"):
        # "as big as a house", "bigger than a car", "as if", "such as" is a list of examples (allowed)
        return not (len(prev) >= 2 and prev[-2].lower_ == "such")
    return False

"""Numbers no finder found, judged by the number-context model.

The number finders (numbers.py) want evidence they can name: a cue word before the value ("zip",
"card no."), a state before a ZIP, a Luhn digit with an issuer's prefix. People give their numbers
without it ("they told me my case is 88-20431", "rg 32.447.891-X", "my claim ref is
2025-HC-118204": no finder takes these), and every new wording would need a new rule. So every run of digit tokens
(classifiers/number_context/features.candidates) that no finder took, in the turns a person typed
(the user's, and the second side's in a person-to-person chat: a model's numbers are examples)
outside code, long pastes and lists of numbers, is judged by the number-context model from its shape and the words
around it; one it reads as someone's personal number becomes a span of that kind (ZIP_CODE,
CREDIT_CARD, ID_NUMBER or PHONE_NUMBER) with basis ``number_context`` and ``number_context`` (its
probability). The policy treats it like any found value. ``clean --no-number-context`` turns it off.
Its spans stand on the model's own threshold: ``--pii-threshold`` does not apply to them. A turn's
first ``MAX_CANDIDATES`` candidates are judged (a table of numbers is no one's contact).
"""

from __future__ import annotations

import re

ENTITY = {"ZIP": "ZIP_CODE", "CARD": "CREDIT_CARD", "ID": "ID_NUMBER", "PHONE": "PHONE_NUMBER"}
# Three numbers or more in a row, split by commas, semicolons, slashes, "and" or "or", are a list
# ("card bins 411111, 522964, 623456789012, 434910", "rooms 101, 102 and 103"): data someone works
# with, not the number they give as theirs, so none of them is judged.
LIST_GAP = re.compile(r"\s*(?:[,;/&]|\band\b|\bor\b)\s*(?:(?:and|or)\s+)?", re.I)
LIST_LENGTH = 3


def in_lists(text: str, found: list[tuple[int, int]]) -> set[int]:
    """The indices of the candidates that stand in a list of ``LIST_LENGTH`` or more (see LIST_GAP)."""
    out: set[int] = set()
    run = [0] if found else []
    for k in range(1, len(found) + 1):
        if k < len(found) and LIST_GAP.fullmatch(text[found[k - 1][1]:found[k][0]]):
            run.append(k)
            continue
        if len(run) >= LIST_LENGTH:
            out.update(run)
        run = [k]
    return out


def add_unfound_numbers(turns: list[dict], texts: list[str], scans: list, traits, entities,
                        max_chars: int = 4000) -> list:
    """The scans with a span added for each number the number-context model reads as personal."""
    from builder.clean.context_names import typed_chat_turn, with_spans
    from builder.clean.numbers import amount
    from builder.clean.pii import plain
    from builder.traits.code import code_ranges, in_ranges
    from classifiers.number_context.features import MAX_CANDIDATES, candidates
    from classifiers.number_context.model import load

    model = None
    out = []
    for i, (turn, text, scan) in enumerate(zip(turns, texts, scans)):
        if not typed_chat_turn(turn, text, i, traits, max_chars):
            out.append(scan)
            continue
        text = plain(text)  # what the finders read: one character for one, offsets unchanged
        found = candidates(text)[:MAX_CANDIDATES]
        if not found:
            out.append(scan)
            continue
        # a value found, or kept by a span rule; not a name a rule refused ("84102 tmrw" is no name, and says
        # nothing of the number in it)
        taken = [(s["start"], s["end"]) for s in (*scan.spans, *(s for s in scan.suppressed if s["entity"] != "PERSON"))]
        listed = in_lists(text, found)
        code = None
        added: list[dict] = []
        for k, (start, end) in enumerate(found):
            if k in listed or any(a < end and start < b for a, b in taken):
                continue
            code = code_ranges(text) if code is None else code
            if in_ranges(start, end, code):
                continue
            model = load() if model is None else model
            p, kind = model.judge(text, start, end)
            if kind == "ZIP" and amount(text, end):
                continue  # "my salary is 85000 a year", "40000 career points": no postcode is counted
            if p >= model.threshold and ENTITY[kind] in entities:
                added.append({"start": start, "end": end, "entity": ENTITY[kind], "score": round(p, 3),
                              "basis": "number_context", "number_context": round(p, 3)})
        out.append(with_spans(scan, added))
    return out

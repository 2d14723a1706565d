"""Values nobody owns: a course's sample records, and data a model made up.

* **Sample records in coursework.** A programming assignment hands students a table of made-up
  records ("A2,Suzan,Erickson,suzan@...,19,...") and asks them to add a row of their own. In a
  dialogue that is coursework (a student id, "assignment", "homework"...), the values that occur
  only inside the rows of a record table (three or more lines of the same shape: comma or tab
  separated fields, or repeated ``Label: value`` pairs) are the course's. A row that also holds
  a value the user wrote outside the table (their own name in a "Name:" header) is the
  student's own record: everything in it stays redacted.
* **Values only a model turn holds.** A chat model cannot know the user's server address or a
  stranger's e-mail; an IP, e-mail, phone, card or id number that appears in an assistant turn
  but in no user turn is an example it invented ("scp ... root@34.67.89.123") or public
  knowledge. A value the user gave stays redacted wherever the model repeats it, in any format
  ("0612345678" and "06 12 34 56 78" share their digits).
"""

from __future__ import annotations

import re
from dataclasses import replace

from builder.clean.entities import ENTITIES, MODEL_MADE

LABEL = re.compile(r"(?:^|\s)([A-Z][\w ]{0,20}?)\s*:\s*\S")
MIN_ROWS = 3


def _shape(line: str) -> tuple | None:
    """What makes a line a table row: four or more tab or comma separated fields, or three or
    more ``Label: value`` pairs (keyed by the first label). Loose on purpose: a row cut short
    ("...Email: x@y.z" at the end of a pasted output) still belongs to its table."""
    stripped = line.strip().strip('",;{}')
    labels = [m.group(1).strip().lower() for m in LABEL.finditer(stripped)]
    if len(labels) >= 3:
        return ("labels", labels[0])
    for sep in ("\t", ","):
        if stripped.count(sep) >= 3:
            return (sep,)
    return None


def record_rows(text: str) -> list[tuple[int, int]]:
    """Character ranges of the lines that belong to a table: at least ``MIN_ROWS`` lines of the
    same shape in the text."""
    lines, pos = [], 0
    for line in text.split("\n"):
        lines.append((pos, pos + len(line), _shape(line)))
        pos += len(line) + 1
    counts: dict[tuple, int] = {}
    for _, _, shape in lines:
        if shape:
            counts[shape] = counts.get(shape, 0) + 1
    return [(s, e) for s, e, shape in lines if shape and counts[shape] >= MIN_ROWS]


def _inside(start: int, rows: list[tuple[int, int]]) -> tuple[int, int] | None:
    return next(((s, e) for s, e in rows if s <= start < e), None)


def _words(value: str) -> list[str]:
    return [w for w in re.split(r"[^\w@.+-]+", value) if len(w) >= 3]


def sample_values(turns: list[dict], texts: list[str], scans) -> set[str]:
    """The found values of a coursework dialogue (the trait: builder/traits/exercise.py) that only
    its sample records hold."""
    rows = [record_rows(t) for t in texts]
    if not any(rows):
        return set()
    outside = "\n".join(_blank(text, r) for turn, text, r in zip(turns, texts, rows)
                        if turn["role"] == "user")  # what the user wrote outside every table
    found = [text[s["start"]:s["end"]] for text, scan in zip(texts, scans) for s in scan.spans]
    own_rows = {(ti, row) for ti, (text, r) in enumerate(zip(texts, rows)) for row in r
                if any(re.search(rf"(?<!\w){re.escape(w)}(?!\w)", outside) for w in _words(text[row[0]:row[1]])
                       if any(w in value for value in found))}  # a name or an e-mail, not "SECURITY"
    inside, elsewhere = set(), set()
    for ti, (turn, text, scan, r) in enumerate(zip(turns, texts, scans, rows)):
        for span in scan.spans:
            value = text[span["start"]:span["end"]]
            row = _inside(span["start"], r)
            if row and (ti, row) not in own_rows:
                inside.add(value)
            elif turn["role"] == "user":  # a model that talks about a record does not make it the user's
                elsewhere.add(value)
    return {v for v in inside - elsewhere if not any(w in outside for w in _words(v))}


def _blank(text: str, rows: list[tuple[int, int]]) -> str:
    """``text`` with its table rows blanked out (offsets kept)."""
    parts, pos = [], 0
    for start, end in rows:
        parts += [text[pos:start], " " * (end - start)]
        pos = end
    return "".join(parts) + text[pos:]


def drop_values(texts: list[str], scans, values: set[str]):
    if not values:
        return scans
    return [replace(scan, spans=[s for s in scan.spans if text[s["start"]:s["end"]] not in values])
            for text, scan in zip(texts, scans)]




def _key(entity: str, value: str) -> str:
    """How a value is looked for in the user's (lower-cased) text: e-mails and IPs as written,
    numbers by their letters and digits ("06 12 34 56 78" -> "0612345678")."""
    return (value if ENTITIES[entity].match_as_written else re.sub(r"\W", "", value)).lower()


def _user_text(turns: list[dict], texts: list[str]) -> tuple[str, str]:
    """What the user turns hold, lower-cased: as written, and by letters and digits only (see _key)."""
    flat = "\n".join(text for turn, text in zip(turns, texts) if turn["role"] == "user").lower()
    return flat, re.sub(r"\W", "", flat)


def user_sourced_values(turns: list[dict], texts: list[str], scans):
    """Drop the structured values of model turns that no user turn holds (see the module doc)."""
    flat, compact = _user_text(turns, texts)

    def given(text: str, span: dict) -> bool:
        key = _key(span["entity"], text[span["start"]:span["end"]])
        return span["entity"] not in MODEL_MADE or key in (flat if ENTITIES[span["entity"]].match_as_written
                                                            else compact)

    return keep_in_model_turns(turns, texts, scans, given)


def echoes_user_record(turns: list[dict], texts: list[str], scans) -> set[int]:
    """The model turns that repeat a structured value a user turn holds (an id number, a phone):
    the model is working on the user's own record (translating or filling it in), so the people
    its fields list are the user's too, though the user wrote them in another script."""
    flat = _user_text(turns, texts)[1]
    return {i for i, (turn, text, scan) in enumerate(zip(turns, texts, scans)) if turn["role"] != "user"
            and any(s["entity"] in MODEL_MADE and not ENTITIES[s["entity"]].match_as_written
                    and len(key := _key(s["entity"], text[s["start"]:s["end"]])) >= 6 and key in flat for s in scan.spans)}


def keep_in_model_turns(turns: list[dict], texts: list[str], scans, keep):
    """The scans with the spans of model turns filtered by ``keep(text, span)``; user turns as they are."""
    return [scan if turn["role"] == "user" else replace(scan, spans=[s for s in scan.spans if keep(text, s)])
            for turn, text, scan in zip(turns, texts, scans)]

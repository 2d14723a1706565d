"""PII in the fields around the text: ``source_id``, ``model`` and unresolved image URLs.

These are free text from the logs ("anna.berg@mail.com-chat-3", a URL with a user name and a
signed query string). Each value is scanned with the language-independent finders (email, phone,
card, IBAN, IP, SSN, ... — no NER: an id is not a sentence) and every finding is replaced the way
the turn text is (``--pii-action``). A URL first loses what no dataset needs and what often
holds secrets: its user:password part, query string and fragment. Every change is one ledger
detail entry ``{"field", "entities"}``; the value itself is never written there.
"""

from __future__ import annotations

import re
from urllib.parse import urlsplit, urlunsplit

from builder.clean.pii import resolve_overlaps
from builder.clean.surrogates import Redactor, apply_spans

SEPARATORS = re.compile(r"[-_/|:=+#,;]")

FIELDS = ("source_id", "model")


def trim_url(url: str) -> tuple[str, list[str]]:
    """``url`` without userinfo, query and fragment, and what was removed."""
    try:
        parts = urlsplit(url)
    except ValueError:
        return "", ["unparseable"]
    removed = []
    netloc = parts.netloc
    if "@" in netloc:
        netloc, removed = netloc.rsplit("@", 1)[1], ["userinfo"]
    if parts.query:
        removed.append("query")
    if parts.fragment:
        removed.append("fragment")
    return urlunsplit((parts.scheme, netloc, parts.path, "", "")), removed


def _targets(row: dict) -> list[tuple[str, tuple]]:
    """(field name, where) for every metadata value of ``row`` that is a non-empty string."""
    out: list[tuple[str, tuple]] = [(name, (name,)) for name in FIELDS if isinstance(row.get(name), str) and row[name]]
    for t, turn in enumerate(row.get("turns") or []):
        for i, ref in enumerate(turn.get("images") or []):
            if isinstance(ref.get("url"), str) and ref["url"]:
                out.append(("image_url", ("turns", t, "images", i, "url")))
    return out


def _get(row: dict, where: tuple):
    value = row
    for key in where:
        value = value[key]
    return value


def _set(row: dict, where: tuple, value) -> None:
    target = row
    for key in where[:-1]:
        target = target[key]
    target[where[-1]] = value


def scrub(rows: list[dict], detector, config) -> list[list[dict]]:
    """Clean the metadata of ``rows`` in place (one batched scan); per row, the changes made."""
    todo, texts = [], []
    changes: list[list[dict]] = [[] for _ in rows]
    for r, row in enumerate(rows):
        for field, where in _targets(row):
            value = _get(row, where)
            if field == "image_url":
                value, removed = trim_url(value)
                if removed:
                    _set(row, where, value or None)
                    changes[r].append({"field": field, "removed": removed})
                if not value:
                    continue
            todo.append((r, field, where))
            texts.append(value)
    if detector is None or not texts:
        return changes
    # Ids glue words with - _ / : a second reading with those as spaces (same offsets) lets the
    # finders see "anna@mail.com" in "anna@mail.com-chat-3"; language-independent finders only.
    spaced = [SEPARATORS.sub(" ", text) for text in texts]
    scans = detector.scan(texts + spaced, [False] * (2 * len(texts)))
    for k, ((r, field, where), text) in enumerate(zip(todo, texts)):
        found = [s for s in scans[k].spans + scans[k + len(texts)].spans
                 if not (field == "image_url" and s["entity"] == "URL")]  # the value is a URL by design
        if not found:
            continue
        spans = resolve_overlaps(found)
        cleaned, spans = apply_spans(text, spans, Redactor(config, rows[r]["dialogue_id"]))
        _set(rows[r], where, cleaned)
        changes[r].append({"field": field, "entities": sorted({s["entity"] for s in spans})})
    return changes

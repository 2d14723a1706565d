"""What a quarantine row may show of a record: its first characters, with every user-id value
withheld, whether the record parsed or not (a line that fails to parse is only text, and a user id
in it must not reach the quarantine file in clear)."""

from __future__ import annotations

import json
import re

EXCERPT = 300
WITHHELD = '"<user id withheld>"'
# fields that hold a user's identity in the supported formats: never written un-hashed
USER_ID_KEYS = ("user_id", "user", "hashed_ip", "userId", "user_name", "username", "author", "email")
# a user-id key as JSON ("user_id": ), a Python repr ('user_id': ) or key=value writes it, any case
_NAMES = "|".join(sorted(USER_ID_KEYS, key=len, reverse=True))
_KEY = re.compile(rf"""(?P<q>["']?)(?<![\w-])(?:{_NAMES})(?P=q)\s*[:=]\s*""", re.IGNORECASE)
_BARE = re.compile(r"[^,}\]\s]*")


def safe_text(text: str) -> str:
    """``text`` with lone surrogates replaced: writable as UTF-8 anywhere."""
    return text.encode("utf-16", "surrogatepass").decode("utf-16", "replace")


def of_text(text: str, limit: int = EXCERPT) -> str:
    """The first ``limit`` characters of a record's text, user-id values withheld."""
    return withhold_user_ids(safe_text(text[:limit]))


def of_record(obj) -> str:
    """The first characters of a parsed record as JSON, user-id values withheld at any depth."""
    try:
        return of_text(json.dumps(obj, ensure_ascii=False))
    except (RecursionError, ValueError):
        return "(record too deeply nested to show)"


def withhold_user_ids(text: str) -> str:
    """``text`` with the value after every user-id key replaced, also when it is an object or list, or
    cut off by the excerpt's end."""
    out, pos = [], 0
    for key in _KEY.finditer(text):
        if key.start() < pos:  # inside a value already withheld
            continue
        out.append(text[pos:key.end()] + WITHHELD)
        pos = _value_end(text, key.end())
    return "".join(out) + text[pos:]


def _value_end(text: str, i: int) -> int:
    if i >= len(text):
        return i
    if text[i] in "\"'":
        quote, j = text[i], i + 1
        while j < len(text) and text[j] != quote:
            j += 2 if text[j] == "\\" else 1
        return min(j + 1, len(text))
    if text[i] in "{[":
        depth, j, in_string = 0, i, False
        while j < len(text):
            ch = text[j]
            if in_string:
                if ch == "\\":
                    j += 1
                elif ch == '"':
                    in_string = False
            elif ch == '"':
                in_string = True
            elif ch in "{[":
                depth += 1
            elif ch in "}]":
                depth -= 1
                if depth == 0:
                    return j + 1
            j += 1
        return len(text)
    bare = _BARE.match(text, i)
    assert bare is not None  # the pattern matches the empty string too
    return bare.end()

"""Format readers: a registry, per-file detection, and record iteration with quarantine.

A reader module has ``matches(obj) -> bool`` and ``parse(obj, locator) -> list`` of
:class:`RawDialogue` (or :class:`Quarantined` for records it refuses itself).
"""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path
from typing import Any, Iterator

from builder.errors import ConfigError
from builder.ingest.readers import chat_export, native, oasst, openai, sharegpt
from builder.ingest.readers.excerpts import EXCERPT, of_record, of_text, safe_text
from builder.ingest.readers.lines import Unreadable, lines, read_whole
from builder.ingest.records import Quarantined, RawDialogue, RecordError

READERS = {
    "native": native,
    "openai": openai,
    "sharegpt": sharegpt,
    "oasst": oasst,
    "chat_export": chat_export,
}
# Detection order: the most specific shapes first (chat_export also has "messages").
DETECT_ORDER = ("oasst", "chat_export", "sharegpt", "native", "openai")
DETECT_LINES = 50
MAX_RECORD_BYTES = 256 << 20  # one JSONL line or one .json file
IGNORE_NAME = ".mmrcignore"


def reader(name: str):
    try:
        return READERS[name]
    except KeyError:
        raise ConfigError(f"unknown format {name!r}; available: auto, {', '.join(READERS)}") from None


def detect(obj) -> str | None:
    if not isinstance(obj, dict):
        return None
    return next((name for name in DETECT_ORDER if READERS[name].matches(obj)), None)


def _decode(raw: bytes, locator: str) -> object | Quarantined:
    """A parsed record, or why it cannot be one. Lone surrogates (``"\\ud800"``, half an emoji in
    a broken export) are repaired to U+FFFD and counted, so every later hash and write is valid."""
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        return Quarantined(locator, "invalid_utf8", f"not valid UTF-8 ({exc.reason} at byte {exc.start})",
                           excerpt=of_text(raw[:EXCERPT].decode("utf-8", "replace")))
    try:
        obj = json.loads(text)
    except json.JSONDecodeError as exc:
        return Quarantined(locator, "malformed_json", f"invalid JSON: {exc.msg} at column {exc.colno}",
                           excerpt=of_text(text))
    except RecursionError:
        return Quarantined(locator, "json_too_deep", "JSON nested too deeply to read (thousands of levels)",
                           excerpt=of_text(text, 80))
    except ValueError as exc:  # e.g. an integer of more than 4300 digits
        return Quarantined(locator, "malformed_json", f"JSON value cannot be read: {str(exc)[:120]}",
                           excerpt=of_text(text))
    if "\\ud" in text.lower():
        obj, repaired = repair_surrogates(obj)
        if repaired:
            return Repaired(obj, repaired)
    return obj


class Repaired:
    """A parsed record in which ``count`` lone surrogates were replaced by U+FFFD."""

    def __init__(self, obj, count: int):
        self.obj, self.count = obj, count


def repair_surrogates(obj) -> tuple[object, int]:
    """Replace lone surrogates in every string of a parsed JSON value (iteratively: no recursion)."""
    count = 0

    def fix(value):
        nonlocal count
        if isinstance(value, str):
            clean = safe_text(value)
            count += sum(1 for a, b in zip(value, clean) if a != b)
            return clean
        return value

    root = [obj]
    stack: list[tuple[Any, Any]] = [(root, 0)]  # (container, key or index)
    while stack:
        container, key = stack.pop()
        value = container[key]
        if isinstance(value, dict):
            new = {fix(k): v for k, v in value.items()}
            container[key] = new
            stack.extend((new, k) for k in new)
        elif isinstance(value, list):
            stack.extend((value, i) for i in range(len(value)))
        else:
            container[key] = fix(value)
    return root[0], count


def _records(path: Path, limit: int = MAX_RECORD_BYTES) -> Iterator[tuple[str, object]]:
    """(locator, parsed object or Quarantined) for every record of a log file."""
    if jsonl_like(path):
        for line_no, raw in lines(path, limit):
            locator = f"line {line_no}"
            if raw is None:
                yield locator, Quarantined(locator, "record_too_large", f"line is longer than {limit} bytes")
            elif isinstance(raw, Unreadable):
                yield locator, Quarantined(locator, "unreadable_file", f"{raw.why}; the records before it are "
                                                                      "read: replace the file with a complete copy")
            elif raw.strip():
                yield locator, _decode(raw, locator)
        return
    size = path.stat().st_size
    if size > limit:
        yield "file", Quarantined("file", "record_too_large", f"JSON file is {size} bytes (limit {limit}); "
                                                              "split it or write JSONL")
        return
    parsed = _decode(read_whole(path), "file")
    count = 0
    if isinstance(parsed, Repaired):
        parsed, count = parsed.obj, parsed.count
    if isinstance(parsed, list):
        for i, item in enumerate(parsed):
            yield f"item {i}", Repaired(item, count) if count else item
    else:
        yield "file", Repaired(parsed, count) if count else parsed


def detect_file(path: Path) -> str | None:
    for seen, (_, obj) in enumerate(_records(path)):
        if seen >= DETECT_LINES:
            break
        name = detect(obj.obj if isinstance(obj, Repaired) else obj)
        if name:
            return name
    return None


def resolve_format(path: Path, fmt: str = "auto") -> str | None:
    """The reader name for a file: the forced one, or the detected one (None: no match)."""
    return detect_file(path) if fmt == "auto" else fmt


def iter_file(path: Path, name: str | None) -> Iterator[RawDialogue | Quarantined]:
    """Every dialogue (or quarantine) in one log file, in file order, read as format ``name``
    (from :func:`resolve_format`; None quarantines every record as ``unknown_format``)."""
    module = reader(name) if name else None
    for locator, obj in _records(path):
        repaired = 0
        if isinstance(obj, Repaired):
            obj, repaired = obj.obj, obj.count
        if isinstance(obj, Quarantined):
            yield obj
            continue
        if module is None:
            yield Quarantined(locator, "unknown_format",
                              "file matches none of the formats; see raw/README.md or force one with --format",
                              excerpt=of_record(obj))
            continue
        if not isinstance(obj, dict):
            yield Quarantined(locator, "invalid_record", f"a {name} record must be a JSON object",
                              excerpt=of_record(obj))
            continue
        try:
            for item in module.parse(obj, locator):
                if repaired and isinstance(item, RawDialogue):
                    item.repaired_surrogates = repaired
                yield item
        except RecordError as exc:
            source_id = obj.get("id", obj.get("source_id"))
            yield Quarantined(locator, exc.reason, str(exc), _short_id(source_id), of_record(obj))
        except RecursionError:
            yield Quarantined(locator, "json_too_deep", "record nested too deeply to read", _short_id(obj.get("id")))


def _short_id(value) -> str | None:
    return safe_text(str(value))[:200] if isinstance(value, (str, int)) and not isinstance(value, bool) else None


def jsonl_like(path: Path) -> bool:
    name = path.name.lower().removesuffix(".gz")
    return name.endswith((".jsonl", ".ndjson"))


def readable(path: Path) -> bool:
    """A log file ingest reads: .jsonl/.ndjson (optionally .gz) or .json, in any letter case."""
    name = path.name.lower()
    return jsonl_like(path) or name.endswith(".json")


def log_files(root: Path) -> tuple[list[Path], list[dict], dict[str, int]]:
    """(log files in a stable order, files not read with the reason, counts of other files by suffix).

    Symlinked files and folders are not followed, hidden files and folders are skipped, a file
    name that is not valid UTF-8 is skipped: each is listed, none is dropped silently. Other
    files (images the logs refer to, READMEs) are counted by suffix.
    """
    files: list[Path] = []
    skipped: list[dict] = []
    other: dict[str, int] = {}
    stack = [Path(root)]
    while stack:
        folder = stack.pop()
        try:
            entries = sorted(os.scandir(folder), key=lambda e: os.fsencode(e.name))
        except OSError as exc:
            skipped.append({"file": _display(Path(folder), root), "reason": f"folder not readable ({exc.strerror})"})
            continue
        subfolders = []
        for entry in entries:
            path = Path(entry.path)
            rel = _display(path, root)
            if not _utf8(entry.name):
                skipped.append({"file": rel, "reason": "name is not valid UTF-8; rename it"})
            elif entry.is_symlink():
                skipped.append({"file": rel, "reason": "symlink (not followed: it could point outside the raw folder)"})
            elif entry.name.startswith("."):
                if entry.name != IGNORE_NAME:
                    skipped.append({"file": rel, "reason": "hidden " + ("folder" if entry.is_dir() else "file")})
            elif entry.is_dir():
                subfolders.append(path)
            elif entry.is_file() and readable(path):
                files.append(path)
            elif entry.is_file():
                suffix = "".join(path.suffixes[-2:]).lower() or "(none)"
                other[suffix] = other.get(suffix, 0) + 1
            else:  # opening a pipe blocks until someone writes to it; a device is no log
                skipped.append({"file": rel, "reason": f"not a regular file ({_kind(entry)}): never opened"})
        stack.extend(reversed(subfolders))
    files.sort(key=lambda p: p.relative_to(root).as_posix())
    skipped.sort(key=lambda s: s["file"])
    return files, skipped, dict(sorted(other.items()))


def _kind(entry: os.DirEntry) -> str:
    mode = entry.stat(follow_symlinks=False).st_mode
    kinds = ((stat.S_ISFIFO, "a named pipe"), (stat.S_ISSOCK, "a socket"), (stat.S_ISCHR, "a character device"),
             (stat.S_ISBLK, "a block device"))
    return next((name for test, name in kinds if test(mode)), "a special file")


def _utf8(name: str) -> bool:
    try:
        name.encode("utf-8")
        return True
    except UnicodeEncodeError:  # undecodable bytes arrive as surrogate escapes
        return False


def _display(path: Path, root: Path) -> str:
    rel = os.fsencode(str(Path(path).relative_to(root)))
    return rel.decode("utf-8", "backslashreplace")

"""One content-addressed cache for every eval phase (notes, predict, judge).

A key is the sha256 of everything that decides the value (model identity, prompt version,
prompt hash, generation parameters, ...), so a rerun, a resumed run or another model's
run with the same judge reuses what is already known, and nothing stale is ever reused.
SQLite in WAL mode: each value is committed as it arrives (a kill loses at most the
request in flight) and two eval runs may share one cache file.
"""

from __future__ import annotations

import errno
import json
import sqlite3
from pathlib import Path

from builder.errors import InputError
from builder.io import sha256_json

KINDS = ("notes", "predict", "judge")


def cache_key(**parts) -> str:
    return sha256_json(parts)


class EvalCache:
    def __init__(self, path: Path):
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        try:
            self.db = sqlite3.connect(self.path, timeout=60, isolation_level=None)
            self.db.execute("PRAGMA journal_mode=WAL")
            self.db.execute("PRAGMA synchronous=NORMAL")
            self.db.execute("CREATE TABLE IF NOT EXISTS entries (kind TEXT NOT NULL, key TEXT NOT NULL, "
                            "value TEXT NOT NULL, PRIMARY KEY (kind, key))")
        except sqlite3.DatabaseError as exc:
            raise InputError(f"eval cache {self.path} cannot be opened ({exc}); delete it to start a fresh "
                             "cache or pass --cache PATH") from None
        self.hits = {k: 0 for k in KINDS}
        self.misses = {k: 0 for k in KINDS}
        self.damaged = {k: 0 for k in KINDS}  # entries that could not be read back: asked again, overwritten

    def _execute(self, sql: str, args: tuple):
        """One statement; a full disk is the machine's error (one line naming the cache, exit 3), not a crash:
        every answer committed before it is kept for the rerun."""
        try:
            return self.db.execute(sql, args)
        except sqlite3.DatabaseError as exc:  # OperationalError, and a file whose pages are damaged
            if any(word in str(exc).casefold() for word in ("full", "disk i/o", "no space")):
                raise OSError(errno.ENOSPC, f"eval cache: {exc}", str(self.path)) from None
            raise InputError(f"eval cache {self.path} failed ({exc}); delete it to start a fresh cache or pass "
                             "--cache PATH") from None

    def get(self, kind: str, key: str, count: bool = True):
        """The value filed under ``key``, or None. An entry that cannot be read back (not JSON, nested too
        deeply, not a record with a status) is a miss, counted as damaged: asked again and overwritten."""
        row = self._execute("SELECT value FROM entries WHERE kind = ? AND key = ?", (kind, key)).fetchone()
        value = _readable(row[0]) if row else None
        if row and value is None:
            self.damaged[kind] += 1
        if count:
            (self.hits if value is not None else self.misses)[kind] += 1
        return value

    def put(self, kind: str, key: str, value) -> None:
        payload = json.dumps(value, ensure_ascii=True, sort_keys=True)  # lone surrogates survive
        self._execute("INSERT OR REPLACE INTO entries (kind, key, value) VALUES (?, ?, ?)", (kind, key, payload))

    def counts(self) -> dict:
        return {k: {"hits": self.hits[k], "misses": self.misses[k],
                    **({"damaged": self.damaged[k]} if self.damaged[k] else {})} for k in KINDS}

    def close(self) -> None:
        self.db.close()


def _readable(text) -> dict | None:
    """A cached value as every phase stores it (a record with a status), or None."""
    try:
        value = json.loads(text)
    except (TypeError, ValueError, RecursionError):
        return None
    return value if isinstance(value, dict) and isinstance(value.get("status"), str) else None

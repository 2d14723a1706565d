"""What a reader yields: a format-neutral dialogue before validation, or a quarantine."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


class RecordError(Exception):
    """A record that cannot become a dialogue; ``reason`` is its stable ledger code."""

    def __init__(self, reason: str, message: str):
        super().__init__(message)
        self.reason = reason


@dataclass
class ImageSpec:
    """An image reference as written in the log: path, file:// url, data: url or http(s) url."""

    value: str


@dataclass
class RawTurn:
    role: str  # already mapped to user|assistant|system by the reader, or left as-is if unknown
    text: str
    images: list[ImageSpec] = field(default_factory=list)


@dataclass
class RawDialogue:
    """Metadata fields hold what the log had (any JSON type); :func:`normalise` validates them."""

    source_id: str
    locator: str  # where in the file: "line 12", "path 3 of tree X", "file"
    turns: list[RawTurn]
    user_id: Any = None
    model: Any = None
    created_at: Any = None
    language: Any = None
    topic: str | None = None  # an inline label (native format) for `classify train`
    base_dir: str | None = None  # folder that relative image paths are resolved against
    repaired_surrogates: int = 0  # lone surrogates replaced by U+FFFD while reading


@dataclass
class Quarantined:
    locator: str
    reason: str
    message: str
    source_id: str | None = None
    excerpt: str = ""

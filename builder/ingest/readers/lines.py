"""The bytes of a log file: gzip decided by the file's first bytes, lines ended by ``\\n``, ``\\r\\n``
or a lone ``\\r`` (old Mac exports), a UTF-8 byte-order mark dropped, overlong lines skipped
without ever being held whole, and a truncated or corrupt ``.gz`` reported where it breaks.
"""

from __future__ import annotations

import gzip
import io
import zlib
from collections.abc import Iterator
from pathlib import Path

GZIP_MAGIC = b"\x1f\x8b"
BOM = b"\xef\xbb\xbf"
BLOCK = 1 << 20


class Unreadable:
    """The file breaks off here (a truncated or corrupt gzip stream): ``why`` says how."""

    def __init__(self, why: str):
        self.why = why


def is_gzip(path: Path) -> bool:
    with open(path, "rb") as fh:
        return fh.read(2) == GZIP_MAGIC


def compression_note(path: Path) -> str | None:
    """What the manifest says when a file's name and its bytes disagree about gzip (the bytes win)."""
    named, packed = Path(path).name.lower().endswith(".gz"), is_gzip(path)
    if named and not packed:
        return "named .gz but not gzip-compressed: read as plain text"
    if packed and not named:
        return "gzip-compressed though not named .gz: decompressed"
    return None


def open_log(path: Path) -> io.BufferedIOBase:
    """The file's bytes, decompressed when it starts with the gzip magic (whatever its name says)."""
    return gzip.open(path, "rb") if is_gzip(path) else open(path, "rb")


def read_whole(path: Path) -> bytes:
    """A ``.json`` file's bytes without a leading byte-order mark."""
    return Path(path).read_bytes().removeprefix(BOM)


def lines(path: Path, limit: int) -> Iterator[tuple[int, bytes | None | Unreadable]]:
    """(line number, bytes without the line end) of a JSONL file; a line longer than ``limit`` bytes
    is None, and a file that breaks off ends with an :class:`Unreadable`."""
    with open_log(path) as fh:
        blocks = _Blocks(fh)
        number = 0
        for number, line in _split(blocks, limit):
            if number == 1 and line is not None:
                line = line.removeprefix(BOM)
            yield number, line
        if blocks.broken:
            yield number + 1, Unreadable(blocks.broken)


class _Blocks:
    """Blocks of a (possibly gzip) stream; a corrupt stream stops them and says why in ``broken``."""

    def __init__(self, fh: io.BufferedIOBase):
        self.fh, self.broken = fh, None

    def __iter__(self):
        while True:
            try:
                block = self.fh.read(BLOCK)
            except (EOFError, zlib.error, gzip.BadGzipFile) as exc:
                self.broken = f"the gzip stream is truncated or corrupt ({exc})"
                return
            if not block:
                return
            yield block


def _split(blocks, limit: int) -> Iterator[tuple[int, bytes | None]]:
    held, over, number, after_cr = bytearray(), False, 0, False  # held: the start of a line cut by a block
    for block in blocks:
        if after_cr and block[:1] == b"\n":
            block = block[1:]  # the \n of a \r\n split between two blocks
        after_cr = block.endswith(b"\r")
        pieces = block.splitlines(keepends=True)  # bytes split at \n, \r\n and \r only
        rest = pieces.pop() if pieces and not pieces[-1].endswith((b"\n", b"\r")) else b""
        for piece in pieces:
            line = piece.rstrip(b"\r\n")
            number += 1
            if held or over:
                line = None if over or len(held) + len(line) > limit else bytes(held) + line
                held, over = bytearray(), False
            yield number, None if line is None or len(line) > limit else line
        if over or len(held) + len(rest) > limit:
            held, over = bytearray(), True  # an overlong line: never held whole
        else:
            held += rest
    if held or over:
        yield number + 1, None if over else bytes(held)

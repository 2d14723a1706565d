"""Content-addressed image store and the safe decoding of untrusted image bytes."""

from __future__ import annotations

import hashlib
import io
import os
import shutil
import warnings
from dataclasses import dataclass
from pathlib import Path

MIME_EXT = {"image/jpeg": "jpg", "image/png": "png", "image/gif": "gif", "image/webp": "webp", "image/bmp": "bmp"}
PIL_FORMAT_MIME = {"JPEG": "image/jpeg", "PNG": "image/png", "GIF": "image/gif", "WEBP": "image/webp", "BMP": "image/bmp"}


class ImageRejected(Exception):
    """An image that cannot be accepted; ``reason`` is a stable ledger code."""

    def __init__(self, reason: str, message: str):
        super().__init__(message)
        self.reason = reason


@dataclass(frozen=True)
class ImageInfo:
    sha256: str
    mime: str
    width: int
    height: int

    def ref(self) -> dict:
        return {"sha256": self.sha256, "mime": self.mime, "width": self.width, "height": self.height, "url": None}


def inspect_image(data: bytes, max_pixels: int, max_bytes: int) -> ImageInfo:
    """Decode ``data`` fully under a pixel limit; raise :class:`ImageRejected` otherwise.

    The header is read first so a decompression bomb is refused before any pixels are
    decoded; the full decode then proves the file is not truncated or corrupt.
    """
    from PIL import Image

    if len(data) > max_bytes:
        raise ImageRejected("image_too_large", f"{len(data)} bytes exceeds the {max_bytes}-byte limit")
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", Image.DecompressionBombWarning)
            with Image.open(io.BytesIO(data)) as img:
                width, height = img.size
                fmt = img.format
                if width * height > max_pixels:
                    raise ImageRejected(
                        "image_too_large", f"{width}x{height} exceeds the {max_pixels}-pixel limit"
                    )
                if fmt not in PIL_FORMAT_MIME:
                    raise ImageRejected("unsupported_image", f"image format {fmt} is not accepted")
                img.load()
    except ImageRejected:
        raise
    except (Image.DecompressionBombError, Image.DecompressionBombWarning) as exc:
        raise ImageRejected("image_too_large", str(exc)) from exc
    except Exception as exc:  # PIL raises many types for corrupt data
        raise ImageRejected("unreadable_image", f"cannot decode image: {exc}") from exc
    return ImageInfo(hashlib.sha256(data).hexdigest(), PIL_FORMAT_MIME[fmt], width, height)


def accept_image(data: bytes, max_pixels: int, max_bytes: int) -> tuple[bytes, ImageInfo]:
    """Inspect ``data`` (limits, full decode) and remove its metadata (``builder.exif``); for images
    that enter a dataset from a source other than the user's logs (an image bank, a generator)."""
    from builder.exif import strip_metadata

    info = inspect_image(data, max_pixels, max_bytes)
    result = strip_metadata(data, info.mime)
    if result.reencoded:
        info = inspect_image(result.data, max_pixels, max_bytes)
    return result.data, info


class ImageStore:
    """``ROOT/images/ab/<sha256>.<ext>``; writes are atomic and idempotent."""

    def __init__(self, root: Path):
        self.root = Path(root) / "images"

    def path(self, sha256: str, mime: str) -> Path:
        return self.root / sha256[:2] / f"{sha256}.{MIME_EXT.get(mime, 'bin')}"

    def has(self, sha256: str, mime: str) -> bool:
        return self.path(sha256, mime).exists()

    def put(self, data: bytes, info: ImageInfo) -> Path:
        dest = self.path(info.sha256, info.mime)
        if not dest.exists():
            dest.parent.mkdir(parents=True, exist_ok=True)
            tmp = dest.with_name(f".{dest.name}.{os.getpid()}.tmp")
            tmp.write_bytes(data)
            os.replace(tmp, dest)
        return dest

    def read(self, sha256: str, mime: str) -> bytes:
        return self.path(sha256, mime).read_bytes()

    def link_from(self, other: "ImageStore", sha256: str, mime: str) -> None:
        """Carry an image over from a previous stage: hard link, copy across devices."""
        dest = self.path(sha256, mime)
        if dest.exists():
            return
        src = other.path(sha256, mime)
        dest.parent.mkdir(parents=True, exist_ok=True)
        try:
            os.link(src, dest)
        except OSError:
            shutil.copyfile(src, dest)


def carry_images(df, src: ImageStore, dst: ImageStore) -> int:
    """Link every image referenced by ``df``'s turns from ``src`` into ``dst``; returns the count."""
    import polars as pl

    if df.height == 0 or "turns" not in df.columns:
        return 0
    refs = (
        df.select(pl.col("turns").explode().struct.field("images").explode().alias("img"))
        .drop_nulls()
        .unnest("img")
        .filter(pl.col("sha256").is_not_null())
        .unique(["sha256", "mime"])
        .sort("sha256")
    )
    for sha, mime in refs.select("sha256", "mime").iter_rows():
        dst.link_from(src, sha, mime)
    return refs.height

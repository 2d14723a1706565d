"""Turn untrusted image references from logs into stored, content-addressed image refs.

Paths are resolved against the log file's folder and must stay inside the raw folder
after resolving symlinks: `..` tricks, absolute paths elsewhere and symlinks out are
refused (`unsafe_image_path`). http(s) images are recorded as unresolved, never fetched.
"""

from __future__ import annotations

import base64
import binascii
import os
import re
from pathlib import Path
from urllib.parse import unquote, urlparse

from builder.images import ImageInfo, ImageRejected, ImageStore, inspect_image
from builder.ingest.records import RecordError

MAX_PATH_CHARS = 1024
MAX_PATH_DEPTH = 64
DATA_URL = re.compile(r"^data:(?P<mime>[\w/+.-]*)(?P<params>(;[\w=.-]+)*?);base64,(?P<data>.*)$", re.S)


class ImageResolver:
    """Resolves, validates and stores images; remembers results for repeated references."""

    def __init__(self, raw_root: Path, store: ImageStore, max_pixels: int, max_bytes: int):
        self.raw_root = Path(os.path.realpath(raw_root))
        self.store = store
        self.max_pixels = max_pixels
        self.max_bytes = max_bytes
        self._by_path: dict[str, ImageInfo] = {}
        self._by_ref: dict[tuple[str, str], ImageInfo] = {}  # (base dir, reference) -> info
        self._by_sha: dict[str, ImageInfo] = {}

    def resolve(self, ref: str, base_dir: Path) -> dict:
        """An image_ref dict, or raise :class:`RecordError` with the reason code."""
        ref = ref.strip()
        scheme = urlparse(ref).scheme.lower() if ":" in ref[:12] else ""
        if scheme in ("http", "https"):
            return {"sha256": None, "mime": None, "width": None, "height": None, "url": ref}
        if scheme == "data":
            return self._store_bytes(self._decode_data_url(ref), "data: url").ref()
        if scheme == "file":
            parsed = urlparse(ref)
            if parsed.netloc not in ("", "localhost"):
                raise RecordError("unsafe_image_path", f"file url on another host: {ref[:200]}")
            ref = unquote(parsed.path)
        elif scheme and len(scheme) > 1:
            raise RecordError("unsupported_image", f"image reference scheme {scheme!r} is not supported")
        return self._from_path(ref, base_dir).ref()

    # -- paths ----------------------------------------------------------------
    def _from_path(self, ref: str, base_dir: Path) -> ImageInfo:
        key = (str(base_dir), ref)
        hit = self._by_ref.get(key)
        if hit is None:
            hit = self._by_ref[key] = self._resolve_path(ref, base_dir)
        return hit

    def _resolve_path(self, ref: str, base_dir: Path) -> ImageInfo:
        if "\0" in ref:
            raise RecordError("unsafe_image_path", "image path contains a NUL byte")
        if len(ref) > MAX_PATH_CHARS or ref.count("/") > MAX_PATH_DEPTH:
            raise RecordError("unsafe_image_path", f"image path is {len(ref)} characters / {ref.count('/')} folders "
                                                   f"deep (limits {MAX_PATH_CHARS} / {MAX_PATH_DEPTH})")
        try:
            return self._resolve_checked(ref, base_dir)
        except OSError as exc:  # a name too long for the filesystem, a loop of links, no permission
            raise RecordError("unreadable_image", f"image path {ref[:200]!r} cannot be read ({exc.strerror})") \
                from None

    def _resolve_checked(self, ref: str, base_dir: Path) -> ImageInfo:
        if os.path.isabs(ref):
            candidates = [Path(ref)]
        else:  # relative to the log file first, then to the raw folder
            candidates = [Path(base_dir) / ref, self.raw_root / ref]
        inside = [r for r in (Path(os.path.realpath(c)) for c in candidates) if r.is_relative_to(self.raw_root)]
        if not inside:
            raise RecordError("unsafe_image_path", f"image path {ref[:200]!r} resolves outside the raw folder")
        real = next((r for r in inside if r.is_file()), inside[0])
        key = str(real)
        if key in self._by_path:
            return self._by_path[key]
        if real.exists() and not real.is_file():  # a folder, a pipe (opening it would block), a device
            raise RecordError("unreadable_image", f"image path {ref[:200]!r} is not a regular file")
        if not real.is_file():
            raise RecordError("missing_image", f"image file {ref[:200]!r} does not exist")
        size = real.stat().st_size
        if size > self.max_bytes:
            raise RecordError("image_too_large", f"image file {ref[:200]!r} is {size} bytes (limit {self.max_bytes})")
        info = self._store_bytes(real.read_bytes(), ref)
        self._by_path[key] = info
        return info

    # -- bytes ----------------------------------------------------------------
    def _decode_data_url(self, ref: str) -> bytes:
        match = DATA_URL.match(ref)
        if not match:
            raise RecordError("unreadable_image", "data: url is not base64-encoded image data")
        payload = match.group("data")
        if len(payload) * 3 // 4 > self.max_bytes:
            raise RecordError("image_too_large", f"data: url image exceeds {self.max_bytes} bytes")
        try:
            return base64.b64decode(payload, validate=False)
        except (binascii.Error, ValueError) as exc:
            raise RecordError("unreadable_image", f"data: url base64 does not decode: {exc}") from exc

    def _store_bytes(self, data: bytes, what: str) -> ImageInfo:
        import hashlib

        sha = hashlib.sha256(data).hexdigest()
        if sha in self._by_sha:
            return self._by_sha[sha]
        try:
            info = inspect_image(data, self.max_pixels, self.max_bytes)
        except ImageRejected as exc:
            raise RecordError(exc.reason, f"{what[:200]}: {exc}") from exc
        self.store.put(data, info)
        self._by_sha[sha] = info
        return info

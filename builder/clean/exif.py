"""Strip identifying metadata (EXIF incl. GPS and serials, XMP, IPTC, comments) from images.

Lossless where the format allows: JPEG, PNG and WebP are rewritten at the container level
(metadata segments/chunks dropped, pixel data copied byte for byte). The one exception is a
JPEG whose EXIF orientation is not 1: dropping the tag would turn the picture, so it is
transposed and re-encoded once at quality 95 (recorded as ``reencoded``). GIF and BMP are
left as they are (no EXIF container); they are reported as unchanged.
"""

from __future__ import annotations

import io
import struct
from dataclasses import dataclass

# JPEG APPn markers that are kept: APP0 JFIF/JFXX, APP2 ICC colour profile, APP14 Adobe
# (colour transform: needed to decode CMYK/YCCK correctly). Everything else is metadata.
JPEG_KEEP = {0xE0, 0xE2, 0xEE}
JPEG_DROP_NAMES = {0xE1: "exif/xmp", 0xED: "iptc", 0xFE: "comment"}
PNG_DROP = {b"tEXt", b"zTXt", b"iTXt", b"eXIf", b"tIME"}
WEBP_DROP = {b"EXIF", b"XMP "}


@dataclass(frozen=True)
class StripResult:
    data: bytes
    removed: tuple[str, ...]  # what was taken out; empty means the bytes are unchanged
    reencoded: bool = False


def strip_metadata(data: bytes, mime: str) -> StripResult:
    if mime == "image/jpeg":
        return _jpeg(data)
    if mime == "image/png":
        return _png(data)
    if mime == "image/webp":
        return _webp(data)
    return StripResult(data, ())


def _jpeg(data: bytes) -> StripResult:
    if _jpeg_orientation(data) not in (None, 1):
        return _jpeg_transpose(data)
    out, removed, pos = bytearray(data[:2]), [], 2
    while pos + 4 <= len(data):
        if data[pos] != 0xFF:
            return StripResult(data, ())  # not a marker where one must be: leave untouched
        marker = data[pos + 1]
        if marker == 0xFF:  # fill byte
            pos += 1
            continue
        if marker == 0xDA or marker == 0xD9:  # start of scan: the rest is image data
            out += data[pos:]
            break
        length = struct.unpack(">H", data[pos + 2:pos + 4])[0]
        segment = data[pos:pos + 2 + length]
        if (0xE0 <= marker <= 0xEF and marker not in JPEG_KEEP) or marker == 0xFE:
            removed.append(JPEG_DROP_NAMES.get(marker, f"app{marker - 0xE0}"))
        else:
            out += segment
        pos += 2 + length
    if not removed:
        return StripResult(data, ())
    return StripResult(bytes(out), tuple(sorted(set(removed))))


def _jpeg_orientation(data: bytes) -> int | None:
    from PIL import Image

    try:
        with Image.open(io.BytesIO(data)) as img:
            return img.getexif().get(0x0112)
    except Exception:
        return None


def _jpeg_transpose(data: bytes) -> StripResult:
    from PIL import Image, ImageOps

    with Image.open(io.BytesIO(data)) as img:
        icc = img.info.get("icc_profile")
        upright = ImageOps.exif_transpose(img)
        buf = io.BytesIO()
        upright.save(buf, format="JPEG", quality=95, subsampling="keep" if upright.mode != "RGB" else 0,
                     **({"icc_profile": icc} if icc else {}))
    return StripResult(buf.getvalue(), ("exif/xmp", "orientation"), reencoded=True)


def _png(data: bytes) -> StripResult:
    signature = b"\x89PNG\r\n\x1a\n"
    if not data.startswith(signature):
        return StripResult(data, ())
    out, removed, pos = bytearray(signature), [], 8
    while pos + 12 <= len(data):
        length = struct.unpack(">I", data[pos:pos + 4])[0]
        kind = data[pos + 4:pos + 8]
        chunk = data[pos:pos + 12 + length]
        if kind in PNG_DROP:
            removed.append(kind.decode("ascii"))
        else:
            out += chunk
        pos += 12 + length
        if kind == b"IEND":
            break
    if not removed:
        return StripResult(data, ())
    return StripResult(bytes(out), tuple(sorted(set(removed))))


def _webp(data: bytes) -> StripResult:
    if data[:4] != b"RIFF" or data[8:12] != b"WEBP":
        return StripResult(data, ())
    chunks, removed, pos = [], [], 12
    while pos + 8 <= len(data):
        kind, size = data[pos:pos + 4], struct.unpack("<I", data[pos + 4:pos + 8])[0]
        chunk = data[pos:pos + 8 + size + (size & 1)]
        if kind in WEBP_DROP:
            removed.append(kind.decode("ascii").strip().lower())
        else:
            chunks.append(bytearray(chunk))
        pos += 8 + size + (size & 1)
    if not removed:
        return StripResult(data, ())
    for chunk in chunks:
        if chunk[:4] == b"VP8X":
            chunk[8] &= ~(0x08 | 0x04) & 0xFF  # clear the EXIF and XMP flags
    body = b"WEBP" + b"".join(chunks)
    return StripResult(b"RIFF" + struct.pack("<I", len(body)) + body, tuple(sorted(set(removed))))

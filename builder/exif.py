"""Image metadata: find it (an allow-list of container parts) and remove it (re-encode the pixels).

``metadata_found`` walks the container and names everything that is not on a short allow-list
of parts a picture needs (JPEG: JFIF without thumbnail, Adobe colour transform, tables, frame,
scans; PNG: IHDR, PLTE, tRNS, IDAT, IEND and colour chunks; WebP: VP8/VP8L/VP8X/ALPH/ANIM/ANMF;
GIF: no comment, no application block other than looping). Anything else is a finding: EXIF,
XMP, IPTC, comments, ICC profiles, unknown chunks, bytes after the end of the image, or a
structure the walker cannot follow (a junk byte where a marker must be).

``strip_metadata`` re-encodes an image that has any finding from its decoded pixels only: no
segment of the original is copied. EXIF orientation is applied first (the picture keeps its
upright look), an ICC profile is converted to sRGB, animation frames and timing are kept. An
image with no finding is returned byte for byte (no generation loss). ``clean`` strips every
image, ``swap`` every image it adds, and ``release`` refuses an image that still has a finding.
"""

from __future__ import annotations

import io
import struct
import warnings
from dataclasses import dataclass

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
PNG_KEEP = {b"IHDR", b"PLTE", b"tRNS", b"IDAT", b"IEND", b"gAMA", b"cHRM", b"sRGB", b"sBIT", b"bKGD",
            b"acTL", b"fcTL", b"fdAT"}
WEBP_KEEP = {b"VP8 ", b"VP8L", b"VP8X", b"ALPH", b"ANIM", b"ANMF"}
JPEG_NAMES = {0xE1: "exif/xmp", 0xE2: "icc_profile", 0xED: "iptc", 0xFE: "comment"}
JPEG_TABLES = {0xC4, 0xCC, 0xDB, 0xDD, 0xDC}  # DHT, DAC, DQT, DRI, DNL
JPEG_FRAMES = set(range(0xC0, 0xD0)) - {0xC4, 0xC8, 0xCC}


@dataclass(frozen=True)
class StripResult:
    data: bytes
    removed: tuple[str, ...]  # the findings that were removed; empty means the bytes are unchanged
    reencoded: bool = False


def metadata_found(data: bytes, mime: str) -> tuple[str, ...]:
    """Every part of the image that is not picture data, as short names; empty when clean."""
    walker = {"image/jpeg": _jpeg_findings, "image/png": _png_findings, "image/webp": _webp_findings,
              "image/gif": _gif_findings, "image/bmp": _bmp_findings}.get(mime)
    if walker is None:
        return (f"unsupported format {mime}",)
    try:
        found = walker(data)
    except (struct.error, IndexError, ValueError) as exc:
        found = [f"unparseable structure ({type(exc).__name__})"]
    return tuple(sorted(set(found)))


def strip_metadata(data: bytes, mime: str) -> StripResult:
    """``data`` unchanged when it has no finding, else its pixels re-encoded in the same format."""
    found = metadata_found(data, mime)
    if not found:
        return StripResult(data, ())
    clean = _reencode(data, mime)
    left = metadata_found(clean, mime)
    if left:  # our own encoder wrote something we would refuse: never pass it on
        raise ValueError(f"re-encoded {mime} still has {', '.join(left)}")
    return StripResult(clean, found, reencoded=True)


# -- finding ---------------------------------------------------------------------------------------------
def _jpeg_findings(data: bytes) -> list[str]:
    if data[:2] != b"\xff\xd8":
        return ["not a JPEG start"]
    found: list[str] = []
    pos, n = 2, len(data)
    while True:
        if pos + 2 > n:
            return found + ["truncated (no end marker)"]
        if data[pos] != 0xFF:
            return found + ["unparseable structure (junk where a marker must be)"]
        marker = data[pos + 1]
        if marker == 0xFF:  # fill byte
            pos += 1
            continue
        if marker == 0xD9:  # end of image
            if data[pos + 2:].strip(b"\x00"):
                found.append("trailing data after the image")
            return found
        length = struct.unpack(">H", data[pos + 2:pos + 4])[0]
        if length < 2 or pos + 2 + length > n:
            return found + ["unparseable structure (segment length)"]
        body = data[pos + 4:pos + 2 + length]
        if marker == 0xE0:
            if body.startswith(b"JFIF\x00") and len(body) >= 14:
                if body[12] or body[13]:
                    found.append("jfif thumbnail")
            else:
                found.append("app0 extension (thumbnail)")
        elif marker == 0xEE:
            if not body.startswith(b"Adobe"):
                found.append("app14")
        elif 0xE0 <= marker <= 0xEF or marker == 0xFE:
            found.append(JPEG_NAMES.get(marker, f"app{marker - 0xE0}"))
        elif marker not in JPEG_TABLES and marker not in JPEG_FRAMES and marker != 0xDA:
            found.append(f"unknown marker 0x{marker:02X}")
        pos += 2 + length
        if marker == 0xDA:  # entropy-coded data up to the next marker that is not stuffing or a restart
            while pos + 1 < n and not (data[pos] == 0xFF and data[pos + 1] not in (0x00, 0xFF, *range(0xD0, 0xD8))):
                pos += 1


def _png_findings(data: bytes) -> list[str]:
    if not data.startswith(PNG_SIGNATURE):
        return ["not a PNG signature"]
    found: list[str] = []
    pos = 8
    while pos + 12 <= len(data):
        length = struct.unpack(">I", data[pos:pos + 4])[0]
        kind = data[pos + 4:pos + 8]
        if pos + 12 + length > len(data):
            return found + ["unparseable structure (chunk length)"]
        if kind not in PNG_KEEP:
            found.append(kind.decode("latin-1"))
        pos += 12 + length
        if kind == b"IEND":
            if data[pos:]:
                found.append("trailing data after the image")
            return found
    return found + ["truncated (no IEND)"]


def _webp_findings(data: bytes) -> list[str]:
    if data[:4] != b"RIFF" or data[8:12] != b"WEBP":
        return ["not a WebP container"]
    size = struct.unpack("<I", data[4:8])[0]
    found = ["trailing data after the image"] if len(data) > 8 + size + (size & 1) else []
    pos, end = 12, min(len(data), 8 + size)
    while pos + 8 <= end:
        kind, length = data[pos:pos + 4], struct.unpack("<I", data[pos + 4:pos + 8])[0]
        if kind not in WEBP_KEEP:
            found.append(kind.decode("latin-1").strip().lower() or "unnamed chunk")
        if kind == b"VP8X" and length >= 1 and data[pos + 8] & (0x20 | 0x08 | 0x04):
            found.append("vp8x metadata flags")
        pos += 8 + length + (length & 1)
    return found


def _gif_findings(data: bytes) -> list[str]:
    from PIL import Image

    def scan(info: dict) -> list[str]:
        out = [key for key in ("comment", "xmp") if key in info]
        extension = info.get("extension")
        if extension and not (isinstance(extension, tuple) and extension[0] in (b"NETSCAPE2.0", b"ANIMEXTS1.0")):
            out.append("application extension")
        return out

    with Image.open(io.BytesIO(data)) as img:
        found = scan(img.info)
        for frame in range(1, getattr(img, "n_frames", 1)):
            img.seek(frame)
            found += scan(img.info)
    if not data.rstrip(b"\x00").endswith(b";"):
        found.append("trailing data after the image")
    return found


def _bmp_findings(data: bytes) -> list[str]:
    if data[:2] != b"BM":
        return ["not a BMP header"]
    size = struct.unpack("<I", data[2:6])[0]
    return ["trailing data after the image"] if len(data) > size else []


# -- removing -----------------------------------------------------------------------------------------------
FORMAT = {"image/jpeg": "JPEG", "image/png": "PNG", "image/webp": "WEBP", "image/gif": "GIF", "image/bmp": "BMP"}


def _reencode(data: bytes, mime: str) -> bytes:
    from PIL import Image, ImageOps, ImageSequence

    with warnings.catch_warnings():
        warnings.simplefilter("error", Image.DecompressionBombWarning)
        with Image.open(io.BytesIO(data)) as img:
            lossless = mime == "image/webp" and b"VP8L" in data[12:64]
            icc = img.info.get("icc_profile")
            timing = {k: img.info[k] for k in ("loop", "background") if k in img.info}
            frames, durations = [], []
            for frame in ImageSequence.Iterator(img):
                durations.append(frame.info.get("duration", 0))
                frames.append(_pixels_only(ImageOps.exif_transpose(frame), icc))
    out = io.BytesIO()
    fmt = FORMAT[mime]
    options: dict = {}
    if fmt == "JPEG":
        frames = [f.convert("RGB") if f.mode not in ("RGB", "L", "CMYK") else f for f in frames]
        options = {"quality": 95, "subsampling": 0}
    elif fmt == "WEBP":
        options = {"lossless": True} if lossless else {"quality": 95}
    elif fmt == "GIF" and "transparency" in frames[0].info:
        options = {"transparency": frames[0].info["transparency"]}
    if len(frames) > 1 and fmt in ("GIF", "WEBP", "PNG"):
        options.update(save_all=True, append_images=frames[1:], duration=durations, **timing)
    frames[0].save(out, format=fmt, **options)
    return out.getvalue()


def _pixels_only(frame, icc: bytes | None):
    """A new image from ``frame``'s pixels (palette and transparency kept), nothing else."""
    from PIL import Image

    if icc and frame.mode in ("RGB", "RGBA", "CMYK", "L"):
        frame = _to_srgb(frame, icc)
    clean = Image.frombytes(frame.mode, frame.size, frame.tobytes())
    if frame.mode in ("P", "PA"):
        clean.putpalette(frame.getpalette())
    if "transparency" in frame.info and frame.mode in ("P", "L", "RGB"):
        clean.info["transparency"] = frame.info["transparency"]
    return clean


def _to_srgb(frame, icc: bytes):
    from PIL import ImageCms

    if frame.mode == "L":
        return frame  # a grey profile: the grey values stay, the profile goes
    try:
        source = ImageCms.ImageCmsProfile(io.BytesIO(icc))
        return ImageCms.profileToProfile(frame, source, ImageCms.createProfile("sRGB"),
                                         outputMode="RGB" if frame.mode == "CMYK" else frame.mode)
    except (ImageCms.PyCMSError, OSError, ValueError):
        # A profile littlecms cannot read: the pixels are kept as stored (the profile is still
        # removed and named in the findings); CMYK is converted naively so that it displays.
        return frame.convert("RGB") if frame.mode == "CMYK" else frame

"""Image metadata: found by an allow-list walk, removed by re-encoding the pixels, for hostile files
(junk after APP0, comments, trailing data, thumbnails, ICC, PNG text, WebP EXIF, GIF comments)."""

from __future__ import annotations

import io

import pytest
from PIL import Image, PngImagePlugin

from builder.exif import metadata_found, strip_metadata


def _exif(**extra):
    exif = Image.Exif()
    exif[0x010F] = "CameraMaker"
    exif[0xA431] = "SERIAL-12345"
    exif[0x8825] = {1: "N", 2: (48.0, 51.0, 29.0), 3: "E", 4: (2.0, 17.0, 40.0)}
    for tag, value in extra.items():
        exif[int(tag[1:])] = value
    return exif


def _jpeg(img=None, **save):
    buf = io.BytesIO()
    (img or Image.new("RGB", (24, 16), (200, 40, 10))).save(buf, "JPEG", quality=90, **save)
    return buf.getvalue()


def _pixels(data):
    return Image.open(io.BytesIO(data)).convert("RGB")


def _close(a, b, tol=12):
    """Same picture after one lossy re-encode: every channel within ``tol``."""
    pa, pb = _pixels(a), _pixels(b)
    assert pa.size == pb.size
    return max(abs(x - y) for p, q in zip(pa.get_flattened_data(), pb.get_flattened_data()) for x, y in zip(p, q)) <= tol


def _assert_clean(result, *secrets):
    for secret in secrets:
        assert secret not in result.data
    assert metadata_found(result.data, MIME[_kind(result.data)]) == ()
    img = Image.open(io.BytesIO(result.data))
    assert not img.getexif() and "comment" not in img.info and "icc_profile" not in img.info


MIME = {"JPEG": "image/jpeg", "PNG": "image/png", "WEBP": "image/webp", "GIF": "image/gif", "BMP": "image/bmp"}


def _kind(data):
    return Image.open(io.BytesIO(data)).format


def test_gps_exif_is_found_and_removed_from_pixels():
    data = _jpeg(exif=_exif())
    assert "exif/xmp" in metadata_found(data, "image/jpeg")
    result = strip_metadata(data, "image/jpeg")
    assert result.reencoded and "exif/xmp" in result.removed
    _assert_clean(result, b"SERIAL-12345", b"CameraMaker")
    assert _close(data, result.data)


def test_a_junk_byte_after_app0_does_not_let_gps_through():
    data = _jpeg(exif=_exif())
    app0_end = 4 + int.from_bytes(data[4:6], "big")
    hostile = data[:app0_end] + b"\x00" + data[app0_end:]
    assert any("unparseable" in f for f in metadata_found(hostile, "image/jpeg"))
    result = strip_metadata(hostile, "image/jpeg")
    _assert_clean(result, b"SERIAL-12345", b"GPS")


def test_jpeg_comments_trailing_bytes_and_thumbnails_are_findings():
    commented = _jpeg(comment=b"taken at 12 Elm Street by Anna Berg")
    assert "comment" in metadata_found(commented, "image/jpeg")
    _assert_clean(strip_metadata(commented, "image/jpeg"), b"Elm Street")
    trailing = _jpeg() + b"PK\x03\x04 a zip file with the original photo"
    assert "trailing data after the image" in metadata_found(trailing, "image/jpeg")
    _assert_clean(strip_metadata(trailing, "image/jpeg"), b"original photo")
    clean = _jpeg()
    app0 = bytearray(clean)
    app0[4 + 2 + 12], app0[4 + 2 + 13] = 1, 1  # JFIF says a 1x1 thumbnail follows
    assert "jfif thumbnail" in metadata_found(bytes(app0), "image/jpeg")


def test_rotated_jpeg_stays_upright():
    data = _jpeg(Image.new("RGB", (20, 10), (200, 0, 0)), exif=_exif(t274=6))
    result = strip_metadata(data, "image/jpeg")
    assert Image.open(io.BytesIO(result.data)).size == (10, 20)


def test_icc_profile_is_converted_to_srgb_and_removed():
    from PIL import ImageCms

    icc = ImageCms.ImageCmsProfile(ImageCms.createProfile("LAB")).tobytes()
    data = _jpeg(icc_profile=icc)
    assert "icc_profile" in metadata_found(data, "image/jpeg")
    _assert_clean(strip_metadata(data, "image/jpeg"))


def test_clean_images_are_returned_byte_for_byte():
    for data, mime in ((_jpeg(), "image/jpeg"), (_png(), "image/png"), (_webp(), "image/webp")):
        assert metadata_found(data, mime) == ()
        result = strip_metadata(data, mime)
        assert result.data == data and result.removed == () and not result.reencoded


def _png(info=None, img=None):
    buf = io.BytesIO()
    (img or Image.new("RGB", (12, 8), (10, 200, 30))).save(buf, "PNG", pnginfo=info)
    return buf.getvalue()


def _webp(**save):
    buf = io.BytesIO()
    Image.new("RGB", (12, 8), (10, 200, 30)).save(buf, "WEBP", lossless=True, **save)
    return buf.getvalue()


def test_png_text_exif_and_unknown_chunks_go_losslessly():
    info = PngImagePlugin.PngInfo()
    info.add_text("Author", "Anna Berg")
    info.add_itxt("Location", "48.85 N 2.29 E")
    data = _png(info)
    found = metadata_found(data, "image/png")
    assert {"tEXt", "iTXt"} <= set(found)
    result = strip_metadata(data, "image/png")
    _assert_clean(result, b"Anna Berg", b"48.85")
    assert _pixels(result.data).tobytes() == _pixels(data).tobytes()  # PNG: not one pixel changes
    after_iend = _png() + b"hidden"
    assert "trailing data after the image" in metadata_found(after_iend, "image/png")


def test_palette_png_with_transparency_keeps_both():
    img = Image.new("P", (8, 8), 3)
    img.putpalette([i % 256 for i in range(768)])
    img.info["transparency"] = 3
    info = PngImagePlugin.PngInfo()
    info.add_text("Comment", "secret")
    data = _png(info, img)
    result = strip_metadata(data, "image/png")
    out = Image.open(io.BytesIO(result.data))
    assert out.mode == "P" and out.info.get("transparency") == 3 and b"secret" not in result.data


def test_webp_exif_and_xmp_are_removed_losslessly():
    data = _webp(exif=_exif().tobytes(), xmp=b"<x:xmpmeta>Anna Berg</x:xmpmeta>")
    assert {"exif", "xmp"} <= set(metadata_found(data, "image/webp"))
    result = strip_metadata(data, "image/webp")
    _assert_clean(result, b"SERIAL-12345", b"Anna Berg")
    assert _pixels(result.data).tobytes() == _pixels(data).tobytes()


def test_animated_gif_keeps_frames_and_loses_comment():
    frames = [Image.new("P", (6, 6), i) for i in range(3)]
    for f in frames:
        f.putpalette([i % 256 for i in range(768)])
    buf = io.BytesIO()
    frames[0].save(buf, "GIF", save_all=True, append_images=frames[1:], duration=[50, 60, 70], loop=0,
                   comment=b"shot by Anna Berg")
    data = buf.getvalue()
    assert "comment" in metadata_found(data, "image/gif")
    result = strip_metadata(data, "image/gif")
    assert b"Anna Berg" not in result.data and metadata_found(result.data, "image/gif") == ()
    assert Image.open(io.BytesIO(result.data)).n_frames == 3


@pytest.mark.parametrize("garbage", [b"", b"\xff\xd8", b"\xff\xd8\xff\xe0\x00", b"\xff\xd8\xff\xe1\xff\xff"])
def test_broken_containers_are_findings_not_crashes(garbage):
    assert metadata_found(garbage, "image/jpeg")

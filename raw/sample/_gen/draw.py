"""Deterministic little pictures for the demo corpus.

Every image is drawn from an image spec ``"kind:Caption"`` and a seed string (its file
name), so the same spec always gives the same bytes. The caption is painted on a dark
band at the bottom so the pictures are easy to tell apart when browsing a release.
"""

from __future__ import annotations

import hashlib
import io
import random

from PIL import Image, ImageDraw, ImageFont

SIZE = (160, 120)
JPEG_KINDS = {"photo", "food", "animal", "product", "plant", "poster", "person"}

PALETTE = [
    (231, 76, 60), (46, 204, 113), (52, 152, 219), (241, 196, 15), (155, 89, 182),
    (230, 126, 34), (26, 188, 156), (236, 240, 241), (149, 165, 166), (52, 73, 94),
    (192, 57, 43), (39, 174, 96), (41, 128, 185), (243, 156, 18), (142, 68, 173),
]


def _rng(seed: str) -> random.Random:
    return random.Random(int(hashlib.sha256(seed.encode("utf-8")).hexdigest()[:16], 16))


def _font(size: int = 10):
    return ImageFont.load_default(size=size)


def _caption(img: Image.Image, text: str) -> None:
    d = ImageDraw.Draw(img)
    w, h = img.size
    d.rectangle([0, h - 16, w, h], fill=(20, 20, 20))
    font = _font(10)
    while text and d.textlength(text, font=font) > w - 6:
        text = text[:-1]
    d.text((3, h - 14), text, fill=(255, 255, 255), font=font)


def _photo(d, r, w, h):
    sky = r.choice([(135, 206, 235), (255, 183, 120), (176, 196, 222), (100, 149, 237)])
    d.rectangle([0, 0, w, h], fill=sky)
    sx = r.randint(10, w - 30)
    d.ellipse([sx, 8, sx + 18, 26], fill=(255, 230, 90))
    ground = r.choice([(96, 160, 72), (194, 178, 128), (120, 120, 120), (70, 130, 180)])
    d.rectangle([0, h - 45, w, h], fill=ground)
    for _ in range(r.randint(1, 3)):
        bx = r.randint(5, w - 40)
        bw = r.randint(14, 40)
        bh = r.randint(25, 70)
        col = r.choice(PALETTE)
        if r.random() < 0.5:
            d.polygon([(bx, h - 45), (bx + bw, h - 45), (bx + bw // 2, h - 45 - bh)], fill=col)
        else:
            d.rectangle([bx, h - 45 - bh, bx + bw, h - 45], fill=col)
            for wy in range(h - 40 - bh, h - 50, 10):
                d.rectangle([bx + 3, wy, bx + 7, wy + 4], fill=(250, 250, 210))


def _food(d, r, w, h):
    d.rectangle([0, 0, w, h], fill=r.choice([(139, 94, 60), (160, 82, 45), (210, 180, 140)]))
    d.ellipse([20, 8, w - 20, h - 22], fill=(250, 250, 250), outline=(200, 200, 200))
    d.ellipse([35, 18, w - 35, h - 32], fill=r.choice([(244, 208, 63), (230, 126, 34), (236, 240, 241)]))
    for _ in range(r.randint(5, 12)):
        x, y = r.randint(45, w - 55), r.randint(25, h - 45)
        s = r.randint(4, 10)
        d.ellipse([x, y, x + s, y + s], fill=r.choice(PALETTE))


def _animal(d, r, w, h):
    d.rectangle([0, 0, w, h], fill=r.choice([(120, 180, 90), (200, 220, 170), (150, 200, 230)]))
    col = r.choice([(120, 72, 40), (90, 90, 90), (230, 140, 40), (240, 240, 230), (30, 30, 30)])
    d.ellipse([40, 40, 110, 80], fill=col)
    d.ellipse([100, 28, 128, 56], fill=col)
    d.ellipse([116, 36, 120, 40], fill=(0, 0, 0))
    for lx in (50, 65, 85, 100):
        d.line([lx, 75, lx, 98], fill=col, width=4)
    d.line([40, 55, 25, 45], fill=col, width=3)


def _product(d, r, w, h):
    d.rectangle([0, 0, w, h], fill=(238, 238, 238))
    col = r.choice(PALETTE)
    d.rounded_rectangle([45, 15, 115, 92], radius=10, fill=col, outline=(60, 60, 60), width=2)
    d.rectangle([55, 25, 105, 55], fill=(250, 250, 250))
    d.ellipse([72, 65, 88, 81], fill=(40, 40, 40))


def _bars(d, r, w, h):
    d.rectangle([0, 0, w, h], fill=(255, 255, 255))
    d.line([15, 8, 15, h - 22], fill=(0, 0, 0))
    d.line([15, h - 22, w - 5, h - 22], fill=(0, 0, 0))
    n = r.randint(4, 7)
    bw = (w - 30) // n
    for i in range(n):
        bh = r.randint(10, h - 35)
        d.rectangle([20 + i * bw, h - 22 - bh, 20 + i * bw + bw - 4, h - 22], fill=PALETTE[(i + r.randint(0, 5)) % len(PALETTE)])


def _line(d, r, w, h):
    d.rectangle([0, 0, w, h], fill=(255, 255, 255))
    for gy in range(10, h - 20, 15):
        d.line([15, gy, w - 5, gy], fill=(225, 225, 225))
    d.line([15, 8, 15, h - 22], fill=(0, 0, 0))
    d.line([15, h - 22, w - 5, h - 22], fill=(0, 0, 0))
    for series in range(r.randint(1, 2)):
        y = r.randint(30, 80)
        pts = []
        for x in range(18, w - 5, 12):
            y = max(10, min(h - 25, y + r.randint(-12, 12)))
            pts.append((x, y))
        d.line(pts, fill=[(231, 76, 60), (41, 128, 185)][series], width=2)


def _pie(d, r, w, h):
    d.rectangle([0, 0, w, h], fill=(255, 255, 255))
    start = 0
    parts = [r.randint(10, 40) for _ in range(r.randint(3, 5))]
    total = sum(parts)
    for i, p in enumerate(parts):
        end = start + 360 * p / total
        d.pieslice([40, 8, 120, 88], start, end, fill=PALETTE[(i * 3 + r.randint(0, 2)) % len(PALETTE)])
        start = end


def _screen(d, r, w, h):
    d.rectangle([0, 0, w, h], fill=(30, 30, 40))
    d.rectangle([0, 0, w, 10], fill=(70, 70, 90))
    for i, c in enumerate([(255, 95, 86), (255, 189, 46), (39, 201, 63)]):
        d.ellipse([4 + i * 9, 2, 10 + i * 9, 8], fill=c)
    y = 15
    while y < h - 22:
        x = 6 + 8 * r.randint(0, 3)
        d.rectangle([x, y, x + r.randint(20, 120), y + 4], fill=r.choice([(200, 200, 200), (152, 195, 121), (97, 175, 239), (224, 108, 117), (229, 192, 123)]))
        y += 8


def _doc(d, r, w, h):
    d.rectangle([0, 0, w, h], fill=(200, 200, 200))
    d.rectangle([25, 4, w - 25, h - 18], fill=(252, 250, 240))
    d.rectangle([32, 10, 32 + r.randint(40, 80), 16], fill=(40, 40, 40))
    y = 22
    while y < h - 24:
        d.line([32, y, 32 + r.randint(50, 95), y], fill=(120, 120, 120), width=2)
        y += 6


def _map(d, r, w, h):
    d.rectangle([0, 0, w, h], fill=(170, 210, 240))
    pts = [(r.randint(10, 60), r.randint(5, 40)), (r.randint(90, 150), r.randint(5, 30)),
           (r.randint(110, 155), r.randint(60, 95)), (r.randint(20, 70), r.randint(70, 100))]
    d.polygon(pts, fill=(190, 220, 160), outline=(120, 150, 90))
    route = [(r.randint(30, 130), r.randint(20, 90)) for _ in range(4)]
    d.line(route, fill=(220, 40, 40), width=2)
    for x, y in route:
        d.ellipse([x - 3, y - 3, x + 3, y + 3], fill=(220, 40, 40))


def _poster(d, r, w, h):
    d.rectangle([0, 0, w, h], fill=r.choice(PALETTE))
    d.rectangle([30, 10, 130, 90], fill=r.choice(PALETTE), outline=(255, 255, 255), width=2)
    for _ in range(6):
        x, y = r.randint(35, 120), r.randint(15, 80)
        d.regular_polygon((x, y, 5), 5, fill=(255, 255, 255))


def _plant(d, r, w, h):
    d.rectangle([0, 0, w, h], fill=(235, 230, 215))
    d.polygon([(60, 70), (100, 70), (94, 100), (66, 100)], fill=(180, 90, 50))
    d.line([80, 70, 80, 25], fill=(40, 120, 40), width=3)
    for _ in range(r.randint(4, 8)):
        x, y = r.randint(55, 100), r.randint(20, 65)
        d.ellipse([x, y, x + 16, y + 8], fill=r.choice([(60, 160, 60), (150, 190, 60), (200, 200, 60)]))


def _diagram(d, r, w, h):
    d.rectangle([0, 0, w, h], fill=(250, 250, 255))
    boxes = [(10 + i * 50, r.randint(10, 60)) for i in range(3)]
    for x, y in boxes:
        d.rectangle([x, y, x + 38, y + 22], outline=(41, 128, 185), width=2, fill=(214, 234, 248))
    for (x1, y1), (x2, y2) in zip(boxes, boxes[1:]):
        d.line([x1 + 38, y1 + 11, x2, y2 + 11], fill=(80, 80, 80), width=2)


def _person(d, r, w, h):
    d.rectangle([0, 0, w, h], fill=r.choice([(200, 220, 240), (240, 230, 210)]))
    col = r.choice(PALETTE)
    d.ellipse([65, 12, 95, 42], fill=(225, 190, 160))
    d.rounded_rectangle([50, 45, 110, 104], radius=12, fill=col)


DRAWERS = {
    "photo": _photo, "food": _food, "animal": _animal, "product": _product, "chart": _bars,
    "line": _line, "pie": _pie, "screen": _screen, "doc": _doc, "map": _map, "poster": _poster,
    "plant": _plant, "diagram": _diagram, "person": _person,
}


def parse_spec(spec: str) -> tuple[str, str]:
    kind, _, caption = spec.partition(":")
    if kind not in DRAWERS:
        raise ValueError(f"unknown image kind {kind!r} in spec {spec!r}")
    return kind, caption


def extension(spec: str) -> str:
    return "jpg" if parse_spec(spec)[0] in JPEG_KINDS else "png"


def draw(spec: str, seed: str, size: tuple[int, int] = SIZE) -> Image.Image:
    kind, caption = parse_spec(spec)
    img = Image.new("RGB", SIZE, (255, 255, 255))
    DRAWERS[kind](ImageDraw.Draw(img), _rng(seed), *SIZE)
    _caption(img, caption)
    if size != SIZE:
        img = img.resize(size, Image.Resampling.BILINEAR)
    return img


def encode(img: Image.Image, fmt: str, exif=None) -> bytes:
    buf = io.BytesIO()
    if fmt == "jpg":
        kwargs = {"quality": 78}
        if exif is not None:
            kwargs["exif"] = exif
        img.save(buf, "JPEG", **kwargs)
    elif fmt == "png":
        img.save(buf, "PNG")
    elif fmt == "tiff":
        img.save(buf, "TIFF", compression="tiff_lzw")
    else:
        raise ValueError(fmt)
    return buf.getvalue()


def gps_exif(make: str, model: str, serial: str, lat, lat_ref: str, lon, lon_ref: str, when: str):
    """EXIF with camera make/model, a body serial number and a GPS position."""
    ex = Image.Exif()
    ex[0x010F] = make
    ex[0x0110] = model
    ex[0x0132] = when
    ex[0x8825] = {1: lat_ref, 2: lat, 3: lon_ref, 4: lon}
    ex.get_ifd(0x8769)[0xA431] = serial
    return ex

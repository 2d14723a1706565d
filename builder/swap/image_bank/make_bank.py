"""Draw the demo image bank for `mmrc-build swap --image-bank builder/swap/image_bank`.

Writes ``images/<slug>.png`` and ``captions.csv`` (image,caption; three captions each)
byte-identically on every run. Each picture is a small flat illustration of one thing the
bundled sample (raw/sample) names in its user turns (a place, dish, animal or item), drawn
with PIL ImageDraw shapes on a 4x canvas and scaled down. No text, letters or digits are
drawn: an image with its name written on it would give the answer away in an eval.
Run: ``.venv/bin/python builder/swap/image_bank/make_bank.py``.
"""

from __future__ import annotations

import csv
import hashlib
import io
import math
import random
from pathlib import Path

from PIL import Image, ImageColor, ImageDraw

HERE = Path(__file__).resolve().parent
SIZE = (200, 150)
S = 4  # drawn at S x SIZE, then scaled down: smooth edges

# (slug, kind, name, three captions)
BANK = [
    ("colosseum", "place", "Colosseum", ["The Colosseum, the ancient Roman amphitheatre in Rome", "Stone arches of the Colosseum in Rome, Italy", "A huge ruined arena in Rome"]),
    ("roman-forum", "place", "Roman Forum", ["Ruins and columns of the Roman Forum in Rome", "Ancient temples of the Roman Forum", "Old columns in the centre of Rome"]),
    ("eiffel-tower", "place", "Eiffel Tower", ["The Eiffel Tower in Paris seen from the Trocadero", "The Eiffel Tower, the iron lattice tower of Paris, France", "A tall iron tower over the Seine in Paris"]),
    ("fushimi-inari", "place", "Fushimi Inari", ["Red torii gates of the Fushimi Inari shrine in Kyoto", "A path through the orange gates of Fushimi Inari in Kyoto, Japan", "Fushimi Inari, a Shinto shrine with many red gates"]),
    ("tokyo", "place", "Tokyo", ["The Tokyo skyline at night, Japan", "The busy Shibuya crossing in Tokyo", "Neon streets of a Japanese city"]),
    ("monument-valley", "place", "Monument Valley", ["Red sandstone buttes of Monument Valley in Arizona and Utah", "Monument Valley, a desert valley with tall red rock towers", "Monument Valley Navajo Tribal Park at sunset"]),
    ("grand-canyon", "place", "Grand Canyon", ["The Grand Canyon seen from the South Rim, Arizona", "A deep red rock canyon with the Colorado River", "Layers of rock in the Grand Canyon"]),
    ("prague", "place", "Prague", ["The Charles Bridge and the old town of Prague", "Red roofs and church towers of Prague, Czech Republic", "A stone bridge over the river in Prague"]),
    ("amsterdam", "place", "Amsterdam", ["Canal houses and bicycles in Amsterdam", "A canal with narrow houses in Amsterdam, Netherlands", "Boats on an Amsterdam canal"]),
    ("machu-picchu", "place", "Machu Picchu", ["The Inca ruins of Machu Picchu in the Andes of Peru", "The end of the Inca Trail at the Sun Gate above Machu Picchu", "Stone terraces of a lost city in the mountains"]),
    ("alps", "place", "Alps", ["Snowy peaks of the Alps", "A mountain pass road in the Alps", "High alpine mountains in Switzerland"]),
    ("sphinx", "place", "Sphinx", ["The Great Sphinx and the pyramids of Giza, Egypt", "The Sphinx, a stone lion with a human head in the Egyptian desert", "The pyramids of Egypt behind the Sphinx"]),
    ("lincoln-memorial", "place", "Lincoln Memorial", ["The Lincoln Memorial in Washington, D.C.", "A white marble temple with a seated statue in Washington", "The columns of the Lincoln Memorial"]),
    ("flea-market", "place", "Flea market", ["Stalls of an outdoor flea market", "Second-hand goods on tables at a flea market", "People browsing an open-air market"]),
    ("birch-forest", "place", "Birch forest", ["A birch forest in Sweden", "White birch trees in a Scandinavian forest", "Tall thin trees with white bark"]),
    ("cafe", "place", "Cafe", ["A small cafe with tables and coffee", "The counter of a cosy coffee shop", "A corner cafe with a few chairs"]),
    ("bangkok", "place", "Bangkok", ["A street food market in Bangkok, Thailand", "Temples and traffic in Bangkok", "A night market in Bangkok"]),
    ("lisbon", "place", "Lisbon", ["A yellow tram on a hill in Lisbon, Portugal", "Old streets and tiled houses of Lisbon", "The river and red roofs of Lisbon"]),
    ("shrine", "place", "Shrine", ["A small shrine in a forest clearing", "An old stone shrine", "A shrine with a glowing altar"]),
    ("margherita-pizza", "dish", "Margherita pizza", ["A margherita pizza with tomato, mozzarella and basil", "A homemade pizza fresh out of the oven", "An Italian pizza on a wooden board"]),
    ("sushi", "dish", "Sushi", ["A platter of omakase sushi and nigiri", "Pieces of raw fish nigiri sushi on rice", "Japanese sushi served at a counter"]),
    ("banana-bread", "dish", "Banana bread", ["A loaf of homemade banana bread", "Sliced banana bread on a plate", "A sweet bread baked with bananas"]),
    ("muffins", "dish", "Muffins", ["A tray of freshly baked muffins", "Blueberry muffins in paper cups", "Small cakes baked in a muffin tin"]),
    ("sponge-cake", "dish", "Sponge cake", ["A light sponge cake with cream", "A slice of sponge cake", "A round layered cake"]),
    ("lasagne", "dish", "Lasagne", ["A dish of baked lasagne with cheese", "Layers of pasta, meat sauce and bechamel", "A slice of Italian lasagna"]),
    ("latte", "dish", "Latte", ["A cup of latte with milk foam art", "A coffee latte in a glass", "A milky espresso drink"]),
    ("matcha", "dish", "Matcha", ["A bowl of green matcha tea with wagashi sweets", "Japanese green tea whisked in a bowl", "Matcha tea set from Uji"]),
    ("roast-chicken", "dish", "Roast chicken", ["A roast chicken with rice for meal prep", "Grilled chicken breast and vegetables in boxes", "A plate of chicken and rice"]),
    ("cat", "animal", "Cat", ["A fluffy Maine Coon cat on a sofa", "A big long-haired cat", "A pet cat sitting at home"]),
    ("deer", "animal", "Deer", ["Sika deer in Nara Park, Japan", "A friendly deer bowing for crackers", "A young deer in a park"]),
    ("bird", "animal", "Bird", ["A small bird with a black cap on a branch", "A garden bird at a feeder", "A songbird in England"]),
    ("dog", "animal", "Dog", ["A dog playing in the garden", "A brown dog running", "A pet dog with a ball"]),
    ("camera", "item", "Camera", ["A digital camera with a zoom lens", "A compact photo camera", "A film camera on a table"]),
    ("smartphone", "item", "Phone", ["A smartphone with a cracked screen", "A used iPhone on a table", "A mobile phone showing its home screen"]),
    ("sofa", "item", "Sofa", ["A grey three-seat sofa in a living room", "An IKEA Kivik sofa", "A new couch with cushions"]),
    ("television", "item", "TV", ["A flat-screen TV on a stand", "A television in a living room", "A big TV on the wall"]),
    ("tomato-plants", "item", "Tomato plants", ["Tomato plants in pots on a balcony", "Green tomato plants with yellow leaves", "Young tomato plants growing"]),
    ("bed", "item", "Bed", ["A double bed with pillows", "A bedroom with a new bed", "A simple wooden bed frame"]),
    ("desk", "item", "Desk", ["A desk with a monitor and a lamp", "A wooden work desk in a home office", "A small writing desk"]),
    ("chair", "item", "Chair", ["A wooden dining chair", "An office chair", "A simple chair"]),
    ("running-shoes", "item", "Running shoes", ["A pair of running shoes", "Worn-out sneakers for running", "Two running shoes side by side"]),
    ("bike", "item", "Bike", ["A road bike leaning on a wall", "A used bicycle", "A racing bike with drop handlebars"]),
    ("headphones", "item", "Headphones", ["A pair of over-ear headphones", "Wireless headphones on a desk", "Black headphones"]),
    ("projector", "item", "Projector", ["A home cinema projector", "A small video projector on a shelf", "A beamer projecting on a wall"]),
]


def _rng(seed: str) -> random.Random:
    return random.Random(int(hashlib.sha256(seed.encode()).hexdigest()[:16], 16))


# ---- drawing kit: picture coordinates are 200x150, the canvas is S times larger ----

class Pen:
    """ImageDraw in picture coordinates; colours are "#rrggbb", "#rrggbbaa" (blended) or tuples."""

    def __init__(self, img: Image.Image):
        self.img, self.d = img, ImageDraw.Draw(img, "RGBA")

    def poly(self, pts, fill):
        self.d.polygon([(x * S, y * S) for x, y in pts], fill)

    def rect(self, x0, y0, x1, y1, fill, r=0, outline=None, width=1):
        self.d.rounded_rectangle([x0 * S, y0 * S, x1 * S - 1, y1 * S - 1], r * S, fill, outline, round(width * S))

    def ell(self, cx, cy, rx, ry, fill, outline=None, width=1):
        self.d.ellipse([(cx - rx) * S, (cy - ry) * S, (cx + rx) * S, (cy + ry) * S], fill, outline, round(width * S))

    def circle(self, cx, cy, r, fill, outline=None, width=1):
        self.ell(cx, cy, r, r, fill, outline, width)

    def line(self, pts, fill, width=1):
        self.d.line([(x * S, y * S) for x, y in pts], fill, max(1, round(width * S)), "curve")

    def arc(self, cx, cy, rx, ry, a0, a1, fill, width=1):
        self.d.arc([(cx - rx) * S, (cy - ry) * S, (cx + rx) * S, (cy + ry) * S], a0, a1, fill, round(width * S))

    def grad(self, y0, y1, top, bottom, x0=0, x1=200):
        """A vertical colour gradient over a band."""
        for i in range(round(y0 * S), round(y1 * S)):
            self.d.line([(x0 * S, i), (x1 * S - 1, i)], mix(top, bottom, (i / S - y0) / max(1, y1 - y0)))

    def striped(self, pts, colours, step):
        """A polygon filled with horizontal bands (rock strata)."""
        layer, mask = Image.new("RGB", self.img.size), Image.new("L", self.img.size, 0)
        for k, y in enumerate(range(0, SIZE[1], step)):
            ImageDraw.Draw(layer).rectangle([0, y * S, SIZE[0] * S, (y + step) * S], colours[k % len(colours)])
        ImageDraw.Draw(mask).polygon([(x * S, y * S) for x, y in pts], 255)
        self.img.paste(layer, (0, 0), mask)

    def draw(self, *shapes):
        """Several shapes at once, each a tuple (method name, its arguments...)."""
        for name, *args in shapes:
            getattr(self, name)(*args)


def mix(a, b, t):
    a, b = (ImageColor.getrgb(c) if isinstance(c, str) else c for c in (a, b))
    return tuple(round(a[i] + (b[i] - a[i]) * t) for i in range(3))


def dark(c, t=0.3):
    return mix(c, (0, 0, 0), t)


def rot(pts, cx, cy, deg):
    c, s = math.cos(math.radians(deg)), math.sin(math.radians(deg))
    return [(cx + x * c - y * s, cy + x * s + y * c) for x, y in pts]


def ell_pts(cx, cy, rx, ry, a0, a1, n=24):
    """Points along an ellipse from angle a0 to a1 (degrees, clockwise on screen as in PIL)."""
    return [(cx + rx * math.cos(math.radians(a0 + (a1 - a0) * k / n)),
             cy + ry * math.sin(math.radians(a0 + (a1 - a0) * k / n))) for k in range(n + 1)]


def arch_pts(x0, x1, top, bottom):
    """An arched opening: round top at `top`, straight sides down to `bottom`."""
    r = (x1 - x0) / 2
    return [(x0, bottom)] + ell_pts(x0 + r, top + r, r, r, 180, 360, 12) + [(x1, bottom)]


def leaf(p, cx, cy, length, width, deg, fill, vein=None):
    pts = [(length * math.cos(t), width * math.sin(t) * abs(math.sin(t)) ** 0.5)
           for t in (2 * math.pi * k / 24 for k in range(24))]
    p.poly(rot(pts, cx, cy, deg), fill)
    if vein:
        p.line(rot([(-length * 0.8, 0), (length * 0.8, 0)], cx, cy, deg), vein, 0.5)


# ---- shared scenery and objects ----

def sky(p, top="#78afeb", bottom="#d7e8f5", y1=150):
    p.grad(0, y1, top, bottom)


def wood(p, y0, y1, col):
    p.rect(0, y0, 200, y1, col)
    for y in range(int(y0) + 6, int(y1), 9):
        p.line([(0, y), (70, y + 1), (140, y - 1), (200, y)], dark(col, 0.12), 0.6)


def room(p, wall, floor, y):
    p.grad(0, y, mix(wall, "#ffffff", 0.2), wall)
    wood(p, y, 150, floor)


def cloud(p, x, y, s=1.0):
    for dx, dy, r in ((-10, 2, 7), (0, -3, 9), (11, 1, 7), (3, 4, 8)):
        p.circle(x + dx * s, y + dy * s, r * s, "#ffffff")


def tree(p, x, y, h, leafc="#46873c", flat=False):
    p.rect(x - h * 0.05, y - h * 0.6, x + h * 0.05, y, "#6e4b2d")
    if flat:  # umbrella pine
        return p.ell(x, y - h * 0.82, h * 0.42, h * 0.17, leafc)
    for dx, dy, r in ((-0.16, -0.55, 0.22), (0.16, -0.55, 0.22), (0, -0.78, 0.26)):
        p.circle(x + dx * h, y + dy * h, r * h, leafc)


def pine(p, x, y, h, col="#285f37"):
    p.rect(x - 1.5, y - h * 0.2, x + 1.5, y, "#64462d")
    for k in range(3):
        w, top = h * (0.32 - k * 0.07), y - h * (0.15 + k * 0.28)
        p.poly([(x - w, top), (x, top - h * 0.42), (x + w, top)], col)


def column(p, x, y0, y1, w, col):
    p.draw(("rect", x - w / 2, y0, x + w / 2, y1, col), ("rect", x + w / 6, y0, x + w / 2, y1, dark(col, 0.12)),
           ("line", [(x - w / 4, y0 + 2), (x - w / 4, y1 - 2)], dark(col, 0.2), 0.5),
           ("rect", x - w / 2 - 2, y0 - 3, x + w / 2 + 2, y0 + 1, col, 0, dark(col, 0.25), 0.5),
           ("rect", x - w / 2 - 1.5, y1 - 2, x + w / 2 + 1.5, y1, col, 0, dark(col, 0.25), 0.5))


def awning(p, x0, x1, y, h, c1, c2="#faf8f0", n=6):
    w = (x1 - x0) / n
    for k in range(n):
        c = c1 if k % 2 == 0 else c2
        p.poly([(x0 + k * w, y), (x0 + (k + 1) * w, y), (x0 + (k + 1) * w + 3, y + h), (x0 + k * w + 3, y + h)], c)
        p.ell(x0 + k * w + w / 2 + 3, y + h, w / 2, w / 3, c)


def person(p, x, y, h, col):
    for sx in (-1, 1):
        p.line([(x + sx * h * 0.06, y - h * 0.4), (x + sx * h * 0.07, y)], "#3c3c50", h * 0.09)
    p.rect(x - h * 0.14, y - h * 0.78, x + h * 0.14, y - h * 0.36, col, r=h * 0.06)
    p.circle(x, y - h * 0.88, h * 0.11, "#ebc3a0")


def bicycle(p, x, y, s, col, drop=True):
    """A bicycle, its rear hub at (x, y), s = scale (1 -> wheels of radius 32)."""
    P = lambda u, v: (x + u * s, y + v * s)
    for hx in (0, 100):
        for a in range(0, 180, 20):
            c, sn = 29 * math.cos(math.radians(a)) * s, 29 * math.sin(math.radians(a)) * s
            p.line([(x + hx * s - c, y - sn), (x + hx * s + c, y + sn)], "#96969b", 0.4 * max(s, 0.5))
        p.draw(("circle", *P(hx, 0), 31 * s, None, "#1e1e1e", 4 * s), ("circle", *P(hx, 0), 3 * s, "#5a5a5a"))
    p.line([P(0, -2), P(42, -7), P(40, 3), P(0, 2)], "#3c3c3c", 1 * s)  # chain
    for a, b in (((0, 0), (42, 5)), ((0, 0), (32, -45)), ((42, 5), (32, -45)), ((32, -45), (88, -42)),
                 ((42, 5), (91, -32)), ((88, -42), (92, -30)), ((92, -30), (100, 0)), ((32, -45), (29, -54)),
                 ((88, -42), (90, -52))):
        p.line([P(*a), P(*b)], col, 3.2 * s)
    p.draw(("circle", *P(42, 5), 8 * s, None, "#3c3c3c", 1.5 * s), ("line", [P(42, 5), P(48, 16)], "#323232", 2 * s),
           ("poly", [P(18, -57), P(40, -58), P(37, -53), P(20, -54)], "#1e1e1e"))  # chainring, crank, saddle
    bar = [P(90, -52), P(100, -52)] + [P(100 + 6 * math.sin(math.radians(a)), -46 - 6 * math.cos(math.radians(a)))
                                          for a in range(0, 200, 20)]
    p.line(bar + [P(96, -39)] if drop else [P(78, -58), P(90, -52), P(96, -54)], "#1e1e1e", 2.2 * s)


def couch(p, x0, y0, x1, y1, col):
    h, aw = y1 - y0, (x1 - x0) * 0.09
    p.rect(x0 + aw * 0.5, y0, x1 - aw * 0.5, y0 + h * 0.6, dark(col, 0.08), r=6)
    cw = (x1 - x0 - 2 * aw) / 3
    for cx in (x0 + aw + k * cw for k in range(3)):
        p.draw(("rect", cx + 1, y0 + 3, cx + cw - 1, y0 + h * 0.56, col, 5),
               ("rect", cx + 1, y0 + h * 0.5, cx + cw - 1, y0 + h * 0.7, mix(col, "#ffffff", 0.12), 5))
    p.rect(x0 + aw * 0.5, y0 + h * 0.68, x1 - aw * 0.5, y0 + h * 0.86, dark(col, 0.15))
    for ax, lx in ((x0, x0 + aw * 0.6), (x1 - aw, x1 - aw * 0.6 - 4)):  # arms and legs
        p.draw(("rect", ax, y0 + h * 0.3, ax + aw, y0 + h * 0.86, col, 6),
               ("rect", lx, y0 + h * 0.86, lx + 4, y1, "#463223"))


def peak(p, x, base, hw, top, rock, snow=0.35):
    yc, f = top + (base - top) * snow, hw * snow
    p.draw(("poly", [(x - hw, base), (x, top), (x + hw, base)], rock),
           ("poly", [(x, top), (x + hw, base), (x + hw * 0.15, base)], dark(rock, 0.15)),
           ("poly", [(x, top), (x + f, yc), (x + f * 0.5, yc - 4), (x + f * 0.1, yc + 3), (x - f * 0.35, yc - 3),
                     (x - f * 0.7, yc + 2), (x - f, yc)], "#f8faff"))


def lattice_tower(p, cx, top, bottom, hw, col, line, bands=None):
    """A tapering iron tower; hw(y) is its half width, `bands` a second colour every other 14 px."""
    ys = list(range(top, bottom + 1, 2))
    p.poly([(cx - hw(y), y) for y in ys] + [(cx + hw(y), y) for y in reversed(ys)], col)
    for y in range(top, bottom, 28) if bands else ():
        yb = min(y + 14, bottom)
        p.poly([(cx - hw(y), y), (cx + hw(y), y), (cx + hw(yb), yb), (cx - hw(yb), yb)], bands)
    for y in range(top + 4, bottom - 4, 5):
        p.line([(cx - hw(y), y), (cx + hw(y + 5), y + 5)], line, 0.5)
        p.line([(cx + hw(y), y), (cx - hw(y + 5), y + 5)], line, 0.5)


# ---- one function per picture, named after its slug ----


def colosseum(p, rng):
    sky(p, "#69a5e1", "#d2e4f2")
    p.rect(0, 118, 200, 150, "#c4b696")
    stone, hole, T = "#dabe91", "#6e543c", 1.25
    X = lambda t: 100 + 92 * math.sin(t)
    Y = lambda y, t: y - (122 - y) * 0.1 * math.cos(t)  # the curved wall bulges towards us
    p.poly([(X(t), Y(y, t)) for t, y in ((0.25, 40), (T, 52), (T, 90), (0.25, 90))], "#af9169")  # inner ring
    for i, (y0, y1, tmax) in enumerate([(122, 96, T), (96, 70, T), (70, 46, 0.75), (46, 28, 0.3)]):
        ts = [-T + (tmax + T) * k / 40 for k in range(41)]
        p.poly([(X(t), Y(y1, t)) for t in ts] + [(X(t), Y(y0, t)) for t in reversed(ts)], stone)
        p.line([(X(t), Y(y1, t)) for t in ts], "#a0825c", 1.5)
        dt = 2 * T / 15
        for k in range(int((tmax + T) / dt)):  # arches, narrower towards the sides
            tc = -T + dt * (k + 0.5)
            xa, xb = X(tc - dt * 0.3), X(tc + dt * 0.3)
            if i < 3:
                p.poly(arch_pts(xa, xb, Y(y1 + 4, tc), Y(y0 - 1, tc)), hole)
            elif k % 2 == 0:
                p.rect(xa, Y(y1 + 6, tc), xb, Y(y1 + 11, tc), hole)
    p.poly([(X(t), Y(y, t)) for t, y in ((0.6, 122), (T, 122), (T, 70), (0.6, 70))], "#00000028")


def roman_forum(p, rng):
    sky(p)
    tan, hole = "#e1cda5", "#8c7355"
    p.draw(("rect", 0, 110, 200, 150, "#96a05f"), ("poly", [(0, 132), (200, 122), (200, 150), (0, 150)], "#cdbe9b"),
           ("rect", 128, 52, 196, 114, tan), ("rect", 125, 42, 199, 54, dark(tan, 0.08)),  # triumphal arch
           ("poly", arch_pts(152, 172, 66, 114), hole), ("poly", arch_pts(134, 146, 82, 114), hole),
           ("poly", arch_pts(178, 190, 82, 114), hole))
    tree(p, 112, 112, 78, "#4b733c", flat=True)
    for x in range(18, 100, 16):
        column(p, x, 40, 114, 9, tan)
    p.draw(("rect", 8, 28, 108, 37, tan, 0, hole, 0.6), ("line", [(8, 33), (108, 33)], hole, 0.6),
           ("poly", [(8, 28), (20, 24), (60, 26), (70, 22), (108, 27), (108, 28)], tan))
    for x, top in ((108, 98), (122, 106), (60, 122)):  # broken columns
        p.draw(("rect", x - 5, top, x + 5, 128, tan),
               ("poly", [(x - 5, top), (x - 2, top - 4), (x + 1, top - 1), (x + 5, top - 5), (x + 5, top)], tan))
    for x, y, w, h in ((14, 128, 22, 9), (140, 126, 26, 8), (170, 134, 14, 10)):
        p.rect(x, y, x + w, y + h, tan, outline=hole, width=0.6)


def eiffel_tower(p, rng):
    sky(p, "#6eaaeb", "#e1ebf5")
    p.rect(0, 134, 200, 150, "#6ea050")
    for x in (10, 30, 168, 188):
        tree(p, x, 142, 24, "#3c783c")
    iron, line = "#826248", "#503c2d"
    hw = lambda y: 2.5 + 43 * ((y - 8) / 132) ** 2.2
    lattice_tower(p, 100, 8, 116, hw, iron, line)
    p.poly([(100 - hw(116) * 0.45, 116), (100, 93), (100 + hw(116) * 0.45, 116)], mix("#6eaaeb", "#e1ebf5", 0.75))
    inner = lambda y: 24 * math.sqrt(max(0.0, 1 - ((140 - y) / 26) ** 2))  # the great arch between the legs
    for side in (-1, 1):
        p.poly([(100 + side * hw(y), y) for y in range(116, 141, 2)] +
               [(100 + side * inner(y), y) for y in range(140, 115, -2)], iron)
        for y in range(118, 138, 5):
            p.line([(100 + side * hw(y), y), (100 + side * inner(y + 5), y + 5)], line, 0.5)
    for y in (116, 89):
        p.rect(100 - hw(y) - 4, y - 2.5, 100 + hw(y) + 4, y + 2.5, line)
    p.draw(("rect", 96, 19, 104, 25, line), ("line", [(100, 1), (100, 10)], line, 1))


def torii(p, vx, vy, s, col):
    P = lambda dx, dy: (vx + dx * s, vy + dy * s)
    black = mix("#191414", col, 0.2)
    for x in (-48, 48):
        p.draw(("rect", *P(x - 4.5, -32), *P(x + 4.5, 92), col), ("rect", *P(x - 5, 78), *P(x + 5, 92), black))
    p.draw(("rect", *P(-60, -22), *P(60, -14), col), ("rect", *P(-3, -32), *P(3, -22), col),
           ("poly", [P(-62, -38), P(62, -38), P(60, -31), P(-60, -31)], col),
           ("poly", [P(-72, -47), P(0, -42), P(72, -47), P(66, -38), P(-66, -38)], black))


def fushimi_inari(p, rng):
    p.grad(0, 150, "#193c23", "#507341")
    p.draw(("poly", [(100, 64), (150, 150), (50, 150)], "#a58c69"), ("ell", 100, 62, 9, 13, "#f0f0c8"))
    for s in (0.28, 0.36, 0.46, 0.58, 0.74, 0.94, 1.2):  # a tunnel of gates, far to near
        torii(p, 100, 64, s, mix("#eb5019", "#28281e", (1.2 - s) * 0.35))


def tokyo(p, rng):
    sky(p, "#0a0e2d", "#4b2d69")
    for _ in range(30):
        p.circle(rng.uniform(0, 200), rng.uniform(0, 60), 0.6, "#f0f0ff")
    p.circle(28, 22, 8, "#f5f0d2")
    hw, red, white = (lambda y: 1.5 + 26 * ((y - 14) / 136) ** 1.7), "#f05f2d", "#f5ebe1"
    lattice_tower(p, 138, 14, 150, hw, white, "#c85032", bands=red)  # Tokyo Tower
    p.draw(("rect", 138 - hw(82) - 5, 76, 138 + hw(82) + 5, 86, white),
           ("rect", 138 - hw(82) - 5, 80, 138 + hw(82) + 5, 83, "#ffd278"),
           ("rect", 138 - hw(46) - 3, 42, 138 + hw(46) + 3, 48, red), ("line", [(138, 2), (138, 14)], red, 1))
    x = 0
    while x < 200:  # skyline with lit windows and neon signs
        w = rng.randint(16, 30)
        h = rng.randint(30, 48) if 110 < x + w / 2 < 166 else rng.randint(45, 100)
        p.rect(x, 150 - h, x + w - 1.5, 150, mix("#191e3c", "#3c375a", rng.random()))
        for wy in range(int(150 - h) + 4, 146, 6):
            for wx in range(int(x) + 3, int(x + w) - 4, 5):
                p.rect(wx, wy, wx + 2.5, wy + 3, "#ffdc78" if rng.random() < 0.5 else "#2d3250")
        if rng.random() < 0.4:
            p.rect(x + 1, 150 - h + 6, x + 4, 150 - h + 30, rng.choice(["#ff3caa", "#3ce6ff", "#ff5a3c"]))
        x += w


def butte(p, x0, x1, top, spire=None):
    rock = "#c35a32"
    p.draw(("poly", [(x0 - 16, 112), (x0 + 2, 92), (x1 - 2, 92), (x1 + 16, 112)], "#aa5230"),
           ("poly", [(x0, 93), (x0 + 1, top + 3), (x0 + 5, top), (x1 - 4, top + 1), (x1, top + 4), (x1, 93)], rock),
           ("rect", x1 - (x1 - x0) * 0.3, top + 3, x1, 93, dark(rock, 0.25)))
    for lx in range(int(x0) + 5, int(x1) - 3, 6):
        p.line([(lx, top + 6), (lx, 90)], dark(rock, 0.12), 0.6)
    if spire:
        p.draw(("rect", spire, top + 14, spire + 6, 93, rock, 3),
               ("rect", spire + 4, top + 14, spire + 6, 93, dark(rock, 0.25)))


def monument_valley(p, rng):
    sky(p, "#5f78be", "#fab978", 112)
    p.poly([(0, 112), (0, 104), (60, 106), (120, 103), (200, 105), (200, 112)], "#a06e78")
    p.grad(112, 150, "#cd7341", "#af552d")
    butte(p, 18, 56, 40, spire=62)
    butte(p, 112, 150, 46, spire=98)
    butte(p, 168, 196, 62)
    for x, y in ((20, 135), (60, 128), (110, 140), (150, 130), (185, 142)):
        p.ell(x, y, 5, 2.5, "#828c5a")


def grand_canyon(p, rng):
    sky(p, "#64a0e1", "#d7e1f0", 60)
    rock = ["#d77d50", "#eeb482", "#be6441", "#f0cda5", "#c8734b", "#af5a46"]
    haze = "#beafd2"
    for k, base in enumerate((34, 50, 68, 88)):  # stepped ridges, hazy in the distance
        pts, x, y = [(0, 150), (0, base)], 0, base
        while x < 200:
            x += rng.uniform(12, 30)
            pts.append((x, y))
            y = base + rng.uniform(-9, 6)
            pts.append((x + 3, y))
        p.striped(pts + [(200, 150)], [mix(c, haze, 0.65 - k * 0.17) for c in rock], 2 + k)
    p.striped([(0, 150), (0, 96), (30, 96), (34, 106), (58, 106), (64, 122), (84, 124), (94, 150)], rock, 4)
    p.striped([(200, 150), (200, 98), (172, 98), (166, 110), (140, 112), (132, 126), (116, 128), (108, 150)],
              [dark(c, 0.2) for c in rock], 4)
    p.draw(("poly", [(84, 124), (116, 128), (110, 150), (92, 150)], "#28141e5a"),  # shadowed gorge, river
           ("poly", [(90, 150), (96, 138), (104, 132), (114, 129), (110, 150)], "#3c827d"))


def prague(p, rng):
    sky(p, "#96bee6", "#ebdcd2")
    for k, x in enumerate(range(0, 200, 18)):  # old town roofs
        y = 66 + (k * 7) % 12
        p.draw(("rect", x, y, x + 17, 100, "#ebdcbe"),
               ("poly", [(x - 1, y), (x + 8.5, y - 10), (x + 18, y)], "#c85537"))
    spire = "#3c4146"
    for sx in (140, 156):  # a church with two gothic spires
        p.draw(("rect", sx, 38, sx + 12, 90, "#5a5550"), ("poly", [(sx - 1, 38), (sx + 6, 8), (sx + 13, 38)], spire),
               ("poly", [(sx - 2, 38), (sx, 28), (sx + 2, 38)], spire),
               ("poly", [(sx + 10, 38), (sx + 12, 28), (sx + 14, 38)], spire))
    p.rect(0, 100, 200, 150, "#557d96")
    p.rect(0, 88, 200, 124, "#78695a")  # the stone bridge on its arches, with statues
    for x in range(50, 200, 38):
        p.poly(arch_pts(x, x + 30, 102, 124), "#41647d")
    for x in range(58, 200, 19):
        p.draw(("rect", x, 80, x + 3, 88, "#322d2d"), ("circle", x + 1.5, 79, 2, "#322d2d"))
    p.draw(("rect", 8, 36, 46, 124, "#5f5550"), ("poly", [(4, 38), (27, 6), (50, 38)], spire),  # bridge tower
           ("poly", [(3, 40), (6, 26), (9, 40)], spire), ("poly", [(41, 40), (44, 26), (47, 40)], spire),
           ("poly", arch_pts(18, 36, 72, 104), "#2d2828"))
    for y in range(128, 150, 6):
        p.line([(0, y), (200, y)], "#6e96af", 0.5)


def amsterdam(p, rng):
    sky(p, "#8cbeeb", "#e1ebf5")
    cols = ["#824632", "#ebdcb9", "#5f2d2d", "#3c504b", "#a55f3c", "#28282d"]
    for k, c in enumerate(cols):  # narrow canal houses with step and neck gables
        x, w, top = 4 + k * 32, 30, 24 + (k * 13) % 20
        p.rect(x, top + 14, x + w, 100, c)
        if k % 2 == 0:
            for s in range(3):
                p.rect(x + s * 4, top + 9 - s * 5, x + w - s * 4, top + 14 - s * 5, c)
        else:
            p.draw(("rect", x + 7, top + 2, x + w - 7, top + 14, c),
                   ("poly", [(x + 7, top + 2), (x + w / 2, top - 6), (x + w - 7, top + 2)], c))
        hy = top - 6 if k % 2 == 0 else top + 2  # hoist beam door
        p.rect(x + w / 2 - 3, hy, x + w / 2 + 3, hy + 6, "#fafaf5")
        for wy in range(top + 20, 92, 15):
            for wx in (x + 5, x + 17):
                p.rect(wx, wy, wx + 8, wy + 10, "#465564", outline="#3c3c3c" if k == 1 else "#fafaf5")
    p.rect(0, 100, 200, 106, "#968c82")
    bicycle(p, 30, 96, 0.12, "#28282d", drop=False)
    p.rect(0, 106, 200, 150, "#3c6473")
    for k, c in enumerate(cols):  # reflections
        p.rect(4 + k * 32, 108, 34 + k * 32, 125, mix(c, "#3c6473", 0.6))
    for y in range(110, 150, 6):
        p.line([(0, y), (200, y + 1)], "#6e96a5", 0.6)
    p.draw(("poly", [(100, 126), (180, 126), (172, 136), (108, 136)], "#783c28"),
           ("rect", 118, 119, 160, 126, "#e6e6e1", 2))


def machu_picchu(p, rng):
    sky(p, "#78afe6", "#dcebf5")
    p.draw(("poly", [(0, 95), (0, 60), (30, 40), (70, 70), (100, 95)], "#788c96"),
           ("poly", [(70, 100), (108, 40), (122, 18), (138, 12), (150, 22), (165, 60), (200, 100)], "#377341"),
           ("poly", [(138, 12), (150, 22), (165, 60), (200, 100), (160, 100)], "#285f37"),
           ("rect", 0, 96, 200, 150, "#46783c"))  # Huayna Picchu behind the terraces
    cloud(p, 60, 40, 1.2)
    for k in range(6):  # stone-walled terraces
        y = 96 + k * 9
        p.draw(("rect", 0, y, 200 - k * 10, y + 9, "#78af50" if k % 2 else "#69a046"),
               ("rect", 0, y + 7, 200 - k * 10, y + 9, "#969187"))
    stone = "#afaaa0"
    for x, y in ((25, 96), (55, 96), (140, 96), (75, 105)):  # roofless stone houses with gables
        p.draw(("poly", [(x, y), (x, y - 12), (x + 8, y - 20), (x + 16, y - 12), (x + 16, y)], stone),
               ("poly", [(x + 5, y), (x + 6, y - 8), (x + 10, y - 8), (x + 11, y)], "#46413c"),
               ("rect", x + 16, y - 12, x + 30, y, dark(stone, 0.1)))


def alps(p, rng):
    sky(p, "#3c78d2", "#b9d7f5")
    for x, hw, top in ((30, 55, 40), (170, 60, 35), (100, 50, 48)):
        peak(p, x, 100, hw, top, "#828ca0")
    peak(p, 70, 112, 55, 14, "#6e696e", 0.4)
    peak(p, 150, 112, 50, 30, "#787378")
    p.draw(("poly", [(0, 150), (0, 100), (60, 108), (130, 102), (200, 108), (200, 150)], "#64a550"),
           ("line", [(150, 104), (120, 114), (160, 124), (90, 136), (120, 150)], "#969696", 3))  # pass road
    for x, y in ((15, 130), (28, 138), (182, 128), (195, 136), (60, 146)):
        pine(p, x, y, 24)


def sphinx(p, rng):
    sky(p, "#82b9eb", "#f0e1c3", 110)
    p.grad(100, 150, "#e8c88c", "#d7af73")
    for cx, half, apex in ((150, 50, 22), (92, 32, 52)):  # pyramids
        p.draw(("poly", [(cx - half, 106), (cx, apex), (cx + half, 106)], "#eed4a5"),
               ("poly", [(cx, apex), (cx + half, 106), (cx + half * 0.3, 106)], "#c8a876"))
    body, shade, face = "#be8c50", "#8c6237", "#cd9e62"
    p.draw(("rect", 44, 98, 182, 128, body, 12), ("ell", 166, 102, 22, 18, body),  # lion body lying to the right
           ("rect", 12, 118, 66, 132, body, 5), ("line", [(14, 125), (62, 125)], shade, 0.8),  # paws
           ("line", [(70, 112), (150, 110)], shade, 0.8), ("line", [(178, 122), (196, 126), (198, 120)], body, 3))
    p.poly([(30, 108), (33, 70), (40, 46), (52, 36), (66, 36), (78, 46), (85, 70), (88, 108)], "#c8a569")  # nemes
    for y in range(70, 106, 5):  # striped lappets
        p.draw(("line", [(32, y), (43, y)], shade, 1), ("line", [(75, y), (86, y)], shade, 1))
    p.draw(("rect", 43, 46, 75, 86, face, 12), ("rect", 48, 84, 70, 104, face),
           ("line", [(48, 60), (55, 60)], shade, 1.5), ("line", [(63, 60), (70, 60)], shade, 1.5),
           ("poly", [(57, 62), (61, 62), (63, 72), (55, 72)], shade), ("line", [(53, 78), (65, 78)], shade, 1))


def lincoln_memorial(p, rng):
    sky(p, "#6eaae6", "#dce8f5", 110)
    marble, shadow = "#f2f0e8", "#cdcdc8"
    p.draw(("rect", 0, 96, 200, 112, "#6e965a"), ("rect", 30, 48, 170, 98, "#5f5f69"),
           ("rect", 92, 72, 108, 96, "#e1e1dc"), ("circle", 100, 68, 4.5, "#e1e1dc"),  # seated statue
           ("rect", 90, 84, 110, 98, "#c8c8c3"))
    for x in range(34, 170, 13):
        if not 92 < x < 108:
            column(p, x, 48, 98, 7, marble)
    p.rect(24, 34, 176, 47, marble)
    for x in range(28, 174, 6):
        p.rect(x, 36, x + 3, 40, shadow)
    p.draw(("rect", 40, 22, 160, 34, marble), ("line", [(40, 34), (160, 34)], shadow, 1))
    for k in range(4):
        p.rect(20 - k * 4, 98 + k * 3, 180 + k * 4, 101 + k * 3, mix(marble, shadow, k / 4))
    p.draw(("rect", 0, 112, 200, 150, "#5f87a5"), ("rect", 40, 114, 160, 130, "#82a5be"))  # reflecting pool
    for y in range(116, 150, 5):
        p.line([(0, y), (200, y)], "#96b4c8", 0.5)


def market_goods(p, x, g, c):
    """One of five things on a flea market table, standing on y = 86."""
    shapes = [[("ell", x + 4, 80, 5, 6, c), ("rect", x + 2, 70, x + 6, 76, c)],  # vase
              [("rect", x - b, 80 - b * 4, x + 9 - b, 84 - b * 4, mix(c, "#ffffff", b * 0.25)) for b in range(3)],
              [("circle", x + 4, 78, 6, "#f5f0e1", c, 1.5),  # clock
               ("line", [(x + 4, 74), (x + 4, 78), (x + 7, 79)], "#282828", 0.7)],
              [("rect", x, 70, x + 10, 86, c, 0, "#966e3c", 1.5)],  # picture frame
              [("poly", [(x, 86), (x + 3, 74), (x + 7, 74), (x + 10, 86)], c),  # lamp
               ("rect", x + 4, 68, x + 6, 74, "#505050")]]
    p.draw(*shapes[g])


def flea_market(p, rng):
    sky(p, "#96c8f0", "#e6eef5", 90)
    p.rect(0, 90, 200, 150, "#c8beaa")
    goods = ["#c8963c", "#5a3c82", "#3c96a0", "#be5a46", "#787878"]
    for k, c in enumerate(["#dc3c32", "#326ebe", "#3c9650"]):  # stalls with striped awnings
        x = 6 + k * 66
        for px in (x + 2, x + 56):
            p.rect(px, 40, px + 2.5, 110, "#5a5046")
        awning(p, x, x + 60, 30, 12, c, n=5)
        p.draw(("rect", x - 2, 86, x + 62, 92, "#966e46"), ("rect", x, 92, x + 60, 112, "#e6dcc8"))
        for j in range(4):
            market_goods(p, x + 6 + j * 14, (k * 4 + j) % 5, goods[(k + j) % 5])
    for x, c in ((40, "#c85050"), (95, "#5050a0"), (150, "#5a8c5a"), (182, "#b4963c")):
        person(p, x, 146, 40, c)


def birch_forest(p, rng):
    p.grad(0, 150, "#d7ebaa", "#96be6e")
    for k in range(12):  # far trunks, pale
        x = 8 + k * 17 + rng.uniform(-4, 4)
        p.rect(x, 0, x + 3, 118, "#e1e6d7")
    for _ in range(40):
        p.circle(rng.uniform(0, 200), rng.uniform(0, 40), rng.uniform(6, 14), "#aac850aa")
    p.rect(0, 118, 200, 150, "#649641")
    for k in range(8):  # white trunks with black marks
        x, w, bottom = 6 + k * 25 + rng.uniform(-5, 5), rng.uniform(5, 9), 128 + rng.uniform(0, 18)
        p.draw(("rect", x, 0, x + w, bottom, "#f5f5ee"), ("rect", x + w * 0.7, 0, x + w, bottom, "#d2d2cd"))
        for _ in range(9):
            y, mw = rng.uniform(0, bottom - 4), rng.uniform(0.4, 1.0) * w
            mx = x + rng.choice([0, w - mw])
            p.rect(mx, y, mx + mw, y + rng.uniform(1.5, 3), "#232323")
    for _ in range(25):
        x = rng.uniform(0, 200)
        p.line([(x, 150), (x + rng.uniform(-4, 4), 150 - rng.uniform(6, 14))], "#468232", 1)


def cafe(p, rng):
    glass = "#3c4b55"
    p.draw(("rect", 0, 0, 200, 150, "#ebd7b4"), ("rect", 0, 120, 200, 150, "#b4aaa0"),
           ("rect", 20, 40, 180, 120, "#644632"), ("rect", 26, 46, 120, 118, glass),  # shop front, window, door
           ("poly", [(30, 50), (50, 50), (34, 110), (30, 110)], "#ffffff32"), ("rect", 128, 48, 172, 120, "#503728"),
           ("rect", 132, 52, 168, 84, glass), ("circle", 164, 100, 2, "#dcbe5a"))
    awning(p, 12, 188, 22, 16, "#286e46", n=8)
    for x in (14, 186):
        p.draw(("rect", x - 8, 104, x + 8, 122, "#aa5a3c"), ("circle", x, 98, 10, "#3c823c"))
    iron, cup = "#3c3c3c", "#fafafa"
    p.draw(("ell", 86, 112, 30, 6, "#e6e6e6"), ("rect", 84, 112, 88, 142, iron), ("ell", 86, 143, 14, 3, iron))
    for cx in (74, 98):  # two coffees on the bistro table
        p.draw(("ell", cx, 109, 7, 2, cup), ("rect", cx - 4, 101, cx + 4, 109, cup, 2),
               ("arc", cx + 5, 105, 3, 3, 270, 90, cup, 1.2),
               ("ell", cx, 101, 4, 1.2, "#784b28"))
    for cx, d in ((40, -1), (132, 1)):  # bistro chairs
        p.draw(("rect", cx - 12, 118, cx + 12, 122, iron), ("line", [(cx - d * 12, 120), (cx - d * 14, 88)], iron, 2),
               ("line", [(cx - 10, 122), (cx - 12, 146)], iron, 1.5),
               ("line", [(cx + 10, 122), (cx + 12, 146)], iron, 1.5))


def bangkok(p, rng):
    sky(p, "#6e5a96", "#faaf6e", 120)
    gold, red, green = "#ebb93c", "#c83228", "#28786e"
    for k in range(7):  # golden stupa behind
        w = 18 - k * 2.3
        p.rect(160 - w, 90 - k * 10, 160 + w, 100 - k * 10, gold if k % 2 else dark(gold, 0.12), r=3)
    p.draw(("line", [(160, 30), (160, 16)], gold, 1.5), ("rect", 30, 86, 130, 124, "#f5f0e6"))
    for k, (y, half) in enumerate(((86, 62), (66, 46), (48, 30))):  # tiered temple roofs with golden finials
        apex = y - 30 + k * 4
        p.draw(("poly", [(80 - half, y), (80, apex), (80 + half, y)], red),
               ("poly", [(80 - half, y), (80, apex), (80 + half, y), (80 + half - 4, y), (80, apex + 4),
                         (80 - half + 4, y)], green),
               ("line", [(80 - half - 2, y), (80, apex), (80 + half + 2, y)], gold, 1.2))
        for sx in (-1, 1):
            p.line([(80 + sx * (half + 2), y), (80 + sx * (half + 5), y - 6), (80 + sx * (half + 2), y - 9)], gold, 1.2)
    p.draw(("line", [(80, 28), (80, 12)], gold, 1.5), ("poly", arch_pts(70, 90, 96, 124), gold),
           ("rect", 0, 124, 200, 150, "#505055"),
           ("line", ell_pts(100, -10, 110, 40, 20, 160), "#281e1e", 0.5))
    for x in (40, 52, 108, 120):
        p.rect(x, 94, x + 5, 110, "#786450")
    for k, (x, y) in enumerate(ell_pts(100, -10, 110, 40, 25, 155, 10)):  # lanterns
        p.ell(x, y + 4, 3.5, 4.5, ["#fa503c", "#ffc83c", "#fa78b4"][k % 3])
    tuk = "#2878c8"  # a tuk-tuk: canopy on posts, open cab, one front wheel
    p.draw(("rect", 116, 98, 184, 104, "#1e1e28", 2), ("line", [(120, 104), (120, 120)], "#1e1e28", 1.5),
           ("line", [(178, 104), (182, 120)], "#1e1e28", 1.5), ("rect", 126, 110, 150, 122, "#c8323c", 3),
           ("poly", [(116, 120), (182, 120), (196, 128), (196, 138), (116, 138)], tuk))
    for wx in (132, 188):
        p.draw(("circle", wx, 138, 6, "#1e1e1e"), ("circle", wx, 138, 2.5, "#a0a0a0"))


def lisbon(p, rng):
    sky(p, "#6eaae6", "#d7e8f5")
    p.rect(0, 44, 200, 56, "#4682b4")
    for k in range(12):  # houses climbing the hill
        x, y = k * 18 - 6, 70 - k * 2 - (k % 3) * 5
        p.draw(("rect", x, y, x + 17, 150, ["#f5e1b4", "#ebaa96", "#f0f0e6", "#bed2e6"][k % 4]),
               ("poly", [(x - 1, y), (x + 8.5, y - 7), (x + 18, y)], "#c35537"))
        for ty in range(y + 3, 120, 4) if k % 4 == 3 else ():  # blue tiles
            p.line([(x + 1, ty), (x + 17, ty)], "#3c64b4", 0.5)
        for wy in range(y + 6, 120, 11):
            p.draw(("rect", x + 4, wy, x + 8, wy + 6, "#465064"), ("rect", x + 10, wy, x + 14, wy + 6, "#465064"))
    rail = "#6e645f"
    p.draw(("poly", [(0, 150), (0, 138), (200, 88), (200, 150)], "#968c82"), ("line", [(0, 144), (200, 94)], rail, 0.8),
           ("line", [(0, 150), (200, 100)], rail, 0.8), ("line", [(0, 60), (200, 10)], "#282828", 0.6))  # street, wire
    T = lambda pts: rot(pts, 95, 116, -14)  # the yellow tram, tilted up the hill
    for x0, y0, x1, y1, c in ((-38, -24, 38, -4, "#fac31e"), (-38, -34, 38, -24, "#f5f0e1"),
                              (-33, -32, 33, -24, "#5a6e82"), (-40, -36, 40, -33, "#787878"),
                              (-38, -15, 38, -13, "#c83c28")):
        p.poly(T([(x0, y0), (x1, y0), (x1, y1), (x0, y1)]), c)
    for wx in range(-31, 31, 9):
        p.poly(T([(wx + 1, -31), (wx + 7, -31), (wx + 7, -25), (wx + 1, -25)]), "#f5f0e1")
    p.line(T([(0, -36), (14, -60)]), "#282828", 0.8)
    for wx in (-22, 22):
        p.circle(*T([(wx, -2)])[0], 4, "#282828")


def shrine(p, rng):
    p.grad(0, 150, "#c8e1be", "#78a064")
    for x, h in ((10, 110), (32, 90), (170, 100), (192, 120), (150, 70), (52, 70)):
        pine(p, x, 120, h, "#23502d")
    stone = "#a5a5a0"
    p.draw(("poly", [(0, 150), (0, 118), (200, 116), (200, 150)], "#6e964b"),  # clearing and path
           ("poly", [(92, 124), (108, 124), (128, 150), (72, 150)], "#b4afa0"),
           ("rect", 70, 110, 130, 124, dark(stone, 0.1)), ("rect", 78, 98, 122, 110, stone),
           ("rect", 82, 66, 118, 98, stone),
           ("poly", arch_pts(90, 110, 70, 96), "#3c2d23"), ("circle", 100, 86, 14, "#ffc85a5a"),  # glowing niche
           ("rect", 97.5, 84, 102.5, 96, "#f5f0e1"), ("ell", 100, 81, 2, 3.5, "#ffbe3c"),
           ("poly", [(70, 68), (100, 44), (130, 68), (126, 72), (100, 52), (74, 72)], dark(stone, 0.25)),
           ("poly", [(74, 68), (100, 48), (126, 68)], dark(stone, 0.15)), ("ell", 90, 67, 10, 2.5, "#5a8246"))


def margherita_pizza(p, rng):
    wood(p, 0, 150, "#96643c")
    p.draw(("rect", 150, 68, 198, 82, "#cda069", 6), ("circle", 95, 75, 70, "#cda069"),  # board
           ("circle", 95, 75, 62, "#dc9b46"), ("circle", 95, 75, 53, "#c82d1e"))  # crust, tomato
    for a in range(0, 360, 35):
        p.circle(95 + 58 * math.cos(math.radians(a)), 75 + 58 * math.sin(math.radians(a)), 2, "#965a28")
    for x, y, r in ((75, 55, 11), (112, 52, 10), (122, 86, 12), (85, 98, 11), (60, 80, 9), (98, 74, 8)):  # mozzarella
        p.ell(x, y, r, r * 0.85, "#fcf7e4")
    for x, y, a in ((94, 56, 30), (132, 68, -40), (70, 68, 110), (106, 102, 200), (82, 84, 60)):  # basil
        leaf(p, x, y, 9, 5, a, "#28822d", vein="#64af5a")


def sushi(p, rng):
    wood(p, 0, 150, "#4b3228")
    p.draw(("poly", [(15, 58), (185, 58), (195, 116), (5, 116)], "#e1b982"), ("rect", 5, 116, 195, 124, "#b98c5a"))
    salmon = ("#fa8755", "#ffd7be")
    for i, (fish, stripe) in enumerate((salmon, ("#cd283c", None), ("#fad250", "nori"), salmon)):  # nigiri
        x, y = 38 + i * 38, 92
        p.ell(x, y + 6, 16, 10, "#fafaf5")
        for gx, gy in ((-8, 8), (0, 11), (8, 7), (-3, 4)):
            p.ell(x + gx, y + gy, 2, 1.2, "#e1e1d7")
        p.ell(x, y - 2, 19, 8, fish)
        if stripe == "nori":
            p.rect(x - 4, y - 10, x + 4, y + 15, "#1e2823")
        for k in (-9, -2, 5, 12) if stripe and stripe != "nori" else ():
            p.line([(x + k, y - 9), (x + k - 5, y + 5)], stripe, 1.2)
    p.ell(166, 72, 8, 5, "#82b43c")  # wasabi, ginger, chopsticks
    for k in range(3):
        leaf(p, 30 + k * 4, 72 - k * 2, 9, 5, 20 * k, "#f5afaa")
    p.draw(("line", [(20, 140), (190, 128)], "#cda573", 3), ("line", [(22, 146), (192, 134)], "#cda573", 3))


def banana_bread(p, rng):
    p.grad(0, 150, "#f5ebdc", "#d7c8b4")
    crust, crumb = "#7d441e", "#dea862"
    p.draw(("rect", 6, 106, 194, 122, "#be8c5a", 4), ("rect", 14, 68, 118, 110, "#a55f2d", 8),  # board, loaf
           ("ell", 66, 70, 52, 13, crust),
           ("line", [(30, 68), (50, 64), (72, 67), (96, 63), (108, 66)], "#d79b55", 2.5))
    for k, x in enumerate((124, 152)):  # slices showing the crumb
        p.draw(("rect", x, 72 + k * 4, x + 26, 110, crust, 4), ("ell", x + 13, 74 + k * 4, 13, 8, crust),
               ("rect", x + 3, 75 + k * 4, x + 23, 107, crumb, 3), ("ell", x + 13, 76 + k * 4, 10, 5.5, crumb))
        for _ in range(12):
            p.circle(x + rng.uniform(6, 20), rng.uniform(78 + k * 4, 104), 0.9, "#6e4628")
    cx, cy = 62, 128  # a banana
    p.poly(ell_pts(cx, cy, 36, 18, 15, 165) + ell_pts(cx, cy - 7, 32, 10, 165, 15), "#f5d23c")
    p.draw(("circle", cx + 35, cy + 4, 2.4, "#5a4628"), ("circle", cx - 35, cy + 4, 2.4, "#5a4628"))


def muffin(p, x, y, s, paper):
    p.poly([(x - 16 * s, y - 24 * s), (x + 16 * s, y - 24 * s), (x + 12 * s, y), (x - 12 * s, y)], paper)
    for k in range(-3, 4):
        p.line([(x + k * 4.4 * s, y - 24 * s), (x + k * 3.3 * s, y)], dark(paper, 0.15), 0.6)
    p.draw(("ell", x, y - 26 * s, 21 * s, 17 * s, "#c88c46"), ("ell", x - 6 * s, y - 34 * s, 7 * s, 4 * s, "#e1aa64"))
    for dx, dy in ((-9, -26), (6, -36), (10, -24), (-2, -22), (-12, -36)):  # blueberries
        p.circle(x + dx * s, y + dy * s, 2.6 * s, "#3c326e")


def muffins(p, rng):
    p.grad(0, 150, "#ebe1f0", "#d2c3d2")
    p.rect(0, 100, 200, 150, "#787882")
    pink, blue = "#f0c8d2", "#c8e1f0"
    for x, y, s, c in ((65, 96, 0.9, pink), (135, 96, 0.9, blue), (35, 138, 1.05, blue), (100, 138, 1.05, pink),
                       (165, 138, 1.05, "#ebebc8")):
        muffin(p, x, y, s, c)


def sponge_cake(p, rng):
    p.grad(0, 150, "#fae6e6", "#e6cdd2")
    sponge, cream = "#f0c878", "#fffcf2"
    p.draw(("ell", 100, 122, 80, 16, "#fafafa"), ("poly", [(90, 122), (110, 122), (122, 146), (78, 146)], "#f5f5f5"))
    for top, bottom, c in ((92, 115, sponge), (84, 92, cream), (62, 84, sponge)):  # layers of a round cake
        p.draw(("ell", 100, bottom, 62, 14, c), ("rect", 38, top, 162, bottom, c))
    p.ell(100, 62, 62, 14, cream)
    for x, y in ell_pts(100, 60, 50, 9, 180, 540, 9)[:-1]:  # cream and strawberries on top
        p.draw(("circle", x, y - 4, 4, "#ffffff"), ("poly", [(x - 5, y - 6), (x + 5, y - 6), (x, y + 2)], "#d72832"),
               ("ell", x, y - 6, 4, 1.5, "#50963c"))


def lasagne(p, rng):
    wood(p, 0, 150, "#aa7d55")
    cheese, pasta, sauce, bechamel = "#e19641", "#f0cd78", "#aa2d1e", "#faf0d7"
    p.draw(("rect", 18, 10, 182, 58, "#af412d", 8), ("rect", 26, 15, 174, 52, cheese, 5))  # the baking dish
    for _ in range(18):
        p.circle(rng.uniform(32, 168), rng.uniform(20, 48), rng.uniform(1.5, 3.5), "#aa5f28")
    p.draw(("ell", 100, 120, 88, 24, "#fafafa"), ("poly", [(55, 82), (145, 82), (160, 70), (70, 70)], cheese))
    y = 82
    for h, c in ((5, cheese), (3, pasta), (6, sauce), (3, bechamel), (3, pasta), (6, sauce), (3, bechamel), (3, pasta),
                 (5, sauce)):
        p.draw(("rect", 55, y, 145, y + h, c),
               ("poly", [(145, y), (160, y - 12), (160, y - 12 + h), (145, y + h)], dark(c, 0.15)))
        y += h
    for x in (70, 95, 120, 140):
        p.circle(x, 76, 2.5, "#aa5f28")
    leaf(p, 108, 74, 8, 4, 20, "#328c32", vein="#64b45a")


def latte(p, rng):
    p.grad(0, 60, "#d7c8b9", "#beaa96")
    wood(p, 60, 150, "#8c5f3c")
    china, foam = "#f5f5f5", "#faf0de"
    p.draw(("ell", 100, 122, 72, 18, china), ("ell", 100, 120, 40, 9, "#e1e1e1"),
           ("arc", 152, 84, 16, 14, 270, 90, china, 5),
           ("poly", ell_pts(100, 62, 55, 18, 180, 0) + ell_pts(100, 85, 38, 34, 0, 180), china),  # cup
           ("ell", 100, 62, 55, 18, china), ("ell", 100, 62, 49, 15, "#a5693c"),
           # heart
           ("ell", 92, 58, 9, 6, foam), ("ell", 108, 58, 9, 6, foam), ("poly", [(83, 59), (117, 59), (100, 72)], foam),
           ("line", [(150, 130), (185, 118)], "#bebec3", 2))


def matcha(p, rng):
    p.rect(0, 0, 200, 150, "#c3c38c")
    for y in range(8, 150, 10):  # tatami
        p.line([(0, y), (200, y)], "#aaaa73", 0.8)
    bowl = "#503e37"
    p.draw(("ell", 82, 118, 44, 7, "#00000032"), ("rect", 66, 108, 98, 118, dark(bowl, 0.2), 3),
           ("poly", ell_pts(82, 70, 58, 44, 0, 180), bowl), ("ell", 82, 70, 58, 13, "#735f50"),
           ("ell", 82, 71, 53, 10.5, "#6eaf32"), ("line", ell_pts(82, 90, 56, 10, 20, 160), "#8c9664", 2.5))
    for _ in range(40):  # froth
        p.circle(82 + rng.uniform(-40, 40), 71 + rng.uniform(-7, 7), rng.uniform(0.6, 1.6), "#bedc78")
    bamboo, edge = "#e6cd96", "#8c6e3c"
    for k in range(-6, 7):  # whisk
        p.line([(164 + k * 0.6, 86), (164 + k * 2.8, 110), (164 + k * 1.2, 128)], edge, 1.3)
        p.line([(164 + k * 0.6, 86), (164 + k * 2.8, 110), (164 + k * 1.2, 128)], bamboo, 0.6)
    p.draw(("rect", 159, 28, 169, 88, bamboo, 3, edge, 0.8), ("ell", 35, 136, 20, 6, "#f5f5f0"),
           ("circle", 35, 128, 9, "#f5b4be"), ("line", [(110, 142), (190, 132)], "#c8af78", 2.5))


def roast_chicken(p, rng):
    wood(p, 0, 150, "#785032")
    p.draw(("ell", 100, 82, 95, 62, "#fafafa"), ("ell", 100, 82, 80, 50, "#eeeeee"))
    p.ell(52, 112, 24, 12, "#fcfcf8")
    for _ in range(60):  # rice
        p.ell(52 + rng.uniform(-20, 20), 112 + rng.uniform(-9, 9), 2, 1.2, "#e6e6de")
    for x, y in ((146, 112), (160, 104), (136, 122)):  # broccoli
        p.draw(("line", [(x, y + 6), (x, y + 12)], "#78aa50", 3), ("circle", x - 4, y, 5, "#3c8232"),
               ("circle", x + 4, y, 5, "#3c8232"), ("circle", x, y - 4, 5, "#3c8232"))
    gold, bone = "#c87832", "#f8f0e1"
    p.draw(("ell", 96, 70, 50, 30, gold), ("ell", 50, 66, 6, 9, dark(gold, 0.5)),  # body, neck cavity
           ("ell", 98, 56, 30, 11, "#e4a050"), ("line", [(144, 60), (154, 51)], bone, 3.5),
           ("circle", 154, 48, 2.8, bone, "#beb4a0", 0.5),
           ("circle", 158, 52, 2.8, bone, "#beb4a0", 0.5))  # breast, drumstick bone
    for x, y, size, a in ((132, 70, 20, -40), (70, 86, 14, 160)):  # drumstick, wing
        leaf(p, x, y, size + 1.5, size * 0.55 + 1.5, a, dark(gold, 0.4))
        leaf(p, x, y, size, size * 0.55, a, dark(gold, 0.1))
    for _ in range(12):
        p.circle(96 + rng.uniform(-36, 36), 70 + rng.uniform(-18, 18), 1.2, "#8c461e")


# ---- animals ----

def cat(p, rng):
    p.grad(0, 150, "#ebdcc8", "#cdbeaa")
    couch(p, -14, 36, 214, 160, "#5f7896")
    fur, stripe, light, pink = "#a07850", "#64462d", "#f0e4d2", "#ebaaaa"
    p.line(ell_pts(146, 112, 28, 30, 100, -40, 10), fur, 12)  # fluffy tail
    p.draw(("ell", 100, 110, 38, 36, fur), ("arc", 70, 110, 10, 22, 140, 220, stripe, 2.5),
           ("arc", 130, 110, 10, 22, -40, 40, stripe, 2.5),
           ("ell", 100, 102, 20, 26, light), ("ell", 86, 142, 10, 6, light), ("ell", 114, 142, 10, 6, light))
    for sx in (-1, 1):  # pointed ears
        p.draw(("poly", [(100 + sx * 28, 50), (100 + sx * 24, 12), (100 + sx * 4, 38)], fur),
               ("poly", [(100 + sx * 23, 44), (100 + sx * 22, 20), (100 + sx * 9, 38)], pink))
    p.draw(("ell", 100, 58, 31, 26, fur),
           ("poly", [(74, 66), (68, 82), (86, 76), (100, 84), (114, 76), (132, 82), (126, 66)], light),
           ("line", [(95, 36), (95, 44)], stripe, 1.5), ("line", [(100, 35), (100, 44)], stripe, 1.5),
           ("line", [(105, 36), (105, 44)], stripe, 1.5),
           ("ell", 88, 56, 6.5, 5.5, "#aac846"), ("ell", 88, 56, 1.6, 5, "#141414"),  # eyes
           ("ell", 112, 56, 6.5, 5.5, "#aac846"), ("ell", 112, 56, 1.6, 5, "#141414"),
           ("poly", [(96, 66), (104, 66), (100, 71)], "#dc7882"),
           ("line", [(96, 75), (100, 71), (104, 75)], stripe, 0.8))
    for sx in (-1, 1):
        for dy in (-7, 0, 7):  # whiskers
            p.line([(100 + sx * 8, 70), (100 + sx * 40, 66 + dy)], "#fafafa", 0.6)


def deer(p, rng):
    sky(p, "#96c8eb", "#dcebf0", 100)
    for x in (20, 70, 180):
        tree(p, x, 104, 70, "#508c46")
    p.rect(0, 100, 200, 150, "#78aa50")
    coat, leg, antler = "#aa6c3c", "#8c5832", "#e6d2aa"
    for x0, dx in ((84, -4), (95, 2), (132, -2), (143, 4)):  # long thin legs
        p.draw(("line", [(x0, 90), (x0 + dx, 114), (x0 + dx, 136)], leg, 4),
               ("rect", x0 + dx - 2.5, 134, x0 + dx + 2.5, 138, "#322823"))
    p.draw(("ell", 114, 84, 36, 18, coat), ("ell", 114, 94, 28, 7, "#d7b996"), ("ell", 148, 80, 6, 9, "#faf5eb"),
           ("poly", [(76, 82), (96, 74), (84, 46), (70, 44)], coat),  # neck and head
           ("poly", [(66, 40), (82, 36), (86, 48), (60, 58), (46, 60), (44, 53)], coat),
           ("circle", 46, 57, 3, "#281e1e"), ("circle", 67, 46, 2, "#1e1919"))
    leaf(p, 86, 38, 8, 3.5, -30, coat)
    for ant in (((74, 37), (78, 20), (86, 6)), ((78, 20), (68, 12)), ((82, 12), (92, 12)),  # antlers
                ((78, 38), (88, 24), (98, 14)), ((88, 24), (98, 26))):
        p.line(list(ant), antler, 2)
    for x, y in ((98, 74), (108, 72), (118, 73), (128, 75), (103, 80), (113, 79), (123, 80), (133, 81), (138, 74)):
        p.circle(x, y, 1.8, "#faf0dc")  # white spots


def bird(p, rng):
    p.grad(0, 150, "#afd7a0", "#5f965f")
    for _ in range(14):
        p.circle(rng.uniform(0, 200), rng.uniform(0, 150), rng.uniform(8, 20), "#e6f5d232")
    bark = "#6e4b2d"
    p.draw(("line", [(0, 122), (80, 108), (200, 96)], bark, 7), ("line", [(150, 100), (178, 72)], bark, 3))
    for x, y, a in ((178, 68, -60), (168, 78, 20), (40, 112, 200), (190, 92, -20)):
        leaf(p, x, y, 12, 5, a, "#468c3c", vein="#78b464")
    p.draw(("poly", [(118, 88), (168, 112), (164, 120), (112, 98)], "#465a73"),
           ("ell", 100, 82, 30, 22, "#f0d43c"))  # tail, breast
    leaf(p, 116, 80, 26, 11, 18, "#5f7d96")
    p.draw(("line", [(104, 78), (128, 86)], "#f5f5f5", 1.5),
           ("poly", [(92, 62), (126, 70), (116, 76), (90, 72)], "#789155"),
           # black cap
           ("poly", [(78, 70), (88, 70), (94, 100), (86, 102)], "#191919"), ("circle", 78, 58, 16, "#191919"),
           ("ell", 76, 63, 9, 7, "#fafafa"), ("poly", [(63, 53), (50, 58), (63, 61)], "#3c3c3c"),
           ("circle", 70, 54, 2.5, "#0a0a0a"), ("circle", 70.8, 53.2, 0.8, "#ffffff"),
           ("line", [(92, 100), (90, 107)], "#5a5050", 1.5), ("line", [(102, 100), (100, 106)], "#5a5050", 1.5))


def dog(p, rng):
    sky(p, "#8cc3f0", "#d7ebf5", 90)
    fur, ear, pale = "#b4763e", "#734626", "#ebd7b9"
    p.draw(("rect", 0, 90, 200, 150, "#6eaa46"), ("circle", 165, 130, 10, "#d2e63c"),  # grass, ball
           ("arc", 160, 130, 8, 10, 290, 70, "#fafaf0", 1.2), ("line", [(50, 84), (38, 68), (34, 50)], fur, 6))
    for x0, top in ((52, 88), (66, 92), (108, 90), (122, 92)):
        p.draw(("rect", x0, top, x0 + 11, 134, fur if x0 in (52, 108) else dark(fur, 0.1), 5),
               ("ell", x0 + 6, 134, 7, 3.5, pale))
    p.draw(("ell", 88, 86, 45, 20, fur), ("ell", 118, 92, 16, 11, pale),
           ("poly", [(112, 74), (128, 50), (148, 62), (134, 90)], fur),
           # head, muzzle, nose
           ("circle", 140, 56, 18, fur), ("ell", 158, 65, 13, 9, pale), ("circle", 169, 60, 4, "#1e1919"),
           ("ell", 158, 77, 4.5, 7, "#e66e78"), ("line", [(150, 70), (168, 70)], ear, 1),  # tongue
           # floppy ear
           ("poly", [(128, 42), (120, 48), (118, 76), (129, 79), (136, 52)], ear), ("circle", 146, 52, 2.5, "#191414"),
           ("line", [(125, 70), (131, 86)], "#d22828", 4))  # collar


# ---- items ----

def camera(p, rng):
    room(p, "#c8d2dc", "#96785f", 118)
    body = "#28282d"
    p.draw(("rect", 78, 28, 124, 50, body, 4), ("rect", 38, 38, 62, 48, "#bebec3", 2),  # prism hump, flash
           ("rect", 41, 40, 59, 46, "#fafaf5"), ("ell", 140, 40, 6, 2.5, "#96969b"),
           ("rect", 30, 46, 170, 118, body, 10), ("rect", 146, 50, 170, 116, "#46464b", 8))  # body, grip
    for y in range(56, 112, 4):
        p.line([(150, y), (166, y)], "#37373c", 0.8)
    p.draw(("circle", 98, 82, 33, "#141416"), ("circle", 98, 82, 28, "#5a5a5f"))  # lens
    for a in map(math.radians, range(0, 360, 15)):
        p.line([(98 + r * math.cos(a), 82 + r * math.sin(a)) for r in (23, 28)], "#3c3c41", 0.8)
    p.draw(("circle", 98, 82, 22, "#1e1e23"), ("circle", 98, 82, 15, "#28325a"), ("circle", 98, 82, 9, "#463c82"),
           ("ell", 92, 76, 4, 3, "#e6ebff"), ("circle", 136, 58, 2.5, "#dc2828"))


def smartphone(p, rng):
    wood(p, 0, 150, "#a0734b")
    p.draw(("rect", 74, 8, 134, 146, "#14141978", 9), ("rect", 63, 4, 127, 144, "#19191e", 10))
    p.grad(12, 136, "#466ec8", "#a05ab4", 67, 123)
    icons = ["#fa5a50", "#50c878", "#fac83c", "#46a0fa", "#f0f0f0", "#fa8c32", "#a064f0"]
    for r in range(5):  # app icons, dock, cracks in the glass
        for c in range(4):
            p.rect(71 + c * 13, 20 + r * 16, 80 + c * 13, 29 + r * 16, icons[(r * 4 + c * 3) % 7], r=2.5)
    p.draw(("rect", 69, 118, 121, 134, "#ffffff46", 5), ("rect", 88, 7, 102, 10, "#0a0a0c", 1.5))
    for c in range(4):
        p.rect(71 + c * 13, 121, 80 + c * 13, 130, icons[(c + 2) % 7], r=2.5)
    for crack in (((100, 52), (112, 40), (104, 70)), ((112, 40), (126, 48)), ((112, 40), (120, 22)),
                  ((112, 40), (88, 38), (70, 46))):
        p.line(list(crack), "#f5f5fa", 0.7)


def sofa(p, rng):
    room(p, "#d7c8af", "#a57850", 112)
    p.draw(("rect", 70, 14, 130, 44, "#fafaf5", 0, "#785a3c", 2),  # a picture on the wall
           ("poly", [(74, 40), (92, 24), (104, 34), (114, 26), (126, 40)], "#6ea0be"))
    couch(p, 12, 46, 188, 128, "#878c96")
    p.draw(("poly", rot([(-12, -12), (12, -12), (12, 12), (-12, 12)], 44, 68, -12), "#c86e46"),  # cushions
           ("poly", rot([(-11, -11), (11, -11), (11, 11), (-11, 11)], 156, 68, 10), "#e6c850"))


def television(p, rng):
    room(p, "#cdd2dc", "#966e4b", 112)
    p.draw(("rect", 18, 14, 182, 100, "#141418", 3), ("rect", 92, 100, 108, 106, "#28282d"))
    p.grad(18, 72, "#5a96e6", "#bedcfa", 22, 178)  # a landscape on the screen, and a glare
    p.draw(("poly", [(22, 96), (22, 72), (70, 56), (120, 70), (178, 60), (178, 96)], "#469650"),
           ("circle", 140, 38, 9, "#ffeb8c"),
           ("poly", [(120, 18), (150, 18), (100, 96), (70, 96)], "#ffffff23"), ("rect", 30, 106, 170, 138, "#785537"))
    for x in (34, 100):  # the stand's doors
        p.draw(("rect", x, 110, x + 66, 134, "#8c6441", 0, "#64462d", 0.8), ("circle", x + 60, 122, 1.5, "#3c2d1e"))
    p.rect(176, 120, 192, 140, "#c86e46")
    for a in (-50, -20, 10, 40):
        leaf(p, 184 + math.sin(math.radians(a)) * 8, 108, 12, 3, a - 90, "#3c8c3c")


def tomato_plants(p, rng):
    sky(p, "#8cc3f0", "#d7ebf5")
    p.draw(("rect", 0, 132, 200, 150, "#b4a08c"), ("rect", 0, 88, 200, 91, "#46464b"))  # balcony floor, railing
    for x in range(4, 200, 9):
        p.line([(x, 90), (x, 132)], "#46464b", 1)
    for cx in (40, 100, 160):
        p.draw(("line", [(cx + 6, 112), (cx + 8, 18)], "#bea064", 1.5),
               ("line", [(cx, 112), (cx + 4, 80), (cx - 2, 50), (cx + 5, 24)], "#468232", 2))
        for k in range(9):  # leaves, a few turning yellow
            leaf(p, cx + (10 if k % 2 == 0 else -10), 100 - k * 9, 9, 4.5, 200 if k % 2 else -20,
                 "#5a9637" if (k + cx) % 5 else "#d2c850", vein="#3c6e28")
        for dx, dy in ((-8, 0), (6, -22), (-5, -30), (10, -4)):  # tomatoes
            p.draw(("circle", cx + dx, 84 + dy, 5, "#dc2d23"),
                   ("line", [(cx + dx - 2, 79 + dy), (cx + dx + 2, 79 + dy)], "#3c7828", 1))
        p.draw(("poly", [(cx - 20, 108), (cx + 20, 108), (cx + 15, 140), (cx - 15, 140)], "#c35f37"),
               ("rect", cx - 22, 104, cx + 22, 111, "#af502d", 2))  # terracotta pot


def bed(p, rng):
    room(p, "#d7dceb", "#a07855", 104)
    p.draw(("rect", 34, 28, 166, 84, "#825a3c", 8), ("rect", 40, 34, 160, 80, "#966946", 6),  # headboard
           ("rect", 48, 56, 98, 76, "#fafafa", 8), ("rect", 102, 56, 152, 76, "#fafafa", 8),  # pillows
           ("poly", [(36, 74), (164, 74), (184, 124), (16, 124)], "#5a82be"),  # duvet with a turned-down sheet
           ("poly", [(36, 74), (164, 74), (168, 84), (32, 84)], "#f5f5f5"), ("rect", 16, 124, 184, 134, "#4669a0"),
           ("rect", 20, 134, 25, 142, "#64462d"), ("rect", 176, 134, 181, 142, "#64462d"),
           ("rect", 176, 68, 198, 100, "#966946"), ("poly", [(181, 52), (193, 52), (197, 64), (177, 64)], "#fae6aa"),
           ("line", [(187, 64), (187, 68)], "#505050", 1.5))  # bedside table and lamp


def desk(p, rng):
    room(p, "#d2dcd7", "#967355", 118)
    top, black = "#aa784b", "#28282d"
    p.draw(("rect", 14, 84, 186, 92, top), ("rect", 20, 92, 26, 140, dark(top, 0.15)),
           ("rect", 176, 92, 182, 140, dark(top, 0.15)),
           ("rect", 132, 92, 176, 132, dark(top, 0.08)))
    for y in (96, 114):  # drawers
        p.draw(("rect", 136, y, 172, y + 15, top), ("rect", 150, y + 6, 158, y + 8, "#463c32"))
    p.draw(("rect", 60, 22, 130, 66, "#19191e", 2), ("rect", 63, 25, 127, 63, "#508cc8"),  # monitor with windows
           ("rect", 68, 30, 96, 46, "#e6ebf5"), ("rect", 100, 36, 122, 58, "#faf5e6"),
           ("rect", 90, 66, 100, 78, black), ("ell", 95, 80, 14, 3, black),
           # keyboard, mouse
           ("poly", [(64, 80), (116, 80), (119, 84), (61, 84)], "#3c3c41"), ("ell", 132, 81, 4, 2.5, "#3c3c41"),
           ("ell", 30, 83, 10, 2.5, black), ("line", [(30, 82), (24, 52), (42, 36)], black, 2),  # desk lamp
           ("poly", [(36, 30), (48, 36), (44, 46), (34, 36)], black),
           ("poly", [(44, 46), (34, 36), (30, 70), (62, 62)], "#fff0aa5a"))


def chair(p, rng):
    room(p, "#dcd7c8", "#af9678", 100)
    wood_c = "#a5693c"
    back_l, back_r, front_l, front_r = (82, 82), (142, 86), (62, 100), (128, 106)
    for x, y in (back_l, back_r):
        p.line([(x, y), (x, y + 46)], dark(wood_c, 0.25), 4)
    p.draw(("poly", [back_l, back_r, front_r, front_l], "#be8250"),  # seat
           ("poly", [front_l, front_r, (front_r[0], front_r[1] + 5), (front_l[0], front_l[1] + 5)], dark(wood_c, 0.1)))
    for x, y in (front_l, front_r):
        p.line([(x + 2, y), (x + 2, y + 40)], wood_c, 4.5)
    for x, y in (back_l, back_r):
        p.line([(x, y), (x + 2, y - 60)], wood_c, 4)
    p.poly([(80, 20), (146, 24), (146, 34), (80, 30)], wood_c)
    for x in (97, 112, 127):  # back slats
        p.line([(x, 30), (x + 1, 84)], wood_c, 3)


def shoe(p, x, y, s, upper, accent):
    P = lambda u, v: (x + u * s, y + v * s)
    p.draw(("poly", [P(-1, -12), P(-2, -36), P(4, -44), P(14, -39), P(24, -41), P(30, -50), P(38, -48), P(56, -35),
                     P(80, -25), P(96, -20), P(101, -12)], upper),  # upper, heel left, toe right
           ("poly", [P(4, -43), P(14, -38), P(24, -40), P(12, -45)], "#28282d"),  # collar opening
           ("poly", [P(-3, -13), P(-3, -2), P(2, 0), P(80, 0), P(94, -4), P(102, -10), P(101, -14)], "#f5f5f5"),  # sole
           ("line", [P(2, 0), P(80, 0), P(94, -4), P(102, -10)], "#3c3c46", 2.2 * s),
           ("line", [P(10, -18), P(40, -26), P(74, -24)], accent, 3 * s),
           ("line", [P(12, -24), P(42, -32)], accent, 2 * s))
    for k in range(5):  # laces
        p.line([P(36 + k * 6, -44 + k * 3.5), P(42 + k * 6, -40 + k * 3.5)], "#fafafa", 1.4 * s)


def running_shoes(p, rng):
    p.grad(0, 150, "#e1e6eb", "#bec3cd")
    p.ell(100, 128, 92, 9, "#969ba5")
    shoe(p, 58, 104, 1.15, "#3c78dc", "#fadc3c")
    shoe(p, 24, 128, 1.25, "#f05a3c", "#fafafa")


def bike(p, rng):
    p.rect(0, 0, 200, 128, "#af5a46")
    for k, y in enumerate(range(0, 128, 8)):  # brick wall
        p.line([(0, y), (200, y)], "#d7c8b9", 1)
        for x in range((k % 2) * 12, 200, 24):
            p.line([(x, y), (x, y + 8)], "#d7c8b9", 1)
    p.rect(0, 126, 200, 150, "#969696")
    bicycle(p, 42, 110, 1.15, "#1e6ec8")


def headphones(p, rng):
    p.grad(0, 150, "#ebe1d7", "#c8beb4")
    black = "#232328"
    p.draw(("arc", 100, 92, 64, 70, 190, 350, black, 10), ("arc", 100, 92, 56, 62, 205, 335, "#5a5a5f", 5))  # headband
    for sx in (-1, 1):  # ear cups with cushions
        cx = 100 + sx * 56
        p.draw(("line", [(100 + sx * 63, 82), (100 + sx * 58, 100)], "#96969b", 3),
               ("rect", cx - 16, 94, cx + 16, 140, black, 14),
               ("rect", cx - 10 - sx * 8, 100, cx + 10 - sx * 8, 134, "#4b4b50", 10),
               ("ell", cx + sx * 6, 117, 4, 16, "#c83c3c"))


def projector(p, rng):
    p.grad(0, 150, "#2d2d3c", "#1e1e28")
    p.rect(100, 8, 196, 78, "#f5f5f0")  # the wall screen with its picture
    p.grad(12, 50, "#64aaf0", "#c8e6fa", 104, 192)
    p.draw(("poly", [(104, 74), (104, 54), (140, 40), (170, 56), (192, 46), (192, 74)], "#50a05a"),
           ("poly", [(66, 104), (104, 12), (192, 12), (192, 74)], "#ffffd232"),  # light beam
           ("rect", 0, 124, 120, 130, "#6e503c"), ("rect", 14, 94, 82, 120, "#e1e1e6", 5),  # shelf, projector
           ("rect", 14, 112, 82, 120, "#bebec3", 5), ("circle", 66, 106, 11, "#3c3c41"),
           ("circle", 66, 106, 7, "#c8dcff"), ("circle", 64, 104, 2, "#ffffff"),
           ("rect", 20, 120, 24, 124, "#323237"), ("rect", 74, 120, 78, 124, "#323237"))
    for x in range(20, 44, 4):
        p.line([(x, 100), (x, 110)], "#96969b", 1)


DRAW = {slug: globals()[slug.replace("-", "_")] for slug, *_ in BANK}


def draw(slug: str, kind: str, name: str) -> bytes:
    img = Image.new("RGB", (SIZE[0] * S, SIZE[1] * S), (255, 255, 255))
    DRAW[slug](Pen(img), _rng(slug))
    buf = io.BytesIO()
    img.resize(SIZE, Image.Resampling.LANCZOS).save(buf, format="PNG", optimize=False)
    return buf.getvalue()


def main() -> None:
    images = HERE / "images"
    images.mkdir(exist_ok=True)
    rows = []
    for slug, kind, name, captions in BANK:
        (images / f"{slug}.png").write_bytes(draw(slug, kind, name))
        rows += [(f"{slug}.png", caption) for caption in captions]
    with open(HERE / "captions.csv", "w", newline="", encoding="utf-8") as fh:
        writer = csv.writer(fh, lineterminator="\n")
        writer.writerow(["image", "caption"])
        writer.writerows(rows)
    print(f"{len(BANK)} images, {len(rows)} captions -> {HERE}")


if __name__ == "__main__":
    main()

"""Draw the demo image bank for `mmrc-build swap --image-bank raw/image_bank`.

Writes ``images/<slug>.png`` and ``captions.csv`` (image,caption; three captions each)
byte-identically on every run. The pictures are simple drawings, one per thing the bundled
sample (raw/sample) names in its user turns: places, dishes, animals and items. No text is
drawn on them: an image with its name written on it would give the answer away in an eval. Run: ``.venv/bin/python raw/image_bank/make_bank.py``.
"""

from __future__ import annotations

import csv
import hashlib
import io
import random
from pathlib import Path

from PIL import Image, ImageDraw

HERE = Path(__file__).resolve().parent
SIZE = (200, 150)

# (slug, kind, name, three captions)
BANK = [
    ("colosseum", "place", "Colosseum", ["The Colosseum, the ancient Roman amphitheatre in Rome", "Stone arches of the Colosseum in Rome, Italy", "A huge ruined arena in Rome"]),
    ("roman-forum", "place", "Roman Forum", ["Ruins and columns of the Roman Forum in Rome", "Ancient Roman temples at the Forum", "Old columns in the centre of Rome"]),
    ("eiffel-tower", "place", "Eiffel Tower", ["The Eiffel Tower in Paris seen from the Trocadero", "The iron lattice tower of Paris, France", "A tall iron tower over the Seine in Paris"]),
    ("fushimi-inari", "place", "Fushimi Inari", ["Red torii gates of the Fushimi Inari shrine in Kyoto", "A path through orange shrine gates in Kyoto, Japan", "A Shinto shrine with many red gates"]),
    ("tokyo", "place", "Tokyo", ["The Tokyo skyline at night, Japan", "The busy Shibuya crossing in Tokyo", "Neon streets of a Japanese city"]),
    ("monument-valley", "place", "Monument Valley", ["Red sandstone buttes of Monument Valley in Arizona and Utah", "A desert valley with tall red rock towers", "Monument Valley Navajo Tribal Park at sunset"]),
    ("grand-canyon", "place", "Grand Canyon", ["The Grand Canyon seen from the South Rim, Arizona", "A deep red rock canyon with the Colorado River", "Layers of rock in a huge canyon"]),
    ("prague", "place", "Prague", ["The Charles Bridge and the old town of Prague", "Red roofs and church towers of Prague, Czech Republic", "A stone bridge over the river in Prague"]),
    ("amsterdam", "place", "Amsterdam", ["Canal houses and bicycles in Amsterdam", "A canal with narrow houses in Amsterdam, Netherlands", "Boats on an Amsterdam canal"]),
    ("machu-picchu", "place", "Machu Picchu", ["The Inca ruins of Machu Picchu in the Andes of Peru", "The end of the Inca Trail at the Sun Gate above Machu Picchu", "Stone terraces of a lost city in the mountains"]),
    ("alps", "place", "Alps", ["Snowy peaks of the Alps", "A mountain pass road in the Alps", "High alpine mountains in Switzerland"]),
    ("sphinx", "place", "Sphinx", ["The Great Sphinx and the pyramids of Giza, Egypt", "A stone lion with a human head in the Egyptian desert", "The pyramids of Egypt behind the Sphinx"]),
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

SKY = {"place": (135, 190, 235), "dish": (245, 230, 200), "animal": (170, 215, 140), "item": (215, 215, 225)}


def _rng(seed: str) -> random.Random:
    return random.Random(int(hashlib.sha256(seed.encode()).hexdigest()[:16], 16))


def draw(slug: str, kind: str, name: str) -> bytes:
    rng = _rng(slug)
    img = Image.new("RGB", SIZE, SKY[kind])
    d = ImageDraw.Draw(img)
    w, h = SIZE
    colour = tuple(rng.randrange(40, 220) for _ in range(3))
    if kind == "place":
        d.rectangle([0, h * 2 // 3, w, h], fill=(120, 160, 90))
        for _ in range(rng.randrange(2, 5)):
            x, bw, bh = rng.randrange(10, w - 50), rng.randrange(25, 60), rng.randrange(30, 80)
            d.rectangle([x, h * 2 // 3 - bh, x + bw, h * 2 // 3], fill=colour, outline=(40, 40, 40))
            d.polygon([(x, h * 2 // 3 - bh), (x + bw // 2, h * 2 // 3 - bh - 20), (x + bw, h * 2 // 3 - bh)], fill=colour)
    elif kind == "dish":
        d.ellipse([30, 40, w - 30, h - 25], fill=(250, 250, 250), outline=(120, 120, 120))
        for _ in range(rng.randrange(3, 8)):
            x, y, r = rng.randrange(60, w - 60), rng.randrange(55, h - 45), rng.randrange(8, 20)
            d.ellipse([x - r, y - r, x + r, y + r], fill=colour)
    elif kind == "animal":
        d.ellipse([50, 55, 140, 110], fill=colour)
        d.ellipse([125, 35, 165, 75], fill=colour)
        for x in (65, 80, 110, 125):
            d.rectangle([x, 100, x + 6, 125], fill=colour)
    else:
        x, y = rng.randrange(30, 60), rng.randrange(30, 50)
        d.rounded_rectangle([x, y, w - x, h - 30], radius=10, fill=colour, outline=(30, 30, 30), width=2)
    buf = io.BytesIO()
    img.save(buf, format="PNG", optimize=False)
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

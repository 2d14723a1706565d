"""The demo image bank: no text on its pictures, captions must name what a swap shows, metadata
removed from every bank image that enters a dataset."""

from __future__ import annotations

import hashlib
import importlib.util
import io
from pathlib import Path

from PIL import Image

from builder.swap.sources.bank import ImageBank

BANK = Path(__file__).resolve().parents[2] / "builder" / "swap" / "image_bank"


def _bank(folder=BANK):
    bank = ImageBank(folder, span_weight=0.5, top_k=5, max_pixels=10_000_000, max_bytes=10_000_000)
    return bank


def test_demo_bank_is_regenerated_byte_for_byte_and_draws_no_text(tmp_path, monkeypatch):
    spec = importlib.util.spec_from_file_location("make_bank", BANK / "make_bank.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    assert "ImageFont" not in (BANK / "make_bank.py").read_text()  # nothing is written on a picture
    for slug, kind, name, _ in module.BANK[:6]:
        assert module.draw(slug, kind, name) == (BANK / "images" / f"{slug}.png").read_bytes()


def test_captions_must_name_the_thing():
    bank = _bank()
    assert bank.names("colosseum.png", {"Colosseum", "colosseum"})
    assert bank.names("cat.png", {"cat"}) and bank.names("muffins.png", {"muffin"})
    assert not bank.names("sofa.png", {"monitor", "screen"})
    assert not bank.names("cat.png", {"category"})  # whole words only


def test_bank_images_lose_their_metadata_on_the_way_in(tmp_path):
    exif = Image.Exif()
    exif[0xA431] = "SERIAL-999"
    exif[0x8825] = {1: "N", 2: (48.0, 51.0, 29.0)}
    buf = io.BytesIO()
    Image.new("RGB", (40, 30), (10, 120, 200)).save(buf, "JPEG", exif=exif)
    (tmp_path / "lake.jpg").write_bytes(buf.getvalue())
    (tmp_path / "captions.csv").write_text("image,caption\nlake.jpg,A blue lake in the mountains\n")
    bank = _bank(tmp_path)
    bank.setup("cpu", embedder=_NoEmbedder())
    data, info = bank.load("lake.jpg")
    assert b"SERIAL-999" not in data and info.sha256 == hashlib.sha256(data).hexdigest()


class _NoEmbedder:
    hash = "none"

    def encode(self, texts):
        import numpy as np

        return np.ones((len(texts), 4), dtype=np.float32) / 2


def test_a_caption_is_about_a_name_when_it_heads_its_phrase_or_names_its_scene():
    from builder.models import SPACY_PACKAGE
    from builder.nlp import load_spacy
    from builder.swap.planner import _names_itself

    nlp = load_spacy(SPACY_PACKAGE)

    def about(caption: str, name: str) -> bool:
        doc = nlp(caption)
        start = caption.index(name)
        return _names_itself(doc.char_span(start, start + len(name), alignment_mode="expand"))

    assert about("Stone arches of the Colosseum in Rome", "Colosseum")
    assert about("The Tokyo skyline at night", "Tokyo")  # a view of the place is the place
    assert not about("A Boston terrier is running in the grass .", "Boston")
    assert not about("Three boys wearing Florida Marlins hats .", "Florida")
    assert not about("A busy street in New York at night .", "York")

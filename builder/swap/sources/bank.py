"""An image bank: a folder of images with ``captions.csv`` (``image,caption``; several
captions per image allowed). Retrieval embeds the span and its sentence, compares them
with every caption, and scores an image by its best caption:

    score = w * cos(span, caption) + (1 - w) * cos(sentence, caption)

Caption embeddings are cached as safetensors under the cache folder, keyed by the
embedder's file hashes and the captions file's hash, so a bank is embedded once.
"""

from __future__ import annotations

import csv
import hashlib
import re
import os
from pathlib import Path, PurePosixPath
from typing import TYPE_CHECKING

import numpy as np

from builder.errors import InputError
from builder.images import ImageInfo, ImageRejected, accept_image
from builder.io import sha256_file
from builder.swap.sources import Match, Query

if TYPE_CHECKING:
    from classifiers.topic.embed import Embedder

CAPTIONS = "captions.csv"
# The demo bank shipped inside the package: `swap` uses it when no --image-bank is given.
BUNDLED = Path(__file__).resolve().parents[1] / "image_bank"


def cache_dir() -> Path:
    env = os.environ.get("MMRC_CACHE")
    base = Path(env) if env else Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "mmrc-build"
    return base / "embeddings"


# The same thing in other words, for "do the captions name it" (both ways)
SYNONYMS = {"tv": ("television",), "television": ("tv",), "bike": ("bicycle",), "bicycle": ("bike",),
            "phone": ("cellphone", "telephone", "cell phone"), "cellphone": ("phone",), "puppy": ("dog",),
            "kitten": ("cat",), "car": ("automobile",), "automobile": ("car",), "sofa": ("couch",),
            "couch": ("sofa",), "ocean": ("sea",), "sea": ("ocean",), "pup": ("dog",)}


def word_pattern(words: set[str], flags: int = 0) -> re.Pattern:
    """Any of ``words`` as a whole word, plural endings allowed ("bike", "bikes", "boxes")."""
    return re.compile(r"(?<!\w)(?:" + "|".join(re.escape(w) for w in sorted(words)) + r")(?:s|es)?(?!\w)", flags)


class ImageBank:
    name = "bank"
    thresholded = True

    def __init__(self, folder: Path, *, span_weight: float, top_k: int, max_pixels: int, max_bytes: int):
        self.folder = Path(folder)
        self.span_weight, self.top_k = span_weight, top_k
        self.max_pixels, self.max_bytes = max_pixels, max_bytes
        self.images, self.captions, self.caption_image = self._read_captions()
        self.paths = [self._resolve(name) for name in self.images]
        self._index = {name: i for i, name in enumerate(self.images)}
        self.infos: list[ImageInfo | None] = []
        self.rejected: dict[str, int] = {}
        self.embedder: Embedder | None = None  # given by setup()
        self.matrix: np.ndarray | None = None  # the captions' embeddings, made by setup()

    @classmethod
    def from_config(cls, config) -> "ImageBank":
        return cls(Path(config.image_bank) if config.image_bank else BUNDLED, span_weight=config.span_weight, top_k=config.top_k,
                   max_pixels=config.max_image_pixels, max_bytes=config.max_image_bytes)

    # -- reading -------------------------------------------------------------
    def _read_captions(self) -> tuple[list[str], list[str], np.ndarray]:
        path = self.folder / CAPTIONS
        if not path.is_file():
            raise InputError(f"image bank {self.folder} has no {CAPTIONS}; add one with the columns image,caption")
        with open(path, newline="", encoding="utf-8") as fh:
            reader = csv.DictReader(fh)
            if not {"image", "caption"} <= set(reader.fieldnames or []):
                raise InputError(f"{path} must have the columns image,caption (found {reader.fieldnames}); fix its header")
            rows = [(r["image"].strip(), (r["caption"] or "").strip()) for r in reader]
        rows = [r for r in rows if r[0] and r[1]]
        if not rows:
            raise InputError(f"{path} lists no captioned images; add rows image,caption")
        images = sorted({image for image, _ in rows})
        index = {name: i for i, name in enumerate(images)}
        # Captions grouped by image (stable within an image) so per-image maxima are a reduceat.
        rows.sort(key=lambda r: index[r[0]])
        return images, [c for _, c in rows], np.array([index[i] for i, _ in rows], dtype=np.int64)

    def _resolve(self, name: str) -> Path:
        rel = PurePosixPath(name)
        if rel.is_absolute() or ".." in rel.parts:
            raise InputError(f"{self.folder / CAPTIONS} names {name!r} outside the bank; use paths inside the bank folder")
        for path in (self.folder / rel, self.folder / "images" / rel):
            if path.is_file():
                return path
        raise InputError(f"image bank {self.folder}: {name} is listed in {CAPTIONS} but missing; add it or remove its rows")

    def fingerprint(self) -> str:
        h = hashlib.sha256(sha256_file(self.folder / CAPTIONS).encode())
        for name, path in zip(self.images, self.paths):
            h.update(f"{name}\0{sha256_file(path)}\n".encode())
        return h.hexdigest()

    # -- setup ----------------------------------------------------------------
    def setup(self, device: str, embedder) -> None:
        self.embedder = embedder
        for path in self.paths:
            try:
                self.infos.append(accept_image(path.read_bytes(), self.max_pixels, self.max_bytes)[1])
            except ImageRejected as exc:
                self.infos.append(None)
                self.rejected[exc.reason] = self.rejected.get(exc.reason, 0) + 1
        self.matrix = self._caption_matrix()
        self.starts = np.flatnonzero(np.r_[True, np.diff(self.caption_image) != 0])
        self.usable = np.array([info is not None for info in self.infos])

    def _caption_matrix(self) -> np.ndarray:
        from safetensors.numpy import load_file, save_file

        assert self.embedder is not None  # setup() gave it
        key = hashlib.sha256(f"{self.embedder.hash}:{sha256_file(self.folder / CAPTIONS)}".encode()).hexdigest()
        path = cache_dir() / f"captions-{key[:32]}.safetensors"
        if path.is_file():
            matrix = load_file(str(path))["embeddings"]
            if matrix.shape[0] == len(self.captions):
                return matrix
        matrix = self.embedder.encode(self.captions)
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
        save_file({"embeddings": np.ascontiguousarray(matrix)}, str(tmp))
        os.replace(tmp, path)
        return matrix

    # -- retrieval -------------------------------------------------------------
    def scores(self, queries: list[Query]) -> np.ndarray:
        """(queries x images) retrieval scores; unusable images get -inf."""
        if not queries:
            return np.zeros((0, len(self.images)), dtype=np.float32)
        assert self.embedder is not None and self.matrix is not None  # setup() ran
        texts = sorted({q.text for q in queries} | {q.sentence for q in queries})
        vectors = dict(zip(texts, self.embedder.encode(texts)))
        span = np.stack([vectors[q.text] for q in queries])
        sentence = np.stack([vectors[q.sentence] for q in queries])
        per_caption = self.span_weight * (span @ self.matrix.T) + (1 - self.span_weight) * (sentence @ self.matrix.T)
        per_image = np.maximum.reduceat(per_caption, self.starts, axis=1)
        # Rounded so that float noise from batching never reorders or flips a threshold.
        per_image = np.round(per_image.astype(np.float64), 4)
        per_image[:, ~self.usable] = -np.inf
        return per_image

    def find(self, queries: list[Query]) -> list[list[Match]]:
        out = []
        for row in self.scores(queries):
            order = np.argsort(-row, kind="stable")[: self.top_k]
            out.append([Match(self.images[i], float(row[i])) for i in order if np.isfinite(row[i])])
        return out

    def caption_text(self, key: str) -> str:
        """All captions of image ``key``, lower-cased, one per line."""
        if not hasattr(self, "_caption_text"):
            self._caption_text: dict[str, str] = {}
        if key not in self._caption_text:
            self._caption_text[key] = "\n".join(line.lower() for line in self.caption_lines(key))
        return self._caption_text[key]

    def caption_lines(self, key: str) -> list[str]:
        """The captions of image ``key`` as written (case kept, for parsing)."""
        if not hasattr(self, "_caption_lines"):
            lines: dict[str, list[str]] = {}
            for caption, i in zip(self.captions, self.caption_image):
                lines.setdefault(self.images[i], []).append(caption)
            self._caption_lines = lines
        return self._caption_lines.get(key, [])

    def names(self, key: str, words: set[str], at_least: int = 2) -> bool:
        """Do ``at_least`` captions of image ``key`` name the thing (one of ``words`` or a
        synonym, whole words, plurals allowed)? The picture must be *about* the thing: one
        caption in five that mentions tea in passing ("a barista serves drinks ... tea") is not
        a photo of the user's tea, and a picture for "the monitor" whose captions say "desk" is
        refused. Images with fewer captions need all of them."""
        lines = [line for line in self.caption_text(key).split("\n") if line]
        wanted = {w.lower() for w in words if w}
        wanted |= {syn for w in wanted for syn in SYNONYMS.get(w, ())}
        if not wanted:
            return False
        pattern = word_pattern(wanted)
        naming = sum(bool(pattern.search(line)) for line in lines)
        return naming >= min(at_least, len(lines))

    def load(self, key: str) -> tuple[bytes, ImageInfo]:
        i = self._index[key]
        data, info = accept_image(self.paths[i].read_bytes(), self.max_pixels, self.max_bytes)
        if info != self.infos[i]:
            raise InputError(f"image bank file {self.paths[i]} changed during the run; rerun swap")
        return data, info  # metadata removed: GPS in a bank photo never reaches a release

    def describe(self) -> dict:
        return {
            "name": "image-bank", "version": self.folder.name, "bundled": self.folder.resolve() == BUNDLED,
            "path": str(self.folder),
            "files": {CAPTIONS: sha256_file(self.folder / CAPTIONS)},
            "images": len(self.images), "captions": len(self.captions), "rejected_images": dict(self.rejected),
        }

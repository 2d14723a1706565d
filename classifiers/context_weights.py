"""Reading a context model's weights (clean's person- and number-context models): one safetensors
file beside the model's code, its metadata a JSON ``meta`` entry. A missing or damaged file is one
``ModelError`` line naming the switch that turns the model off, never a traceback."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path


def read(path: Path, what: str, switch: str) -> bytes:
    from builder.errors import ModelError

    try:
        return path.read_bytes()
    except OSError as exc:
        raise ModelError(f"the {what} model {path} cannot be read ({exc.strerror}): reinstall the package, "
                         f"or pass {switch}") from exc


def sha256(path: Path, what: str, switch: str) -> str:
    return hashlib.sha256(read(path, what, switch)).hexdigest()


def parse(path: Path, what: str, switch: str, pick) -> tuple:
    """``pick(tensors, meta)`` of the file's tensors and metadata; any error in the file or in what
    ``pick`` reads from it is the file's damage."""
    from safetensors.numpy import load as load_bytes

    from builder.errors import ModelError

    raw = read(path, what, switch)
    try:
        tensors = load_bytes(raw)
        header = json.loads(raw[8:8 + int.from_bytes(raw[:8], "little")])
        meta = json.loads(header["__metadata__"]["meta"])
        return pick(tensors, meta), meta
    except Exception as exc:  # any damage to the file: one clear line, never a traceback
        raise ModelError(f"the {what} model {path} is damaged ({type(exc).__name__}: {exc}): reinstall the "
                         f"package, or pass {switch}") from exc


def require_fit(path: Path, meta: dict, version: str, fits: bool, trainer: str) -> None:
    """One ``ModelError`` line when the weights in ``path`` were trained for other features
    (``meta``'s ``features_version`` is not ``version``) or do not ``fit`` the code's shapes and
    thresholds: rerun ``python -m trainer``."""
    from builder.errors import ModelError

    if meta.get("features_version") != version or not fits:
        raise ModelError(f"{path.name} does not fit this code (features version {meta.get('features_version')}, "
                         f"this code reads {version}): rerun python -m {trainer}")


def ner_vectors(path: Path, dense_width, trainer: str):
    """The NER model's word vectors (person_context.features.Vectors), after one ``ModelError`` line when
    the dense weights in ``path`` were trained with vectors of another width: ``dense_width(width)`` is
    whether a dense part of that shape fits vectors ``width`` wide."""
    from builder.clean.recognizers import load_ner
    from builder.errors import ModelError
    from classifiers.person_context.features import Vectors

    vectors = Vectors(load_ner().vocab)
    if not dense_width(vectors.width):
        raise ModelError(f"{path.name} was trained with word vectors of another width than the NER model's "
                         f"({vectors.width}): rerun python -m {trainer}")
    return vectors

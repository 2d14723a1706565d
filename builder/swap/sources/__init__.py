"""Where a swapped-in image comes from: a pluggable registry of image sources.

A source has ``name``, ``thresholded`` (whether ``--threshold`` applies),
``fingerprint()`` (content hash: part of the stage config), ``setup(device, embedder)``,
``find(queries) -> [[Match, ...], ...]`` (best first, one list per query) and
``load(key) -> (bytes, ImageInfo)``, plus ``describe()`` for the manifest. ``score`` is
the retrieval score (None for generated images, which are not thresholded).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

from builder.errors import ConfigError


@dataclass(frozen=True)
class Query:
    text: str  # the span that names the thing: "Colosseum"
    sentence: str  # the sentence around it, for context
    category: str  # place | dish | drink | animal | item | vehicle | artwork


@dataclass(frozen=True)
class Match:
    key: str
    score: float | None


def _bank(config) -> Any:
    from builder.swap.sources.bank import ImageBank

    return ImageBank.from_config(config)


def _diffusion(config) -> Any:
    from builder.swap.sources.diffusion import TextToImage

    return TextToImage.from_config(config)


SOURCES: dict[str, Callable[[Any], Any]] = {"bank": _bank, "diffusion": _diffusion}


def make_source(config) -> Any:
    try:
        factory = SOURCES[config.image_source]
    except KeyError:
        raise ConfigError(
            f"unknown image source {config.image_source!r}; available: {', '.join(sorted(SOURCES))}"
        ) from None
    return factory(config)

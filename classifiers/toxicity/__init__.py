"""Toxicity scorers: a plain registry of backends that turn texts into per-label scores.

Every backend exposes ``name``, ``labels``, ``describe() -> dict`` (what decided, for the
manifest) and ``score(texts) -> list[dict[label, float]]``. Backends are chosen by name;
nothing falls back silently from one to another.
"""

from __future__ import annotations

from builder.errors import ConfigError

DETOXIFY_VARIANTS = ("original", "unbiased", "multilingual", "original-small", "unbiased-small")


def _detoxify(**options):
    from classifiers.toxicity.detoxify_scorer import DetoxifyScorer

    return DetoxifyScorer.load(**options)


def _lexicon(**options):
    from classifiers.toxicity.lexicon import LexiconScorer

    if options:
        raise ConfigError(f"the lexicon backend takes no options (got {', '.join(sorted(options))})")
    return LexiconScorer()


BACKENDS = {"detoxify": _detoxify, "lexicon": _lexicon}


def load_backend(name: str, **options):
    """Build the backend ``name``; options are the backend's own keyword arguments."""
    if name not in BACKENDS:
        raise ConfigError(f"unknown toxicity backend {name!r}; available: {', '.join(BACKENDS)}")
    return BACKENDS[name](**options)

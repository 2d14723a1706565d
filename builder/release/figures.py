"""The card's figures: turn-length histogram and topic donut, as deterministic PNGs."""

from __future__ import annotations

from pathlib import Path
from typing import cast

import polars as pl


GROUP_COLOURS = {"daily_life": "Blues", "professional_knowledge": "Oranges"}
PNG_META = {"Software": None}  # no version string: the bytes depend only on the data


def _pyplot():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    plt.rcParams.update({"svg.hashsalt": "mmrc", "font.size": 9})
    return plt


def turn_length_histogram(turns: pl.DataFrame, path: Path) -> Path:
    """Words per turn (stats.WORD_RULE), user and assistant overlaid (log-spaced bins: turn lengths
    are long-tailed)."""
    import numpy as np

    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(6, 3.2), dpi=100)
    top = max(int(cast("int | None", turns["words"].max()) or 1), 1)
    bins = np.unique(np.geomspace(1, top + 1, num=min(40, top + 1)).astype(int))
    for role, colour in (("user", "#1f77b4"), ("assistant", "#ff7f0e")):
        words = turns.filter(pl.col("role") == role)["words"].to_numpy()
        if words.size:
            ax.hist(np.maximum(words, 1), bins=bins, alpha=0.6, label=role, color=colour)
    ax.set_xscale("log")
    ax.set_xlabel("words per turn (a CJK character counts as a word)")
    ax.set_ylabel("turns")
    ax.set_title("Turn length")
    ax.legend()
    fig.tight_layout()
    fig.savefig(path, format="png", metadata=PNG_META)
    plt.close(fig)
    return path


def topic_donut(topics: dict[str, int], path: Path) -> Path:
    """The MMRC donut (groups inside, 14 topics outside, in %): the classify stage's figure."""
    from builder.classify.donut import topic_donut as draw

    return draw({t: n for t, n in topics.items() if t}, path, title="Topics")

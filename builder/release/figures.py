"""The card's figures: turn-length histogram and topic donut, as deterministic PNGs."""

from __future__ import annotations

from pathlib import Path

import polars as pl

from builder.records import TOPIC_GROUPS

GROUP_COLOURS = {"daily_life": "Blues", "professional_knowledge": "Oranges"}
PNG_META = {"Software": None}  # no version string: the bytes depend only on the data


def _pyplot():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    plt.rcParams.update({"svg.hashsalt": "mmrc", "font.size": 9})
    return plt


def turn_length_histogram(turns: pl.DataFrame, path: Path) -> Path:
    """Words per turn, user and assistant overlaid (log-spaced bins: turn lengths are long-tailed)."""
    import numpy as np

    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(6, 3.2), dpi=100)
    top = max(int(turns["words"].max() or 1), 1)
    bins = np.unique(np.geomspace(1, top + 1, num=min(40, top + 1)).astype(int))
    for role, colour in (("user", "#1f77b4"), ("assistant", "#ff7f0e")):
        words = turns.filter(pl.col("role") == role)["words"].to_numpy()
        if words.size:
            ax.hist(np.maximum(words, 1), bins=bins, alpha=0.6, label=role, color=colour)
    ax.set_xscale("log")
    ax.set_xlabel("words per turn")
    ax.set_ylabel("turns")
    ax.set_title("Turn length")
    ax.legend()
    fig.tight_layout()
    fig.savefig(path, format="png", metadata=PNG_META)
    plt.close(fig)
    return path


def topic_donut(topics: dict[str, int], path: Path) -> Path:
    """Dialogues per topic, daily-life topics in blues, professional ones in oranges."""
    plt = _pyplot()
    labels, sizes, colours = [], [], []
    for group, names in TOPIC_GROUPS.items():
        cmap = plt.get_cmap(GROUP_COLOURS[group])
        for i, name in enumerate(names):
            if topics.get(name):
                labels.append(f"{name} ({topics[name]})")
                sizes.append(topics[name])
                colours.append(cmap(0.35 + 0.6 * i / max(len(names) - 1, 1)))
    unknown = sum(n for t, n in topics.items() if not any(t in ns for ns in TOPIC_GROUPS.values()))
    if unknown:
        labels.append(f"other ({unknown})")
        sizes.append(unknown)
        colours.append("#bbbbbb")
    fig, ax = plt.subplots(figsize=(5.5, 4), dpi=100)
    if sizes:
        ax.pie(sizes, labels=labels, colors=colours, startangle=90, counterclock=False,
               wedgeprops={"width": 0.4, "edgecolor": "white"}, textprops={"fontsize": 7})
    else:
        ax.text(0.5, 0.5, "no topics (classify stage not run)", ha="center", va="center")
        ax.axis("off")
    ax.set_title("Topics")
    fig.tight_layout()
    fig.savefig(path, format="png", metadata=PNG_META)
    plt.close(fig)
    return path

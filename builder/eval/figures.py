"""Figures of one model's results and of a leaderboard (matplotlib, Agg, deterministic).

Every figure says which metric it shows: judge means (0–5) when a judge ran, otherwise
rule-scored mcq/tf accuracy, labelled as such, never passed off as the other.
"""

from __future__ import annotations

from pathlib import Path

from builder.eval.samples import LENGTH_BUCKETS
from builder.records import ABILITIES


def _plt():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    plt.rcParams["svg.hashsalt"] = "mmrc"
    return plt


def ability_values(doc: dict) -> tuple[list[float | None], str]:
    """Per-ability values in ABILITIES order and the metric's label."""
    judged = doc["overall"]["metric"] == "judge_all"
    key = "judge_all" if judged else "rule_accuracy"
    values = [(doc["abilities"][a][key] or {}).get("mean") for a in ABILITIES]
    return values, ("judge score, 0–5 (unscored = 0)" if judged else "rule-scored mcq/tf accuracy (no judge)")


def _save(fig, path: Path) -> None:
    fig.tight_layout()
    fig.savefig(path, dpi=100, metadata={"Software": None})


def ability_bars(doc: dict, path: Path) -> None:
    plt = _plt()
    values, label = ability_values(doc)
    fig, ax = plt.subplots(figsize=(6, 3.2))
    ax.bar(list(ABILITIES), [v or 0 for v in values], color="#4C72B0")
    for i, v in enumerate(values):
        ax.text(i, (v or 0), "n/a" if v is None else f"{v:.2f}", ha="center", va="bottom", fontsize=8)
    ax.set_ylabel(label, fontsize=8)
    ax.set_ylim(0, 5 if "judge" in label else 1)
    ax.set_title(_title(doc), fontsize=9)
    _save(fig, path)
    plt.close(fig)


def length_curve(doc: dict, path: Path) -> None:
    plt = _plt()
    buckets = [f"{lo}-{hi}" for lo, hi in LENGTH_BUCKETS]
    by_length = doc["breakdowns"]["length_bucket"]
    fig, ax = plt.subplots(figsize=(6, 3.2))
    xs = [b for b in buckets if b in by_length]
    ax.plot(xs, [by_length[b]["score"]["mean"] or 0 for b in xs], marker="o")
    ax.set_xlabel("dialogue length (turns)", fontsize=8)
    ax.set_ylabel(ability_values(doc)[1], fontsize=8)
    ax.set_title(_title(doc), fontsize=9)
    _save(fig, path)
    plt.close(fig)


def _title(doc: dict) -> str:
    title = f"{doc['model'].get('model')} on {doc['release']['name']} {doc['release']['revision']}"
    if doc.get("warning"):
        title += "\nSMOKE MODEL: scores mean nothing"
    return title


def radar(entries: list[tuple[str, dict]], path: Path) -> None:
    """Six abilities per model (MMRC Fig. 1), one polygon per results document."""
    import math

    plt = _plt()
    angles = [2 * math.pi * i / len(ABILITIES) for i in range(len(ABILITIES))] + [0.0]
    fig = plt.figure(figsize=(5.5, 5.5))
    ax = fig.add_subplot(111, polar=True)
    labels = set()
    for name, doc in entries:
        values, label = ability_values(doc)
        labels.add(label)
        closed = [v or 0 for v in values] + [values[0] or 0]
        ax.plot(angles, closed, label=name)
        ax.fill(angles, closed, alpha=0.08)
    ax.set_xticks(angles[:-1])
    ax.set_xticklabels(list(ABILITIES))
    ax.set_ylim(0, 5 if any("judge" in label for label in labels) else 1)
    ax.set_title(" / ".join(sorted(labels)), fontsize=8)
    ax.legend(loc="upper right", bbox_to_anchor=(1.3, 1.1), fontsize=7)
    _save(fig, path)
    plt.close(fig)


def lengths(entries: list[tuple[str, dict]], path: Path) -> None:
    """Score per dialogue-length bucket, one line per model (MMRC Fig. 7)."""
    plt = _plt()
    buckets = [f"{lo}-{hi}" for lo, hi in LENGTH_BUCKETS]
    fig, ax = plt.subplots(figsize=(6.5, 3.5))
    labels = set()
    for name, doc in entries:
        by_length = doc["breakdowns"]["length_bucket"]
        xs = [b for b in buckets if b in by_length]
        ax.plot(xs, [by_length[b]["score"]["mean"] or 0 for b in xs], marker="o", label=name)
        labels.add(ability_values(doc)[1])
    ax.set_xlabel("dialogue length (turns)", fontsize=8)
    ax.set_ylabel(" / ".join(sorted(labels)), fontsize=8)
    ax.legend(fontsize=7)
    _save(fig, path)
    plt.close(fig)

"""Figures of one model's results and of a leaderboard (matplotlib, Agg, deterministic).

Every figure says which metric it shows: judge means (0–5) when a judge ran, otherwise
rule-scored mcq/tf accuracy (0–1), labelled as such and drawn on its own scale, never on the
other's axis. A value that was not computed is left out (a gap), never drawn as 0, and every
point with an n carries its 95% CI as an error bar.
"""

from __future__ import annotations

import math
from pathlib import Path

from builder.records import ABILITIES

LABELS = {"judge_all": "judge score, 0–5 (unscored = 0)", "rule_accuracy": "rule-scored mcq/tf accuracy, 0–1 (no judge)"}
SCALE = {"judge_all": 5.0, "rule_accuracy": 1.0}
MARKERS = "osD^vP*Xh<>"
LINESTYLES = ("-", "--", ":", "-.")


def _plt():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    plt.rcParams["svg.hashsalt"] = "mmrc"
    return plt


def metric_of(doc: dict) -> str:
    return doc["overall"]["metric"]


def ability_values(doc: dict) -> tuple[list[float | None], str]:
    """Per-ability values in ABILITIES order and the metric's label."""
    key = metric_of(doc)
    values = [(doc["abilities"][a][key] or {}).get("mean") for a in ABILITIES]
    return values, LABELS[key]


def _save(fig, path: Path) -> None:
    fig.tight_layout()
    fig.savefig(path, dpi=100, metadata={"Software": None})


def _title(doc: dict) -> str:
    title = f"{doc['model'].get('model')} on {doc['release']['name']} {doc['release']['revision']}"
    if doc.get("warning"):
        title += "\nSMOKE MODEL: scores mean nothing"
    return title


def _errorbar(ax, xs, points: list[dict | None], **style) -> None:
    """Points {mean, ci} at xs; missing ones are gaps, CIs are error bars."""
    xs_kept = [x for x, p in zip(xs, points) if p and p.get("mean") is not None]
    kept = [p for p in points if p and p.get("mean") is not None]
    if not kept:
        return
    means = [p["mean"] for p in kept]
    lower = [p["mean"] - p["ci"][0] if p.get("ci") else 0 for p in kept]
    upper = [p["ci"][1] - p["mean"] if p.get("ci") else 0 for p in kept]
    ax.errorbar(xs_kept, means, yerr=[lower, upper], capsize=3, **style)


# ---------------------------------------------------------------------------------------------
# one run
# ---------------------------------------------------------------------------------------------


def run_figures(doc: dict, folder: Path) -> None:
    ability_bars(doc, folder / "abilities.png")
    memory_by_length([("", doc)], folder / "length.png")
    domains([("", doc)], folder / "topics.png")


def ability_bars(doc: dict, path: Path) -> None:
    plt = _plt()
    key = metric_of(doc)
    fig, ax = plt.subplots(figsize=(6, 3.2))
    for i, code in enumerate(ABILITIES):
        entry = doc["abilities"][code][key] or {}
        if entry.get("mean") is None:
            ax.text(i, 0, "n/a", ha="center", va="bottom", fontsize=8)
            continue
        ci = entry.get("ci") or [entry["mean"], entry["mean"]]
        ax.bar(i, entry["mean"], color="#4C72B0", yerr=[[entry["mean"] - ci[0]], [ci[1] - entry["mean"]]], capsize=3)
        ax.text(i, entry["mean"], f"{entry['mean']:.2f}", ha="center", va="bottom", fontsize=8)
    ax.set_xticks(range(len(ABILITIES)), list(ABILITIES))
    ax.set_ylabel(LABELS[key], fontsize=8)
    ax.set_ylim(0, SCALE[key])
    ax.set_title(_title(doc), fontsize=9)
    _save(fig, path)
    plt.close(fig)


# ---------------------------------------------------------------------------------------------
# several runs (a leaderboard); each figure is drawn once per metric present
# ---------------------------------------------------------------------------------------------


def _by_metric(entries: list[tuple[str, dict]]) -> dict[str, list[tuple[str, dict]]]:
    out: dict[str, list] = {}
    for name, doc in entries:
        out.setdefault(metric_of(doc), []).append((name, doc))
    return dict(sorted(out.items()))


def _style(i: int) -> dict:
    """Distinct marker, line style and size per series (later ones smaller and hollow), so series
    with identical values stay visible on top of each other."""
    style = {"marker": MARKERS[i % len(MARKERS)], "linestyle": LINESTYLES[i % len(LINESTYLES)],
             "markersize": max(3, 9 - 2 * i)}
    if i:
        style["markerfacecolor"] = "none"
    return style


def radar(entries: list[tuple[str, dict]], path: Path) -> None:
    """Six abilities per model (MMRC Fig. 1): one polar panel per metric, each on its own scale;
    an ability without a score is not drawn (the polygon skips it); runs with identical values
    stay visible through distinct markers and line styles; the legend sits below the plot."""
    plt = _plt()
    groups = _by_metric(entries)
    fig = plt.figure(figsize=(5.5 * len(groups), 6.2))
    angles = [2 * math.pi * i / len(ABILITIES) for i in range(len(ABILITIES))]
    for panel, (metric, members) in enumerate(groups.items()):
        ax = fig.add_subplot(1, len(groups), panel + 1, polar=True)
        seen: dict[tuple, str] = {}
        for i, (name, doc) in enumerate(members):
            values, _ = ability_values(doc)
            pts = [(a, v) for a, v in zip(angles, values) if v is not None]
            if not pts:
                continue
            closed = pts + pts[:1] if len(pts) == len(ABILITIES) else pts
            same = seen.setdefault(tuple(values), name)
            label = name if same == name else f"{name} (same scores as {same})"
            ax.plot([a for a, _ in closed], [v for _, v in closed], label=label, linewidth=1.4, **_style(i))
            if len(pts) == len(ABILITIES):
                ax.fill([a for a, _ in closed], [v for _, v in closed], alpha=0.06)
        ax.set_xticks(angles, list(ABILITIES))
        ax.set_ylim(0, SCALE[metric])
        ax.set_title(LABELS[metric], fontsize=8, pad=14)
        ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.08), fontsize=7, ncol=1, frameon=False)
    _save(fig, path)
    plt.close(fig)


def memory_by_length(entries: list[tuple[str, dict]], path: Path) -> None:
    """MMRC Fig. 7: IE, IM and MR by conversation length in exchanges, one panel per ability,
    one line per model, 95% CIs, n under each bucket."""
    from builder.eval.analyses import EXCHANGE_BUCKETS, MEMORY_ABILITIES

    plt = _plt()
    buckets = ["0"] + [f"{lo}-{hi}" for lo, hi in EXCHANGE_BUCKETS] + [">22"]
    fig, axes = plt.subplots(1, len(MEMORY_ABILITIES), figsize=(4 * len(MEMORY_ABILITIES), 3.4), sharey=True)
    metrics = sorted({metric_of(doc) for _, doc in entries})
    for ax, code in zip(axes, MEMORY_ABILITIES):
        present = sorted({b for _, doc in entries for b in doc["analyses"]["memory_by_length"][code]},
                         key=buckets.index)
        for i, (name, doc) in enumerate(entries):
            points = doc["analyses"]["memory_by_length"][code]
            _errorbar(ax, [present.index(b) + 0.06 * i for b in present if b in points],
                      [points[b] for b in present if b in points], label=name or None, **_style(i))
        ns = [sum((doc["analyses"]["memory_by_length"][code].get(b) or {}).get("n", 0) for _, doc in entries[:1])
              for b in present]
        ax.set_xticks(range(len(present)), [f"{b}\nn={n}" for b, n in zip(present, ns)], fontsize=7)
        ax.set_xlim(-0.5, max(len(present), 1) - 0.5 + 0.06 * len(entries))
        ax.set_title(code, fontsize=9)
        ax.set_xlabel("conversation length (exchanges)", fontsize=8)
        ax.set_ylim(0, max(SCALE[m] for m in metrics) if metrics else 1)
    axes[0].set_ylabel(" / ".join(LABELS[m] for m in metrics), fontsize=7)
    if any(name for name, _ in entries):
        axes[-1].legend(fontsize=7, loc="upper center", bbox_to_anchor=(0.5, -0.3), frameon=False)
    _save(fig, path)
    plt.close(fig)


def _grouped(entries, path: Path, values_of, title: str, xlabel: str) -> None:
    """Grouped bars: a group per category, a bar per model, 95% CI error bars."""
    plt = _plt()
    categories = sorted({c for _, doc in entries for c in values_of(doc)})
    width = 0.8 / max(1, len(entries))
    fig, ax = plt.subplots(figsize=(max(6.0, 0.7 * len(categories) * max(1, len(entries)) + 2), 3.6))
    metrics = sorted({metric_of(doc) for _, doc in entries})
    for i, (name, doc) in enumerate(entries):
        values = values_of(doc)
        xs = [k + i * width for k, c in enumerate(categories) if c in values]
        pts = [values[c] for c in categories if c in values]
        kept = [(x, p) for x, p in zip(xs, pts) if p.get("mean") is not None]
        if kept:
            ax.bar([x for x, _ in kept], [p["mean"] for _, p in kept], width=width, label=name or None,
                   yerr=[[p["mean"] - (p.get("ci") or [p["mean"]] * 2)[0] for _, p in kept],
                         [(p.get("ci") or [p["mean"]] * 2)[1] - p["mean"] for _, p in kept]], capsize=2)
    ns = [next((values_of(doc)[c].get("n") for _, doc in entries if c in values_of(doc)), 0) for c in categories]
    ax.set_xticks([k + 0.4 - width / 2 for k in range(len(categories))],
                  [f"{c}\nn={n}" for c, n in zip(categories, ns)], fontsize=7, rotation=0)
    ax.set_ylim(0, max(SCALE[m] for m in metrics) if metrics else 1)
    ax.set_ylabel(" / ".join(LABELS[m] for m in metrics), fontsize=7)
    ax.set_xlabel(xlabel, fontsize=8)
    ax.set_title(title, fontsize=9)
    if any(name for name, _ in entries):
        ax.legend(fontsize=7, loc="upper center", bbox_to_anchor=(0.5, -0.25), frameon=False)
    _save(fig, path)
    plt.close(fig)


def domains(entries, path: Path) -> None:
    """MMRC Fig. 15: score per topic (domain bias)."""
    _grouped(entries, path, lambda doc: {k: v["score"] for k, v in doc["breakdowns"]["topic"].items()},
             "score by topic (domain bias)", "topic")


def update_frequency(entries, path: Path) -> None:
    """MMRC Fig. 9: IU score by how many times the asked fact was updated."""
    _grouped(entries, path, lambda doc: {k: v for k, v in doc["analyses"]["update_frequency"].items() if k != "unit"},
             "information update by update frequency", "updates of the asked fact (IU gold_turns - 1)")


def evidence_position(entries, path: Path) -> None:
    _grouped(entries, path, lambda doc: {k: v["score"] for k, v in doc["breakdowns"]["evidence_position"].items()},
             "score by where the evidence sits", "earliest evidence turn (thirds of the conversation)")

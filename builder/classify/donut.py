"""The MMRC topic donut (Fig. 5): inner ring = the two groups, outer ring = 14 topics, in %."""

from __future__ import annotations

from pathlib import Path

from builder.records import TOPIC_GROUPS

GROUP_TITLES = {"daily_life": "Daily life", "professional_knowledge": "Professional\nknowledge"}
GROUP_CMAPS = {"daily_life": "Blues", "professional_knowledge": "Oranges"}


def topic_donut(counts: dict[str, int], path: Path, title: str = "Topic distribution") -> Path:
    """Write the donut PNG for ``counts`` (topic -> dialogues); empty topics get no slice."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    total = sum(counts.values())
    fig, ax = plt.subplots(figsize=(7, 7), dpi=100)
    if total == 0:
        ax.text(0.5, 0.5, "no classified dialogues", ha="center", va="center", transform=ax.transAxes)
        ax.axis("off")
    else:
        inner, inner_colors, inner_labels, outer, outer_colors, outer_labels = [], [], [], [], [], []
        for group, topics in TOPIC_GROUPS.items():
            cmap = plt.get_cmap(GROUP_CMAPS[group])
            n_group = sum(counts.get(t, 0) for t in topics)
            if n_group == 0:
                continue
            inner.append(n_group)
            inner_colors.append(cmap(0.75))
            inner_labels.append(f"{GROUP_TITLES[group]}\n{100 * n_group / total:.1f}%")
            for k, topic in enumerate(topics):
                n = counts.get(topic, 0)
                if n:
                    outer.append(n)
                    outer_colors.append(cmap(0.25 + 0.5 * k / max(1, len(topics) - 1)))
                    outer_labels.append(f"{topic} {100 * n / total:.1f}%")
        ax.pie(outer, radius=1.0, colors=outer_colors, labels=outer_labels, labeldistance=1.08,
               wedgeprops={"width": 0.3, "edgecolor": "white"}, textprops={"fontsize": 9}, startangle=90,
               counterclock=False)
        ax.pie(inner, radius=0.7, colors=inner_colors, labels=inner_labels, labeldistance=0.42,
               wedgeprops={"width": 0.3, "edgecolor": "white"}, textprops={"fontsize": 9, "ha": "center"},
               startangle=90, counterclock=False)
        ax.set(aspect="equal")
    ax.set_title(f"{title} (n = {total})")
    path = Path(path)
    fig.savefig(path, format="png", bbox_inches="tight", metadata={"Software": None})
    plt.close(fig)
    return path

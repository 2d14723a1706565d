"""``eval report``: every model evaluated under a folder, side by side.

Reads ``OUT/<release>-<tag>/<model>/results.json`` and writes ``OUT/leaderboard.md`` (one
table per release: MMRC Table 3 columns, the Note-taking delta of Table 4, the modality-swap
gap), ``OUT/<release>-<tag>/radar.png`` and ``length.png``, and copies of the figures of the
release with the most results at ``OUT/radar.png`` and ``OUT/length.png``.
"""

from __future__ import annotations

import json
import shutil
from collections import defaultdict
from pathlib import Path

from builder.errors import InputError
from builder.eval import figures
from builder.records import ABILITIES


def _fmt(value, digits: int = 2) -> str:
    return "n/a" if value is None else f"{value:.{digits}f}"


def _mean(entry) -> float | None:
    return None if entry is None else entry.get("mean")


def load_results(root: Path) -> dict[str, list[tuple[str, dict]]]:
    found: dict[str, list[tuple[str, dict]]] = defaultdict(list)
    for path in sorted(Path(root).glob("*/*/results.json")):
        if any(part.startswith(".") for part in path.relative_to(root).parts) or not (path.parent / "_SUCCESS").exists():
            continue  # a partial or left-over folder of a killed run, not a finished eval
        try:
            doc = json.loads(path.read_text())
        except (OSError, json.JSONDecodeError) as exc:
            raise InputError(f"{path} is not readable JSON ({exc}); rerun `mmrc-build eval run` for that model") \
                from None
        if doc.get("format", "").startswith("mmrc-eval-results/"):
            found[path.parent.parent.name].append((path.parent.name, doc))
    return dict(found)


def _model_key(doc: dict) -> tuple:
    model = doc["model"]
    return model.get("backend"), model.get("model"), model.get("weights_sha256"), doc["release"]["commit"]


def _row(name: str, doc: dict) -> str:
    obj, ab = doc["objective"], doc["abilities"]
    judged = doc["overall"]["metric"] == "judge_all"
    key = "judge_all" if judged else "rule_accuracy"
    fail = doc.get("judge_fail_rate")
    cells = [name + (" ⚠ smoke" if doc.get("warning") else ""), "yes" if doc.get("notes") else "no",
             _fmt(doc["overall"]["mean"]), *[_fmt(_mean(ab[a][key])) for a in ABILITIES],
             _fmt(_mean(obj["ep"])), _fmt(_mean(obj["imp"])), _fmt(_mean(obj.get("rp"))),
             _fmt(_mean(obj["mcq_accuracy"])), _fmt(_mean(obj["tf_accuracy"])),
             "n/a" if fail is None else f"{fail['rate']:.1%}", str(doc["questions"])]
    return "| " + " | ".join(cells) + " |"


def _notes_table(entries: list[tuple[str, dict]]) -> list[str]:
    base = {_model_key(doc): (name, doc) for name, doc in entries if not doc.get("notes")}
    lines = []
    for name, doc in entries:
        if not doc.get("notes") or _model_key(doc) not in base:
            continue
        base_name, base_doc = base[_model_key(doc)]
        if base_doc["overall"]["metric"] != doc["overall"]["metric"]:
            continue
        key = doc["overall"]["metric"]
        for code in ABILITIES:
            before, after = _mean(base_doc["abilities"][code][key]), _mean(doc["abilities"][code][key])
            delta = "n/a" if before is None or after is None else f"{after - before:+.2f}"
            lines.append(f"| {base_name} | {code} | {_fmt(before)} | {_fmt(after)} | {delta} |")
    if not lines:
        return []
    return ["", "### Note-taking (with − without notes, per ability; MMRC Table 4)", "",
            "| model | ability | without | with | Δ |", "|---|---|---|---|---|", *lines]


def _swap_table(entries: list[tuple[str, dict]]) -> list[str]:
    lines = []
    for name, doc in entries:
        paired = (doc.get("modality_swap") or {}).get("paired")
        if not paired or not paired["pairs"]:
            continue
        diff = paired["original_minus_variant"]
        ci = "" if not diff["ci"] else f" [{diff['ci'][0]:.2f}, {diff['ci'][1]:.2f}]"
        relative = "n/a" if diff["relative_pct"] is None else f"{diff['relative_pct']:+.1f}%"
        lines.append(f"| {name} | {paired['metric']} | {paired['pairs']} | {_fmt(diff['mean_a'])} | "
                     f"{_fmt(diff['mean_b'])} | {_fmt(diff['difference'])}{ci} | {relative} |")
    if not lines:
        return []
    return ["", "### Modality swap (original text vs image variant, paired; MMRC §4.2)", "",
            "| model | metric | pairs | original | variant | difference [95% CI] | relative |",
            "|---|---|---|---|---|---|---|", *lines]


def write_report(root: Path) -> dict:
    root = Path(root)
    if not root.is_dir():
        raise InputError(f"{root} does not exist; run `mmrc-build eval run ... -o {root}` first")
    releases = load_results(root)
    if not releases:
        raise InputError(f"no results.json under {root}/<release>/<model>/; run `mmrc-build eval run` first")
    lines = ["# Leaderboard", "", f"Made by `mmrc-build eval report` from "
             f"{sum(len(v) for v in releases.values())} result(s) under `{root}`.", ""]
    for release, entries in sorted(releases.items()):
        entries.sort(key=lambda e: (-(e[1]["overall"]["mean"] or 0), e[0]))
        first = entries[0][1]
        metrics = sorted({doc["overall"]["metric"] for _, doc in entries})
        lines += [f"## {release}", "",
                  f"Release `{first['release']['location']}` at `{first['release']['revision']}` "
                  f"(commit `{first['release']['commit'][:12]}`). Overall and ability columns: "
                  + " / ".join("judge score 0–5 over all questions (unscored = 0)" if m == "judge_all"
                               else "rule-scored mcq/tf accuracy (no judge; open questions not scored)"
                               for m in metrics) + ".", "",
                  "| model | notes | overall | " + " | ".join(ABILITIES)
                  + " | EP | IMP | RP | mcq acc | tf acc | judge fail | questions |",
                  "|" + "---|" * (3 + len(ABILITIES) + 7)]
        lines += [_row(name, doc) for name, doc in entries]
        if any(doc.get("warning") for _, doc in entries):
            lines += ["", "⚠ smoke: a random-weight model built by `mmrc-build eval smoke-model`; its scores mean "
                      "nothing (it exercises the code path)."]
        lines += _notes_table(entries) + _swap_table(entries)
        lines += ["", f"![abilities]({release}/radar.png) ![length]({release}/length.png)", ""]
        figures.radar(entries, root / release / "radar.png")
        figures.lengths(entries, root / release / "length.png")
    busiest = max(sorted(releases), key=lambda r: len(releases[r]))
    for name in ("radar.png", "length.png"):
        shutil.copyfile(root / busiest / name, root / name)
    (root / "leaderboard.md").write_text("\n".join(lines) + "\n")
    return {"leaderboard": str(root / "leaderboard.md"), "releases": {r: len(e) for r, e in releases.items()}}

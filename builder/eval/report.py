"""``eval report``: every model evaluated under a folder, side by side.

Reads ``OUT/<release>-<tag>/<model>/results.json`` and writes ``OUT/leaderboard.md``, one section
per release:

- MMRC Table 3: overall, the six abilities, the human re-evaluated CR*/IU*/MR*, EP, IMP, RP;
  every cell with its 95% CI;
- the numbers beside the paper's (named as extras): IMP as Jaccard, over-refusal, refusal
  agreement, RP by judge / phrase matcher alone, mcq/tf accuracy, judge failures;
- judge–human agreement per ability (exact, within ±1, weighted kappa);
- MMRC Table 4: the Note-taking delta per ability with its paired-bootstrap CI, only between runs
  scored by the same judge (otherwise it says why not);
- MMRC §4.2: the modality-swap gap, over all abilities and over the memory abilities;
- MMRC Fig. 15: domain bias per topic group and topic;

and the figures ``radar.png``, ``length.png`` (Fig. 7), ``topics.png`` (Fig. 15), ``updates.png``
(Fig. 9) and ``evidence.png`` under ``OUT/<release>-<tag>/``, copied to ``OUT/`` for the release
with the most results.
"""

from __future__ import annotations

import shutil
from collections import defaultdict
from pathlib import Path

from builder import io
from builder.errors import InputError
from builder.eval import compare, figures, run_files
from builder.eval.review import REVIEW_ABILITIES
from builder.records import ABILITIES, TOPIC_GROUPS

FIGURES = {"radar.png": figures.radar, "length.png": figures.memory_by_length, "topics.png": figures.domains,
           "updates.png": figures.update_frequency, "evidence.png": figures.evidence_position}
BOOT = {"resamples": 1000, "seed": 0}


def _fmt(value, digits: int = 2) -> str:
    return "n/a" if value is None else f"{value:.{digits}f}"


def _cell(entry: dict | None, digits: int = 2) -> str:
    """``mean [lo, hi]``; ``n/a`` when not computed."""
    if not entry or entry.get("mean") is None:
        return "n/a"
    ci = entry.get("ci")
    return _fmt(entry["mean"], digits) + (f" [{ci[0]:.{digits}f}, {ci[1]:.{digits}f}]" if ci else "")


def load_results(root: Path) -> dict[str, list[tuple[str, dict]]]:
    found: dict[str, list[tuple[str, dict]]] = defaultdict(list)
    for path in sorted(Path(root).glob("*/*/results.json")):
        if any(part.startswith(".") for part in path.relative_to(root).parts) or not (path.parent / "_SUCCESS").exists():
            continue  # a partial or left-over folder of a killed run, not a finished eval
        doc = run_files.read_json(path, "results file", run_files.RERUN)
        if not isinstance(doc, dict) or not str(doc.get("format", "")).startswith("mmrc-eval-results/"):
            continue  # some other tool's results.json
        _check_renders(path, path.parent.name, run_files.check_results(doc, path))
        found[path.parent.parent.name].append((path.parent.name, doc))
    return dict(found)


_SHAPE_ERRORS = (KeyError, TypeError, AttributeError, IndexError, ValueError)


def _check_renders(path: Path, name: str, doc: dict) -> None:
    """Every leaderboard row of ``doc`` drawn on its own, so that a field a hand edit or a damaged copy
    changed is one line naming its file, not a traceback half way through the leaderboard."""
    try:
        _main_row(name, doc), _extras_row(name, doc), _human_table([(name, doc)]), _swap_table([(name, doc)])
        _domain_table([(name, doc)])
        _ = doc["release"]["commit"][:12], figures.LABELS[doc["overall"]["metric"]]  # the section's heading
    except _SHAPE_ERRORS as exc:
        raise InputError(f"{path} lacks or mistypes a field the leaderboard reads ({type(exc).__name__}: "
                         f"{str(exc)[:80]}); {run_files.RERUN}") from None


def _model_key(doc: dict) -> tuple:
    model = doc["model"]
    return model.get("backend"), model.get("model"), model.get("weights_sha256"), doc["release"]["commit"]


def _human(doc: dict, code: str) -> dict | None:
    return (((doc.get("human") or {}).get("abilities") or {}).get(code) or {}).get("human")


def _main_row(name: str, doc: dict) -> str:
    obj, ab = doc["objective"], doc["abilities"]
    key = doc["overall"]["metric"]
    rp = obj.get("rp") or {}
    rp_by = "" if not rp.get("refusal_by") or set(rp["refusal_by"]) == {"judge"} else " ¹"
    cells = [name + (" ⚠ smoke" if doc.get("warning") else ""), "yes" if doc.get("notes") else "no",
             _cell(doc["overall"]), *[_cell(ab[a][key]) for a in ABILITIES],
             *[_cell(_human(doc, a)) for a in REVIEW_ABILITIES],
             _cell(obj["ep"]), _cell(obj["imp"]), _cell(rp) + rp_by, str(doc["questions"])]
    return "| " + " | ".join(cells) + " |"


def _extras_row(name: str, doc: dict) -> str:
    obj = doc["objective"]
    fail = doc.get("judge_fail_rate")
    cells = [name, _cell(obj.get("imp_jaccard")), _cell(obj.get("over_refusal")), _cell(obj.get("refusal_agreement")),
             _cell(obj.get("rp_judge")), _cell(obj.get("rp_phrase_matcher")), _cell(obj["mcq_accuracy"]),
             _cell(obj["tf_accuracy"]), "n/a" if fail is None else f"{fail['rate']:.1%} ({fail['failed']}/{fail['of']})"]
    return "| " + " | ".join(cells) + " |"


def _human_table(entries) -> list[str]:
    lines = []
    for name, doc in entries:
        human = doc.get("human") or {}
        for code, entry in sorted((human.get("abilities") or {}).items()):
            agree = entry["agreement"]
            lines.append(f"| {name} | {code}* | {_cell(entry['human'])} | {_cell(entry['judge_on_reviewed'])} | "
                         f"{entry['human']['n']} | {entry['annotators']} | {_fmt(agree['exact'])} | "
                         f"{_fmt(agree['within_1'])} | {_fmt(agree['weighted_kappa'])} |")
        if human.get("stale_reviews"):
            lines.append(f"| {name} | (stale) | {human['stale_reviews']} review(s) of answers that changed since "
                         "export, not counted | | | | | | |")
    if not lines:
        return []
    return ["", "### Human re-evaluation (CR*/IU*/MR*; judge–human agreement)", "",
            "| model | ability | human | judge on the same questions | questions | annotators | exact | ±1 | "
            "weighted κ |", "|---|---|---|---|---|---|---|---|---|", *lines]


def _notes_table(entries, samples_of) -> list[str]:
    base = defaultdict(list)
    for name, doc in entries:
        if not doc.get("notes"):
            base[_model_key(doc)].append((name, doc))
    lines, skipped = [], []
    for name, doc in entries:
        if not doc.get("notes") or not base.get(_model_key(doc)):
            continue
        matches = [(bn, bd) for bn, bd in base[_model_key(doc)]
                   if compare.judge_fingerprint(bd) == compare.judge_fingerprint(doc)]
        if not matches:
            skipped.append(f"- {name}: not paired with {', '.join(bn for bn, _ in base[_model_key(doc)])}: the runs "
                           "were scored by different judges or judge prompts, so their scores do not compare")
            continue
        base_name, base_doc = matches[0]
        metric, _ = compare.comparable_metric(base_doc, doc)
        diff = compare.paired(samples_of(base_name, base_doc), samples_of(name, doc), metric, BOOT)
        for code in ABILITIES:
            d = diff["abilities"][code]
            delta = "n/a" if d["difference"] is None else f"{d['difference']:+.2f}" + (
                f" [{d['ci'][0]:+.2f}, {d['ci'][1]:+.2f}]" if d["ci"] else "")
            lines.append(f"| {base_name} | {code} | {_fmt(d['a'])} | {_fmt(d['b'])} | {delta} | {d['n']} |")
    if not lines and not skipped:
        return []
    out = ["", "### Note-taking (with − without notes, per ability, paired on the same questions; MMRC Table 4)", ""]
    if lines:
        out += ["| model | ability | without | with | Δ [95% CI] | questions |", "|---|---|---|---|---|---|", *lines]
    return out + ([""] + skipped if skipped else [])


def _swap_table(entries) -> list[str]:
    lines = []
    for name, doc in entries:
        swap = doc.get("modality_swap") or {}
        for label, paired in (("all abilities", swap.get("paired")), ("memory (IE, IM, MR)", swap.get("paired_memory"))):
            if not paired or not paired["pairs"]:
                continue
            diff = paired["original_minus_variant"]
            ci = "" if not diff["ci"] else f" [{diff['ci'][0]:.2f}, {diff['ci'][1]:.2f}]"
            relative = "n/a" if diff["relative_pct"] is None else f"{diff['relative_pct']:+.1f}%"
            lines.append(f"| {name} | {label} | {paired['metric']} | {paired['pairs']} | {_fmt(diff['mean_a'])} | "
                         f"{_fmt(diff['mean_b'])} | {_fmt(diff['difference'])}{ci} | {relative} |")
    if not lines:
        return []
    return ["", "### Modality swap (original text vs image variant, paired; MMRC §4.2)", "",
            "| model | questions | metric | pairs | original | variant | difference [95% CI] | relative |",
            "|---|---|---|---|---|---|---|---|", *lines]


def _domain_table(entries) -> list[str]:
    topics = sorted({t for _, doc in entries for t in doc["breakdowns"]["topic"]})
    groups = [g for g in TOPIC_GROUPS if any(g in doc["breakdowns"]["topic_group"] for _, doc in entries)]
    if not topics:
        return []
    lines = ["", "### Domain (score by topic group and topic; MMRC Fig. 15)", "",
             "| model | " + " | ".join(groups + topics) + " |", "|" + "---|" * (1 + len(groups) + len(topics))]
    for name, doc in entries:
        b = doc["breakdowns"]
        cells = [_cell((b["topic_group"].get(g) or {}).get("score")) for g in groups]
        cells += [_cell((b["topic"].get(t) or {}).get("score")) for t in topics]
        lines.append(f"| {name} | " + " | ".join(cells) + " |")
    return lines


DEFINITIONS = [
    "", "### What the columns are",
    "- **The paper's (MMRC §4.1)**: abilities = judge score 0–5 over all questions (unanswered = 0), or rule-scored "
    "mcq/tf accuracy when no judge ran; CR*/IU*/MR* = human re-evaluation (`eval review import`); "
    "EP = |model items ∩ gold items| / |model items|; IMP = |hit| / |hit ∪ miss| (gold images identified / gold "
    "images); RP = refused / should-refuse, over the questions whose ground truth is a refusal.",
    "- **Extras, not in the paper**: IMP Jaccard = |P ∩ G| / |P ∪ G|; over-refusal = refusals of answerable "
    "questions; refusal agreement = refused == should_refuse over all questions; RP by the judge alone or the "
    "phrase matcher alone; mcq/tf accuracy.",
    "- ¹ RP's refusals came (partly) from the phrase matcher: no judge verdict for them (`--judge none`, or a "
    "judge reply without its REFUSED line); see `objective.rp.refusal_by` in results.json.",
    "- Cells: mean [95% CI], cluster bootstrap over dialogues.",
]


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

        def samples_of(name: str, doc: dict, release=release) -> list[dict]:
            return run_files.read_samples(root / release / name)

        lines += [f"## {release}", "",
                  f"Release `{first['release']['location']}` at `{first['release']['revision']}` "
                  f"(commit `{first['release']['commit'][:12]}`). Overall and ability columns: "
                  + " / ".join(figures.LABELS[m] for m in metrics) + ".", "",
                  "| model | notes | overall | " + " | ".join(ABILITIES) + " | "
                  + " | ".join(f"{a}*" for a in REVIEW_ABILITIES) + " | EP | IMP | RP | questions |",
                  "|" + "---|" * (3 + len(ABILITIES) + len(REVIEW_ABILITIES) + 4)]
        lines += [_main_row(name, doc) for name, doc in entries]
        if any(doc.get("warning") for _, doc in entries):
            lines += ["", "⚠ smoke: a random-weight model built by `mmrc-build eval smoke-model`; its scores mean "
                      "nothing (it exercises the code path)."]
        lines += ["", "### Beside the paper's numbers (extras)", "",
                  "| model | IMP Jaccard | over-refusal | refusal agreement | RP judge | RP phrase matcher | mcq acc | "
                  "tf acc | judge fail |", "|---|---|---|---|---|---|---|---|---|"]
        lines += [_extras_row(name, doc) for name, doc in entries]
        lines += _human_table(entries) + _notes_table(entries, samples_of) + _swap_table(entries)
        lines += _domain_table(entries) + DEFINITIONS
        lines += ["", " ".join(f"![{Path(n).stem}]({release}/{n})" for n in FIGURES), ""]
        for name, draw in FIGURES.items():
            try:
                io.remove_link(root / release / name)
                draw(entries, root / release / name)
            except _SHAPE_ERRORS as exc:
                raise InputError(f"a results.json under {root / release} lacks or mistypes a field the figures read "
                                 f"({type(exc).__name__}: {str(exc)[:80]}); {run_files.RERUN}") from None
    busiest = max(sorted(releases), key=lambda r: len(releases[r]))
    for name in FIGURES:
        io.remove_link(root / name)
        shutil.copyfile(root / busiest / name, root / name)
    io.write_text_atomic(root / "leaderboard.md", "\n".join(lines) + "\n")
    return {"leaderboard": str(root / "leaderboard.md"), "releases": {r: len(e) for r, e in releases.items()}}

"""Two runs side by side: a paired bootstrap over the questions both answered (`eval compare`,
the Note-taking delta of the leaderboard).

Two runs are compared on the judge's scale only when the same judge scored both (same judge
model and weights, the same judge prompt, extract mode and context); otherwise on rule-scored
mcq/tf accuracy, and the reason is said. Differences are B − A per question, resampled by
dialogue (questions of one dialogue are not independent), with a 95% CI.
"""

from __future__ import annotations

import json

from builder.eval.stats import paired_difference
from builder.records import ABILITIES

_VOLATILE = ("base_url", "server", "folder")


def judge_fingerprint(doc: dict) -> str | None:
    """What decides a judge's scores: its identity, prompt hash, extract mode and context."""
    judge = doc.get("judge")
    if not judge:
        return None
    ident = {k: v for k, v in judge.items() if k not in _VOLATILE}
    versions = doc.get("prompt_versions") or {}
    return json.dumps([ident, versions.get("judge"), versions.get("judge_sha256"), versions.get("judge_context"),
                       doc.get("extract")], sort_keys=True)


def comparable_metric(a: dict, b: dict) -> tuple[str, str | None]:
    """(metric, why not the judge's) for comparing runs a and b."""
    fa, fb = judge_fingerprint(a), judge_fingerprint(b)
    if fa is not None and fa == fb:
        return "judge_all", None
    if fa is None or fb is None:
        return "rule_accuracy", "one run has no judge scores"
    return "rule_accuracy", "the runs were judged by different judges or judge prompts"


def _value(metric: str):
    if metric == "judge_all":
        return lambda s: 0.0 if s["prediction"]["status"] != "ok" else (s.get("judge") or {}).get("score")
    return lambda s: None if s["metrics"]["rule_correct"] is None else float(s["metrics"]["rule_correct"])


# what makes a question the same question in two runs (of two releases, its id may stay while these change)
QUESTION_CONTENT = ("ability", "format", "question", "choices", "gold_answer", "gold_items", "gold_images",
                    "should_refuse")


def paired(samples_a: list[dict], samples_b: list[dict], metric: str, boot: dict) -> dict:
    """B − A over the shared original questions: overall and per ability. A question is shared when both
    runs asked it with the same content; one whose id is in both runs but whose content differs (another
    release corrected its reference answer) is counted in ``differ`` and not compared."""
    value = _value(metric)
    a_by = {(s["dialogue_id"], s["question_id"]): s for s in samples_a if s["config"] == "default"}
    triples: dict[str, list] = {code: [] for code in ABILITIES}
    differ = 0
    for s in samples_b:
        key = (s["dialogue_id"], s["question_id"])
        if s["config"] != "default" or key not in a_by:
            continue
        if any(a_by[key].get(field) != s.get(field) for field in QUESTION_CONTENT):
            differ += 1
            continue
        va, vb = value(a_by[key]), value(s)
        if va is not None and vb is not None:
            triples[s["ability"]].append((s["dialogue_id"], float(vb), float(va)))
    every = [t for code in ABILITIES for t in triples[code]]
    out = {"metric": metric, "shared": len(every), "differ": differ, "overall": _diff(every, boot),
           "abilities": {code: _diff(triples[code], boot) for code in ABILITIES}}
    return out


def releases(a: dict, b: dict) -> list[dict] | None:
    """The two runs' releases when they differ (None: one release, at one commit)."""
    ra, rb = a.get("release") or {}, b.get("release") or {}
    return None if ra.get("commit") == rb.get("commit") else [ra, rb]


def _diff(triples: list, boot: dict) -> dict:
    """B − A (``paired_difference`` of (cluster, b, a)): mean_b is A's mean, mean_a is B's."""
    d = paired_difference(triples, **boot)
    return {"n": d["n"], "a": d["mean_b"], "b": d["mean_a"], "difference": d["difference"], "ci": d["ci"]}


def read_run(folder) -> tuple[dict, list[dict]]:
    from builder.eval.run_files import read_results, read_samples

    return read_results(folder), read_samples(folder)

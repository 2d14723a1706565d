"""Aggregate scored samples into results.json (MMRC Table 3, Fig. 7–9 and 15, §4.2).

Main numbers are over the original dialogues (release config ``default``); modality-swap
variants are reported on their own and as a paired difference against their originals.

- Judge means per ability, 0–5: over *valid* (the judge gave a score) and over *all* (every
  question, where one the model could not answer — context overflow, a prompt its template
  refused, a rejected or failed request — counts 0). A verdict the judge itself botched
  (unparseable) is the judge's failure, not the model's: it is left out of both means and counted
  in ``judge_fail_rate``. With ``--judge none`` they are ``null`` and ``not_computed`` says why.
- EP, IMP: over answered questions that have gold items / gold images; RP over questions
  with a judge refusal verdict; ``rp_phrase_matcher`` is the judge-free cross-check.
- mcq/tf accuracy: over every mcq/tf question (an unanswered one is wrong).
- Every mean has a 95% cluster-bootstrap CI (dialogues resampled); rates a Wilson CI.
"""

from __future__ import annotations

from collections import Counter, defaultdict

from builder.eval.stats import cluster_mean, paired_difference, wilson
from builder.records import ABILITIES

NOT_COMPUTED_JUDGE = "needs a judge (this run had --judge none or --predict-only)"


def _mean(samples: list[dict], value, boot: dict) -> dict:
    pairs = [(s["dialogue_id"], v) for s in samples if (v := value(s)) is not None]
    return cluster_mean(pairs, **boot)


def _judge_score(s: dict):
    return (s.get("judge") or {}).get("score")


def _score_all(s: dict):
    if s["prediction"]["status"] != "ok":
        return 0
    return _judge_score(s)


def ability_table(samples: list[dict], judged: bool, boot: dict) -> dict:
    table = {}
    for code in ABILITIES:
        mine = [s for s in samples if s["ability"] == code]
        entry = {"n": len(mine)}
        if judged:
            entry["judge_valid"] = _mean(mine, _judge_score, boot)
            entry["judge_all"] = _mean(mine, _score_all, boot)
        else:
            entry["judge_valid"] = entry["judge_all"] = None
        entry["rule_accuracy"] = _mean(mine, lambda s: None if s["metrics"]["rule_correct"] is None
                                       else float(s["metrics"]["rule_correct"]), boot)
        table[code] = entry
    return table


def objective(samples: list[dict], judged: bool, boot: dict) -> dict:
    m = lambda key: (lambda s: s["metrics"].get(key))  # noqa: E731
    as_float = lambda key: (lambda s: None if s["metrics"].get(key) is None else float(s["metrics"][key]))  # noqa: E731
    refusal = [s for s in samples if s["ability"] == "AR"]
    answerable = [s for s in samples if not s["should_refuse"]]
    out = {
        "ep": _mean([s for s in samples if s["ability"] == "IE"], m("ep"), boot),
        "imp": _mean([s for s in samples if s["ability"] == "IM"], m("imp"), boot),
        "rp_phrase_matcher": _mean(samples, as_float("refusal_match_matcher"), boot),
        "mcq_accuracy": _mean([s for s in samples if s["format"] == "mcq"], as_float("rule_correct"), boot),
        "tf_accuracy": _mean([s for s in samples if s["format"] == "tf"], as_float("rule_correct"), boot),
    }
    if judged:
        out["rp"] = _mean(samples, as_float("refusal_match"), boot)
        out["rp_ar"] = _mean(refusal, as_float("refusal_match"), boot)
        out["over_refusal"] = _mean(answerable, as_float("refused_judge"), boot)
        verdicts = [s for s in samples if s["metrics"]["refusal_disagree"] is not None]
        out["refusal_disagreements"] = {"n": sum(s["metrics"]["refusal_disagree"] for s in verdicts),
                                        "of": len(verdicts)}
    else:
        out["rp"] = out["rp_ar"] = out["over_refusal"] = None
        out["refusal_disagreements"] = None
    return out


def overall_score(samples: list[dict], judged: bool, boot: dict) -> dict:
    """The one number per model: judge mean over all questions (0–5), else rule accuracy."""
    if judged:
        return {"metric": "judge_all", **_mean(samples, _score_all, boot)}
    return {"metric": "rule_accuracy", **_mean(samples, lambda s: None if s["metrics"]["rule_correct"] is None
                                                   else float(s["metrics"]["rule_correct"]), boot)}


def breakdowns(samples: list[dict], judged: bool, boot: dict) -> dict:
    out = {}
    for dim in ("topic", "topic_group", "length_bucket", "evidence_position"):
        groups = defaultdict(list)
        for s in samples:
            groups[s[dim] or "none"].append(s)
        out[dim] = {}
        for value in sorted(groups):
            mine = groups[value]
            entry = {"n": len(mine), "score": overall_score(mine, judged, boot)}
            entry["by_ability"] = {code: overall_score([s for s in mine if s["ability"] == code], judged,
                                                       {"resamples": 0, "seed": 0})["mean"]
                                   for code in ABILITIES}
            out[dim][value] = entry
    return out


def statuses(samples: list[dict]) -> dict:
    prediction = Counter(s["prediction"]["status"] for s in samples)
    judge = Counter((s.get("judge") or {}).get("status", "not_run") for s in samples)
    notes = Counter((s.get("notes") or {}).get("status", "none") for s in samples)
    truncated = sum(1 for s in samples if s["prediction"].get("truncated_messages"))
    return {"prediction": dict(sorted(prediction.items())), "judge": dict(sorted(judge.items())),
            "notes": dict(sorted(notes.items())), "truncated_history": truncated}


def judge_fail_rate(samples: list[dict]) -> dict | None:
    sent = [s for s in samples if (s.get("judge") or {}).get("status") not in (None, "not_run", "skipped")]
    if not sent:
        return None
    failed = sum(1 for s in sent if s["judge"]["status"] != "scored")
    return {"rate": round(failed / len(sent), 4), "failed": failed, "of": len(sent), "ci": wilson(failed, len(sent))}


def swap_difference(samples: list[dict], judged: bool, boot: dict) -> dict:
    """Original minus variant, per (original dialogue, question): MMRC §4.2's text vs image gap."""
    originals = {(s["dialogue_id"], s["question_id"]): s for s in samples if s["config"] == "default"}
    pairs = []
    for s in samples:
        if s["config"] != "modality_swap" or (s["variant_of"], s["question_id"]) not in originals:
            continue
        o = originals[(s["variant_of"], s["question_id"])]
        pairs.append((o, s))
    value = _score_all if judged else (lambda s: None if s["metrics"]["rule_correct"] is None
                                       else float(s["metrics"]["rule_correct"]))
    triples = [(o["dialogue_id"], value(o), value(v)) for o, v in pairs
               if value(o) is not None and value(v) is not None]
    return {"metric": "judge_all" if judged else "rule_accuracy", "pairs": len(pairs),
            "original_minus_variant": paired_difference(triples, **boot)}


def results(samples: list[dict], judged: bool, boot: dict) -> dict:
    main = [s for s in samples if s["config"] == "default"]
    variants = [s for s in samples if s["config"] == "modality_swap"]
    out = {
        "questions": len(main),
        "dialogues": len({s["dialogue_id"] for s in main}),
        "overall": overall_score(main, judged, boot),
        "abilities": ability_table(main, judged, boot),
        "objective": objective(main, judged, boot),
        "judge_fail_rate": judge_fail_rate(main),
        "statuses": statuses(main),
        "breakdowns": breakdowns(main, judged, boot),
    }
    if not judged:
        out["not_computed"] = {"judge_valid": NOT_COMPUTED_JUDGE, "judge_all": NOT_COMPUTED_JUDGE,
                               "rp": NOT_COMPUTED_JUDGE + "; rp_phrase_matcher is the judge-free cross-check",
                               "rp_ar": NOT_COMPUTED_JUDGE, "over_refusal": NOT_COMPUTED_JUDGE}
    if variants:
        out["modality_swap"] = {
            "questions": len(variants), "dialogues": len({s["dialogue_id"] for s in variants}),
            "overall": overall_score(variants, judged, boot),
            "abilities": ability_table(variants, judged, boot),
            "statuses": statuses(variants),
            "paired": swap_difference(samples, judged, boot),
        }
    return out

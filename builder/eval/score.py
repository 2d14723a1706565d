"""Aggregate scored samples into results.json (MMRC Table 3, Fig. 7–9 and 15, §4.2).

Main numbers are over the original dialogues (release config ``default``); modality-swap
variants are reported on their own and as a paired difference against their originals.

- Judge means per ability, 0–5: over *valid* (the judge gave a score) and over *all* (every
  question, where one the model could not answer — context overflow, a prompt its template
  refused, a rejected or failed request — counts 0). A verdict the judge itself botched
  (unparseable) is the judge's failure, not the model's: it is left out of both means and counted
  in ``judge_fail_rate``. With ``--judge none`` they are ``null`` and ``not_computed`` says why.
- EP, IMP, RP exactly as MMRC §4.1 (see ``objective``): EP over answered IE questions with gold
  items, IMP over answered IM questions with gold images, RP over the should-refuse questions.
- mcq/tf accuracy: over every mcq/tf question (an unanswered one is wrong).
- Every mean has a 95% cluster-bootstrap CI (dialogues resampled); rates a Wilson CI.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from typing import Any

from builder.eval import analyses
from builder.eval.stats import cluster_mean, paired_difference, wilson
from builder.records import ABILITIES

DEFINITIONS = {
    "objective.ep": "MMRC §4.1: |model items ∩ gold items| / |model items|, mean over answered IE questions",
    "objective.imp": "MMRC §4.1: |hit| / |hit ∪ miss| = gold images identified / gold images, mean over answered "
                     "IM questions (open and mcq)",
    "objective.rp": "MMRC §4.1: refused / should-refuse, over the questions whose ground truth is a refusal "
                    "(refusal: the judge's verdict, else the phrase matcher; see refusal_by)",
    "objective.imp_jaccard": "extra, not the paper's: |P ∩ G| / |P ∪ G| (naming wrong images costs)",
    "objective.over_refusal": "extra: share of answerable questions the model refused",
    "objective.refusal_agreement": "extra: share of all questions where refused == should_refuse",
    "objective.rp_judge / rp_phrase_matcher": "extra: RP by the judge's verdicts alone / by the phrase matcher alone",
    "abilities.*.judge_all": "MMRC Table 3: judge score 0-5 over all questions (unanswered = 0; judge failures left out)",
    "abilities.*.judge_valid": "judge score 0-5 over the questions the judge scored",
    "human": "MMRC CR*/IU*/MR*: human re-evaluation scores 0-5 (eval review import), with judge-human agreement",
}
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
        entry: dict[str, Any] = {"n": len(mine)}
        if judged:
            entry["judge_valid"] = _mean(mine, _judge_score, boot)
            entry["judge_all"] = _mean(mine, _score_all, boot)
        else:
            entry["judge_valid"] = entry["judge_all"] = None
        entry["rule_accuracy"] = _mean(mine, _rate("rule_correct"), boot)
        table[code] = entry
    return table


def _rate(key: str):
    return lambda s: None if s["metrics"].get(key) is None else float(s["metrics"][key])


def objective(samples: list[dict], judged: bool, boot: dict) -> dict:
    """EP, IMP and RP as MMRC §4.1 defines them, then the extras beside them (named as such).

    RP = refused / should-refuse, over the questions whose ground truth is a refusal. A refusal
    is the judge's REFUSED verdict; where no judge gave one (``--judge none``, or a reply without
    the line), the phrase matcher's, and ``refusal_by`` counts which decided how many."""
    refusal = [s for s in samples if s["should_refuse"]]
    answerable = [s for s in samples if not s["should_refuse"]]
    rp = _mean(refusal, _rate("refused"), boot)
    rp["refusal_by"] = dict(sorted(Counter(s["metrics"]["refusal_by"] for s in refusal
                                           if s["metrics"]["refusal_by"]).items()))
    out = {
        "ep": _mean([s for s in samples if s["ability"] == "IE"], lambda s: s["metrics"].get("ep"), boot),
        "imp": _mean([s for s in samples if s["ability"] == "IM"], lambda s: s["metrics"].get("imp"), boot),
        "rp": rp,
        # extras, not the paper's: a strict IMP, refusals of answerable questions, agreement over all
        "imp_jaccard": _mean([s for s in samples if s["ability"] == "IM"], lambda s: s["metrics"].get("imp_jaccard"),
                             boot),
        "over_refusal": _mean(answerable, _rate("refused"), boot),
        "refusal_agreement": _mean(samples, lambda s: None if s["metrics"]["refused"] is None
                                   else float(s["metrics"]["refused"] == s["should_refuse"]), boot),
        "rp_phrase_matcher": _mean(refusal, _rate("refused_matcher"), boot),
        "rp_judge": _mean(refusal, _rate("refused_judge"), boot) if judged else None,
        "mcq_accuracy": _mean([s for s in samples if s["format"] == "mcq"], _rate("rule_correct"), boot),
        "tf_accuracy": _mean([s for s in samples if s["format"] == "tf"], _rate("rule_correct"), boot),
    }
    if judged:
        verdicts = [s for s in samples if s["metrics"]["refusal_disagree"] is not None]
        out["refusal_disagreements"] = {"n": sum(s["metrics"]["refusal_disagree"] for s in verdicts),
                                        "of": len(verdicts)}
    else:
        out["refusal_disagreements"] = None
    return out


def score_value(judged: bool):
    """(metric name, per-sample value): the judge score over all questions (unscored = 0) when a
    judge ran, else the rule-scored mcq/tf accuracy (open questions have none)."""
    return ("judge_all", _score_all) if judged else ("rule_accuracy", _rate("rule_correct"))


def overall_score(samples: list[dict], judged: bool, boot: dict) -> dict:
    """The one number per model: judge mean over all questions (0–5), else rule accuracy."""
    metric, value = score_value(judged)
    return {"metric": metric, **_mean(samples, value, boot)}


def breakdowns(samples: list[dict], judged: bool, boot: dict) -> dict:
    out: dict[str, dict[str, Any]] = {}
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


def swap_difference(samples: list[dict], judged: bool, boot: dict,
                    abilities: tuple[str, ...] | None = None) -> dict:
    """Original minus variant, per (original dialogue, question): MMRC §4.2's text vs image gap,
    over every ability or over ``abilities`` only."""
    originals = {(s["dialogue_id"], s["question_id"]): s for s in samples if s["config"] == "default"}
    pairs = []
    for s in samples:
        if s["config"] != "modality_swap" or (s["variant_of"], s["question_id"]) not in originals:
            continue
        if abilities is None or s["ability"] in abilities:
            pairs.append((originals[(s["variant_of"], s["question_id"])], s))
    metric, value = score_value(judged)
    triples = [(o["dialogue_id"], value(o), value(v)) for o, v in pairs
               if value(o) is not None and value(v) is not None]
    return {"metric": metric, "pairs": len(pairs), "original_minus_variant": paired_difference(triples, **boot)}


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
        "analyses": analyses.analyses(main, score_value(judged), boot),
    }
    if not judged:
        out["not_computed"] = {"judge_valid": NOT_COMPUTED_JUDGE, "judge_all": NOT_COMPUTED_JUDGE,
                               "rp_judge": NOT_COMPUTED_JUDGE + "; rp (and over_refusal) come from the refusal "
                               "phrase matcher here (objective.rp.refusal_by)"}
    if variants:
        out["modality_swap"] = {
            "questions": len(variants), "dialogues": len({s["dialogue_id"] for s in variants}),
            "overall": overall_score(variants, judged, boot),
            "abilities": ability_table(variants, judged, boot),
            "statuses": statuses(variants),
            "paired": swap_difference(samples, judged, boot),
            # MMRC §4.2 reports the gap over the memory abilities too (IE, IM, MR: +34.6% for text)
            "paired_memory": swap_difference(samples, judged, boot, analyses.MEMORY_ABILITIES),
        }
    return out

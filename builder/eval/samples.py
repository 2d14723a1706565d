"""One sample per (dialogue, question): what was asked, what came back, what it scored.

The sample row is what ``samples.jsonl`` holds; it carries every metric's inputs, so the
numbers in ``results.json`` can be recomputed (or re-aggregated differently) from it alone.
"""

from __future__ import annotations

from typing import Iterable

from classifiers.refusal import RefusalMatcher
from builder.eval import metrics, prompts
from builder.eval.notes import exchanges
from builder.eval.image_answers import identified_images

LENGTH_BUCKETS = ((4, 6), (7, 9), (10, 12), (13, 15), (16, 18), (19, 22))
POSITIONS = ("beginning", "middle", "end")
IMP_FORMATS = ("open", "mcq")  # a true/false answer names no image
EVIDENCE_CHARS = 1500  # per evidence turn shown to the judge and the reviewer


def length_bucket(n_turns: int) -> str:
    for lo, hi in LENGTH_BUCKETS:
        if lo <= n_turns <= hi:
            return f"{lo}-{hi}"
    return "<4" if n_turns < 4 else ">22"


def evidence_position(gold_turns: list[int], n_turns: int) -> str:
    """Where the earliest evidence turn sits in the dialogue: beginning / middle / end thirds."""
    if not gold_turns:
        return "none"
    ratio = min(max(0, min(gold_turns)) / max(1, n_turns - 1), 1.0)
    return POSITIONS[min(2, int(ratio * 3))]


def evidence_turns(turns: list[dict], gold_turns: Iterable[int], limit: int = EVIDENCE_CHARS) -> list[dict]:
    """The turns an annotator named as evidence, as the judge and a human reviewer read them: text
    with the ``[Image k]`` labels of the images the turn carries, cut at ``limit`` characters."""
    out, first_image = [], 0
    wanted = set(gold_turns)
    for i, turn in enumerate(turns):
        labels = "".join(prompts.image_label(first_image + k) + " " for k in range(len(turn["images"])))
        first_image += len(turn["images"])
        if i in wanted:
            text = labels + (turn["text"] or "")
            if len(text) > limit:
                text = text[:limit] + f" [... {len(text) - limit} characters cut]"
            out.append({"turn": i, "role": turn["role"], "text": text})
    return out


def new_sample(dialogue, question: dict) -> dict:
    gold_turns = list(question.get("gold_turns") or [])
    return {
        "sample_id": f"{dialogue.dialogue_id}/{question['question_id']}",
        "dialogue_id": dialogue.dialogue_id, "config": dialogue.config, "variant_of": dialogue.variant_of,
        "question_id": question["question_id"], "ability": question["ability"], "format": question["format"],
        "topic": dialogue.topic, "topic_group": dialogue.topic_group, "language": dialogue.language,
        "n_turns": dialogue.n_turns, "n_images": dialogue.n_images,
        "n_exchanges": len(exchanges(dialogue.turns)),
        "length_bucket": length_bucket(dialogue.n_turns),
        "evidence_position": evidence_position(gold_turns, dialogue.n_turns),
        "question": question["question"], "choices": list(question.get("choices") or []),
        "gold_answer": question.get("answer") or "", "gold_items": list(question.get("gold_items") or []),
        "gold_images": list(question.get("gold_images") or []), "gold_turns": gold_turns,
        "should_refuse": bool(question.get("should_refuse")),
        "evidence": evidence_turns(dialogue.turns, gold_turns),
    }


def score_sample(sample: dict, extract: str, matcher: RefusalMatcher = RefusalMatcher()) -> dict:
    """Per-sample metrics from the prediction and (when run) the judge's verdict."""
    ok = sample["prediction"]["status"] == "ok"
    answer = sample["prediction"]["text"] if ok else None
    judge = sample.get("judge") or {}
    out: dict = {"answered": ok}
    question = {"format": sample["format"], "choices": sample["choices"], "answer": sample["gold_answer"]}
    out["rule_correct"] = metrics.rule_correct(question, answer) if sample["format"] in ("mcq", "tf") else None
    phrase = matcher.match(answer) if ok else None
    out["refused_matcher"] = (phrase is not None) if ok else None
    out["refusal_phrase"] = phrase
    out["refused_judge"] = judge.get("refused") if ok else None
    # RP's refusal: the judge's verdict; where no judge gave one, the phrase matcher (counted by `refusal_by`)
    out["refused"] = out["refused_judge"] if out["refused_judge"] is not None else out["refused_matcher"]
    out["refusal_by"] = None if out["refused"] is None else ("judge" if out["refused_judge"] is not None
                                                             else "phrase_matcher")
    out["refusal_match"] = metrics.refusal_matches(out["refused_judge"], sample["should_refuse"])
    out["refusal_match_matcher"] = metrics.refusal_matches(out["refused_matcher"], sample["should_refuse"])
    out["refusal_disagree"] = (None if out["refused_judge"] is None or out["refused_matcher"] is None
                               else out["refused_judge"] != out["refused_matcher"])
    if sample["gold_items"]:
        if not ok:
            out["ep_items"], out["ep"] = None, None
        else:
            out["ep_items"] = judge.get("items") if extract == "judge" else metrics.split_items(answer,
                                                                                             sample["gold_items"])
            out["ep"] = (None if out["ep_items"] is None
                         else metrics.extraction_precision(out["ep_items"], sample["gold_items"]))
    if sample["ability"] == "IM" and sample["gold_images"] and sample["format"] in IMP_FORMATS:
        out["imp_images"], out["imp_how"] = None, None
        if ok and extract == "judge":
            out["imp_images"], out["imp_how"] = judge.get("images"), "judge"
        elif ok:
            out["imp_images"], out["imp_how"] = identified_images(
                answer, sample["n_images"], sample["choices"] if sample["format"] == "mcq" else None,
                refused=bool(out["refused_matcher"]))
        known = out["imp_images"] is not None
        out["imp"] = metrics.image_management_precision(out["imp_images"], sample["gold_images"]) if known else None
        out["imp_jaccard"] = metrics.image_jaccard(out["imp_images"], sample["gold_images"]) if known else None
    return out

"""Release statistics in the form of MMRC's Table 2, and the funnel from raw to released."""

from __future__ import annotations

from pathlib import Path
from typing import cast

import polars as pl

from builder import io
from builder.records import ABILITIES, QUESTION_FORMATS, TOPICS
from builder.release.select import UNDETERMINED
from builder.stages import PARTS_STAGES

PIPELINE = PARTS_STAGES
FUNNEL_LABEL = {"ingest": "ingested", "clean": "cleaned", "classify": "classified", "swap": "swapped"}


# Chinese and Japanese are written without spaces: each of their characters counts as one word
# (a tokenizer-free rule, close to how CJK benchmarks report length); any other run of
# characters between whitespace (or CJK characters / CJK punctuation) is one word.
_CJK = r"\p{Han}\p{Hiragana}\p{Katakana}"
_CJK_PUNCT = r"\x{3000}-\x{303F}\x{FF01}-\x{FF0F}\x{FF1A}-\x{FF20}\x{FF3B}-\x{FF40}\x{FF5B}-\x{FF65}"
WORD_PATTERN = rf"[{_CJK}]|[^\s{_CJK}{_CJK_PUNCT}]+"
WORD_RULE = "each CJK (Han, Hiragana, Katakana) character is a word; otherwise whitespace-separated words"


def words(expr: pl.Expr) -> pl.Expr:
    """Words in a text column by :data:`WORD_RULE`."""
    return expr.str.count_matches(WORD_PATTERN).cast(pl.UInt32)


def turn_table(dialogues: pl.DataFrame) -> pl.DataFrame:
    """One row per turn: dialogue_id, role, words, images."""
    return (dialogues.select("dialogue_id", "turns").explode("turns").drop_nulls("turns").unnest("turns")
            .select("dialogue_id", "role", words(pl.col("text").fill_null("")).alias("words"),
                    pl.col("images").list.len().alias("images")))


def _images_per_dialogue(turns: pl.DataFrame, n: int) -> dict:
    """min / median / max and how many dialogues have each image count."""
    if not n:
        return {"min": 0, "median": 0.0, "max": 0, "histogram": {}}
    per = turns.group_by("dialogue_id").agg(pl.col("images").sum())["images"]
    per = pl.concat([per, pl.Series([0] * (n - per.len()), dtype=per.dtype)])  # dialogues without turns
    counts = dict(sorted(per.value_counts().iter_rows()))
    # an integer column with at least one row: its min, median and max are numbers
    return {"min": int(cast(int, per.min())), "median": float(cast(float, per.median())),
            "max": int(cast(int, per.max())),
            "histogram": {str(k): v for k, v in counts.items()}}


def table2(dialogues: pl.DataFrame, questions: pl.DataFrame, variants: int) -> dict:
    turns = turn_table(dialogues)
    n = dialogues.height
    per_ability = {a: questions.filter(pl.col("ability") == a).height for a in ABILITIES}
    per_format = {f: questions.filter(pl.col("format") == f).height for f in QUESTION_FORMATS}
    grid = {a: {f: questions.filter((pl.col("ability") == a) & (pl.col("format") == f)).height
                for f in QUESTION_FORMATS} for a in ABILITIES}
    shas = (dialogues.select(pl.col("turns").explode().struct.field("images").explode().struct.field("sha256"))
            .drop_nulls().n_unique() if n else 0)
    by_role = {role: round(float(cast("float | None", turns.filter(pl.col("role") == role)["words"].mean()) or 0), 2)
               for role in ("user", "assistant")}
    topics = dict(sorted(dialogues.group_by("topic").len().drop_nulls("topic").iter_rows(),
                         key=lambda kv: TOPICS.index(kv[0]) if kv[0] in TOPICS else len(TOPICS)))
    return {
        "dialogues": n,
        "modality_swap_variants": variants,
        "questions": questions.height,
        "questions_per_ability": per_ability,
        "questions_per_format": per_format,
        "questions_per_ability_format": grid,
        "needs_review": questions.filter(pl.col("review") == "needs_review").height,
        "turns": turns.height,
        "avg_turns_per_dialogue": round(turns.height / n, 2) if n else 0.0,
        "images": int(turns["images"].sum() or 0),
        "unique_images": shas,
        "avg_images_per_dialogue": round(int(turns["images"].sum() or 0) / n, 2) if n else 0.0,
        "images_per_dialogue": _images_per_dialogue(turns, n),
        "avg_words_per_turn": by_role,
        "word_rule": WORD_RULE,
        "topics": topics,
        "no_topic": dialogues.filter(pl.col("topic").is_null()).height,
        "topic_groups": dict(sorted(dialogues.group_by("topic_group").len().drop_nulls("topic_group").iter_rows())),
        "languages": dict(sorted(dialogues.group_by(pl.col("language").fill_null(UNDETERMINED)).len().iter_rows())),
    }


def funnel(data: Path, release_in: int, drops: dict[str, int], released: int, variants: int = 0) -> list[dict]:
    """raw -> ingested -> cleaned -> ... -> released, each step with its drop reasons. Steps count
    original dialogues; the swap step also says how many variants it added beside them."""
    ledger = io.read_ledger(data)
    stages = sorted(set(ledger["stage"].to_list()),
                    key=lambda s: (PIPELINE.index(s) if s in PIPELINE else len(PIPELINE), s))
    steps: list[dict] = []
    for stage in stages:
        counts = io.ledger_counts(ledger, stage)
        if not steps:
            steps.append({"step": "raw", "stage": None, "dialogues": counts["in"], "dropped": {}})
        lost = {reason: n for reason, n in counts["reasons"].items()
                if reason.split(":")[0] in ("dropped", "quarantined")}
        steps.append({"step": FUNNEL_LABEL.get(stage, stage), "stage": stage, "dialogues": counts["out"],
                      "dropped": lost, **({"variants_added": variants} if stage == "swap" else {})})
    if not steps:
        steps.append({"step": "input", "stage": None, "dialogues": release_in, "dropped": {}})
    steps.append({"step": "released", "stage": "release", "dialogues": released,
                  "dropped": {reason: n for reason, n in drops.items() if n}})
    return steps

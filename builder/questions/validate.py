"""Check question rows against the Question schema and the dialogues they are about.

Every problem names its file row. Errors stop the import; warnings (dialogues that lack
some of the six abilities, unless made errors by flag) and annotator disagreements are
reported for review.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from hashlib import sha256
from pathlib import Path
from typing import Any

import polars as pl

from builder import io
from builder.questions import limits
from builder.questions.schema import CONTENT_FIELDS, RowError, coerce
from builder.records import ABILITIES, QUESTION_FORMATS

TF_ANSWERS = ("true", "false")


@dataclass(frozen=True)
class DialogueInfo:
    dialogue_id: str
    source: str | None
    source_id: str | None
    turns: tuple[int, ...]  # the turns' own indices
    images: int  # images in the dialogue, counted in turn order


@dataclass
class Report:
    errors: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    disagreements: list[dict] = field(default_factory=list)
    rows_read: int = 0
    empty_slots: int = 0
    dropped_upstream: dict[str, int] = field(default_factory=dict)  # "stage:reason" -> questions skipped

    def to_dict(self, questions: int) -> dict:
        return {"rows_read": self.rows_read, "empty_slots_skipped": self.empty_slots, "questions": questions,
                "skipped_dialogue_dropped_upstream": self.dropped_upstream,
                "errors": self.errors, "warnings": self.warnings, "disagreements": self.disagreements}


class DroppedUpstream(Exception):
    """The question's dialogue exists but an earlier stage dropped it (e.g. clean: toxic)."""

    def __init__(self, where: str):
        super().__init__(where)
        self.where = where


class DialogueIndex:
    """The original (non-variant) dialogues of a stage folder, by id and by source id."""

    def __init__(self, infos: list[DialogueInfo], dropped: dict[str, str] | None = None,
                 dropped_sources: dict[str, str] | None = None):
        self.dropped = dropped or {}  # dialogue_id -> "stage:reason" of the stage that removed it
        self.dropped_sources = dropped_sources or {}  # source_id -> dialogue_id, for those
        self.by_id = {d.dialogue_id: d for d in infos}
        self.by_source_id: dict[str, list[DialogueInfo]] = {}
        for d in infos:
            if d.source_id is not None:
                self.by_source_id.setdefault(d.source_id, []).append(d)

    @classmethod
    def from_folder(cls, folder: Path) -> "DialogueIndex":
        io.require_finished(folder, "data")
        df = (
            io.scan_dialogues(folder)
            .filter(pl.col("variant_of").is_null())
            .select(
                "dialogue_id", "source", "source_id",
                pl.col("turns").list.eval(pl.element().struct.field("index")).alias("turn_index"),
                pl.col("turns").list.eval(pl.element().struct.field("images").list.len()).list.sum().alias("n_img"),
            )
            .collect()
        )
        # an exact duplicate shares its id with the copy that was kept: not a removal
        ledger = io.read_ledger(folder).filter(pl.col("decision").is_in(["dropped", "quarantined"])
                                               & (pl.col("reason") != "duplicate_exact"))
        dropped = {i: f"{st}:{r}" for i, st, r in ledger.select("dialogue_id", "stage", "reason").iter_rows()}
        sources = (
            io.read_ledger(folder)
            .filter((pl.col("stage") == "ingest") & pl.col("dialogue_id").is_in(list(dropped)))
            .select("dialogue_id", pl.col("detail").str.json_path_match("$.source_id").alias("source_id"))
        )
        dropped_sources = {sid: i for i, sid in sources.iter_rows() if sid is not None}
        infos = [DialogueInfo(i, s, sid, tuple(t or ()), int(n or 0)) for i, s, sid, t, n in df.iter_rows()]
        return cls(infos, dropped, dropped_sources)

    def resolve(self, row: dict[str, Any]) -> DialogueInfo:
        if row["dialogue_id"]:
            info = self.by_id.get(row["dialogue_id"])
            if info is None and row["dialogue_id"] in self.dropped:
                raise DroppedUpstream(self.dropped[row["dialogue_id"]])
            if info is None:
                raise RowError(f"unknown dialogue_id {row['dialogue_id']!r} (not in the data folder)")
            return info
        if not row["source_id"]:
            raise RowError("no dialogue_id or source_id: say which dialogue the question is about")
        found = self.by_source_id.get(row["source_id"], [])
        if row["source"]:
            found = [d for d in found if d.source == row["source"]]
        if not found and row["source_id"] in self.dropped_sources:
            raise DroppedUpstream(self.dropped[self.dropped_sources[row["source_id"]]])
        if not found:
            raise RowError(f"unknown source_id {row['source_id']!r} (not in the data folder)")
        if len(found) > 1:
            raise RowError(f"source_id {row['source_id']!r} matches {len(found)} dialogues; add a source column "
                           "or use dialogue_id")
        return found[0]


def question_id(dialogue: str, ability: str, question: str) -> str:
    return f"{dialogue[:12]}-{ability}-{sha256(question.encode()).hexdigest()[:8]}"


def check_question(q: dict[str, Any], info: DialogueInfo) -> None:
    """Schema and range checks of one typed question; raises :class:`RowError`."""
    if q["ability"] not in ABILITIES:
        raise RowError(f"ability {q['ability']!r} is not one of {', '.join(ABILITIES)}")
    if q["format"] not in QUESTION_FORMATS:
        raise RowError(f"format {q['format']!r} is not one of {', '.join(QUESTION_FORMATS)}")
    if not q["answer"] and not (q["ability"] == "AR" and q["should_refuse"]):
        raise RowError("answer is empty")
    if q["format"] == "mcq":
        if len(q["choices"]) < 2:
            raise RowError("mcq question needs at least two choices")
        if q["answer"] not in q["choices"]:
            raise RowError(f"mcq answer {q['answer']!r} is not one of the choices {q['choices']}")
    elif q["format"] == "tf":
        if (q["answer"] or "").lower() not in TF_ANSWERS:
            raise RowError(f"tf answer {q['answer']!r} must be true or false")
        q["answer"] = q["answer"].lower()
    bad_turns = sorted(set(q["gold_turns"]) - set(info.turns))
    if bad_turns:
        raise RowError(f"gold_turns {bad_turns} out of range (dialogue has turns "
                       f"{min(info.turns, default=0)}-{max(info.turns, default=-1)})")
    bad_images = sorted(i for i in q["gold_images"] if not 0 <= i < info.images)
    if bad_images:
        raise RowError(f"gold_images {bad_images} out of range (dialogue has {info.images} images: "
                       f"indices 0-{info.images - 1})")
    if q["should_refuse"] is None:
        if q["ability"] == "AR":
            raise RowError("AR question without should_refuse: say true (not answerable) or false")
        q["should_refuse"] = False


def validate(rows: list[tuple[int, dict]], index: DialogueIndex, strict_abilities: bool = False
             ) -> tuple[list[dict], Report]:
    """Typed, checked, merged questions sorted by dialogue, ability, id; and the report."""
    report = Report(rows_read=len(rows))
    kept: dict[str, tuple[int, dict]] = {}
    for number, raw in rows:
        try:
            q = coerce(raw)
            if (too_large := limits.problem(q)) is not None:
                raise RowError(too_large)
            if not q["question"] and not q["answer"]:
                report.empty_slots += 1  # an exported task slot nobody filled
                continue
            if not q["question"]:
                raise RowError("question text is empty")
            info = index.resolve(q)
            q["dialogue_id"] = info.dialogue_id
            check_question(q, info)
        except DroppedUpstream as exc:  # not an annotation error: the dialogue was removed on purpose
            report.dropped_upstream[exc.where] = report.dropped_upstream.get(exc.where, 0) + 1
            continue
        except RowError as exc:
            report.errors.append(f"row {number}: {exc}")
            continue
        q["question_id"] = q["question_id"] or question_id(q["dialogue_id"], q["ability"], q["question"])
        _merge(kept, number, q, report)
    _check_abilities(kept, report, strict_abilities)
    ordered = sorted((q for _, q in kept.values()),
                     key=lambda q: (q["dialogue_id"], list(ABILITIES).index(q["ability"]), q["question_id"]))
    return ordered, report


def _merge(kept: dict, number: int, q: dict, report: Report) -> None:
    """Two annotators' versions of one question merge; the same annotator twice is a duplicate."""
    if q["question_id"] not in kept:
        kept[q["question_id"]] = (number, q)
        return
    first_row, first = kept[q["question_id"]]
    shared = set(first["annotators"]) & set(q["annotators"])
    if first["dialogue_id"] != q["dialogue_id"] or shared or not (first["annotators"] and q["annotators"]):
        report.errors.append(f"row {number}: duplicate question_id {q['question_id']!r} (first at row {first_row}); "
                             "give each question its own id")
        return
    differs = {f: [first[f], q[f]] for f in CONTENT_FIELDS if first[f] != q[f]}
    first["annotators"] = sorted(set(first["annotators"]) | set(q["annotators"]))
    if differs:
        report.disagreements.append({"question_id": q["question_id"], "dialogue_id": q["dialogue_id"],
                                     "rows": [first_row, number], "annotators": first["annotators"],
                                     "fields": differs})
        first["review"] = first["review"] or "needs_review"


def _check_abilities(kept: dict, report: Report, strict: bool) -> None:
    have: dict[str, set[str]] = {}
    for _, q in kept.values():
        have.setdefault(q["dialogue_id"], set()).add(q["ability"])
    for dialogue in sorted(have):
        missing = [a for a in ABILITIES if a not in have[dialogue]]
        if missing:
            message = f"dialogue {dialogue} lacks abilities {', '.join(missing)}"
            (report.errors if strict else report.warnings).append(message)

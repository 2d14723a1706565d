#!/usr/bin/env python
"""Check raw/sample/questions.jsonl against the dialogues ingest keeps from raw/sample/.

    .venv/bin/python raw/sample/check_questions.py [--data INGEST_DIR] [--questions FILE]

Without --data the script ingests raw/sample/ into a temporary folder first (with a
throw-away MMRC_USER_SALT), so the turn and image indices it checks against are exactly
the ones the pipeline produces. Checks:

- every kept dialogue except the offensive ones (removed by `clean`) has exactly one
  question per ability (IE, CR, IU, IM, MR, AR) and no question is about another dialogue;
- each line has exactly the documented fields with the right types; question_ids are unique;
- gold_turns are turn indices of the dialogue (non-empty except for AR);
- gold_images index the dialogue's images (flattened in turn order); IM lists at least one,
  except an IM question marked review "no-image-dialogue" on a dialogue without images;
- gold_items are given for IE only; mcq answers are one of the choices; choices only for mcq;
  tf answers are "true" or "false";
- should_refuse is true for AR and false for every other ability.

It also runs the builder's own question validator (builder.questions.validate) with
strict abilities. Exit status 1 if anything fails.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from collections import Counter
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent
ABILITIES = ("IE", "CR", "IU", "IM", "MR", "AR")
FORMATS = ("open", "mcq", "tf")
OFFENSIVE = {"offensive-01", "offensive-02", "offensive-03", "offensive-04"}
NO_IMAGE_REVIEW = "no-image-dialogue"
REVIEWS = {"accepted", NO_IMAGE_REVIEW}
FIELDS = {
    "source_id": str, "question_id": str, "ability": str, "format": str, "question": str,
    "choices": list, "answer": str, "gold_items": list, "gold_images": list, "gold_turns": list,
    "should_refuse": bool, "annotators": list, "review": str,
}


def ingest(raw: Path, out: Path) -> None:
    exe = Path(sys.executable).parent / "mmrc-build"
    cmd = [str(exe)] if exe.exists() else [sys.executable, "-m", "builder.cli"]
    env = {**os.environ, "MMRC_USER_SALT": os.environ.get("MMRC_USER_SALT") or "check-questions"}
    subprocess.run([*cmd, "ingest", str(raw), "-o", str(out), "--force"], check=True, env=env,
                   stdout=subprocess.DEVNULL, cwd=REPO)


def load_dialogues(folder: Path) -> dict[str, dict]:
    import polars as pl

    parts = sorted(folder.glob("part-*.parquet"))
    if not parts:
        sys.exit(f"no part-*.parquet in {folder}; run `mmrc-build ingest raw/sample -o {folder}` first")
    df = pl.concat([pl.read_parquet(p) for p in parts])
    out = {}
    for row in df.iter_rows(named=True):
        turns = row["turns"] or []
        out[row["source_id"]] = {
            "turns": {t["index"] for t in turns},
            "images": sum(len(t["images"] or []) for t in turns),
        }
    return out


def check(questions: Path, dialogues: dict[str, dict]) -> tuple[list[str], list[dict]]:
    errors: list[str] = []
    rows: list[dict] = []
    seen_ids: set[str] = set()
    per_dialogue: dict[str, Counter] = {}
    missing_offensive = OFFENSIVE - set(dialogues)
    if missing_offensive:
        errors.append(f"offensive dialogues {sorted(missing_offensive)} are not in the ingest output")
    for number, line in enumerate(questions.read_text(encoding="utf-8").splitlines(), start=1):
        if not line.strip():
            continue
        where = f"{questions.name}:{number}"
        try:
            q = json.loads(line)
        except json.JSONDecodeError as exc:
            errors.append(f"{where}: not valid JSON ({exc.msg})")
            continue
        if not isinstance(q, dict) or set(q) != set(FIELDS):
            got = set(q) if isinstance(q, dict) else set()
            errors.append(f"{where}: fields must be exactly {sorted(FIELDS)} "
                          f"(missing {sorted(set(FIELDS) - got)}, extra {sorted(got - set(FIELDS))})")
            continue
        bad_types = [k for k, t in FIELDS.items() if not isinstance(q[k], t)]
        bad_types += [k for k in ("gold_images", "gold_turns")
                      if isinstance(q[k], list) and not all(type(v) is int for v in q[k])]
        bad_types += [k for k in ("choices", "gold_items", "annotators")
                      if isinstance(q[k], list) and not all(isinstance(v, str) and v.strip() for v in q[k])]
        if bad_types:
            errors.append(f"{where}: wrong type in {sorted(set(bad_types))}")
            continue
        rows.append(q)
        sid, ab, fmt, qid = q["source_id"], q["ability"], q["format"], q["question_id"]
        where = f"{where} ({qid})"
        if qid in seen_ids:
            errors.append(f"{where}: duplicate question_id")
        seen_ids.add(qid)
        if not qid.startswith(sid + "-"):
            errors.append(f"{where}: question_id should start with the source_id {sid!r}")
        if sid in OFFENSIVE:
            errors.append(f"{where}: offensive dialogues get no questions")
        info = dialogues.get(sid)
        if info is None:
            errors.append(f"{where}: source_id {sid!r} is not a dialogue ingest keeps")
            continue
        per_dialogue.setdefault(sid, Counter())[ab] += 1
        if ab not in ABILITIES:
            errors.append(f"{where}: ability {ab!r} not in {ABILITIES}")
        if fmt not in FORMATS:
            errors.append(f"{where}: format {fmt!r} not in {FORMATS}")
        if not q["question"].strip() or not q["answer"].strip():
            errors.append(f"{where}: empty question or answer")
        if fmt == "mcq":
            if len(q["choices"]) < 2 or len(set(q["choices"])) != len(q["choices"]):
                errors.append(f"{where}: mcq needs at least two distinct choices")
            if q["answer"] not in q["choices"]:
                errors.append(f"{where}: mcq answer {q['answer']!r} is not one of the choices")
        elif q["choices"]:
            errors.append(f"{where}: choices are only for mcq")
        if fmt == "tf" and q["answer"] not in ("true", "false"):
            errors.append(f"{where}: tf answer must be 'true' or 'false', not {q['answer']!r}")
        bad_turns = sorted(set(q["gold_turns"]) - info["turns"])
        if bad_turns:
            errors.append(f"{where}: gold_turns {bad_turns} not in the dialogue's turns "
                          f"{min(info['turns'])}-{max(info['turns'])}")
        if not q["gold_turns"] and ab != "AR":
            errors.append(f"{where}: gold_turns is empty")
        bad_images = [i for i in q["gold_images"] if not 0 <= i < info["images"]]
        if bad_images:
            errors.append(f"{where}: gold_images {bad_images} out of range (dialogue has {info['images']} images)")
        if len(set(q["gold_images"])) != len(q["gold_images"]) or len(set(q["gold_turns"])) != len(q["gold_turns"]):
            errors.append(f"{where}: repeated index in gold_images or gold_turns")
        if q["review"] not in REVIEWS:
            errors.append(f"{where}: review {q['review']!r} not in {sorted(REVIEWS)}")
        no_image_ok = ab == "IM" and info["images"] == 0
        if q["review"] == NO_IMAGE_REVIEW and not no_image_ok:
            errors.append(f"{where}: review {NO_IMAGE_REVIEW!r} is only for the IM question of a dialogue "
                          "without images")
        if ab == "IM":
            if info["images"] == 0:
                if q["gold_images"] or q["review"] != NO_IMAGE_REVIEW:
                    errors.append(f"{where}: dialogue has no images: gold_images must be [] and review "
                                  f"{NO_IMAGE_REVIEW!r}")
            elif not q["gold_images"]:
                errors.append(f"{where}: IM question needs gold_images")
        if ab == "IE" and not q["gold_items"]:
            errors.append(f"{where}: IE question needs gold_items")
        if ab != "IE" and q["gold_items"]:
            errors.append(f"{where}: gold_items are only for IE")
        if q["should_refuse"] != (ab == "AR"):
            errors.append(f"{where}: should_refuse must be {ab == 'AR'} for {ab}")
        if not q["annotators"]:
            errors.append(f"{where}: annotators is empty")
    for sid in sorted(set(dialogues) - OFFENSIVE):
        have = per_dialogue.get(sid, Counter())
        missing = [a for a in ABILITIES if have[a] == 0]
        twice = [a for a in ABILITIES if have[a] > 1]
        if missing or twice:
            errors.append(f"{sid}: needs exactly one question per ability (missing {missing}, more than one {twice})")
    return errors, rows


def builder_validate(questions: Path, folder: Path) -> list[str]:
    """The pipeline's own importer checks, if the builder package is importable."""
    sys.path.insert(0, str(REPO))
    try:
        from builder.questions.schema import read_rows
        from builder.questions.validate import DialogueIndex, validate
    except ImportError as exc:  # pragma: no cover - only outside the project venv
        return [f"(skipped builder validator: {exc})"]
    index = DialogueIndex.from_folder(folder)
    _, report = validate(read_rows(questions), index, strict_abilities=True)
    return [f"builder validator: {e}" for e in report.errors]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--data", type=Path, help="an ingest output folder of raw/sample (default: ingest now)")
    ap.add_argument("--questions", type=Path, default=HERE / "questions.jsonl")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix="mmrc-qcheck-") as tmp:
        folder = args.data
        if folder is None:
            folder = Path(tmp) / "ingested"
            ingest(HERE, folder)
        dialogues = load_dialogues(folder)
        errors, rows = check(args.questions, dialogues)
        errors += [e for e in builder_validate(args.questions, folder) if not e.startswith("(skipped")]
    covered = {q["source_id"] for q in rows}
    print(f"{len(rows)} questions for {len(covered)} dialogues "
          f"({len(dialogues)} kept by ingest, {len(OFFENSIVE)} offensive excluded)")
    print("per ability:", dict(sorted(Counter(q["ability"] for q in rows).items())))
    print("per format: ", dict(sorted(Counter(q["format"] for q in rows).items())))
    no_image = sorted(q["source_id"] for q in rows if q["review"] == NO_IMAGE_REVIEW)
    if no_image:
        print(f"IM questions on dialogues without images ({len(no_image)}): {', '.join(no_image)}")
    if errors:
        print(f"\n{len(errors)} problem(s):", file=sys.stderr)
        for e in errors:
            print("  " + e, file=sys.stderr)
        return 1
    print("OK")
    return 0


if __name__ == "__main__":
    sys.exit(main())

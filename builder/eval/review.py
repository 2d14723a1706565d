"""Human re-evaluation (MMRC Table 3's CR*, IU*, MR*): a sheet out, filled sheets back in.

``export``: one CSV row per answered question of the chosen abilities (CR, IU, MR by default,
as the paper re-evaluated), with what a reviewer needs: the question and its options, the
evidence turns the annotator named (the golden context reference), the reference answer, the
model's answer, the judge's score, and empty ``human_score`` / ``annotator`` columns. Each row
carries the sha256 of the answer it shows, so a score never attaches to an answer that changed.

``import``: filled sheets are validated row by row (ids of this run, the answer unchanged,
scores integers 0-5, an annotator named, no sample scored twice by one annotator); every bad row
is reported on its own line and nothing is imported until all are right. Scores land in
``RUN/human_review.jsonl`` and results.json's ``human`` section: per ability the human mean
(the starred columns), and judge–human agreement (exact, within ±1, quadratic-weighted kappa),
which MMRC's 93% agreement claim needs. An ``eval run`` rerun keeps the reviews and counts
those whose answer changed as stale.
"""

from __future__ import annotations

import csv
import hashlib
import json
import unicodedata
from collections import defaultdict
from pathlib import Path

from builder.errors import InputError, ValidationError
from builder.eval.run_files import REVIEWS as REVIEWS_FILE
from builder.eval.run_files import read_manifest, read_results, read_reviews, read_samples  # noqa: F401
from builder.eval.stats import cluster_mean

REVIEW_ABILITIES = ("CR", "IU", "MR")
COLUMNS = ["sample_id", "ability", "question", "choices", "context", "gold_answer", "answer", "judge_score",
           "human_score", "annotator", "comment", "answer_sha256"]
MAX_SHEET_BYTES = 256 * 1024 * 1024
MAX_REPORTED = 50


def answer_sha(text: str | None) -> str:
    return hashlib.sha256((text or "").encode("utf-8", "surrogatepass")).hexdigest()[:16]


def _context(sample: dict) -> str:
    turns = sample.get("evidence") or []
    return "\n".join(f"Turn {t['turn']} ({t['role']}): {t['text']}" for t in turns) or "(no evidence turns named)"


def export_rows(samples: list[dict], abilities: tuple[str, ...], annotator: str | None = None) -> list[dict]:
    out = []
    for s in samples:
        if s["config"] != "default" or s["ability"] not in abilities or s["prediction"]["status"] != "ok":
            continue
        judge = s.get("judge") or {}
        out.append({"sample_id": s["sample_id"], "ability": s["ability"], "question": s["question"],
                    "choices": " | ".join(s["choices"]), "context": _context(s), "gold_answer": s["gold_answer"],
                    "answer": s["prediction"]["text"] or "",
                    "judge_score": "" if judge.get("score") is None else judge["score"],
                    "human_score": "", "annotator": annotator or "", "comment": "",
                    "answer_sha256": answer_sha(s["prediction"]["text"])})
    return out


def export_sheet(run: Path, out: Path | None, abilities: tuple[str, ...], annotator: str | None = None,
                 force: bool = False) -> tuple[Path, list[dict]]:
    """Write the sheet of ``run`` to ``out`` (default ``RUN/review-<abilities>.csv``): (its path, its rows).
    An existing sheet is overwritten only with ``force``, a file the run itself consists of never."""
    from builder.errors import ConfigError, OutputExistsError
    from builder.eval.run_files import OWN_FILES

    out = Path(out) if out is not None else Path(run) / f"review-{'-'.join(abilities)}.csv"
    if any(out.resolve() == (Path(run) / name).resolve() for name in OWN_FILES):
        raise ConfigError(f"{out} is a file of the run {run} (what `eval run` wrote); write the sheet elsewhere "
                          "(-o review.csv)")
    if (out.exists() or out.is_symlink()) and not force:
        raise OutputExistsError(f"{out} exists (maybe already being filled in); pass --force to overwrite it or -o "
                                "for another sheet")
    rows = export_rows(read_samples(run), abilities, annotator)
    write_sheet(rows, out)
    return out, rows


def write_sheet(rows: list[dict], path: Path) -> None:
    """The sheet as RFC 4180 CSV (CRLF rows: a cell holding a carriage return is quoted), every cell that
    starts like a formula neutralised for spreadsheets (an answer may be written to run one)."""
    from builder.io import require_utf8_path, spreadsheet_cell, write_text_atomic
    import io

    require_utf8_path(Path(path), "review sheet")
    buf = io.StringIO()
    writer = csv.DictWriter(buf, fieldnames=COLUMNS, lineterminator="\r\n")
    writer.writeheader()
    writer.writerows({k: spreadsheet_cell(v) for k, v in row.items()} for row in rows)
    write_text_atomic(Path(path), buf.getvalue())


# ---------------------------------------------------------------------------------------------
# import
# ---------------------------------------------------------------------------------------------


def _read_sheet(path: Path) -> list[tuple[int, dict]]:
    path = Path(path)
    if not path.exists():
        raise InputError(f"review sheet {path} does not exist")
    if not path.is_file():
        raise InputError(f"review sheet {path} is not a regular file; pass the CSV written by `eval review export`")
    if path.stat().st_size > MAX_SHEET_BYTES:
        raise InputError(f"review sheet {path} is over {MAX_SHEET_BYTES >> 20} MiB; is it the exported sheet?")
    try:
        text = path.read_bytes().decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise InputError(f"review sheet {path} is not UTF-8 (byte {exc.start}); save it as UTF-8 CSV") from None
    import io

    # newline="": only CR/LF end a row; an answer holding U+2028 or \x85 is one cell, not two rows
    reader = csv.DictReader(io.StringIO(text, newline=""), strict=True)
    # a cell may hold a whole answer (--max-new-tokens in the thousands): the sheet's size limit bounds it
    limit = csv.field_size_limit(MAX_SHEET_BYTES)
    try:
        header = reader.fieldnames or []
        repeated = sorted({name for name in header if header.count(name) > 1})
        if repeated:  # csv keeps the last of them: a filled column would be read as the empty one after it
            raise InputError(f"review sheet {path.name} repeats column(s) {', '.join(map(repr, repeated))}; name each "
                             "column once (keep the header `eval review export` wrote)")
        missing = [c for c in ("sample_id", "human_score", "annotator", "answer_sha256", "ability")
                   if c not in header]
        if missing:
            raise InputError(f"review sheet {path} lacks column(s) {', '.join(missing)}; fill in the sheet "
                             "`eval review export` wrote, keeping its header")
        return [(number, row) for number, row in enumerate(reader, start=2)]  # spreadsheet rows: the header is 1
    except csv.Error as exc:
        raise InputError(f"review sheet {path} near line {reader.line_num}: not valid CSV ({exc}); check its quotes") \
            from None
    finally:
        csv.field_size_limit(limit)


def _score(text: str) -> int | None:
    text = (text or "").strip()
    if text in {str(n) for n in range(6)}:
        return int(text)
    try:
        value = float(text)
    except ValueError:
        return None
    return int(value) if value.is_integer() and 0 <= value <= 5 else None


def parse_sheets(sheets: list[Path], samples: list[dict]) -> tuple[list[dict], list[str], int]:
    """(reviews, one error line per bad row, rows left unscored)."""
    by_id = {s["sample_id"]: s for s in samples if s["config"] == "default"}
    reviews, errors, unscored = [], [], 0
    seen: dict[tuple[str, str], str] = {}  # (sample id, annotator) -> where it was first scored
    for sheet in sheets:
        for line, row in _read_sheet(sheet):
            where = f"{Path(sheet).name} row {line}"
            if None in row:  # more cells than columns: a stray delimiter or quote
                errors.append(f"{where}: more cells than the header has columns")
                continue
            if None in row.values():  # fewer: a row cut short
                cells = sum(value is not None for value in row.values())
                errors.append(f"{where}: the row has {cells} cells but the header has {len(row)}; fill in the row "
                              "`eval review export` wrote, keeping its cells")
                continue
            score_text = (row.get("human_score") or "").strip()
            if not score_text:
                unscored += 1
                continue
            sample = by_id.get((row.get("sample_id") or "").strip())
            annotator = (row.get("annotator") or "").strip()
            score = _score(score_text)
            if sample is None:
                errors.append(f"{where}: sample_id {_short(row.get('sample_id'))} is not a question of this run")
            elif (row.get("ability") or "").strip() != sample["ability"]:
                errors.append(f"{where}: ability {_short(row.get('ability'))} does not match the question's "
                              f"({sample['ability']})")
            elif (row.get("answer_sha256") or "").strip() != answer_sha(sample["prediction"].get("text")):
                errors.append(f"{where}: the model's answer changed since this sheet was exported; export again")
            elif score is None:
                errors.append(f"{where}: human_score {_short(score_text)} is not an integer from 0 to 5")
            elif not annotator or len(annotator) > 100:
                errors.append(f"{where}: annotator is empty (or over 100 characters); name who scored the row")
            elif any(unicodedata.category(c)[0] == "C" for c in annotator):
                errors.append(f"{where}: annotator has control characters; write the name as plain text")
            elif (sample["sample_id"], annotator) in seen:
                errors.append(f"{where}: {sample['sample_id']} is scored twice by {annotator} (first at "
                              f"{seen[(sample['sample_id'], annotator)]})")
            else:
                seen[(sample["sample_id"], annotator)] = where
                reviews.append({"sample_id": sample["sample_id"], "ability": sample["ability"],
                                "annotator": annotator, "score": score,
                                "answer_sha256": answer_sha(sample["prediction"].get("text")),
                                "comment": (row.get("comment") or "").strip()[:2000]})
    return reviews, errors, unscored


def _short(value) -> str:
    """A cell as an error message shows it: quoted, escaped, at most 60 characters."""
    text = ascii(value)
    return text if len(text) <= 60 else text[:60] + "…"


def merge(existing: list[dict], new: list[dict], replace: bool) -> tuple[list[dict], list[str]]:
    """Reviews already imported plus the new ones; a different score for the same (sample,
    annotator) is a conflict unless ``replace``."""
    merged = {(r["sample_id"], r["annotator"]): r for r in existing}
    conflicts = []
    for r in new:
        old = merged.get((r["sample_id"], r["annotator"]))
        if old is not None and old["score"] != r["score"] and not replace:
            conflicts.append(f"{r['sample_id']}: {r['annotator']} already scored it {old['score']} (now "
                             f"{r['score']}); pass --replace to take the new score")
            continue
        merged[(r["sample_id"], r["annotator"])] = r
    return sorted(merged.values(), key=lambda r: (r["sample_id"], r["annotator"])), conflicts


def reviews_text(reviews: list[dict]) -> str:
    return "".join(json.dumps(r, ensure_ascii=False, sort_keys=True) + "\n" for r in reviews)


# ---------------------------------------------------------------------------------------------
# the numbers
# ---------------------------------------------------------------------------------------------


def weighted_kappa(pairs: list[tuple[int, int]], categories: int = 6) -> float | None:
    """Cohen's kappa with quadratic weights over scores 0..categories-1; None when undefined."""
    if len(pairs) < 2:
        return None
    import numpy as np

    observed = np.zeros((categories, categories))
    for a, b in pairs:
        observed[a, b] += 1
    observed /= observed.sum()
    expected = np.outer(observed.sum(axis=1), observed.sum(axis=0))
    i, j = np.indices((categories, categories))
    weights = (i - j) ** 2 / (categories - 1) ** 2
    denominator = (weights * expected).sum()
    if denominator == 0:
        return None
    return round(float(1 - (weights * observed).sum() / denominator), 4)


def agreement(pairs: list[tuple[int, int]]) -> dict:
    n = len(pairs)
    return {"n": n, "exact": round(sum(a == b for a, b in pairs) / n, 4) if n else None,
            "within_1": round(sum(abs(a - b) <= 1 for a, b in pairs) / n, 4) if n else None,
            "weighted_kappa": weighted_kappa(pairs)}


def human_section(samples: list[dict], reviews: list[dict], boot: dict) -> dict | None:
    """Per reviewed ability: the human mean (CR* etc.), the judge's mean on the same questions, and
    judge–human agreement over (judge score, annotator score) pairs; None without reviews."""
    if not reviews:
        return None
    by_id = {s["sample_id"]: s for s in samples if s["config"] == "default"}
    current, stale = defaultdict(list), 0
    for r in reviews:
        sample = by_id.get(r["sample_id"])
        if sample is None or r["answer_sha256"] != answer_sha(sample["prediction"].get("text")):
            stale += 1
            continue
        current[r["sample_id"]].append(r)
    out: dict = {"abilities": {}, "stale_reviews": stale}
    all_pairs = []
    for ability in sorted({by_id[sid]["ability"] for sid in current}):
        ids = sorted(sid for sid in current if by_id[sid]["ability"] == ability)
        human = cluster_mean([(by_id[sid]["dialogue_id"], sum(r["score"] for r in current[sid]) / len(current[sid]))
                              for sid in ids], **boot)
        judged = [(by_id[sid]["dialogue_id"], by_id[sid]["judge"]["score"]) for sid in ids
                  if (by_id[sid].get("judge") or {}).get("score") is not None]
        pairs = [(by_id[sid]["judge"]["score"], r["score"]) for sid in ids for r in current[sid]
                 if (by_id[sid].get("judge") or {}).get("score") is not None]
        all_pairs += pairs
        out["abilities"][ability] = {"human": human, "judge_on_reviewed": cluster_mean(judged, **boot),
                                     "annotators": len({r["annotator"] for sid in ids for r in current[sid]}),
                                     "agreement": agreement(pairs)}
    out["agreement"] = agreement(all_pairs)
    return out


def import_sheets(run: Path, sheets: list[Path], replace: bool = False, bootstrap: int | None = None) -> dict:
    """Validate ``sheets`` against the run, merge them into its reviews, rewrite human_review.jsonl,
    results.json's ``human`` section and the manifest's file hashes. Nothing changes on any error."""
    from builder.io import sha256_file, write_text_atomic
    from builder.locks import FolderLock

    run = Path(run)
    with FolderLock(run):
        # every file of the run is read (and found intact) before any is written
        samples, results, manifest = read_samples(run), read_results(run), read_manifest(run)
        reviews, errors, unscored = parse_sheets(sheets, samples)
        merged, conflicts = merge(read_reviews(run), reviews, replace)
        errors += conflicts
        if errors:
            shown = errors[:MAX_REPORTED]
            more = f" (and {len(errors) - MAX_REPORTED} more)" if len(errors) > MAX_REPORTED else ""
            raise ValidationError("\n".join(shown[:-1] + [f"{shown[-1]}{more}: {len(errors)} bad row(s), nothing "
                                                                        "imported; fix them and import again"]))
        config = results.get("config") or {}
        boot = {"resamples": _setting(config, "bootstrap", 1000) if bootstrap is None else bootstrap,
                "seed": _setting(config, "seed", 0)}
        results["human"] = human_section(samples, merged, boot)
        write_text_atomic(run / REVIEWS_FILE, reviews_text(merged))
        write_text_atomic(run / "results.json", json.dumps(results, indent=2, sort_keys=True, ensure_ascii=False) + "\n")
        manifest["files"] = {name: sha256_file(run / name) for name in ("samples.jsonl", "results.json", REVIEWS_FILE)}
        write_text_atomic(run / "manifest.json", json.dumps(manifest, indent=2, sort_keys=True) + "\n")
    return {"imported": len(reviews), "unscored": unscored, "reviews": len(merged), "human": results["human"]}


def _setting(config: dict, name: str, default: int) -> int:
    """A bootstrap setting of the run's config: an integer 0..100,000 (what `eval run` takes), else the default."""
    value = config.get(name, default)
    return value if isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= 100_000 else default

"""Reading an eval run folder back: ``results.json``, ``samples.jsonl``, ``human_review.jsonl``,
``manifest.json``.

`eval run` and `eval review import` write these files, but `eval report`, `eval review
export|import`, `eval compare` and a rerun read them from a disk that a crash, a bad copy or a hand
edit may have changed. Each is read as a regular file (a named pipe would block the read forever),
as UTF-8 JSON (truncation, garbage, nesting deeper than the parser goes, integers of thousands of
digits), and checked for the fields its readers use, with the types they use them as; anything
else is one :class:`InputError` that names the file (and line) and the fix.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Callable

from builder.errors import InputError
from builder.records import ABILITIES

RESULTS = "results.json"
SAMPLES = "samples.jsonl"
REVIEWS = "human_review.jsonl"
MANIFEST = "manifest.json"
OWN_FILES = (RESULTS, SAMPLES, REVIEWS, MANIFEST, "_SUCCESS", "figures")  # what a run folder consists of
RERUN = "rerun `mmrc-build eval run` for that model (its answers come from the cache)"
MAX_FILE_BYTES = 1 << 30  # a run's samples of a large release are tens of MiB; more is not one of ours

_str, _opt_str = (lambda v: isinstance(v, str)), (lambda v: v is None or isinstance(v, str))
_dict, _opt_dict = (lambda v: isinstance(v, dict)), (lambda v: v is None or isinstance(v, dict))
_int = lambda v: isinstance(v, int) and not isinstance(v, bool)  # noqa: E731
_score = lambda v: v is None or (_int(v) and 0 <= v <= 5)  # noqa: E731
_strings = lambda v: isinstance(v, list) and all(isinstance(x, str) for x in v)  # noqa: E731
_turns = lambda v: isinstance(v, list) and all(  # noqa: E731
    isinstance(t, dict) and _int(t.get("turn")) and _str(t.get("role")) and _str(t.get("text")) for t in v)

# field -> (check, what it must be): what review, compare and the report read of a sample row
SAMPLE_FIELDS: dict[str, tuple[Callable[[Any], bool], str]] = {
    "sample_id": (_str, "text"), "dialogue_id": (_str, "text"), "question_id": (_str, "text"),
    "config": (lambda v: v in ("default", "modality_swap"), "default or modality_swap"),
    "ability": (lambda v: v in ABILITIES, "one of " + ", ".join(ABILITIES)),
    "question": (_str, "text"), "choices": (_strings, "a list of text"), "gold_answer": (_str, "text"),
    "evidence": (_turns, "a list of {turn, role, text}"),
    "prediction": (lambda v: _dict(v) and _str(v.get("status")) and _opt_str(v.get("text")),
                   "an object with a status and a text"),
    "judge": (lambda v: v is None or (_dict(v) and _score(v.get("score"))), "an object whose score is 0-5 or null"),
    "metrics": (lambda v: _dict(v) and v.get("rule_correct") in (True, False, None),
                "an object whose rule_correct is true, false or null"),
}
REVIEW_FIELDS: dict[str, tuple[Callable[[Any], bool], str]] = {
    "sample_id": (_str, "text"), "ability": (_str, "text"), "annotator": (_str, "text"),
    "score": (lambda v: _int(v) and 0 <= v <= 5, "an integer 0-5"), "answer_sha256": (_str, "text"),
}
# section -> check: what compare, review import and the report read of results.json at its top
RESULTS_SECTIONS: dict[str, tuple[Callable[[Any], bool], str]] = {
    **{name: (_dict, "an object") for name in ("release", "model", "overall", "abilities", "objective",
                                               "breakdowns", "analyses")},
    **{name: (_opt_dict, "an object or null") for name in ("judge", "prompt_versions", "config", "human",
                                                           "modality_swap", "notetaker")},
    "questions": (_int, "an integer"),
}


def read_json(path: Path, what: str, hint: str):
    """The JSON value of a file written by `eval run`, or one InputError saying what is wrong and ``hint``."""
    return _parse(_text(path, what, hint), f"{path}", what, hint)


def read_object(path: Path, what: str, hint: str) -> dict:
    value = read_json(path, what, hint)
    if not isinstance(value, dict):
        raise InputError(f"{what} {path} is not a JSON object; {hint}")
    return value


def read_jsonl(path: Path, what: str, hint: str, fields: dict) -> list[dict]:
    """One object per non-blank line, each with ``fields`` of the right type, and the file as the run's
    manifest recorded it (a file cut at a line boundary still parses: only its hash tells)."""
    text = _text(path, what, hint)
    _check_recorded(Path(path), what, hint)
    rows = []
    for number, line in enumerate(text.split("\n"), start=1):  # not splitlines: U+2028 is text inside JSON
        if not line.strip():
            continue
        row = _parse(line, f"{path} line {number}", what, hint)
        if not isinstance(row, dict):
            raise InputError(f"{what} {path} line {number} is not a JSON object; {hint}")
        for name, (check, kind) in fields.items():
            if not check(row.get(name)):
                raise InputError(f"{what} {path} line {number}: {name} is {_shown(row.get(name))}, not {kind}; {hint}")
        rows.append(row)
    return rows


def read_samples(run: Path) -> list[dict]:
    path = Path(run) / SAMPLES
    if not path.exists() and not path.is_symlink():
        raise InputError(f"{run} has no {SAMPLES}; pass a run folder written by `mmrc-build eval run` "
                         "(OUT/<release>-<tag>/<model>/)")
    return read_jsonl(path, "samples file", RERUN, SAMPLE_FIELDS)


def read_results(run: Path) -> dict:
    """results.json of the current format, with every top-level section its readers use."""
    path = Path(run) / RESULTS
    if not path.exists() and not path.is_symlink():
        raise InputError(f"{run} has no {RESULTS}; pass a run folder written by `mmrc-build eval run`")
    return check_results(read_object(path, "results file", RERUN), path)


def check_results(doc: dict, path: Path) -> dict:
    """``doc`` (the object in ``path``) when it is results.json of the current format with every top-level
    section its readers use."""
    from builder.eval.run import RESULTS_FORMAT

    found = doc.get("format")
    if found != RESULTS_FORMAT:
        if isinstance(found, str) and found.startswith("mmrc-eval-results/"):
            raise InputError(f"{path} was written by another mmrc-build ({found}, now {RESULTS_FORMAT}: RP and IMP "
                             f"follow the paper since); {RERUN}")
        raise InputError(f"{path} is not an eval results file (format {_shown(found)}); {RERUN}")
    for name, (check, kind) in RESULTS_SECTIONS.items():
        if not check(doc.get(name)):
            raise InputError(f"{path}: {name} is {_shown(doc.get(name))}, not {kind}; {RERUN}")
    return doc


def read_reviews(run: Path) -> list[dict]:
    """The human reviews imported into ``run`` (none: an empty list)."""
    path = Path(run) / REVIEWS
    if not path.exists() and not path.is_symlink():
        return []
    return read_jsonl(path, "human reviews file", "restore it from a backup, or move it away and import the "
                      "review sheets again (`eval review import`)", REVIEW_FIELDS)


def read_manifest(run: Path) -> dict:
    return read_object(Path(run) / MANIFEST, "run manifest", RERUN)


def _check_recorded(path: Path, what: str, hint: str) -> None:
    """``path`` has the sha256 that the run's manifest.json records for it (where it records one)."""
    from builder.io import sha256_file

    try:
        recorded = read_manifest(path.parent).get("files")
    except InputError:  # no manifest or a damaged one: the commands that need it say so
        return
    digest = recorded.get(path.name) if isinstance(recorded, dict) else None
    if isinstance(digest, str) and sha256_file(path) != digest:
        raise InputError(f"{what} {path} is not the file `eval run` wrote (its sha256 differs from the one in "
                         f"{MANIFEST}: truncated or changed); {hint}")


def _text(path: Path, what: str, hint: str) -> str:
    path = Path(path)
    if not path.exists():
        raise InputError(f"{what} {path} does not exist; {hint}")
    if not path.is_file():  # checked before opening: a named pipe would block the read forever
        kind = "a folder" if path.is_dir() else "not a regular file (a pipe, socket or device)"
        raise InputError(f"{what} {path} is {kind}; {hint}")
    if path.stat().st_size > MAX_FILE_BYTES:
        raise InputError(f"{what} {path} is over {MAX_FILE_BYTES >> 30} GiB, larger than `eval run` writes; {hint}")
    try:
        return path.read_bytes().decode("utf-8")
    except UnicodeDecodeError as exc:
        raise InputError(f"{what} {path} is not UTF-8 (byte {exc.start}); {hint}") from None


def _parse(text: str, where: str, what: str, hint: str):
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise InputError(f"{what} {where} is not valid JSON ({exc.msg} at line {exc.lineno} column {exc.colno}: "
                         f"truncated or damaged); {hint}") from None
    except RecursionError:
        raise InputError(f"{what} {where} is JSON nested too deeply; {hint}") from None
    except ValueError as exc:  # e.g. an integer of more than 4300 digits
        raise InputError(f"{what} {where} holds a value that cannot be read ({str(exc)[:80]}); {hint}") from None


def _shown(value) -> str:
    text = json.dumps(value, ensure_ascii=True, default=str) if not isinstance(value, (dict, list)) else \
        ("a JSON object" if isinstance(value, dict) else "a list")
    return text if len(text) <= 40 else text[:40] + "…"

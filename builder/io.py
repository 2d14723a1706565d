"""The stage contract on disk: atomic output folders, Parquet parts, manifest, ledger.

Layout of a finished stage folder::

    OUT/
      part-00000.parquet ...   canonical dialogue rows, sorted by dialogue_id
      images/ab/<sha256>.<ext> content-addressed image store (hard links where possible)
      ledger.parquet           every earlier stage's rows + this stage's, one per input dialogue
      manifest.json            stage, config, input hash, models, counts, timings
      _SUCCESS                 written last

Work happens in ``.OUT.partial/`` beside the target. Finished shards are marked there,
so a rerun after a crash only does the missing ones; the folder is renamed into place
at the very end, so a killed run never leaves something that looks finished.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
from contextlib import contextmanager
from io import BytesIO
from pathlib import Path
from typing import TYPE_CHECKING, Any, Iterable

from builder import __version__, records
from builder.errors import ENVIRONMENT_ERRNOS, ConfigError, InputError, MMRCError, OutputExistsError

if TYPE_CHECKING:  # polars is imported where a frame is read or written: the eval reads releases without it
    import polars as pl

SUCCESS = "_SUCCESS"
MANIFEST = "manifest.json"
LEDGER = "ledger.parquet"
RUN_STATE = "run.json"
PART_FMT = "part-{:05d}.parquet"
PARQUET_OPTS: dict[str, Any] = dict(compression="zstd", compression_level=3, statistics=True)


# ---------------------------------------------------------------------------
# hashing
# ---------------------------------------------------------------------------


def sha256_file(path: Path, chunk: int = 1 << 20) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as fh:
        while block := fh.read(chunk):
            h.update(block)
    return h.hexdigest()


def sha256_json(obj: Any) -> str:
    return hashlib.sha256(canonical_json(obj).encode()).hexdigest()


def canonical_json(obj: Any) -> str:
    return json.dumps(obj, sort_keys=True, ensure_ascii=False, separators=(",", ":"), default=str)


def tree_hash(root: Path, files: Iterable[Path]) -> str:
    """Content hash of a set of files: relative path + sha256 of each, in sorted order."""
    h = hashlib.sha256()
    for path in sorted(files, key=lambda p: p.relative_to(root).as_posix()):
        h.update(path.relative_to(root).as_posix().encode())
        h.update(b"\0")
        h.update(sha256_file(path).encode())
        h.update(b"\n")
    return h.hexdigest()


def data_files(folder: Path) -> list[Path]:
    """The files that make a stage output's content: parts + ledger (images are hashed via ids)."""
    return sorted(folder.glob("part-*.parquet")) + ([folder / LEDGER] if (folder / LEDGER).exists() else [])


def require_utf8_path(path: Path, what: str) -> None:
    """Refuse a path whose name is not valid UTF-8 (undecodable bytes arrive as surrogate escapes):
    polars, pyarrow and the JSON manifests take text paths, so such a path would fail half-way."""
    try:
        os.fspath(path).encode("utf-8")
    except UnicodeEncodeError:
        shown = os.fsencode(path).decode("utf-8", "backslashreplace")
        raise ConfigError(f"{what} {shown} is not a valid UTF-8 path; rename it or choose a UTF-8 name") from None


def require_regular_file(path: Path, what: str, hint: str, error: type[MMRCError] = InputError) -> Path:
    """``path`` when it is a regular file; else ``error`` saying what it is instead. Checked before
    opening: a named pipe would block the read forever."""
    path = Path(path)
    require_utf8_path(path, what)
    if not path.exists():
        raise error(f"{what} {path} does not exist; {hint}")
    if not path.is_file():
        kind = "a folder" if path.is_dir() else "not a regular file (a pipe, socket or device)"
        raise error(f"{what} {path} is {kind}; {hint}")
    return path


def read_user_text(path: Path, what: str, hint: str, error: type[MMRCError] = InputError) -> str:
    """The UTF-8 text of a small file the user names (a config, a list of ids), or one-line ``error``."""
    data = require_regular_file(path, what, hint, error).read_bytes()
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise error(f"{what} {path} is not UTF-8 text (byte {exc.start}: {exc.reason}); save it as UTF-8 "
                    "text") from None


FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def spreadsheet_cell(value):
    """A CSV cell a spreadsheet shows as text: one that starts like a formula (``=cmd|...``, ``+``, ``-``,
    ``@``, a tab or a carriage return before one) gets a leading ``'``, as OWASP advises against CSV
    injection; the text is otherwise unchanged. Non-text values pass through."""
    return "'" + value if isinstance(value, str) and value.startswith(FORMULA_STARTS) else value


def spreadsheet_text(value):
    """The text :func:`spreadsheet_cell` wrote: the ``'`` it added before a formula start is dropped."""
    if isinstance(value, str) and value[:1] == "'" and value[1:].startswith(FORMULA_STARTS):
        return value[1:]
    return value


# ---------------------------------------------------------------------------
# reading stage outputs
# ---------------------------------------------------------------------------


def require_finished(folder: Path, what: str = "input") -> dict:
    """Return the manifest of a finished stage folder or fail with the fix."""
    folder = Path(folder)
    require_utf8_path(folder, f"{what} folder")
    if not folder.is_dir():
        raise InputError(f"{what} folder {folder} does not exist; run the previous stage first")
    if not (folder / SUCCESS).exists():
        raise InputError(
            f"{what} folder {folder} has no {SUCCESS}: the stage that writes it did not finish; rerun it"
        )
    return json.loads((folder / MANIFEST).read_text())


def parts(folder: Path) -> list[Path]:
    return sorted(Path(folder).glob("part-*.parquet"))


def scan_dialogues(folder: Path) -> pl.LazyFrame:
    files = parts(folder)
    if not files:
        from builder.records import empty_dialogues

        return empty_dialogues().lazy()
    import polars as pl

    return pl.scan_parquet(files)


def read_ledger(folder: Path) -> pl.DataFrame:
    import polars as pl

    path = Path(folder) / LEDGER
    return pl.read_parquet(path) if path.exists() else pl.DataFrame(schema=records.LEDGER_SCHEMA)


# ---------------------------------------------------------------------------
# writing
# ---------------------------------------------------------------------------


_OS_ERROR = re.compile(r"\(os error (\d+)\)")


@contextmanager
def named_os_errors(path: Path):
    """Re-raise an OSError that names no file (pyarrow's full disk, a failed flush, polars' CSV writer,
    which keeps the errno only in its text: "... (os error 28)") as one that names ``path``: the CLI
    turns a full disk or a permission problem into one line with the path."""
    try:
        yield
    except OSError as exc:
        found = _OS_ERROR.search(str(exc)) if exc.errno is None else None
        code = int(found.group(1)) if found else exc.errno
        if code not in ENVIRONMENT_ERRNOS or exc.filename:
            raise
        raise OSError(code, os.strerror(code), str(path)) from exc


def open_new(path: Path, mode: str = "w", **kwargs):
    """Open ``path`` for writing as a new file: what is there (a temp file a killed run left, or a link
    someone planted in a shared folder) is removed first, and a link is never followed, so a write
    never lands outside the folder the user named."""
    try:
        os.unlink(path)
    except FileNotFoundError:
        pass
    return open(path, mode, opener=_no_follow, **kwargs)


def _no_follow(path, flags: int) -> int:
    return os.open(path, flags | getattr(os, "O_NOFOLLOW", 0), 0o666)


def remove_link(path: Path) -> None:
    """Remove ``path`` when it is a link, before a library (matplotlib, shutil) writes a file there and
    would write through the link to wherever it points."""
    if Path(path).is_symlink():
        os.unlink(path)


def write_parquet_atomic(df: pl.DataFrame, path: Path) -> None:
    """Write then rename, so a reader never sees a torn file.

    The Parquet bytes are made in memory and written by Python: polars loses the OS's reason when
    the disk fills up on a small file ("Invalid thrift: transport error"), Python keeps its errno.
    """
    tmp = path.with_name(f".{path.name}.tmp")
    buffer = BytesIO()
    df.write_parquet(buffer, **PARQUET_OPTS)
    with named_os_errors(tmp), open_new(tmp, "wb") as fh:
        fh.write(buffer.getbuffer())
    os.replace(tmp, path)


def write_text_atomic(path: Path, text: str) -> None:
    """Write then rename (the rename replaces a link at ``path``, never what it points to)."""
    tmp = path.with_name(f".{path.name}.tmp")
    with open_new(tmp, "w", encoding="utf-8") as fh:
        fh.write(text)
    os.replace(tmp, path)


def write_dialogues(df: pl.DataFrame, path: Path) -> None:
    write_parquet_atomic(records.conform(df).sort("dialogue_id", maintain_order=True), path)


def sort_ledger(df: pl.DataFrame) -> pl.DataFrame:
    schema = records.LEDGER_SCHEMA
    return df.select(schema.names()).cast(dict(schema)).sort(
        ["dialogue_id", "stage", "decision", "reason", "detail"], maintain_order=True
    )


class OutputFolder:
    """A stage's output, built in ``.NAME.partial`` and renamed into place by :meth:`commit`.

    ``state`` (config + input hash) is stored in the partial folder; a rerun with the same
    state resumes (finished shards are kept), a rerun with another state starts over.
    """

    def __init__(self, target: Path, state: dict, force: bool = False, inputs: Iterable[Path] = ()):
        self.target = Path(target)
        self.state = state
        self.partial = self.target.parent / f".{self.target.name}.partial"
        self.force = force
        inputs = list(inputs)
        for path, what in [(self.target, "output folder"), *((p, "input folder") for p in inputs)]:
            require_utf8_path(path, what)
        check_target(self.target, inputs)

    # -- lifecycle ---------------------------------------------------------
    def finished_manifest(self) -> dict | None:
        """The target's manifest when it is finished, made from this exact state and no
        --force was asked for; None when the stage has to run."""
        if self.force or not (self.target / SUCCESS).exists():
            return None
        try:
            manifest = json.loads((self.target / MANIFEST).read_text())
        except (OSError, json.JSONDecodeError):
            return None
        return manifest if manifest.get("state_hash") == sha256_json(self.state) else None

    def open(self) -> "OutputFolder":
        if self.force and self.target.exists() and not is_tool_output(self.target):
            raise OutputExistsError(
                f"{self.target} is not a folder mmrc-build wrote (no stage manifest.json in it); --force only "
                "replaces this tool's own outputs: choose another -o or remove that folder yourself"
            )
        if self.target.exists() and not self.force:
            if (self.target / SUCCESS).exists():
                raise OutputExistsError(
                    f"{self.target} already holds a finished run made from another input or config; "
                    "pass --force to rebuild it or choose another output folder"
                )
            if any(self.target.iterdir()):
                raise OutputExistsError(
                    f"{self.target} exists and is not a stage output; remove it or choose another folder"
                )
        self.target.parent.mkdir(parents=True, exist_ok=True)
        state_file = self.partial / RUN_STATE
        if self.partial.exists():
            try:
                same = json.loads(state_file.read_text()) == json.loads(canonical_json(self.state))
            except (OSError, json.JSONDecodeError):
                same = False
            if not same:
                shutil.rmtree(self.partial)
        self.partial.mkdir(parents=True, exist_ok=True)
        (self.partial / "_shards").mkdir(exist_ok=True)
        if not state_file.exists():
            write_text_atomic(state_file, canonical_json(self.state))
        return self

    def path(self, name: str) -> Path:
        return self.partial / name

    # -- shards ------------------------------------------------------------
    def shard_done(self, key: str) -> bool:
        return (self.partial / "_shards" / f"{key}.done").exists()

    def mark_shard(self, key: str, info: dict | None = None) -> None:
        write_text_atomic(self.partial / "_shards" / f"{key}.done", canonical_json(info or {}))

    def shard_info(self, key: str) -> dict:
        return json.loads((self.partial / "_shards" / f"{key}.done").read_text())

    # -- finish --------------------------------------------------------------
    def commit(self, manifest: dict) -> dict:
        """Write ledger-independent manifest + _SUCCESS, then rename into place."""
        for scratch in ("_shards", "_work", RUN_STATE):
            p = self.partial / scratch
            if p.is_dir():
                shutil.rmtree(p)
            elif p.exists():
                p.unlink()
        manifest = dict(manifest)
        manifest["state_hash"] = sha256_json(self.state)
        manifest["output_hash"] = tree_hash(self.partial, data_files(self.partial))
        manifest["tool_version"] = __version__
        write_text_atomic(self.partial / MANIFEST, json.dumps(manifest, indent=2, sort_keys=True, default=str))
        (self.partial / SUCCESS).write_text("")
        if self.target.exists():
            old = self.target.parent / f".{self.target.name}.old"
            if old.exists():
                shutil.rmtree(old)
            os.replace(self.target, old)
            os.replace(self.partial, self.target)
            shutil.rmtree(old)
        else:
            os.replace(self.partial, self.target)
        return manifest


def is_tool_output(folder: Path) -> bool:
    """A folder this tool wrote (a stage manifest in it), or an empty one: what --force may replace."""
    folder = Path(folder)
    if not folder.is_dir() or folder.is_symlink():
        return False
    if not any(folder.iterdir()):
        return True
    try:
        manifest = json.loads((folder / MANIFEST).read_text())
    except (OSError, ValueError):
        return False
    return isinstance(manifest, dict) and isinstance(manifest.get("stage"), str) and "state_hash" in manifest


def check_target(target: Path, inputs: Iterable[Path]) -> None:
    """An output folder must not be an input of the same run, hold one, or sit inside one."""
    out = Path(os.path.abspath(target))
    for source in inputs:
        src = Path(os.path.abspath(source))
        if out == src or src.is_relative_to(out):
            raise ConfigError(f"output folder {target} is (or contains) the input {source}; choose another -o")
        if out.is_relative_to(src):
            raise ConfigError(f"output folder {target} is inside the input folder {source}; choose a folder "
                              "outside it")


def ledger_counts(ledger: pl.DataFrame, stage: str) -> dict:
    """rows in = kept + modified + dropped + quarantined, plus counts per reason."""
    import polars as pl

    mine = ledger.filter(pl.col("stage") == stage)
    decisions = {d: 0 for d in ("kept", "modified", "dropped", "quarantined")}
    for row in mine.group_by("decision").len().iter_rows():
        decisions[row[0]] = row[1]
    reasons = {
        f"{d}:{r}": n
        for d, r, n in mine.group_by(["decision", "reason"]).len().sort(["decision", "reason"]).iter_rows()
    }
    return {"in": mine.height, **decisions, "out": decisions["kept"] + decisions["modified"], "reasons": reasons}

"""A full disk, wherever a stage meets it: a part file (polars used to report it as a ComputeError,
or lose the reason), a release shard (pyarrow: an OSError without a path), `git add` (a line on
stderr). Each ends in one line that names the path and the fix, exit 3; a rerun with space finishes."""

from __future__ import annotations

import os
import stat
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from builder.cli import main
from conftest import dialogue, make_stage_folder
from qr_fixtures import data_folder, questions_file



def full_device(tmp_path: Path) -> str:
    """A character device like /dev/full (every write fails with ENOSPC) in the test's own folder,
    so nothing shared is ever written to; None where this user may not make device nodes."""
    path = tmp_path / "full"
    try:
        os.mknod(path, 0o666 | stat.S_IFCHR, os.makedev(1, 7))
    except PermissionError:
        pytest.skip("making a /dev/full-like device node needs CAP_MKNOD (root in a container)")
    return str(path)


def one_line(result) -> str:
    """The one error line, last (release logs its progress lines before it), and no traceback."""
    lines = result.output.strip().splitlines()
    errors = [line for line in lines if line.startswith("Error: ")]
    assert errors == lines[-1:] and "Traceback" not in result.output, result.output
    return lines[-1]


def test_clean_on_a_full_disk_names_the_part_and_a_rerun_resumes(tmp_path, monkeypatch):
    from builder import io

    data = make_stage_folder(tmp_path / "in", [dialogue([("user", f"hi there {k}"), ("assistant", "hello")])
                                               for k in range(4)], parts=2)
    full = full_device(tmp_path)

    def onto_a_full_disk(file, mode="r", *args, **kwargs):  # the kernel's own ENOSPC for the second part
        return open(full if "part-00001" in str(file) else file, mode, *args, **kwargs)

    monkeypatch.setattr(io, "open", onto_a_full_disk, raising=False)
    args = ["clean", str(data), "-o", str(tmp_path / "out"), "--toxicity-backend", "lexicon", "--no-pii", "--quiet"]
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 3, result.output
    line = one_line(result)
    assert "no space left on the device" in line and "part-00001.parquet" in line and "df -h" in line
    assert "ComputeError" not in line and "Traceback" not in result.output
    monkeypatch.delattr(io, "open")
    rerun = CliRunner().invoke(main, args)
    assert rerun.exit_code == 0, rerun.output
    assert len(list((tmp_path / "out").glob("part-*.parquet"))) == 2


def test_release_shards_on_a_full_disk_name_the_folder(tmp_path, monkeypatch):
    import pyarrow.parquet as pq

    data, rows = data_folder(tmp_path / "data", n=2)
    qfile = questions_file(tmp_path / "q.jsonl", rows)
    real = pq.ParquetWriter.__init__

    def onto_a_full_disk(self, where, *args, **kwargs):
        return real(self, full, *args, **kwargs)

    full = full_device(tmp_path)
    monkeypatch.setattr(pq.ParquetWriter, "__init__", onto_a_full_disk)
    result = CliRunner().invoke(main, ["release", "--version", "0.1.0", "--data", str(data), "--questions",
                                       str(qfile), "--releases-dir", str(tmp_path / "rel"), "--quiet"])
    assert result.exit_code == 3, result.output
    line = one_line(result)
    assert "no space left on the device" in line and str(tmp_path / "rel") in line and "data/default" in line


def _git_with_a_full_disk(tmp_path: Path) -> str:
    """A `git` first on PATH that fails `git add` the way git does when the disk is full."""
    import shutil

    real = shutil.which("git")
    shim = tmp_path / "bin" / "git"
    shim.parent.mkdir()
    shim.write_text(f"""#!{sys.executable}
import os, sys
if "add" in sys.argv:
    sys.stderr.write("error: unable to create temporary file: No space left on device\\n"
                     "error: data/default/test-00000-of-00001.parquet: failed to insert into database\\n"
                     "fatal: adding files failed\\n")
    sys.exit(128)
os.execv({real!r}, [{real!r}, *sys.argv[1:]])
""")
    shim.chmod(shim.stat().st_mode | stat.S_IEXEC)
    return f"{shim.parent}{os.pathsep}{os.environ['PATH']}"


def test_release_git_on_a_full_disk_says_so(tmp_path, monkeypatch):
    data, rows = data_folder(tmp_path / "data", n=2)
    qfile = questions_file(tmp_path / "q.jsonl", rows)
    args = ["release", "--version", "0.1.0", "--data", str(data), "--questions", str(qfile), "--releases-dir",
            str(tmp_path / "rel"), "--quiet"]
    path = os.environ["PATH"]
    monkeypatch.setenv("PATH", _git_with_a_full_disk(tmp_path))
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 3, result.output
    line = one_line(result)
    assert "no space left on the device" in line and str(tmp_path / "rel") in line and "df -h" in line
    assert "check that the folder is a release" not in line
    monkeypatch.setenv("PATH", path)
    rerun = CliRunner().invoke(main, args)
    assert rerun.exit_code == 0, rerun.output
    assert (tmp_path / "rel" / "mmrc-v0.1.0" / "SHA256SUMS").is_file()


def test_a_writer_that_keeps_the_errno_only_in_its_text_is_named(tmp_path):
    """polars' CSV writer (classify sample) raises OSError('... (os error 28)') with no errno."""
    import polars as pl

    from builder import io

    full = full_device(tmp_path)
    with pytest.raises(OSError) as caught, io.named_os_errors(tmp_path / "sample.csv"):
        pl.DataFrame({"a": list(range(100_000))}).write_csv(full)
    assert caught.value.errno == 28 and caught.value.filename == str(tmp_path / "sample.csv")

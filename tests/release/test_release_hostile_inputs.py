"""Files `release` reads that are not what they claim: a binary takedown list, a pipe, a missing file
(a folder is click's usage error). One line each, exit 3, and nothing is built."""

from __future__ import annotations

import os

import pytest
from click.testing import CliRunner

from builder.cli import main
from qr_fixtures import data_folder, questions_file

pytestmark = pytest.mark.timeout(120)  # a pipe opened by mistake would block: fail instead of hanging


def _make(path, kind):
    if kind == "binary":
        path.write_bytes(bytes(range(256)) * 8)
    elif kind == "pipe":
        os.mkfifo(path)


@pytest.mark.parametrize("option", ["--remove-ids", "--sources"])
@pytest.mark.parametrize("kind, message", [("binary", "is not UTF-8 text (byte 128"),
                                           ("pipe", "is not a regular file"), ("missing", "does not exist")])
def test_takedown_and_sources_files_that_are_not_text_are_one_line(tmp_path, option, kind, message):
    data, rows = data_folder(tmp_path / "data", n=2)
    qfile = questions_file(tmp_path / "q.jsonl", rows)
    odd = tmp_path / "odd.txt"
    _make(odd, kind)
    result = CliRunner().invoke(main, ["release", "--version", "0.1.0", "--data", str(data), "--questions",
                                       str(qfile), "--releases-dir", str(tmp_path / "rel"), option, str(odd),
                                       "--quiet"])
    assert result.exit_code == 3, (result.output, result.exception)
    assert result.output.count("\n") == 1 and result.output.startswith("Error: ") and message in result.output
    assert str(odd) in result.output and not (tmp_path / "rel" / "mmrc-v0.1.0").exists()


def test_a_releases_folder_that_is_not_utf8_is_one_line(tmp_path):
    data, rows = data_folder(tmp_path / "data", n=2)
    releases = os.fsdecode(os.fsencode(str(tmp_path)) + b"/rel\xff")
    result = CliRunner().invoke(main, ["release", "--version", "0.1.0", "--data", str(data), "--questions",
                                       str(questions_file(tmp_path / "q.jsonl", rows)), "--releases-dir", releases])
    assert result.exit_code == 2, (result.output, result.exception)
    assert result.output.count("\n") == 1 and "rel\\xff is not a valid UTF-8 path" in result.output
    assert not os.path.exists(releases)

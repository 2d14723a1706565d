"""Versions: older tags stay loadable, CHANGELOG by id, takedowns stick."""

from __future__ import annotations

import json
import subprocess

from click.testing import CliRunner

from builder.cli import main
from qr_fixtures import data_folder, questions_file


def release(tmp_path, data, questions, version, *extra):
    return CliRunner().invoke(main, ["release", "--version", version, "--data", str(data), "--questions",
                                     str(questions), "--releases-dir", str(tmp_path / "rel"), *extra])


def _tags(folder):
    return subprocess.run(["git", "tag", "--list"], cwd=folder, capture_output=True, text=True).stdout.split()


def _commits(folder):
    return subprocess.run(["git", "rev-list", "--all"], cwd=folder, capture_output=True, text=True).stdout.split()


def test_versions_tags_changelog_and_takedown(tmp_path):
    from datasets import load_dataset

    from builder.errors import InputError
    from builder.release.revisions import load_release

    d1, rows1 = data_folder(tmp_path / "d1", n=2)
    assert release(tmp_path, d1, questions_file(tmp_path / "q1.jsonl", rows1), "0.1.0").exit_code == 0
    d2, rows2 = data_folder(tmp_path / "d2", n=4)  # conv-0..3: two new dialogues
    q2 = questions_file(tmp_path / "q2.jsonl", rows2)
    result = release(tmp_path, d2, q2, "0.2.0")
    assert result.exit_code == 0, result.output
    v1, v2 = tmp_path / "rel" / "mmrc-v0.1.0", tmp_path / "rel" / "mmrc-v0.2.0"
    ids = {r["source_id"]: r["dialogue_id"] for r in rows2}
    # the older folder is untouched, and the newer repository still has the older tag
    assert sorted(load_dataset(str(v1), split="test")["source_id"]) == ["conv-0", "conv-1"]
    assert _tags(v2) == ["v0.1.0", "v0.2.0"]
    assert sorted(load_release(v2, revision="v0.1.0")["source_id"]) == ["conv-0", "conv-1"]
    assert load_release(v2, "questions", revision="v0.1.0").num_rows == 12
    log = (v2 / "CHANGELOG.md").read_text()
    assert log.index("## v0.2.0") < log.index("## v0.1.0") and "(+2 / -0)" in log
    assert f"  - `{ids['conv-2']}`" in log and "schema: unchanged" in log

    # a takedown of a published dialogue: v0.3.0 starts a fresh history, so no earlier tag reaches it
    takedown = tmp_path / "takedown.txt"
    takedown.write_text("# users asked for removal\nconv-1\n")
    result = release(tmp_path, d2, q2, "0.3.0", "--remove-ids", str(takedown))
    assert result.exit_code == 0, result.output
    assert "fresh git history" in result.output and "mmrc-v0.1.0, mmrc-v0.2.0" in result.output
    v3 = tmp_path / "rel" / "mmrc-v0.3.0"
    assert sorted(load_dataset(str(v3), split="test")["source_id"]) == ["conv-0", "conv-2", "conv-3"]
    assert _tags(v3) == ["v0.3.0"] and len(_commits(v3)) == 1
    try:
        load_release(v3, revision="v0.2.0")
        raise AssertionError("v0.2.0 must not be reachable from a takedown release")
    except InputError:
        pass
    log = (v3 / "CHANGELOG.md").read_text()
    assert f"dialogues removed on request (takedown) (1):\n  - `{ids['conv-1']}`" in log
    assert "fresh git history (takedown of 1 dialogue(s) released in 0.2.0 or before)" in log
    manifest = json.loads((v3 / "manifest.json").read_text())
    assert manifest["history"]["mode"] == "fresh" and str(tmp_path) not in json.dumps(manifest)

    # a takedown stays in force: v0.4.0 built from the same data without the list still lacks conv-1,
    # and continues v0.3.0's history
    assert release(tmp_path, d2, q2, "0.4.0").exit_code == 0
    v4 = tmp_path / "rel" / "mmrc-v0.4.0"
    assert "conv-1" not in load_dataset(str(v4), split="test")["source_id"]
    assert "Changes since v0.3.0: 3 dialogues (+0 / -0)" in (v4 / "CHANGELOG.md").read_text()
    assert _tags(v4) == ["v0.3.0", "v0.4.0"]


def test_relative_releases_dir_twice_and_bad_names(tmp_path, monkeypatch):
    d1, rows1 = data_folder(tmp_path / "d1", n=2)
    questions_file(tmp_path / "q1.jsonl", rows1)  # read below by its relative name
    monkeypatch.chdir(tmp_path)
    for version in ("0.1.0", "0.2.0"):
        result = CliRunner().invoke(main, ["release", "--version", version, "--data", "d1", "--questions",
                                           "q1.jsonl", "--releases-dir", "releases"])
        assert result.exit_code == 0, result.output
    assert sorted(p.name for p in (tmp_path / "releases").iterdir() if not p.name.startswith(".")) == [
        "mmrc-v0.1.0", "mmrc-v0.2.0"]
    assert not (tmp_path / "releases" / "releases").exists()
    result = CliRunner().invoke(main, ["release", "--version", "0.3.0", "--data", "releases/../d1", "--questions",
                                       "./q1.jsonl", "--releases-dir", "releases/../releases"])
    assert result.exit_code == 0, result.output
    for name in ("../../escaped", "a/b", "/abs", "", "UPPER", "-dash", "a..b"):
        result = CliRunner().invoke(main, ["release", "--version", "0.9.0", "--data", "d1", "--questions", "q1.jsonl",
                                           "--releases-dir", "releases", "--name", name])
        assert result.exit_code == 2, (name, result.output)
        assert "is not valid" in result.output and "Traceback" not in result.output
    assert not (tmp_path / "escaped").exists() and not (tmp_path.parent / "escaped").exists()


def test_a_second_release_build_is_refused_with_the_holder(tmp_path):
    import os

    from builder.locks import FolderLock

    d1, rows1 = data_folder(tmp_path / "d1", n=2)
    with FolderLock(tmp_path / "rel" / "mmrc-releases"):
        result = release(tmp_path, d1, questions_file(tmp_path / "q1.jsonl", rows1), "0.1.0")
    assert result.exit_code == 9 and f"pid {os.getpid()}" in result.output


def test_release_reports_progress_unless_quiet(tmp_path):
    d1, rows1 = data_folder(tmp_path / "d1", n=2)
    q1 = questions_file(tmp_path / "q1.jsonl", rows1)
    loud = release(tmp_path, d1, q1, "0.1.0")
    assert loud.exit_code == 0 and "release default: 2/2 rows" in loud.output
    quiet = release(tmp_path, d1, q1, "0.2.0", "--quiet")
    assert quiet.exit_code == 0 and "rows," not in quiet.output

"""Versions: older tags stay loadable, CHANGELOG by id, takedowns stick."""

from __future__ import annotations

import subprocess

from click.testing import CliRunner

from builder.cli import main
from qr_fixtures import data_folder, questions_file


def release(tmp_path, data, questions, version, *extra):
    return CliRunner().invoke(main, ["release", "--version", version, "--data", str(data), "--questions",
                                     str(questions), "--releases-dir", str(tmp_path / "rel"), *extra])


def test_versions_tags_changelog_and_takedown(tmp_path):
    from datasets import load_dataset

    from builder.release.loader import load_release

    d1, rows1 = data_folder(tmp_path / "d1", n=2)
    assert release(tmp_path, d1, questions_file(tmp_path / "q1.jsonl", rows1), "0.1.0").exit_code == 0
    d2, rows2 = data_folder(tmp_path / "d2", n=4)  # conv-0..3: two new dialogues
    q2 = questions_file(tmp_path / "q2.jsonl", rows2)
    takedown = tmp_path / "takedown.txt"
    takedown.write_text("# users asked for removal\nconv-1\n")
    result = release(tmp_path, d2, q2, "0.2.0", "--remove-ids", str(takedown))
    assert result.exit_code == 0, result.output

    v1, v2 = tmp_path / "rel" / "mmrc-v0.1.0", tmp_path / "rel" / "mmrc-v0.2.0"
    ids = {r["source_id"]: r["dialogue_id"] for r in rows2}
    assert sorted(load_dataset(str(v2), split="test")["source_id"]) == ["conv-0", "conv-2", "conv-3"]
    # the older folder is untouched, and the newer repository still has the older tag
    assert sorted(load_dataset(str(v1), split="test")["source_id"]) == ["conv-0", "conv-1"]
    tags = subprocess.run(["git", "tag", "--list"], cwd=v2, capture_output=True, text=True).stdout.split()
    assert tags == ["v0.1.0", "v0.2.0"]
    old = load_release(v2, revision="v0.1.0")
    assert sorted(old["source_id"]) == ["conv-0", "conv-1"]
    assert load_release(v2, "questions", revision="v0.1.0").num_rows == 12

    log = (v2 / "CHANGELOG.md").read_text()
    assert log.index("## v0.2.0") < log.index("## v0.1.0")
    assert "(+2 / -1)" in log
    assert f"dialogues removed on request (takedown) (1):\n  - `{ids['conv-1']}`" in log
    assert f"  - `{ids['conv-2']}`" in log and "schema: unchanged" in log

    # a takedown stays in force: v0.3.0 built from the same data without the list still lacks conv-1
    assert release(tmp_path, d2, q2, "0.3.0").exit_code == 0
    v3 = tmp_path / "rel" / "mmrc-v0.3.0"
    assert "conv-1" not in load_dataset(str(v3), split="test")["source_id"]
    assert "Changes since v0.2.0: 3 dialogues (+0 / -0)" in (v3 / "CHANGELOG.md").read_text()

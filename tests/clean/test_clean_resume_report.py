"""A run killed after its last shard resumes without setup(); `--report` shows redactions by eye."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner
from conftest import dialogue, make_stage_folder

from builder import io
from builder.cli import main


def _rows():
    return [dialogue([("user", "Hello, my name is Margarethe Vollmer and I need a polite message to my landlord "
                               "about the broken heating in the flat; he can write to m.vollmer1984@gmail.com or call "
                               "(212) 555-0187 in the afternoon when I am at home."),
                      ("assistant", "Thanks Margarethe, I will draft the message to the landlord now.")]),
            dialogue([("user", "How do I boil an egg so that the yolk stays soft?"),
                      ("assistant", "Boil it for six minutes, then cool it in cold water.")])]


def test_finalize_works_after_a_kill_following_the_last_shard(tmp_path, monkeypatch):
    """Regression: a kill -9 after the last shard's done-marker made every rerun fail with
    AttributeError: 'NoneType' object has no attribute 'describe' (finalize used the toxicity
    scorer, which only setup() loads, and a resumed run with no shard left never calls setup)."""
    make_stage_folder(tmp_path / "in", _rows())
    args = ["clean", str(tmp_path / "in"), "-o", str(tmp_path / "out"), "--toxicity-backend", "lexicon"]

    def killed(self, manifest):
        raise KeyboardInterrupt  # the process dies after every shard is marked done

    with monkeypatch.context() as mp:
        mp.setattr(io.OutputFolder, "commit", killed)
        result = CliRunner().invoke(main, args)
    assert result.exit_code != 0
    assert list((tmp_path / ".out.partial" / "_shards").glob("*.done"))
    from builder.clean.stage import CleanStage

    def no_setup(self, device):
        raise AssertionError("a fully resumed run must not need setup()")

    monkeypatch.setattr(CleanStage, "setup", no_setup)
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 0, result.output
    manifest = json.loads((tmp_path / "out" / "manifest.json").read_text())
    assert manifest["decided_by"]["toxicity"] == "lexicon"
    assert manifest["rows"]["in"] == 2


@pytest.fixture()
def cleaned(tmp_path):
    make_stage_folder(tmp_path / "in", _rows())
    result = CliRunner().invoke(main, ["clean", str(tmp_path / "in"), "-o", str(tmp_path / "out"), "--no-toxicity"])
    assert result.exit_code == 0, result.output
    return tmp_path / "out"


def test_report_shows_counts_and_examples_with_the_removed_value(cleaned):
    result = CliRunner().invoke(main, ["clean", "--report", "-o", str(cleaned), "--report-examples", "3"])
    assert result.exit_code == 0, result.output
    out = result.output
    assert "redacted spans per entity" in out
    assert "PERSON: 2" in out and "EMAIL_ADDRESS: 1" in out and "PHONE_NUMBER: 1" in out
    assert "[m.vollmer1984@gmail.com]" in out and "[Margarethe Vollmer]" in out
    assert "write to <EMAIL_ADDRESS> or call" in out  # the context around the placeholder
    assert "languages: en" in out

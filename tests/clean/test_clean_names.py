"""Names on real-chat shapes, through the real `mmrc-build clean` CLI."""

from __future__ import annotations

import json

import polars as pl
import pytest
from click.testing import CliRunner
from conftest import dialogue, make_stage_folder

from builder.cli import main


def _rows():
    return [
        dialogue([("user", "hi, my name praba and I need help with a visa letter for my trip to Canada next month."),
                  ("assistant", "Sure, Praba. What should the letter say?"),
                  ("user", "Please thank my colleagues Emily, Anna Berg and Gloria for the help.\n\nThanks,\nErli")],
                 source_id="names"),
        dialogue([("user", "Who was Gustav III of Sweden, and what did Goku and Shaggy have in common? "
                           "Explain the development of the concept in the 1800s."),
                  ("assistant", "The development of the concept began when Gustav III took power in 1772.")],
                 source_id="public"),
        dialogue([("user", "Write a story about Lily, a girl who finds a dragon egg in the forest near her village."),
                  ("assistant", "Lily had always loved the forest. One morning she found a glowing egg.")],
                 source_id="fiction"),
        dialogue([("user", "Please check my profile https://www.linkedin.com/in/margarethe-vollmer-1984 and "
                           "https://docs.python.org/3/library/re.html - my name is Margarethe Vollmer."),
                  ("assistant", "Your LinkedIn profile looks good, Margarethe.")], source_id="url"),
        dialogue([("user", "In Python, `class Material` has a field TextField; why does Material fail?"),
                  ("assistant", "Material fails because TextField is not imported.")], source_id="code"),
    ]


@pytest.fixture(scope="module")
def cleaned(tmp_path_factory):
    root = tmp_path_factory.mktemp("names")
    make_stage_folder(root / "in", _rows())
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("HF_HUB_OFFLINE", "1")
        result = CliRunner().invoke(main, ["clean", str(root / "in"), "-o", str(root / "out"), "--no-toxicity"])
    assert result.exit_code == 0, result.output
    rows = pl.read_parquet(root / "out" / "part-00000.parquet").to_dicts()
    return {r["source_id"]: r for r in rows}


def _text(row):
    return "\n".join(t["text"] for t in row["turns"])


def test_lower_case_introductions_sign_offs_and_lists_are_found(cleaned):
    text = _text(cleaned["names"])
    for value in ("praba", "Praba", "Erli", "Emily", "Anna", "Berg", "Gloria"):
        assert value not in text, (value, text)
    assert "the help" in text and "visa letter" in text  # nothing else spread


def test_public_and_fictional_figures_and_common_words_stay(cleaned):
    text = _text(cleaned["public"])
    for value in ("Gustav III", "Goku", "Shaggy", "The development of the concept", "the concept"):
        assert value in text, (value, text)
    assert cleaned["public"]["pii"] == []


def test_characters_in_requested_fiction_stay(cleaned):
    assert "Lily" in _text(cleaned["fiction"])


def test_urls_with_a_name_go_and_documentation_stays(cleaned):
    text = _text(cleaned["url"])
    assert "margarethe-vollmer" not in text and "Margarethe" not in text and "<URL>" in text
    assert "https://docs.python.org/3/library/re.html" in text


def test_code_identifiers_are_not_names(cleaned):
    assert cleaned["code"]["pii"] == []

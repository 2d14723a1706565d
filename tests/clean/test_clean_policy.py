"""Every rule of the PII policy and every trait, run on its own examples; the policy records who
kept what (suppressed_by) and the stage counts it in the ledger and the manifest."""

from __future__ import annotations

import json

import polars as pl
import pytest
from click.testing import CliRunner

from builder.clean import policy
from builder.clean.config import CleanConfig
from builder.clean.pii import PiiDetector
from builder.clean.precision import SPAN_RULES, VALUE_RULES
from builder.clean.redact import redact_dialogue
from builder.traits import TRAITS, tag
from conftest import dialogue, make_stage_folder

pytestmark = pytest.mark.models


@pytest.fixture(scope="module")
def detector():
    return PiiDetector(CleanConfig())


def _clean(detector, turns: list[tuple[str, str]]):
    rows = [{"index": i, "role": role, "text": text, "images": []} for i, (role, text) in enumerate(turns)]
    scans = detector.scan([t["text"] for t in rows])
    return rows, redact_dialogue("d", rows, scans, CleanConfig())


@pytest.mark.parametrize("rule, example", [(r, e) for r in policy.RULES for e in r.examples],
                         ids=lambda v: v.name if isinstance(v, policy.Rule) else "")
def test_every_rule_keeps_its_examples_and_says_so(detector, rule, example):
    rows, red = _clean(detector, list(example.turns))
    assert red.reason is None
    kept_in = [t for t, turn in zip(red.turns, rows) if example.kept in turn["text"]]
    assert kept_in and all(example.kept in t["text"] for t in kept_in), (rule.name, [t["text"] for t in red.turns])
    assert rule.name in {s["suppressed_by"] for s in red.suppressed}, red.suppressed


def test_every_rule_is_named_once_with_a_reason_and_examples():
    names = [r.name for r in policy.RULES]
    assert len(names) == len(set(names)) and all(r.why for r in policy.RULES)
    assert all(r.examples for r in policy.RULES if r.name != "pasted_text_name")  # a 1,000-character example
    assert {name for name, _ in VALUE_RULES.values()} <= set(SPAN_RULES)


@pytest.mark.parametrize("trait, example", [(t, e) for t in TRAITS for e in t.examples],
                         ids=lambda v: v.name if hasattr(v, "scope") else "")
def test_every_trait_on_its_examples(trait, example):
    text, expected = example
    turns = [{"role": t[0], "text": t[1]} if isinstance(t, tuple) else {"role": trait.role, "text": t}
             for t in (text if isinstance(text, list) else [text])]
    assert tag(turns).has(trait.name) is expected


def test_a_personal_letter_keeps_its_names_inside_a_story_request(detector):
    """personal beats the traits: the user drafts a letter to a real person in a dialogue that
    also asks for a story."""
    _, red = _clean(detector, [("user", "Write a story for kids, and also write an email to my landlord Peter "
                                        "Hansen about the broken heating.")])
    assert "Peter Hansen" not in red.turns[0]["text"]


def test_the_stage_writes_traits_and_counts_suppressions(tmp_path):
    from builder.cli import main

    rows = [dialogue([("user", "Write a short story about Lily Marsh and her dragon."),
                      ("assistant", "Once upon a time, Lily Marsh found an egg.")], source_id="a"),
            dialogue([("user", "My name is Ksenia Orlova and my phone is 0612 345 678."),
                      ("assistant", "Thanks Ksenia, noted.")], source_id="b")]
    src = make_stage_folder(tmp_path / "in", rows)
    result = CliRunner().invoke(main, ["clean", str(src), "-o", str(tmp_path / "out"), "--toxicity-backend",
                                       "lexicon", "--quiet"])
    assert result.exit_code == 0, result.output
    out = pl.concat([pl.read_parquet(p) for p in sorted((tmp_path / "out").glob("part-*.parquet"))])
    traits = {"story" if "story" in r["turns"][0]["text"] else "intro": r["traits"] for r in out.to_dicts()}
    assert traits["story"] == [{"name": "fiction", "turns": [0, 1]}]
    assert {t["name"] for t in traits["intro"]} == {"personal_affairs"}
    ledger = {r["dialogue_id"]: json.loads(r["detail"]) for r in pl.read_parquet(tmp_path / "out" / "ledger.parquet")
              .to_dicts() if r["stage"] == "clean"}
    story = next(d for d in ledger.values() if "suppressed" in d and "fiction_character" in d["suppressed"])
    assert story["suppressed"]["fiction_character"] >= 1
    manifest = json.loads((tmp_path / "out" / "manifest.json").read_text())
    assert manifest["suppressed_by_rule"]["fiction_character"] >= 1 and manifest["traits"]["fiction"] == 1
    texts = " ".join(t["text"] for r in out.to_dicts() for t in r["turns"])
    assert "Lily Marsh" in texts and "Ksenia" not in texts and "0612 345 678" not in texts


def test_a_form_line_with_contact_data_is_a_record_not_code():
    from builder.traits.code import CODE_LINE, code_ranges, record_lines_out

    assert not CODE_LINE.search("Phone: (555) 123-4567")  # an area code, not a call
    assert CODE_LINE.search("x: (a, b)")
    line = "Customer: Ana Ruiz; tel. 555 123 4567; deliver to 12 Elm St;"
    assert code_ranges(line) and record_lines_out(line, code_ranges(line)) == []
    program = 'def f():\n    user = User(name="Ana", email="ana@x.com")\n    return user'
    assert record_lines_out(program, code_ranges(program)) == code_ranges(program)  # a program keeps its ranges


@pytest.mark.parametrize("line, code", [
    ('Reviews: "Great product!" - Marcus Delacroix, 5 stars; "Broke after a week" - Priya Raghunathan, 1 star.', False),
    ('Healer: "I\'m sorry to say, but it looks like Vanessa is also pregnant."', False),
    ('Title: "My first day at school"', False),
    ('    content: "";', True), ("labelText: 'email',", True), ('Name: "John"', True),
    ('title: "My first day at school",', True), ('Authorization: "Bearer " + modelToken', True),
])
def test_a_quoted_value_after_a_key_is_code_unless_it_is_somebodys_words(line, code):
    """A speaker's line or a labelled quote that goes on is prose: a name in it is no identifier."""
    from builder.traits.code import code_line

    assert code_line(line) is code

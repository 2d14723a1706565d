"""Online accounts and secrets (builder/clean/handles.py): every cue's examples, and the real CLI."""

from __future__ import annotations

import re

import polars as pl
import pytest
from click.testing import CliRunner
from conftest import dialogue, make_stage_folder

from builder.cli import main
from builder.clean.entities import DEFAULT_ENTITIES, ENTITIES
from builder.clean.handles import CUES, find_handles

EXAMPLES = [(cue.name, text, value) for cue in CUES for text, value in cue.examples]


@pytest.mark.parametrize("cue, text, value", EXAMPLES, ids=[f"{c}:{t[:30]}" for c, t, _ in EXAMPLES])
def test_every_cue_example_is_found_or_left_as_it_says(cue, text, value):
    """A value is found (by this cue or one before it in the table); an example without a value is
    one this cue leaves alone."""
    found = find_handles(text)
    if value:
        assert value in [text[s:e] for s, e, *_ in found]
    else:
        assert [text[s:e] for s, e, _, _, name in found if name == cue] == []


def test_handles_and_passwords_are_default_structured_entities():
    for name in ("USERNAME", "PASSWORD"):
        assert name in DEFAULT_ENTITIES and ENTITIES[name].structured and ENTITIES[name].model_made


@pytest.mark.parametrize("text", ["go look up @heardatbyu . its so funny", "I love the @Nike ads",
                                  "write to jess.k@gmail.com", "my insta is private lol", "add me on snapchat sometime!",
                                  "the password is wrong", "PASSWORD=your_password", "@Override\npublic void run() {}",
                                  "it costs $20 on venmo", "Twitter: the best place for news"])
def test_public_mentions_placeholders_and_words_about_an_account_are_no_handle(text):
    assert find_handles(text) == []


def test_accounts_given_in_a_chat_are_redacted_through_the_cli(tmp_path):
    given = {"@spencer.ch": "Btw follow me on insta @spencer.ch", "naomi_th7": "Yes! My insta is naomi_th7. Follow me!",
             "nightowl#4821": "hmu on discord: nightowl#4821", "$jesskow92": "cashapp $jesskow92 for the pizza",
             "BlueMoose2291": "the wifi password is BlueMoose2291 btw"}
    rows = [dialogue([("user", "hey how was the concert"), ("assistant", "so good, the band was amazing"),
                      ("user", text), ("assistant", "cool, will do")], source_id=f"d{k}")
            for k, text in enumerate(given.values())]
    rows.append(dialogue([("user", "Who runs the account @heardatbyu?"),
                          ("assistant", "It is an anonymous account that posts overheard quotes.")], source_id="public"))
    make_stage_folder(tmp_path / "in", rows)
    result = CliRunner().invoke(main, ["clean", str(tmp_path / "in"), "-o", str(tmp_path / "out"), "--no-toxicity"])
    assert result.exit_code == 0, result.output
    out = {r["source_id"]: r for r in pl.read_parquet(tmp_path / "out" / "part-00000.parquet").to_dicts()}
    for k, value in enumerate(given):
        text = out[f"d{k}"]["turns"][2]["text"]
        assert value not in text and re.search(r"<(?:USERNAME|PASSWORD)>", text), text
        assert {s["entity"] for s in out[f"d{k}"]["pii"]} & {"USERNAME", "PASSWORD"}
    assert "@heardatbyu" in out["public"]["turns"][0]["text"]


@pytest.mark.parametrize("url,personal", [("bennyhops.bsky.social", True), ("https://jess.tumblr.com/post/123", True),
                                          ("https://bsky.app", False), ("https://www.tumblr.com/explore", False)])
def test_a_host_that_is_one_persons_account_is_redacted_whole(url, personal):
    from builder.clean.precision import judge_span

    assert (judge_span("URL", url, 0.9, 0.5) is None) is personal


def test_surrogate_handles_keep_their_marker_and_tag(tmp_path):
    rows = [dialogue([("user", "follow me on insta @spencer.ch"), ("assistant", "ok"),
                      ("user", "and on discord: nightowl#4821, the wifi password is BlueMoose2291"),
                      ("assistant", "noted")])]
    make_stage_folder(tmp_path / "in", rows)
    result = CliRunner().invoke(main, ["clean", str(tmp_path / "in"), "-o", str(tmp_path / "out"), "--no-toxicity",
                                       "--action", "surrogate"])
    assert result.exit_code == 0, result.output
    turns = [t["text"] for t in pl.read_parquet(tmp_path / "out" / "part-00000.parquet").to_dicts()[0]["turns"]]
    assert re.fullmatch(r"follow me on insta @[a-z]+_\d+", turns[0]), turns[0]
    assert re.fullmatch(r"and on discord: [a-z]+_\d+#\d{4}, the wifi password is <PASSWORD>", turns[2]), turns[2]

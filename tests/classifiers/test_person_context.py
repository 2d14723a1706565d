"""The person-context model (classifiers/person_context): what it reads, what ships, and what
clean does with it, driven through the real CLI on a planted person-to-person chat."""

from __future__ import annotations

import json

import pytest

from builder.clean.suppressions import PEER_OWN_BASES
from classifiers.person_context import features
from classifiers.person_context.model import FEATURES_VERSION, WEIGHTS
from classifiers.person_context.train import CANDIDATES, HERE, decided_at_run_time
from conftest import clean_one_dialogue

CHAT = [("user", "hey! how was your weekend?"), ("assistant", "pretty good lol, my sister visited"),
        ("user", "nice haha, what did you do?"),
        ("assistant", "we went hiking with Marisol and her roommate. then we watched La La Land, Ryan Gosling was "
                      "amazing in it")]


def test_features_read_the_context_never_the_name():
    text = "honestly Zebulon Quarrington texted me again last night lol"
    start = text.index("Zebulon")
    names = features.sparse(text, start, start + len("Zebulon Quarrington"), "ner", "assistant", frozenset())
    assert not [f for f in names if "zebulon" in f or "quarrington" in f]
    assert {"L1=honestly", "R1=texted", "R2=me", "n_words=2", "basis=ner", "S:first"} <= set(names)
    assert "opens_sentence" not in names and "possessive" not in names


def test_the_shipped_weights_match_the_code_and_load_from_safetensors():
    from safetensors import safe_open

    with safe_open(str(WEIGHTS), framework="numpy") as f:
        meta = json.loads(f.metadata()["meta"])
        assert f.get_tensor("sparse").shape == (features.DIMS,)
    assert meta["features_version"] == FEATURES_VERSION and 0 < meta["threshold"] < 1 and 0 < meta["threshold_unfound"] < 1
    assert meta["spans"] == sum(meta["trained_on"].values())



def test_the_labelled_spans_are_whole_and_labelled():
    rows = [json.loads(line) for name in CANDIDATES for line in (HERE / name).read_text().splitlines()]
    assert len(rows) == len({r["id"] for r in rows}) >= 1000
    for r in rows:
        assert r["text"][r["start"]:r["end"]] == r["value"], r["id"]
        assert r["label"] in ("private", "public", "fictional", "not_person", "unsure") and r["why"], r["id"]
        assert r["licence"] == "MIT" and r["source"] == "chitchat-dataset 0.9.0"


def test_the_model_decides_only_what_no_grammar_cue_decides():
    assert decided_at_run_time({"role": "assistant", "basis": "ner"})
    assert not decided_at_run_time({"role": "user", "basis": "ner"})
    assert not any(decided_at_run_time({"role": "assistant", "basis": b}) for b in PEER_OWN_BASES)


def _clean(tmp_path, *extra):
    texts, manifest, _ = clean_one_dialogue(tmp_path, CHAT, *extra)
    return texts[3], manifest


@pytest.mark.models
def test_a_friend_on_the_second_side_goes_and_a_star_stays(tmp_path):
    text, manifest = _clean(tmp_path / "on")
    assert "Marisol" not in text and "with <PERSON> and her roommate" in text
    assert "Ryan Gosling was amazing" in text
    assert manifest["config"]["person_context"] is True
    assert "person_context_sha256" in json.dumps(manifest["models"])
    text, manifest = _clean(tmp_path / "off", "--no-person-context")
    assert "hiking with Marisol and her roommate" in text  # without the model the second side's NER names are public
    assert manifest["config"]["person_context"] is False


def test_the_personal_chat_bar_is_the_one_its_rule_picks_on_round_four():
    from pathlib import Path

    from classifiers.person_context.model import PERSONAL_CHAT_PRECISION, THRESHOLD_PERSONAL_CHAT, load

    bench = json.loads((Path(__file__).resolve().parents[2] / "bench" / "results" / "pii_second_side.json").read_text())
    reading = bench["model"]["outside_public_life"]
    assert reading["chosen"] == reading["shipped"] == THRESHOLD_PERSONAL_CHAT
    first = next(e for e in reading["by_threshold"] if e["precision"] >= PERSONAL_CHAT_PRECISION)
    assert first["threshold"] == THRESHOLD_PERSONAL_CHAT  # the lowest bar with one right redaction per wrong one
    assert load().threshold_personal_chat == min(THRESHOLD_PERSONAL_CHAT, load().threshold)


class _Half:
    """A person-context model that reads every name at 0.5: between the two bars."""

    threshold, threshold_unfound, threshold_personal_chat = 0.65, 0.99, 0.3

    def probability(self, *args, **kwargs) -> float:
        return 0.5


@pytest.mark.models
@pytest.mark.parametrize("chat, kept", [
    ("we went hiking with Marisol yesterday, so fun", False),  # no chat about stars: the lower bar
    ("the NFL playoffs were wild, did you see the Super Bowl? Marisol was great in the halftime show", True),
])
def test_a_name_between_the_bars_goes_unless_the_chat_is_about_stars(chat, kept, monkeypatch):
    from builder.clean.config import CleanConfig
    from builder.clean.pii import PiiDetector
    from builder.clean.redact import redact_dialogue
    from classifiers.person_context import model

    monkeypatch.setattr(model, "load", lambda: _Half())
    turns = [{"index": i, "role": role, "text": text, "images": []} for i, (role, text) in enumerate(
        [("user", "hey! how was your weekend?"), ("assistant", "pretty good lol"), ("user", "nice haha, what did you do?"),
         ("assistant", chat)])]
    config = CleanConfig()
    scans = PiiDetector(config).scan([t["text"] for t in turns], [True] * 4, [i > 0 for i in range(4)])
    assert any(s["entity"] == "PERSON" for s in scans[3].spans)  # NER finds the name
    text = redact_dialogue("d", turns, scans, config).turns[3]["text"]
    assert ("Marisol" in text) == kept

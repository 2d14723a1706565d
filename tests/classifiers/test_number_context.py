"""The number-context model (classifiers/number_context): its candidates, what it reads, what ships,
and that training stays on the tuning halves."""

from __future__ import annotations

import json
import re

import pytest

from classifiers.number_context import features
from classifiers.number_context.model import FEATURES_VERSION, WEIGHTS


def _candidates(text):
    return [text[s:e] for s, e in features.candidates(text)]


@pytest.mark.parametrize("text, found", [
    ("its 4417 2231 9902 1186 exp 09/27", ["4417 2231 9902 1186", "09/27"]),
    ("Phone: (312) 555-0187 or +44 7911 123456", ["(312) 555-0187", "+44 7911 123456"]),
    ("send it to 2 Elm Close, Leeds, LS6 2QT", ["LS6 2QT"]),  # two digits, but letters make up the rest
    ("member # A-448812", ["A-448812"]),
    ("zip is 880.", ["880"]),
    ("it cost $1,000,000 in 2019 and 3.5% growth at 10:30", ["2019"]),  # money, thousands, decimals, times
    ("COVID-19 and GPT-4", []),
    ("1 2 3 4 5 6 7 8 9 10", []),  # a list of numbers is no value
])
def test_candidates_are_runs_of_digit_tokens(text, found):
    assert _candidates(text) == found


def test_features_read_the_shape_and_context_never_the_digits():
    text = "we're in 30309 now lol"
    start = text.index("30309")
    names = features.sparse(text, start, start + 5)
    assert not [f for f in names if "30309" in f or "303" in f]
    assert {"digits=5", "lens=5", "L1=in", "R1=now", "S:first"} <= set(names)
    card = "4417 2231 9902 1186"
    names = features.sparse(card, 0, len(card))
    assert {"digits=16", "lens=4-4-4-4", "sep=' '", "opens_text", "ends_text"} <= set(names)
    assert ("luhn" in names) == features.luhn_ok(re.sub(r"\D", "", card))


def test_the_sentence_is_read_wherever_its_words_stand_and_ends_at_its_end():
    text = "ok. lmk if 02139 is still the right one for the package bc my mom wants it! see u"
    start = text.index("02139")
    words = features.sentence_words(text, start, start + 5)
    assert words == ["lmk", "right", "package", "bc", "mom", "wants"]  # no stop words; not "ok" nor "see u"
    assert "T=package" in features.sparse(text, start, start + 5)
    long = " ".join(["word"] * 500) + " 02139 " + " ".join(["text"] * 500)  # an unpunctuated paste
    start = long.index("02139")
    assert len(features.sentence_words(long, start, start + 5)) == 2 * features.SENTENCE_WORDS


def test_luhn():
    assert features.luhn_ok("4111111111111111") and not features.luhn_ok("4111111111111112")


def test_the_shipped_weights_match_the_code_and_load_from_safetensors():
    from safetensors import safe_open

    with safe_open(str(WEIGHTS), framework="numpy") as f:
        meta = json.loads(f.metadata()["meta"])
        assert f.get_tensor("sparse").shape == (len(features.CLASSES), features.DIMS)
        assert f.get_tensor("bias").shape == (len(features.CLASSES),)
    assert meta["features_version"] == FEATURES_VERSION and 0 < meta["threshold"] < 1
    assert tuple(meta["classes"]) == features.CLASSES
    trained = meta["trained_on"]
    assert sum(n for k, n in trained.items() if not k.endswith("/none")) >= 200



def test_training_reads_only_the_tuning_half_of_the_written_probes():
    from classifiers.number_context.train import written_probes

    rows = written_probes()
    assert rows and all(int(re.sub(r"\D", "", r["group"].split(":")[1])) % 2 == 1 for r in rows)
    assert {r["label"] for r in rows} <= set(features.CLASSES)

"""The street-context model (classifiers/street_context): what it reads, how its words join into
addresses, the shipped weights, and that its training reads only the written probes' tuning halves."""

from __future__ import annotations

import json
import re

import numpy as np

from classifiers.street_context import features
from classifiers.street_context.model import FEATURES_VERSION, WEIGHTS, spans


def test_tokens_keep_abbreviations_and_house_numbers_whole():
    text = "H.No. 1-8-449, Goethestr. 12a #4\nLac-Brome"
    assert [t for _, _, t in features.tokens(text)] == ["H.No.", "1-8-449", ",", "Goethestr.", "12a", "#", "4", "\n",
                                                        "Lac-Brome"]


def test_the_words_judged_are_those_within_the_window_of_a_number():
    text = "one two three four five six seven eight 42 Elm Road and then nine ten eleven twelve thirteen"
    toks = features.tokens(text)
    judged = [toks[i][2] for i in features.candidates(toks)]
    assert judged == ["three", "four", "five", "six", "seven", "eight", "42", "Elm", "Road", "and", "then", "nine",
                      "ten"]
    assert features.candidates(features.tokens("no number here at all")) == []


def test_features_read_shapes_and_type_words_never_the_digits():
    text = "vivo en Calle 5 de Mayo #214, centro"
    toks = features.tokens(text)
    names = features.sparse(text, toks, 2)  # "Calle"
    assert "o:type" in names and "o:w=calle" in names and "B=vivo" in names and "NR=1" in names
    digits = features.sparse(text, toks, 7)  # "214"
    assert "o:s=dd" in digits and not any("214" in n for n in digits)
    assert "o:type_end" in features.sparse("Goethestrasse 12", features.tokens("Goethestrasse 12"), 0)
    assert features.shape("Lac-Brome") == "Xxx-Xxx" and features.shape("12a") == "ddx" and features.shape("1-8-449") == "d-d-dd"


def test_taken_words_join_across_marks_into_one_address_with_a_number_and_a_name():
    text = "send it to 7 Calle Ocho #3, Miami. Thanks, Route 9, or 7 Calle Ocho, depto 3"
    toks = features.tokens(text)
    judged = features.candidates(toks)
    words = [toks[i][2] for i in judged]
    wanted = {"7", "Calle", "Ocho", "3", "Miami.", "Route", "9", "depto", "or"}
    probs = np.array([0.9 if w in wanted else 0.1 for w in words])
    found = [(text[s:e], round(p, 2)) for s, e, p in spans(toks, judged, probs, 0.5)]
    # "Miami." ends its sentence (the full stop is not the address's); "Thanks" (0.1) breaks before
    # "Route 9"; a stop word after a comma ("or") starts another clause
    assert found == [("7 Calle Ocho #3, Miami", 0.9), ("Route 9", 0.9), ("7 Calle Ocho, depto 3", 0.9)]
    probs = np.array([0.9 if w in {"7", "3", "9"} else 0.1 for w in words])
    assert spans(toks, judged, probs, 0.5) == []  # numbers alone are the number-context model's


def test_an_address_never_runs_past_a_full_stop_a_line_or_a_comma_before_lower_case():
    text = "at our place, 12 Elm Road. Was it\nAnna Li\n4 Oak Lane"
    toks = features.tokens(text)
    judged = features.candidates(toks)
    probs = np.array([0.0 if toks[i][2] in ("at", "it") else 0.9 for i in judged])
    # "place" is the sentence's own word before a comma, "Was" a stop word after a full stop; "Anna Li" is
    # a line of its own, with no number
    assert [text[s:e] for s, e, _ in spans(toks, judged, probs, 0.5)] == ["12 Elm Road", "4 Oak Lane"]
    assert features.full_stop(toks, [t for _, _, t in toks].index("Road.")) and not features.full_stop(
        features.tokens("ul. Lipowa 14"), 0)


def test_the_shipped_weights_match_the_code_and_load_from_safetensors():
    from safetensors import safe_open

    with safe_open(str(WEIGHTS), framework="numpy") as f:
        meta = json.loads(f.metadata()["meta"])
        assert f.get_tensor("sparse").shape == (features.DIMS,)
        assert f.get_tensor("bias").shape == (1,)
    assert meta["features_version"] == FEATURES_VERSION and 0 < meta["threshold"] < 1
    assert sum(n for k, n in meta["trained_on"].items() if k.endswith("/1")) >= 500


def test_the_model_reads_addresses_no_form_knows_and_leaves_numbers_in_prose():
    from classifiers.street_context.model import load

    model = load()
    text = "the courier left it at H.No. 7-2-118, Malkajgiri by mistake"
    # the house and, read as no dictionary word, the locality after it (clean adds the place after it anyway)
    assert [text[s:e] for s, e, _ in model.find(text)] == ["H.No. 7-2-118, Malkajgiri"]
    assert model.find("I ran 5 miles on Tuesday and took Route 66 for 40 minutes") == []


def test_training_reads_only_the_tuning_half_of_the_written_probes():
    from classifiers.street_context.train import written_probes

    messages = written_probes()
    assert messages and all(int(re.sub(r"\D", "", m["group"].split(":")[1])) % 2 == 1 for m in messages)
    assert any(m["values"] for m in messages if "streets_b" in m["source"])

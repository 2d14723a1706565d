"""The context models read their weights through classifiers/context_weights.py: a missing or
damaged file is one ModelError line that names the switch turning the model off."""

from __future__ import annotations

import importlib

import pytest


@pytest.mark.parametrize("module, switch", [("classifiers.person_context.model", "--no-person-context"),
                                            ("classifiers.number_context.model", "--no-number-context"),
                                            ("classifiers.street_context.model", "--no-street-context"),
                                            ("classifiers.lower_case_name.model", "--no-lower-case-names")])
@pytest.mark.parametrize("content, message", [(None, "cannot be read"), (b"\x08\x00\x00\x00\x00\x00\x00\x00{}", "damaged"),
                                                (b"garbage", "damaged")])
def test_missing_or_damaged_weights_are_one_clear_line(tmp_path, monkeypatch, module, switch, content, message):
    from builder.errors import ModelError

    model = importlib.import_module(module)
    path = tmp_path / "weights.safetensors"
    if content is not None:
        path.write_bytes(content)
    monkeypatch.setattr(model, "WEIGHTS", path)
    model.load.cache_clear()
    model.weights_sha256.cache_clear()
    try:
        with pytest.raises(ModelError, match=message) as err:
            model.load()
        assert switch in str(err.value)
    finally:
        model.load.cache_clear()
        model.weights_sha256.cache_clear()


@pytest.mark.models
def test_dense_weights_of_another_vector_width_are_one_clear_line(tmp_path):
    from builder.errors import ModelError
    from classifiers.context_weights import ner_vectors

    path = tmp_path / "weights.safetensors"
    assert ner_vectors(path, lambda width: width == 300, "some.train").width == 300  # en_core_web_md: 300 wide
    with pytest.raises(ModelError, match=r"weights\.safetensors was trained with word vectors of another width .*"
                                         r"\(300\): rerun python -m some\.train"):
        ner_vectors(path, lambda width: width == 96, "some.train")

"""The lower-case-name model (classifiers/lower_case_name): its candidates, what it reads, what ships."""

from __future__ import annotations

import json

import pytest

from classifiers.lower_case_name import features
from classifiers.lower_case_name.model import FEATURES_VERSION, WEIGHTS


@pytest.mark.parametrize("text, words", [
    ("went to the mall with jake yesterday", ["jake"]),  # a census first name
    ("me and dean kowalski at the plant", ["dean", "kowalski"]),  # a census name, a word no dictionary has
    ("aisling said no. ok lol", ["aisling"]),  # slang and stop words are never candidates
    ("Jake and Aisling came", []),  # capitalised: NER's and the finders'
    ("see www.jake.com, jake_smith, @jake, jake.py or ~/kowalski/x", []),  # addresses, handles, files
    ("my funtion returns teh wrong value", ["funtion", "teh"]),  # typos are candidates; the model reads them
    ("went bowling with grace, frank and amber", ["grace", "frank", "amber"]),  # first names that are also words
    ("A robin at the feeder, some karen, the holly bush; tea with robin", ["robin"]),  # after an article: a thing
    ("jollibee!\nmerlin\n  kowalski?? \nme and kowalski", ["kowalski"]),  # alone on its line: nothing to read
    ("thanks,\nkowalski", ["kowalski"]),  # a line going on from a comma is not alone
    ("option a\nkowalski said hi; pizza marek", ["kowalski", "marek"]),  # an article: on the same line, a whole word
    ("see you in august, with may and june", []),  # months, before first names
    ("i dont know whats up", []),  # contractions typed without their apostrophe
    ("visit javier's grandmother, oisin’s jacket", ["javier", "oisin"]),  # a possessive: the name is a candidate
    ("she didn't, kowalski'll", []),  # a contraction's stem is not ("didn", "kowalski'll")
    ("javier's.com, kowalski's/x, javier's-blog", []),  # a possessive inside an address or a path is not
    ("А имя Jerry достаточно америнское? biết", []),  # other scripts, Vietnamese
])
def test_candidates(text, words):
    assert [text[s:e] for s, e in features.candidates(text)] == words


def test_kinds_and_letters():
    assert [features.word_kind(w) for w in ("jake", "grace", "kowalski", "table", "will")] == [
        "census", "census_word", "unknown", None, None]  # "will": a stop word
    assert {"kind=census_word", "c3=^gr", "c3=rac", "c3=ce$"} <= set(features.sparse("with grace", 5, 10))


def test_never_a_traceback_on_hostile_text():
    texts = ("\ud800jake\udfff", "jake" * 5000, "a " * 3000 + "jake", "", "\n\n\n", "jaké ñame ＪＡＫＥ")
    for text in texts:
        for s, e in features.candidates(text):
            assert features.sparse(text, s, e)
    for text in ("me and \ud800jake\udfff", "me and " + "jake" * 5000, "a " * 3000 + "me and jake"):  # judged
        (s, e), = features.candidates(text)
        assert features.sparse(text, s, e)


def test_what_ships_fits_this_code():
    from safetensors.numpy import load_file

    tensors = load_file(str(WEIGHTS))
    meta = json.loads(json.loads(WEIGHTS.read_bytes()[8:8 + int.from_bytes(WEIGHTS.read_bytes()[:8], "little")])
                      ["__metadata__"]["meta"])
    assert meta["features_version"] == FEATURES_VERSION and 0.5 <= meta["threshold"] < 1
    assert tensors["sparse"].shape == (features.DIMS,) and tensors["bias"].shape == (1,)
    results = json.loads((WEIGHTS.parent / "train_results.json").read_text())
    assert results["chosen"]["threshold"] == meta["threshold"] and results["chosen"]["precision"] >= meta["min_precision"]


@pytest.mark.models
@pytest.mark.parametrize("text, word, name", [
    ("Yeah, me and dean kowalski used to work together", "dean", True),
    ("Yeah, me and dean kowalski used to work together", "kowalski", True),
    ("mama nkechi just called, she wants us home for easter", "easter", False),
    ("I watch netflix and youtube all day", "netflix", False),
    ("can you fix this: the funtion returns teh wrong value", "funtion", False),
])
def test_it_reads_how_the_word_is_used(text, word, name):
    from classifiers.lower_case_name.model import load

    model = load()
    start = text.index(word)
    assert (model.probability(text, start, start + len(word)) >= model.threshold) is name


@pytest.mark.models
@pytest.mark.parametrize("word, typo", [("peroid", True), ("hypotehtical", True), ("funtion", True),
                                        ("aisling", False),  # "ailing" is a word, but dropping a letter is not tried
                                        ("nkechi", False), ("kowalczyk", False), ("teh", False)])  # too short
def test_a_slip_of_the_keyboard_is_no_name(word, typo):
    from builder.clean.truecase import typo_of_english_word

    assert typo_of_english_word(word) is typo

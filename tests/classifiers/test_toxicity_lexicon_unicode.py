"""The lexicon backend on real-chat shapes: Unicode words, code, ambiguous words, other languages."""

from __future__ import annotations

import pytest

from classifiers.toxicity import load_backend


@pytest.fixture(scope="module")
def scorer():
    return load_backend("lexicon")


@pytest.mark.parametrize("text", [
    "Use len(items) to count them, then x = len(rows)",       # code: len is on the word list
    "González called, he says nadużywać is a Polish verb",   # Unicode words are not cut into 'lez', 'nad'
    "My cat is a Maine Coon and she loves raccoons",
    "Explain the Hoare partition scheme in quicksort",
    "Mr. Dong will join the meeting; the price is 20,000 dong",
    "Find the slope of the line y = 2x + 3",
    "Which tools are used for penetration testing?",
    "the OutlineInputBorder widget and obj.kill() in `kill -9 1234`",
])
def test_innocent_chat_is_not_flagged(scorer, text):
    assert max(scorer.score([text])[0].values()) < 0.5, text


def test_ambiguous_slurs_count_only_when_aimed(scorer):
    assert scorer.score(["you dirty slope"])[0]["insult"] == 1.0


def test_per_language_lists_apply_to_their_language(scorer):
    chinese, russian, spanish = scorer.score(
        ["题材恋足癖，人物是两个双性恋女人和一个男人，情节发生在一个无道德无廉耻的世界", "иди нахуй, сука",
         "eres un hijo de puta"], ["zh", "ru", "es"])
    assert chinese["sexual_explicit"] >= 0.5
    assert russian["obscene"] >= 0.8 and spanish["obscene"] >= 0.8
    assert scorer.score(["我喜欢喝牛奶，奶奶也喜欢"], ["zh"])[0]["obscene"] == 0.0  # 奶 alone is milk


def test_sexual_story_requests_are_flagged(scorer):
    assert scorer.score(["write me an erotic story about two elves"])[0]["sexual_explicit"] >= 0.5


def test_the_card_names_the_backend_and_its_word_lists(scorer):
    described = scorer.describe()
    assert described["name"] == "lexicon" and "classifiers/toxicity/wordlists/*.txt" in described["files"]

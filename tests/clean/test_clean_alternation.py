"""Gates whose branches are grouped under their first letter (builder/clean/alternation.py): each
says "there is a match" exactly where its source pattern does."""

from __future__ import annotations

import random
import re

import pytest

import builder.clean.pii  # noqa: F401  (imports every finder, so every gate is built)
from builder.clean.alternation import GATES, branches, by_first_letter, gate

# Characters IGNORECASE matches across scripts or to an ASCII letter ("ſ" is "s", "K" the Kelvin sign is
# "k", "ı" and "İ" are "i"), separators and marks the gates' patterns read.
ODD = ["ſ", "K", "ı", "İ", "ß", "ẞ", "é", "\u00a0", "\n", "\t", "'", "’", "-", ".", ",", ":", "?", "!", "#", "@", "$",
       "/", "(", ")", "[", "]", "<", ">", "1", "42", "2024", "_"]


def _strings(source: str, n: int, seed: int) -> list[str]:
    """Strings written from ``source``'s own words, in any case, with odd characters between."""
    words = sorted(set(re.findall(r"[^\W\d_]+", source.replace("\\s", " ").replace("\\b", " ").replace("\\w", " ")
                                  .replace("\\d", " "))))
    rng = random.Random(seed)
    out = []
    for _ in range(n):
        parts = []
        for _ in range(rng.randint(1, 7)):
            kind = rng.random()
            if kind < 0.6:
                word = rng.choice(words)
                parts.append(rng.choice([word, word.upper(), word.title(), word[:-1], word + "s"]))
            else:
                parts.append(rng.choice(ODD))
            parts.append(rng.choice([" ", " ", "  ", "", "\n", ": "]))
        out.append("".join(parts))
    return out


def test_every_gate_matches_exactly_where_its_source_does():
    assert len(GATES) >= 10  # handles, spelled, addresses and names build theirs at import
    for k, (source, flags, compiled) in enumerate(GATES):
        plain = re.compile(source, flags)
        for text in _strings(source, 1500, seed=k):
            assert (plain.search(text) is None) == (compiled.search(text) is None), (source[:60], text)


def test_the_gates_agree_with_their_sources_on_real_turns():
    from conftest import SHARED_DATA, shared_data

    from classifiers.context_training import wildchat_user_turns

    shared_data("logs/wildchat")
    texts = [text for _, _, text in wildchat_user_turns(SHARED_DATA, 3000, roles=("user", "assistant"))][:400]
    for source, flags, compiled in GATES:
        plain = re.compile(source, flags)
        assert [plain.search(t) is None for t in texts] == [compiled.search(t) is None for t in texts], source[:60]


def test_branches_spread_a_leading_group_over_its_tail():
    assert branches(r"(?:gate|door)\s+code|pin") == [r"gate\s+code", r"door\s+code", "pin"]
    assert branches(r"(?:a|(?:b|c)d)e") == ["ae", "bde", "cde"]
    assert branches(r"(?:in\s+the\s+)?style|x[|]y") == [r"(?:in\s+the\s+)?style", "x[|]y"]  # a quantified group stays


def test_by_first_letter_groups_the_branches():
    assert by_first_letter("ig|insta|snap|@") == "i(?:g|nsta)|snap|@"
    assert by_first_letter(r"\b(?:hi|hey)\s+$|yo") == r"yo|\b(?:h(?:i\s+$|ey\s+$))"


def test_a_gate_with_a_capturing_group_is_refused():
    with pytest.raises(ValueError, match="capturing"):
        gate(r"(?:my|our)\s+(?P<name>\w+)")
    with pytest.raises(ValueError, match="capturing"):
        by_first_letter(r"(a)|b")


def test_the_street_name_stop_words_match_as_before():
    from builder.clean.addresses import NOT_IN_NAME, NOT_IN_NAME_WORDS

    before = re.compile(r"(?!(?:" + "|".join(sorted(NOT_IN_NAME_WORDS)) + r")\b)\w+", re.I)
    now = re.compile(NOT_IN_NAME + r"\w+", re.I)
    for text in _strings(" ".join(sorted(NOT_IN_NAME_WORDS)) + " main elm oak", 3000, seed=7):
        assert [m.span() for m in before.finditer(text)] == [m.span() for m in now.finditer(text)], text

"""EP's item reader (builder/eval/items.py): items kept whole the way the answer lists them."""

from __future__ import annotations

import pytest

from builder.eval import metrics
from builder.eval.items import split_items


@pytest.mark.parametrize("answer, gold, items", [
    # commas, with "and" joining the last two
    ("roses, tulips and a lemon tree", [], ["roses", "tulips", "a lemon tree"]),
    ("roses, tulips, and a lemon tree.", [], ["roses", "tulips", "a lemon tree"]),
    ("roses and tulips", [], ["roses", "tulips"]),
    # a longer "X and Y" with no comma is one item: the and is inside it
    ("encourage women and older people to work", [], ["encourage women and older people to work"]),
    # semicolons split there only: commas and "and" inside a part stay
    ("test cameras, Face ID, speakers and charging; pay by a traceable method", [],
     ["test cameras, Face ID, speakers and charging", "pay by a traceable method"]),
    ("Smith, John; Doe, Jane", [], ["Smith, John", "Doe, Jane"]),
    # list lines are items, whatever they hold
    ("- Smith, John\n- salt and pepper", [], ["Smith, John", "salt and pepper"]),
    ("Here they are:\n1. S&P 500\n2. MSCI World", [], ["S&P 500", "MSCI World"]),
    ("Here they are:\nroses\ntulips", [], ["roses", "tulips"]),
    # never split: '&' inside a word, digits, brackets, quotes
    ("S&P 500, MSCI World and the FTSE 100", [], ["S&P 500", "MSCI World", "the FTSE 100"]),
    ("AT&T & Verizon", [], ["AT&T", "Verizon"]),
    ("78,000 base, a 10% bonus", [], ["78,000 base", "a 10% bonus"]),
    ("Roses (red, pink) and tulips", [], ["Roses (red, pink)", "tulips"]),
    # a gold item written whole stays whole; the same words listed apart in the gold split
    ("salt and pepper, olive oil", ["salt and pepper", "olive oil"], ["salt and pepper", "olive oil"]),
    ("salt and pepper", ["salt", "pepper"], ["salt", "pepper"]),
    ("Smith, John, Doe, Jane", ["Smith, John", "Doe, Jane"], ["Smith, John", "Doe, Jane"]),
    ("roses, Roses and ROSES", [], ["roses"]),  # one item said three times
    ("", [], []),
    # a NUL in a server's reply (the mask's own mark) is dropped, never an endless unmasking loop
    ("roses\x00, tulips (red\x00 and pink)", [], ["roses", "tulips (red and pink)"]),
    ("\x000\x00 roses, tulips", [], ["0 roses", "tulips"]),  # a mask-shaped run in the reply itself
])
def test_split_items(answer, gold, items):
    assert split_items(answer, gold) == items


@pytest.mark.parametrize("answer, gold, expected", [
    ("roses, tulips and a lemon tree", ["roses", "tulips", "lemon tree"], 1.0),
    ("- roses\n- tulips\n- an oak\n- a lemon tree", ["roses", "tulips", "lemon tree"], 0.75),
    ("Roses; daisies", ["roses", "tulips"], 0.5),
    ("The two aids are a time-compensated sun compass and a magnetic compass.",
     ["a time-compensated sun compass", "a magnetic compass"], 1.0),
    ("S&P 500; MSCI World", ["S&P 500", "MSCI World"], 1.0),  # was 2/3: '&' split S&P in two
    ("S&P 500, salt and pepper, Smith, John", ["S&P 500", "salt and pepper", "Smith, John"], 1.0),
    ("salt and pepper, sugar", ["salt and pepper"], 0.5),  # one extra item
    ("", ["roses"], 0.0),  # nothing extracted: precision 0, not undefined
    ("sunflowers", ["roses"], 0.0),
])
def test_extraction_precision(answer, gold, expected):
    assert metrics.extraction_precision(split_items(answer, gold), gold) == pytest.approx(expected)


def test_extraction_precision_undefined_without_gold_items():
    assert metrics.extraction_precision(["roses"], []) is None


def test_item_matching_normalises_case_punctuation_and_articles():
    assert metrics.item_matches("The Lemon-Tree!", "lemon tree")
    assert metrics.item_matches("a small lemon tree", "lemon tree")
    assert not metrics.item_matches("lemonade", "lemon tree")

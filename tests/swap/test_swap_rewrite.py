"""Candidate spans and the deictic rewrite (spaCy's small English model), and index shifting."""

from __future__ import annotations

from builder.traits import tag

import pytest

from builder.models import SPACY_PACKAGE as SPACY
from builder.nlp import load_spacy
from builder.swap import split_key, split_key_expr
from builder.swap.rewrite import other_referent, rewrite
from builder.swap.spans import categorise, mentions, rank
from builder.swap.variant import image_map, repoint


def best(text: str):
    doc = load_spacy(SPACY)(text)
    found = mentions(doc)
    cands = rank([c for c in (categorise(0, m) for m in found) if c is not None])
    assert cands, f"no lexicon/label candidate in {text!r}"
    return cands[0], found


@pytest.mark.parametrize("text, expected", [
    ("I visited the Colosseum last week.", "I visited this place last week."),
    ("The Eiffel Tower was crowded, but the Eiffel Tower at night is worth it.",
     "This place was crowded, but this place at night is worth it."),
    ("Tacos are my favourite thing to cook.", "These dishes are my favourite thing to cook."),
    ("My cat keeps knocking things over.", "This animal of mine keeps knocking things over."),
    ("I bought a new bicycle yesterday.", "I bought this new item yesterday."),
    ("We made sushi, and the sushi was great.", "We made this dish, and this dish was great."),
    ("I drink coffee every morning.", "I drink this drink every morning."),
    ("I mostly listen to podcasts when I'm in the car.", "I mostly listen to podcasts when I'm in this vehicle."),
])
def test_rewrite_is_deictic_and_grammatical(text, expected):
    cand, found = best(text)
    result = rewrite(text, cand, found)
    assert result is not None and result.text == expected


def test_a_name_that_survives_the_rewrite_is_refused():
    text = "The Eiffel Tower is tall. Is the tower open at night?"
    cand, found = best(text)
    assert cand.mention.core == "Eiffel Tower"
    assert rewrite(text, cand, found) is None  # "the tower" would still name it


def test_people_dates_and_photos_are_not_candidates():
    doc = load_spacy(SPACY)("My brother sent me a photo last week. He met Barack Obama in Paris.")
    cores = {m.core for m in mentions(doc)}
    assert "Paris" in cores
    assert not cores & {"brother", "Barack Obama", "Obama", "photo", "week"}


def test_gold_images_follow_their_image_into_the_variant():
    """An image swapped into turn 0 after its own image: the original's images 0, 1, 2 are the
    variant's 0, 2, 3 (one mapping, image_map, for swap and release alike)."""
    im = lambda k: {"sha256": f"h{k}"}  # noqa: E731
    original = [{"index": 0, "images": [im(0)]}, {"index": 1, "images": []}, {"index": 2, "images": [im(1), im(2)]}]
    variant = [{"index": 0, "images": [im(0), im("new")]}, {"index": 1, "images": []},
               {"index": 2, "images": [im(1), im(2)]}]
    mapping = image_map(original, variant, "v")
    assert mapping == {0: 0, 1: 2, 2: 3}
    assert repoint([{"gold_images": [0, 1, 2]}, {"gold_images": None}], mapping) == [
        {"gold_images": [0, 2, 3]}, {"gold_images": []}]


def test_split_key_pairs_variants_with_originals():
    import polars as pl

    df = pl.DataFrame({"dialogue_id": ["a", "v"], "variant_of": [None, "a"]})
    assert df.select(split_key_expr())["split_key"].to_list() == ["a", "a"]
    assert split_key({"dialogue_id": "v", "variant_of": "a"}) == "a"


# -- refusals (issue 13: the failures seen on real logs) -----------------------------------------------------
def _mention_refusal(text: str, word: str):
    doc = load_spacy(SPACY)(text)
    traits = tag([{"role": "user", "text": text}]).names_at(0)  # what clean tags, the refusals read
    found = [m for m in mentions(doc, traits) if word in m.text]
    assert found, f"no mention with {word!r} in {text!r}"
    return found[0].refusal


@pytest.mark.parametrize("text, word, reason", [
    ("I want to fly like an eagle over the mountains.", "eagle", "simile"),
    ("My dog is as big as a horse.", "horse", "simile"),
    ('My favourite song is "Yellow Submarine" by the Beatles.', "Submarine", "quoted"),
    ("Fill in the blank: My grandmother baked a ___ pie in her kitchen.", "kitchen", "exercise"),
    ("Choose the correct word:\na) The cat sat on the mat.\nb) The cat sit on the mat.", "mat", "exercise"),
    ("The small box is a cube. If a tennis ball is tossed in, what is the chance? a\t 87% b\t 89% c\t 64%",
     "tennis ball", "exercise"),
    ("Give me a painting of a guy named phil", "painting", "creation_request"),
    ("Please draw a cat sitting on a sofa.", "cat", "creation_request"),
    ("which prompt gives a drawing of a dog made of stars in a night sky", "dog", "creation_request"),
    ("which prompt can I use to obtain a drawing of a dog made of stars", "drawing", "creation_request"),
    ("I obtained a new camera last year and love it.", "camera", None),  # obtaining a thing is no request
    ("Write chapter 1 of a story where a couple on a secluded beach meet a fairy.", "beach", "story_request"),
    ("We offer general repairs, painting, flooring and more.", "painting", "activity"),
    ("What is my little pony about?", "pony", "title"),
    ("for bike in garage:\n    print(bike)\nWhy does my bicycle keep printing nothing?", "bicycle", "code"),
    ("```\nbike = Bicycle(wheels=2)\n```\nWhy does my bicycle class fail?", "bicycle", "code"),
])
def test_spans_in_similes_quotes_exercises_and_code_are_refused(text, word, reason):
    assert _mention_refusal(text, word) == reason


def test_plain_spans_are_not_refused():
    assert _mention_refusal("I visited the Colosseum last week.", "Colosseum") is None
    assert _mention_refusal("I like pizza with olives.", "pizza") is None  # 'like' the verb
    assert _mention_refusal("We bought fruits such as mangoes.", "mangoes") is None  # "such as" is no simile
    assert _mention_refusal("When I buy a new TV, what should I look at?", "TV") is None
    assert _mention_refusal("Show me how to clean my bicycle chain.", "chain") is None


@pytest.mark.parametrize("rewritten, bad", [
    ("what is these best items for walking", True),
    ("Are this place open on Sundays?", True),
    ("I bought a this item yesterday.", True),
    ("These shoes is too small.", True),
    ("These dishes are my favourite thing to cook.", False),
    ("I visited this place last week.", False),
    ("a couple on this secluded place meet a fairy", True),
    ("I live down this place from that stadium.", True),
    ("What's these items for?", True),
    ("These items costs too much.", True),
    ("This place have great food.", True),
    ("This place I have visited twice.", False),  # "have" agrees with "I"
    ("These new items look great.", False),  # "down the street": a way, not a place one is at
    ("They live just across this place from us.", True),
    ("I came across this place last week.", False),  # a phrasal verb reads fine
    ("I looked up this place online.", False),
    ("We had lunch at this place near the stadium.", False),
])
def test_agreement_of_the_rewrite_is_checked(rewritten, bad):
    from builder.swap.safety import grammar_refusal

    assert (grammar_refusal(rewritten) == "agreement") is bad


def test_long_pastes_numbered_lists_and_file_names_are_refused():
    story = "Once upon a time a knight rode to the castle by the sea. " * 25 + "He saw the beach."
    assert _mention_refusal(story, "beach") == "long_paste"
    listing = "Which words fit?\n1. Family\n2. Shopping\n3. In a restaurant\n4. Music"
    assert _mention_refusal(listing, "restaurant") == "exercise"
    assert _mention_refusal("Open README.md and tell me about the garden in the picture.", "garden") == "code"


def test_a_place_one_was_on_is_a_place_one_is_at():
    text = "My dog loves running on the beach."
    doc = load_spacy(SPACY)(text)
    found = mentions(doc)
    beach = next(c for c in (categorise(0, m) for m in found) if c is not None and c.mention.lemma == "beach")
    result = rewrite(text, beach, found)
    assert result.text == "My dog loves running at this place."
    assert result.primary.original == "on the beach" and result.primary.replacement == "at this place"


@pytest.mark.parametrize("sentence, captions, ok", [
    ("produce beef through an advanced process in the lab", "a black lab with tags frolicks in the water", False),
    ("my lab loves to fetch the ball", "a black lab with tags frolicks in the water . a dog splashes", True),
    ("my lab loves to fetch the ball with other dogs", "a black lab runs . a dog splashes", True),
    ("I need a wireless mouse for my laptop", "a mouse eats cheese . a small animal", False),
    ("I visited the beach", "a dog on the beach", True),  # not an ambiguous word
])
def test_an_ambiguous_word_needs_the_pictures_sense(sentence, captions, ok):
    from builder.swap.safety import word_sense

    word = next(w for w in ("lab", "mouse", "beach") if w in sentence)
    assert word_sense(word, sentence, captions) is ok


@pytest.mark.parametrize("text, word, own", [
    ("When I buy a new TV, what should I look at?", "TV", True),
    ("I want to run it on my personal laptop.", "laptop", True),
    ("My dog loves running on the beach.", "beach", True),
    ("I visited the Colosseum last week.", "Colosseum", True),
    ("Do you ever watch football on TV?", "TV", False),
    ("Cheerleaders can't eat at the same restaurant as the players.", "restaurant", False),
    ("He never fumbled the ball in his career.", "ball", False),
])
def test_only_a_thing_of_the_users_own_scene_is_swapped(text, word, own):
    assert (_mention_refusal(text, word) != "generic_reference") is own


def test_media_and_the_football_sense_of_ball():
    from builder.swap.safety import word_sense

    assert _mention_refusal("I love watching football on the TV.", "TV") == "generic_reference"
    assert _mention_refusal("We are glued to the tv for hours.", "tv") == "generic_reference"
    assert _mention_refusal("I bought a TV for my room.", "TV") != "generic_reference"
    assert _mention_refusal("Most nights we watch the news On Tv together.", "Tv") == "generic_reference"
    assert _mention_refusal("I can't get my TV to turn on.", "TV") != "generic_reference"
    assert not word_sense("ball", "he never fumbled the ball", "a dog catches the red ball . a dog retrieves a ball")
    assert word_sense("ball", "my puppy chases his ball", "a dog catches the red ball . a dog retrieves a ball")


@pytest.mark.parametrize("text, word", [
    ("I'd be tracked worse than a cheerleader avoiding a player in a restaurant.", "restaurant"),
    ("I can imagine a rule, but to have to leave the restaurant is absurd.", "restaurant"),
])
def test_a_thing_in_someone_elses_clause_is_generic(text, word):
    assert _mention_refusal(text, word) == "generic_reference"


@pytest.mark.parametrize("text, word, sky", [
    ("Is it true that the Sun is mostly hydrogen?", "Sun", True),
    ("I love watching the stars from my backyard.", "stars", True),
    ("Jupiter has a storm bigger than Earth.", "Jupiter", True),
    ("Jupiter has a storm bigger than Earth.", "storm", True),
    ("We watched the sunset from the pier.", "sunset", True),
    ("The full moon over our village was huge.", "moon", True),
    # on the ground: still swapped
    ("We watched the sunset from the pier.", "pier", False),
    ("I bought a sun hat at the market.", "hat", False),
    ("My dog loves running on the beach.", "beach", False),
])
def test_the_sky_and_what_is_in_it_are_not_swapped(text, word, sky):
    assert (_mention_refusal(text, word) == "sky") is sky


@pytest.mark.parametrize("text, word, wished", [
    ("I wish that we had a boat back then.", "boat", True),
    ("I wish I owned a camera like yours.", "camera", True),
    ("I wish my dog could talk.", "dog", False),  # the dog is real
    ("We had a boat back then.", "boat", False),
])
def test_a_thing_wished_for_is_not_in_the_users_scene(text, word, wished):
    assert (_mention_refusal(text, word) == "wished_for") is wished


@pytest.mark.parametrize("sentence, captions, ok", [
    ("we watch the games at the bar on sundays", "a man hanging from bars outdoors . a man on the monkey bars", False),
    ("we watch the games at the bar on sundays", "a man swings on monkey bars at night", False),  # night is no pub
    ("we watch the games at the bar on sundays", "a man drinks beer at the bar . people at a pub counter", True),
])
def test_a_bar_one_drinks_at_is_no_monkey_bar(sentence, captions, ok):
    from builder.swap.safety import word_sense

    assert word_sense("bar", sentence, captions) is ok


@pytest.mark.parametrize("word, sentence, captions, ok", [
    # a table of data in a code question is not the furniture in a photo
    ("table", "How can I make the table now that I have the columns and each row is a game?",
     "a man sits at a table in a room . man sitting at a table in a restaurant", False),
    ("table", "How would I create a mongodb database and add tables to it?", "a man sits at a table in a restaurant",
     False),
    ("table", "We finally bought a dining table for the kitchen.", "a family eats dinner at a wooden table", True),
    # a radio station is not a train station; a station the sentence does not place is refused too
    ("station", "I'm trying to find that station so you can listen to the music of the sun.",
     "an old woman sits in a transit station . a woman waiting at an underground train stop", False),
    ("station", "I found a good local station that I really like.", "a woman waiting at an underground train stop",
     False),
    ("station", "Our train left the station late again.", "people wait on the platform of a train station", True),
    ("station", "I am at the train station.", "people wait on the platform of a train station", True),  # "am"
    ("table", "The cat sat on the table by the window.", "a family eats dinner at a wooden table", True),
    ("table", "I left my keys on the kitchen table.", "a family eats dinner at a wooden table", True),
])
def test_a_word_with_a_data_or_broadcast_sense_needs_the_pictures_sense(word, sentence, captions, ok):
    from builder.swap.safety import word_sense

    assert word_sense(word, sentence, captions) is ok


@pytest.mark.parametrize("text, refused", [
    ("I own a bicycle, and the couriers can't park their bicycles here.", True),  # their bicycles: other things
    ("I bought a bicycle because I love bicycles.", True),  # bicycles in general
    ("I bought a new bicycle, and the bicycle is fast.", False),  # the same bicycle twice
    ("My cat sleeps all day; my cat is lazy.", False),
])
def test_a_word_the_turn_also_uses_for_other_things_is_refused(text, refused):
    cand, found = best(text)
    assert (other_referent(cand, found) == "other_referent") is refused

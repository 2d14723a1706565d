"""Decisions from context that generalises: the sentence a name stands in (first person, no story
request), identifier-shaped numbers whatever their label, and names found by their shape and
grammar (chat-log speakers, last-line signatures, lower-case introductions, first-person
sentences). Each assertion is a hand-computed outcome on a sentence written for it."""

from __future__ import annotations

import pytest

from builder.clean import names, records, sentence, word_kinds
from builder.clean.config import CleanConfig
from builder.clean.numbers import find_identifiers
from builder.clean.pii import PiiDetector
from builder.clean.redact import redact_dialogue
from builder.traits import fiction

pytestmark = pytest.mark.models


@pytest.mark.parametrize("text, name, peer, expected", [
    ("Ashley and Michael are coming to dinner sat, u should come", "Ashley", True, True),
    ("Ashley and Michael are coming to dinner sat, u should come", "Ashley", False, False),  # a user to a model
    ("you know, Harry fights Voldemort in the end", "Harry", True, False),                  # a filler "you know"
])
def test_between_two_people_a_sentence_to_the_other_is_their_world(text, name, peer, expected):
    start = text.index(name)
    assert sentence.own_world(text, start, start + len(name), second_person=peer) is expected


@pytest.mark.parametrize("text, name, expected", sentence.EXAMPLES)
def test_sentence_examples(text, name, expected):
    start = text.index(name)
    assert sentence.own_world(text, start, start + len(name), []) is expected


def test_a_sentence_is_read_back_from_the_span_with_the_same_bounds():
    """sentence.bounds reads back from the span (session 49); it finds what reading the turn from its
    start found, on planted and generated turns."""
    import random

    def from_the_start(text, start, end):
        left = 0
        for m in sentence.BOUNDARY.finditer(text, 0, start):
            left = m.end()
        after = sentence.BOUNDARY.search(text, end)
        return left, after.start() if after else len(text)

    text = "Hi.\nI met Ana... yes!? We talk;she laughs." + " x" * 400 + ". Tom is here"
    start = text.index("Tom")
    assert sentence.bounds(text, start, start + 3) == (text.index(". Tom") + 1, len(text))
    assert sentence.bounds(text, text.index("Ana"), text.index("Ana") + 3) == (4, text.index("..."))
    rng = random.Random(5)
    pieces = ["a", "b", " ", ".", "!", "?", ";", "\n", "..", "?!", ". ", "\t", "\u00a0", "é"]
    for _ in range(20000):
        text = "".join(rng.choice(pieces) for _ in range(rng.randint(1, 900 if rng.random() < 0.05 else 40)))
        start = rng.randint(0, len(text))
        end = rng.randint(start, len(text))
        assert sentence.bounds(text, start, end) == from_the_start(text, start, end), (text, start, end)


def test_the_date_comma_gate_passes_every_date_comma():
    for line in ("March 11, 1934, Ana Ruiz", "11 March ,1934", "the 3rd of May,\t2001", "May 4th, 12345"):
        assert bool(records.DATE_COMMA.search(line)) <= bool(records.COMMA_YEAR.search(line))
        assert records.COMMA_YEAR.search(line)


def test_a_structured_value_beside_a_name_makes_it_a_contact():
    text = "Continue the scene. Emergency contact: Abebe Xu (0803 568 7486)"
    start = text.index("Abebe Xu")
    phone = text.index("0803")
    assert not sentence.own_world(text, start, start + 8, [])
    assert sentence.own_world(text, start, start + 8, [(phone, phone + 13)])


@pytest.mark.parametrize("text, name, expected", names.RECORD_EXAMPLES)
def test_record_field_examples(text, name, expected):
    start = text.index(name)
    assert names.record_field(text, start, start + len(name)) is expected


@pytest.mark.parametrize("line, names, values", records.EXAMPLES + records.BLOCK_EXAMPLES)
def test_record_line_examples(line, names, values):
    found = records.record_fields(line)
    assert [line[s:e] for s, e, entity, *_ in found if entity == "PERSON"] == names
    assert [line[s:e] for s, e, entity, *_ in found if entity in ("DATE_OF_BIRTH", "ID_NUMBER")] == values


@pytest.mark.parametrize("text, expected", fiction.SHEET_EXAMPLES)
def test_character_sheet_examples(text, expected):
    assert fiction.character_sheet(text) is expected


def test_a_record_in_a_story_dialogue_is_redacted_and_a_character_sheet_is_not(detector):
    """A story request does not make the people of the user's meeting notes characters, and the
    model's echo of a listed first name goes too; a character sheet's "Name:" holds a character;
    "ship it to Germany" names no one."""
    turns = _redacted(detector, [
        ("user", "Write a short story about a dragon who learns to bake."),
        ("assistant", "Once upon a time, a dragon named Ember asked the baker Marcel for help."),
        ("user", "Thanks! Now summarise my meeting notes:\nAttendees: Zainab Okafor, Karan van der Linde, "
                 "Mei-Lin Yilmaz, me\nAction: Zainab to send the budget."),
        ("assistant", "Summary: Zainab will send the budget.")])
    text = "\n".join(turns)
    assert not any(v in text for v in ("Zainab", "Okafor", "Karan", "Linde", "Mei-Lin", "Yilmaz")), text
    assert "Ember" in text and "Marcel" in text
    turns = _redacted(detector, [("user", "Name: Ayumi Nagano\n\nAppearance: Ayumi is a tall young woman.\n"
                                        "Personality: Ayumi is smart.\nBackstory: Ayumi was built by a robot maker."),
                               ("assistant", "Great character!")])
    assert "Ayumi Nagano" in turns[0]
    assert "Germany" in _redacted(detector, [("user", "Please ship it to Germany by Friday."), ("assistant", "Sure.")])[0]


@pytest.mark.parametrize("word, kind", word_kinds.EXAMPLES)
def test_word_kinds_examples(word, kind):
    assert word_kinds.kind_of(word) == kind


@pytest.mark.parametrize("text, found", [
    ("the card ending 6011344643449819 was declined", ["6011344643449819"]),
    ("I paid with 3722 549955 30167 and got charged twice", ["3722 549955 30167"]),
    ("Phone: 06 24 30 75 32", ["06 24 30 75 32"]),
    ("licence number D657-8287-4274 on the phone", ["D657-8287-4274"]),
    ("passport K1234567 and patient ID MRN123456", ["K1234567", "MRN123456"]),
    ("CPF 123.456.789-09", ["123.456.789-09"]),
    ("what is 123456789 * 2", []),
    ("it costs $1234567890", []),
    ("version 10.0.19045.2965", []),
    ("10 20 30 40 50 60", []),
    ("in 2019 2020 2021", []),
    ("ISBN 978-3-16-148410-0", []),
    ("the i7-12700K is fast", []),
    ('"coupon_id": "3102024020766862"', []),
    ("fix CVE-2021-3156 now", []),
    ("999999999999999 reactors", []),
    ("my number 12345", ["12345"]),
    # an IBAN's shape, whatever its check digits: whole, not its digits alone
    ("from my card: GB95 VXVK 9715 5006 8364 78. is that it?", ["GB95 VXVK 9715 5006 8364 78"]),
    ("my iban is FR41 5757 6452 3959 9700 8489 L60, can u see", ["FR41 5757 6452 3959 9700 8489 L60"]),
    ("the GPU is an RTX 4090 and DE12 ABCD is the model", []),
    # groups set off by an en dash, a spaced dash or two spaces: three groups or more, never a range
    ("i paid with 3731\u2013111531\u201341450 yesterday", ["3731\u2013111531\u201341450"]),
    ("6354 - 2610 - 3954 - 3781 - 220 (that's my visa)", ["6354 - 2610 - 3954 - 3781 - 220"]),
    ("i paid with 4563  3048  72611 yesterday", ["4563  3048  72611"]),
    ("salary 45000 - 60000 a year", []),
    ("from 1990\u20132000 it grew, pages 120\u2013135", []),
])
def test_identifier_shapes(text, found):
    assert [text[s:e] for s, e, _, _ in find_identifiers(text)] == found


@pytest.fixture(scope="module")
def detector():
    return PiiDetector(CleanConfig())


def _redacted(detector, turns):
    rows = [{"index": i, "role": role, "text": text, "images": []} for i, (role, text) in enumerate(turns)]
    scans = detector.scan([t["text"] for t in rows])
    return [t["text"] for t in redact_dialogue("d", rows, scans, CleanConfig()).turns]


@pytest.mark.parametrize("turns, gone, kept", [
    ([("user", "Write a story about a dragon.\nI broke up with Jovana Petrić last month and I still text her.")],
     ["Jovana", "Petrić"], ["dragon"]),
    ([("user", "Write a story about a dragon.\nI broke up with Marek last month and I still text him.")], ["Marek"], []),
    ([("user", "I was considering Rexburg though, honestly. Which college is better?")], [], ["Rexburg"]),
    ([("user", "hi!"), ("assistant", "Hi Elena! Good to see you again."), ("user", "what should I cook?")], ["Elena"], []),
    ([("user", "Any luck, Adam? And what about you noelle?")], ["Adam", "noelle"], []),
    ([("user", "Well, I think so. Sure, why not? Yes, Python is great.\njollibee!\nmerlin")], [],
     ["Well", "Sure", "Python", "jollibee", "merlin"]),
    ([("user", "hi im ksenia and i have a question about my visa")], ["ksenia"], ["visa"]),
    ([("user", "hi im bjørn and i have a question about my visa")], ["bjørn"], ["visa"]),
    ([("user", "hi im magdalena and i have a question")], ["magdalena"], []),  # a first name that is only a noun
    # the relation words chat uses; a person's name opening a first-person sentence; "for" says for whom
    ([("user", "my bf jake forgot our anniversary AGAIN should i say something")], ["jake"], ["my bf"]),
    ([("user", "my brother-in-law chinedu wants to borrow money again")], ["chinedu"], ["brother-in-law"]),
    ([("user", "Amara won't stop talking about her new job, honestly I'm happy for her")], ["Amara"], []),
    ([("user", "Sione and I are thinking of opening a café together, is that risky?")], ["Sione"], ["café"]),
    ([("user", "Python and I are old friends, I use it every day")], [], ["Python"]),
    # a lower-case name as the subject of what only a person does; a product or a noun there stays
    ([("user", "ok so hamid just called and said the flight got cancelled")], ["hamid"], ["flight"]),
    ([("user", "wojtek broke his arm skateboarding lol")], ["wojtek"], ["arm"]),
    ([("user", "chatgpt said that i should rewrite it. mom said no")], [], ["chatgpt", "mom"]),
    ([("user", "im tired and i want food")], [], ["tired"]),  # an English adjective in the slot stays
    ([("user", "write a birthday message for my best friend łukasz wójcik-nowak")], ["łukasz", "wójcik"],
     ["my best friend "]),  # NER took "friend" into the truecased name; the relation noun stays
    ([("user", "Can you check my English?\nThanks a lot!\nEero")], ["Eero"], ["Thanks a lot!"]),
    ([("user", "[10:32] Emeka: are you coming tonight?\n[10:33] Pooja: yes\nwho is late?")], ["Emeka", "Pooja"], []),
    # what the words around a name say it is: an author's style, a work after "the", a designer's line,
    # a pet, a word problem's people
    ([("user", "Write a poem in the style of Emily Dickinson about rain")], [], ["Emily Dickinson"]),
    ([("user", "Who painted the Mona Lisa, Leonardo or Michelangelo?")], [], ["Mona Lisa"]),
    ([("user", "Are Jimmy Choo shoes worth the price?")], [], ["Jimmy Choo"]),
    ([("user", "Write a limerick about a dog named Biscuit Barkley who hates Mondays")], [], ["Biscuit Barkley"]),
    ([("user", "Jack is twice as old as Jill. In 5 years the sum of their ages will be 40. How old is Jack?")], [],
     ["Jack", "Jill"]),
    # in a list of people, an item that is also a word is a person too
    ([("user", "My roommates are Nadia, Kat, and Oluwaseun and we fight about dishes. Chore ideas?")],
     ["Nadia", "Kat", "Oluwaseun"], ["dishes"]),
    # speakers of a chat the user pastes as one are people; a script's are characters
    ([("user", "Here's the group chat:\nMarco: who's bringing drinks\nNadia: me!!\nDerek: i'll grab ice\nSummarize it")],
     ["Marco", "Nadia", "Derek"], ["group chat"]),
    ([("user", "Write a script:\nMarco: who's bringing drinks\nNadia: me!!\nDerek: i'll grab ice")], [],
     ["Marco", "Nadia", "Derek"]),
    ([("user", "Make it funnier:\n08:30 Ultimate Spider-Man: Back In Black\n09:00 Code Lyoko: The Key")],
     [], ["Ultimate Spider-Man", "Code Lyoko"]),
    ([("user", "I went to Kraków with Marek last summer, what should I see next time?")], ["Marek"], ["Kraków"]),
    ([("user", "I use Ubuntu on my laptop. Which editor should I install?")], [], ["Ubuntu"]),
    ([("user", "Name: Emeka Iwasaki\nPhone: 06 24 30 75 32")], ["Emeka Iwasaki", "06 24 30 75 32"], ["Name:"]),
    ([("user", "Write a short story about Lily Marsh and her dragon.")], [], ["Lily Marsh"]),
    # calling the other person by name is no story's, even in a chat about a show ...
    ([("user", "Have you seen the episode where the main characters fight?\nSo, Victoria, what do you like to do?")],
     ["Victoria"], []),
    # ... but in a role-play the user calls out characters
    ([("user", "Let's roleplay. You are Monika from the literature club.\n*waves* Hi Monika!")], [], ["Monika"]),
    # all lower case: a first name that is only a noun in the dictionary ("sarah", "mike") is a name in
    # NER's or a relation's slot; one that is a verb or a stop word ("will", "mark") stays a word
    ([("user", "i was talking to sarah yesterday about the trip")], ["sarah"], ["trip"]),
    ([("user", "my brother mike is coming over, my sister will be there too")], ["mike"], ["will be"]),
    ([("user", "set max to 5 and min to 2 in june")], [], ["max", "june"]),
    # verbs whose object is a person: "reply to", "broke up with", "text"
    ([("user", "Help me reply to Emeka, she wrote that she is pregnant and scared.")], ["Emeka"], ["pregnant"]),
    ([("user", "I broke up with Jovana last month and I still text her at night.")], ["Jovana"], []),
    # "our" is as first person as "my" before a relation
    ([("user", "Our landlord Leocadia Okafor has not returned the deposit, and our neighbour mike agrees.")],
     ["Leocadia Okafor", "mike"], ["deposit"]),
    # a self-introduction in a script without capitals, or a Cyrillic name after an English one
    ([("user", "我叫王伟。私の名前は山田太郎です。저는 김민수입니다. My name is Иван Петров")],
     ["王伟", "山田太郎", "김민수", "Иван"], ["我叫", "です"]),
    # a name credited on works is public in a personal chat too, wherever it comes up; a credit makes no
    # title a person
    ([("user", "My wife and I love reading. I've read a few books by Michio Kaku."),
      ("assistant", "Nice!"), ("user", "Have you heard of Michio Kaku? We also watched the X-men movies.")], [],
     ["Michio Kaku", "X-men"]),
    # people talking to people (trait peer_chat): the other side's own names are private too, a film
    # star it brings up is not; a chat model bringing up a name is public or invented
    ([("user", "hey! how's it going?"), ("assistant", "good lol, I'm Kalinda btw"), ("user", "nice to meet you!"),
      ("assistant", "yeah! my favourite actor is Tom Hanks, what about you Oskar?")],
     ["Kalinda", "Oskar"], ["Tom Hanks"]),
    ([("user", "Who was the first person to climb Everest?"),
      ("assistant", "Edmund Hillary and Tenzing Norgay reached the summit in 1953.")], [],
     ["Edmund Hillary", "Tenzing Norgay"]),
    # a narrator's apposition in a model's story is no vocative; "i.e." is no "I"; French is no English grammar
    ([("user", "Write a story about two roommates."),
      ("assistant", "Tyler sat alone, much unlike his roommate, Chase. Tessa, now laughing, waved.")], [],
     ["Chase", "Tessa"]),
    ([("user", "Summarize this long passage, please:\n" + "The gospels agree on much. " * 30
       + "Compare the other three Gospels (i.e Mark, Matthew, and Luke) here.")], [], ["Mark", "Matthew"]),
    # a cue vouches for a lower-case name NER found; an e-mail says whose a written-out name is; a
    # signature may stand above its contact lines; "X's place" is a person's; a form line with a phone is no code
    ([("user", "That I have a chance to win a MacBook pro!\nmy name is kimberly shaw and i live here\nNow that is it!")],
     ["kimberly shaw"], []),
    ([("user", "That I have a chance!\njohn burton, 09/22/1988, john.burton@gmail.com\nNow that is it!")],
     ["john burton", "john.burton"], []),
    ([("user", "thanks for the chat!\n- Shelly Roberts\n+1 555 123 4567\nlol ok")], ["Shelly Roberts", "555 123"], []),
    ([("user", "the party is at Daniel's place at 8, bring snacks")], ["Daniel"], []),
    ([("user", "Scott!!! long time no see, how's Leeds treating u")], ["Scott"], []),
    ([("user", "of course you can tell me your story!!!\nme and Maggie went to Lyon last summer, best trip ever")],
     ["Maggie"], []),
    ([("user", "Customer: Ana Ruiz; tel. 555 123 4567; deliver to 12 Elm St;")], ["Ana Ruiz", "555 123"], []),
    # a contraction typed without its apostrophe is an English word, no name after a greeting
    ([("user", "hey whats up"), ("assistant", "hi thats cool, youre early")], [], ["whats", "thats", "youre"]),
    ([("user", "hey wes, whats up")], ["wes"], ["whats"]),
    # a name's particles go with it: no "van der" or "de la" left between two redactions
    ([("user", "Full name: Gwendolyn van der Plas | DOB: 12/03/1990")], ["Gwendolyn", "van der", "Plas"], ["DOB"]),
    ([("user", "thanks for the chat!\n- Derrick de la Garza\n+1 555 123 4567")], ["Derrick", "de la", "Garza"], []),
])
def test_names_and_numbers_by_context(detector, turns, gone, kept):
    text = "\n".join(_redacted(detector, turns))
    for value in gone:
        assert value not in text, (value, text)
    for value in kept:
        assert value in text, (value, text)



@pytest.mark.parametrize("text, found", [
    ("Any luck, Adam?", ["Adam"]), ("hey again keena haha", ["keena"]), ("what about you noelle?", ["noelle"]),
    ("il a été très satisfait de vos performances, Marc.", []),  # French: the slots are English grammar
    ("letters, numbers, and symbols.", []), ("am i at home or am i alone, illuminati", []),
    ("Bonjour! Comment puis-je vous aider?", []), ("Sure, why not?", []),
    ("Scott!!! long time no see", ["Scott"]), ("Wow!!! long time no see", []),  # "!" after a census first name only
    ("wussup paul", ["paul"]), ("What's up Mrcl!", ["Mrcl"]), ("what up adam\ngood morning", ["adam"]),  # chat's greetings
    ("collin you really rock that beanie", ["collin"]), ("Emily you're right", ["Emily"]),  # the name, then "you"
    ("God you're dumb", []), ("Hvae you heard of streaming?", []),  # an interjection, a slip: no first name
    ("ok\nKelley!", ["Kelley"]), ("Emily\nTrue", ["Emily"]), ("yeah Emily", ["Emily"]),  # a line that is the name
    ("who's your favourite player?\nLeBron!", []), ("Ooof.", []), ("Yuck", []),  # an answer; no first name
])
def test_vocative_slots(text, found):
    from builder.clean.names import vocative_names

    assert [text[s:e] for s, e, *_ in vocative_names(text)] == found

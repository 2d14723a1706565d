"""Names on real-chat shapes, through the real `mmrc-build clean` CLI."""

from __future__ import annotations


import polars as pl
import pytest
from click.testing import CliRunner
from conftest import dialogue, make_stage_folder

from builder.cli import main


def _rows():
    return [
        dialogue([("user", "hi, my name praba and I need help with a visa letter for my trip to Canada next month."),
                  ("assistant", "Sure, Praba. What should the letter say?"),
                  ("user", "Please thank my colleagues Emily, Anna Berg and Gloria for the help.\n\nThanks,\nErli")],
                 source_id="names"),
        dialogue([("user", "Who was Gustav III of Sweden, and what did Goku and Shaggy have in common? "
                           "Explain the development of the concept in the 1800s."),
                  ("assistant", "The development of the concept began when Gustav III took power in 1772.")],
                 source_id="public"),
        dialogue([("user", "Write a story about Lily, a girl who finds a dragon egg in the forest near her village."),
                  ("assistant", "Lily had always loved the forest. One morning she found a glowing egg.")],
                 source_id="fiction"),
        dialogue([("user", "Please check my profile https://www.linkedin.com/in/margarethe-vollmer-1984 and "
                           "https://docs.python.org/3/library/re.html - my name is Margarethe Vollmer."),
                  ("assistant", "Your LinkedIn profile looks good, Margarethe.")], source_id="url"),
        dialogue([("user", "In Python, `class Material` has a field TextField; why does Material fail?"),
                  ("assistant", "Material fails because TextField is not imported.")], source_id="code"),
        # a pasted story in which a character introduces himself is still fiction
        dialogue([("user", "Here is a story:\n\n" + "The Doctor became a human named John Smith and lived in a "
                           "cottage with Martha. " * 30 + "\"I'm John Smith,\" he said to Joan."),
                  ("assistant", "John Smith and Martha are wonderful characters.")], source_id="pasted_story"),
        # the user only sets a scene; the model's answer is a story
        dialogue([("user", "(The cafe owner, Stella, sometimes hypnotises David) David works at a cafe. His friend "
                           "Victoria pops in to say hi."),
                  ("assistant", "Once upon a time, David was wiping tables when Victoria walked in. \"Hi David!\" "
                                "she said. Stella smiled.")], source_id="scene"),
        # a worksheet item: its people are invented
        dialogue([("user", "Suki wants to build a 60 ft. long rectangular sheep pen. If she bought 150 feet of "
                           "fencing, what would be the area of the sheep pen?\na\t900 ft2\nb\t1800 ft2\nc\t2700 ft2"),
                  ("assistant", "Suki's pen has an area of 1800 ft2, so the answer is b.")], source_id="worksheet"),
        # words the user gave are not names because the model writes them in a title
        dialogue([("user", "What are short SEO titles for a youtube video on the \u201cChicago Tylenol murders\u201d?"),
                  ("assistant", "1. \"El Misterio del Tylenol: Descifrando el Caso de Chicago\"\n2. \"Los "
                                "Acontecimientos del Tylenol\"")], source_id="titles"),
        # a lower-case chat about well-known people: their peers are public too
        dialogue([("user", "write a 2017 nba season with kobe bryant coach of the lakers and the warriors signing "
                           "kevin durant"),
                  ("assistant", "In 2017 Kobe Bryant took over the Lakers while Kevin Durant joined the Warriors.")],
                 source_id="sports"),
        # "the message above" is not a letter; the story is still fiction
        dialogue([("user", "Give me the same sequel of the message above, but the story ends with Princess "
                           "Seraphina forgiving Morgana."),
                  ("assistant", "Princess Seraphina looked at Morgana and forgave her.")], source_id="message_above"),
        # a LAN address in code stays; a public one in the user's error message goes
        dialogue([("user", "HOST = '192.168.1.1'\nPORT = 8001\nCan't connect to MySQL server on '35.224.49.90:3306'"),
                  ("assistant", "Check the firewall of 35.224.49.90.")], source_id="ips"),
        # a work e-mail the user drafts: its people are real
        dialogue([("user", "rewrite this email : Hi everyone, please read below the message from the hiring manager "
                           "about the onboarding of Mrs Cheng.\n\nThanks\nMickael"),
                  ("assistant", "Hi everyone,\n\nCould you review the message about Mrs. Cheng?\n\nBest regards,\n"
                                "Mickael")], source_id="work_email"),
        # a course assignment: its sample roster is the course's, the student's own row is theirs
        dialogue([("user", "My homework (student id 00912345) prints no invalid emails. Output:\n"
                           "Student ID: 00912345\nName: Runa Voss\n\n"
                           "ID: B1\tFirst: Milo\tLast: Tarrant\tEmail: milo.t@mailbox.org\tAge: 21\n"
                           "ID: B2\tFirst: Ines\tLast: Quarry\tEmail: ines.q@mailbox.org\tAge: 22\n"
                           "ID: B3\tFirst: Runa\tLast: Voss\tEmail: runa.voss@unimail.net\tAge: 23\n"),
                  ("assistant", "Your loop never reaches Milo Tarrant's row; fix the index.")], source_id="roster"),
        # what the dialogue says a name is: a place, a sitcom character, a name discussed as a word
        dialogue([("user", "Write the invitation: our darts night is at the Crown Hotel, Tarragindi on Friday."),
                  ("assistant", "Join us for darts night at the Crown Hotel in Tarragindi this Friday!")],
                 source_id="place"),
        dialogue([("user", "She answered my Barney reference from the sitcom with a Robin gif. What now?"),
                  ("assistant", "Ask her whether Robin is her favourite character in the show.")],
                 source_id="sitcom"),
        dialogue([("user", "Is Oswin Harrow a good name for a boy?"),
                  ("assistant", "The name Oswin Harrow sounds distinguished and a little old-fashioned.")],
                 source_id="name_talk"),
        # an address only the model wrote is its example; codes in a list are no phone numbers
        dialogue([("user", "How do I copy my site to a server? The promo takes card bins 411111, 522964, "
                           "623456789012, 434910."),
                  ("assistant", "Use scp -r site root@34.67.89.10:/var/www; the bins are 411111, 522964, "
                                "623456789012 and 434910.")], source_id="model_ip"),
        # a chat about professional sport: its names are players; chat words and leagues are no names
        dialogue([("user", "Hey! Are you a fan of the NFL? Btw, did you see the rookie Dario Velk play?"),
                  ("assistant", "Yes! His name is Dario Velk, and the coach told Velk to rest. He was drafted in "
                                "the first round.")],
                 source_id="sport_chat"),
    ]


@pytest.fixture(scope="module")
def cleaned(tmp_path_factory):
    root = tmp_path_factory.mktemp("names")
    make_stage_folder(root / "in", _rows())
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("HF_HUB_OFFLINE", "1")
        result = CliRunner().invoke(main, ["clean", str(root / "in"), "-o", str(root / "out"), "--no-toxicity"])
    assert result.exit_code == 0, result.output
    rows = pl.read_parquet(root / "out" / "part-00000.parquet").to_dicts()
    return {r["source_id"]: r for r in rows}


def _text(row):
    return "\n".join(t["text"] for t in row["turns"])


def test_lower_case_introductions_sign_offs_and_lists_are_found(cleaned):
    text = _text(cleaned["names"])
    for value in ("praba", "Praba", "Erli", "Emily", "Anna", "Berg", "Gloria"):
        assert value not in text, (value, text)
    assert "the help" in text and "visa letter" in text  # nothing else spread


def test_public_and_fictional_figures_and_common_words_stay(cleaned):
    text = _text(cleaned["public"])
    for value in ("Gustav III", "Goku", "Shaggy", "The development of the concept", "the concept"):
        assert value in text, (value, text)
    assert cleaned["public"]["pii"] == []


def test_characters_in_requested_fiction_stay(cleaned):
    assert "Lily" in _text(cleaned["fiction"])


def test_urls_with_a_name_go_and_documentation_stays(cleaned):
    text = _text(cleaned["url"])
    assert "margarethe-vollmer" not in text and "Margarethe" not in text and "<URL>" in text
    assert "https://docs.python.org/3/library/re.html" in text


def test_code_identifiers_are_not_names(cleaned):
    assert cleaned["code"]["pii"] == []


@pytest.mark.parametrize("source_id,names", [
    ("pasted_story", ["John Smith", "Martha", "Joan"]),
    ("scene", ["Stella", "David", "Victoria"]),
    ("worksheet", ["Suki"]),
    ("titles", ["Tylenol", "Chicago", "Los Acontecimientos"]),
    ("sports", ["bryant", "durant", "Kevin Durant"]),
    ("message_above", ["Seraphina", "Morgana"]),
])
def test_characters_worksheets_titles_and_public_peers_stay(cleaned, source_id, names):
    text = _text(cleaned[source_id])
    for name in names:
        assert name in text, (name, text)
    assert not [s for s in cleaned[source_id]["pii"] if s["entity"] == "PERSON"]


def test_lan_addresses_in_code_stay_and_public_ones_go(cleaned):
    text = _text(cleaned["ips"])
    assert "192.168.1.1" in text and "35.224.49.90" not in text


def test_people_in_a_drafted_work_email_go(cleaned):
    text = _text(cleaned["work_email"])
    assert "Mickael" not in text and "Cheng" not in text, text


def test_a_course_roster_stays_and_the_students_own_row_goes(cleaned):
    text = _text(cleaned["roster"])
    for value in ("Milo", "Tarrant", "milo.t@mailbox.org", "Ines", "ines.q@mailbox.org"):
        assert value in text, (value, text)
    for value in ("Runa", "Voss", "runa.voss@unimail.net", "00912345"):
        assert value not in text, (value, text)


@pytest.mark.parametrize("source_id,kept", [
    ("place", ["Tarragindi"]),
    ("sitcom", ["Barney", "Robin"]),
    ("name_talk", ["Oswin Harrow"]),
    ("model_ip", ["34.67.89.10", "623456789012"]),
    ("sport_chat", ["NFL", "Btw", "Dario Velk"]),
])
def test_what_the_dialogue_says_a_value_is(cleaned, source_id, kept):
    text = _text(cleaned[source_id])
    for value in kept:
        assert value in text, (value, text)
    assert cleaned[source_id]["pii"] == [], cleaned[source_id]["pii"]


@pytest.mark.parametrize("text,name", [
    ("Hello, I'm Kenji. What's up", "Kenji"),                  # NER's span took "I'm"
    ("The Dark Knight. By the way I'm Kenji Watanabe, nice to meet you", "Kenji Watanabe"),
    ("Hey Ana Souza, long time", "Ana Souza"),
])
def test_a_name_span_never_starts_with_the_speakers_own_words(text, name):
    from builder.clean.config import CleanConfig
    from builder.clean.pii import PiiDetector

    (scan,) = PiiDetector(CleanConfig()).scan([text])
    persons = [text[s["start"]:s["end"]] for s in scan.spans if s["entity"] == "PERSON"]
    assert persons == [name]  # and "The Dark Knight", a title, is no person


@pytest.mark.parametrize("text,names", [
    ("talked to John Smith's agent today", ["John Smith"]),   # NER's span took the possessive
    ("Patient: Hortense Durmuş", ["Hortense Durmuş"]),        # letters past Latin-1: no half name left
    ("my name is Marek Dvořák", ["Marek Dvořák"]),
    ("went hiking with Łukasz Kowalski", ["Łukasz Kowalski"]),
    ("my sister priya said so", ["priya"]),                   # NER's truecased span took "my sister"
    ("hi im ksenia lol how r u", ["ksenia"]),                 # a chat word closes the introduction
    ("hi im sandra salinas lol", ["sandra salinas"]),          # the surname a census lists goes with it
    ("my brother john de la garza says hi", ["john de la garza"]),
    ("my cousin carl bùi says hi", ["carl bùi"]),              # a short surname with an accent
    ("im sooo tired lol", []),
    ("my ex Oni still texts me sometimes", ["Oni"]),          # a dictionary word whose vectors sit with names
    ("I called my mom Sunday", []),                          # ... not a day
    ("my boss Apple pays well", []),                         # ... nor a brand
])
def test_a_name_span_is_the_whole_name_and_only_the_name(text, names):
    from builder.clean.config import CleanConfig
    from builder.clean.pii import PiiDetector

    (scan,) = PiiDetector(CleanConfig()).scan([text])
    assert [text[s["start"]:s["end"]] for s in scan.spans if s["entity"] == "PERSON"] == names


def test_name_letters_are_latin_of_either_case():
    from builder.clean.names import LOWER, UPPER

    assert {"Ł", "Š", "Ş", "É", "Ầ"} <= set(UPPER) and {"ł", "š", "ş", "é", "ầ", "ß"} <= set(LOWER)
    assert UPPER[:3] == "A-Z" and LOWER[:3] == "a-z" and not set(UPPER[3:]) & set(LOWER[3:]) and "×" not in UPPER + LOWER and "÷" not in UPPER + LOWER


@pytest.mark.parametrize("text,names", [
    ("An Nguyen is my coworker and she is great", ["An Nguyen"]),   # "an" before a consonant is no article
    ("a Taylor fixed my suit", []),                                  # "a" before a name-shaped noun is one
])
def test_an_before_a_consonant_is_a_given_name(text, names):
    from builder.clean.config import CleanConfig
    from builder.clean.pii import PiiDetector

    (scan,) = PiiDetector(CleanConfig()).scan([text])
    assert [text[s["start"]:s["end"]] for s in scan.spans if s["entity"] == "PERSON"] == names


@pytest.mark.parametrize("text,names", [
    ('he literally signed the birthday card "Daniel Klemczak" like we dont know who he is', ["Daniel Klemczak"]),
    ("I live in Austin Texas now", []),            # the last word a place NER names
    ("I finally bought a Mercedes Benz", []),      # NER reads the first name into a brand
    ("Teresa White came over", None),              # the last word an English word: not this rule's (NER may)
    ("I love the Count of Monte Cristo", []),      # a title's word, no rare name
])
def test_a_first_name_and_an_unknown_capitalised_word_are_a_full_name(text, names):
    from builder.clean.config import CleanConfig
    from builder.clean.pii import PiiDetector

    (scan,) = PiiDetector(CleanConfig()).scan([text])
    full = [text[s["start"]:s["end"]] for s in scan.spans if s.get("basis") == "full_name"]
    assert full == (names or [])


def test_the_full_name_shape():
    from builder.clean.names import full_name_shape

    assert full_name_shape("Jack Sutton") and full_name_shape("Daniel Klemczak")  # a census surname, an unseen word
    assert not full_name_shape("Teresa White") and not full_name_shape("jack sutton")  # an English word; lower case
    assert not full_name_shape("Les Miserables") and not full_name_shape("Monte Cristo")  # words NER has read: titles
    assert full_name_shape("Kiaan Newman") and full_name_shape("Pesent Collins")  # an unseen first word, a census surname
    assert not full_name_shape("Pokemon Black") and not full_name_shape("Tottenham Hale")  # first words NER has read


# The finders' cheap gates (session 48) skip a pattern only when it cannot match: on every string where
# the pattern matches, its gate says so; where the gate says no, the pattern finds nothing.
FIELD_WINDOWS = ["Name:", "First name :  ", "name?", "Name on card: ,", "Signed", "signed, ", "Attn.", "ATTN:",
                 "Reviewer -", "Attendees: Ana Ruiz, ", "cc:", "posted by:", "the name of my dog", "I signed up for",
                 "from the shop", "hello there "]


@pytest.mark.parametrize("window", FIELD_WINDOWS)
def test_the_field_gate_passes_every_field_window(window):
    from builder.clean.names import FIELD, FIELD_END

    if FIELD.search(window):
        assert FIELD_END.search(window.rstrip()[-6:])


def test_the_field_gate_answers_known_windows():
    from builder.clean.names import FIELD_END

    assert [bool(FIELD_END.search(w.rstrip()[-6:])) for w in ("Name: ", "Attn.", "Signed", "my friend ", "wrote by")] == [
        True, True, True, False, False]


@pytest.mark.parametrize("text,may", [("je m'appelle Luc", True), ("Hi! JE M'APPELLE Luc", True), ("меня зовут Иван", True),
                                      ("我叫王伟", True), ("hello, my name is Luc", False), ("I am Anna", False)])
def test_the_other_language_intro_gate(text, may):
    from builder.clean.names import OTHER_INTRO, _may_hold_other_intro

    assert _may_hold_other_intro(text) is may
    assert bool(OTHER_INTRO.search(text)) <= _may_hold_other_intro(text)


@pytest.mark.parametrize("text,name", [("my sister Rose is here", "Rose"), ("I'm Oni", "Oni"), ("Oni here", "Oni"),
                                       ("reply to Stack Overflow", "Stack"), ("the Rose garden", "Rose"),
                                       ("Oni, a friend of mine, called", "Oni"), ("my class with Dr. Ball", "Ball")])
def test_the_relation_or_intro_gate_is_necessary(text, name):
    from builder.clean.names import _may_be_relation_or_intro, name_context

    start = text.index(name)
    if name_context(text, start, start + len(name)) in ("relation", "intro"):
        assert _may_be_relation_or_intro(text, start, start + len(name))


@pytest.mark.parametrize("text,name,kind", [
    ("Like Isaac Richards, a friend of mine from home, got in", "Isaac Richards", "relation"),  # a relation after it
    ("I went with Ana, my roommate, to the store", "Ana", "relation"),
    ("Tom Brady, a friend of Gisele, won", "Tom Brady", None),  # a friend of someone else's: no cue
    ("My favorite class is my Writings of Isaiah Class by Dr. Ball", "Ball", "relation"),  # one's own teacher
    ("I heard he loved Griffith's class", "Griffith", "relation"),
    ("Dr. Seuss books are great for kids in class", "Seuss", "honorific"),  # no speaker: a public name
    ("Dr. Dre made great beats", "Dre", "honorific"),  # no class
])
def test_relations_after_the_name_and_ones_own_teachers(text, name, kind):
    from builder.clean.names import name_context

    start = text.index(name)
    assert name_context(text, start, start + len(name)) == kind

"""Fast pieces of the clean stage: chunking, overlaps, precision rules, surrogates, metadata stripping."""

from __future__ import annotations


import pytest

from builder.clean.config import CleanConfig
from builder.clean.pii import possible_entities, resolve_overlaps, split_chunks
from builder.clean.precision import keep_span
from builder.clean.surrogates import Redactor, apply_spans
from builder.errors import ConfigError


def test_chunks_cover_the_text_and_keep_offsets():
    text = " ".join(f"word{i}" for i in range(3000))
    chunks = split_chunks(text, 1000)
    assert all(len(c) <= 1000 for _, c in chunks)
    assert all(text[off:off + len(c)] == c for off, c in chunks)
    covered = set()
    for off, c in chunks:
        covered.update(range(off, off + len(c)))
    assert covered == set(range(len(text)))
    assert all(b[0] < a[0] + len(a[1]) for a, b in zip(chunks, chunks[1:]))  # overlapping borders


def test_longest_span_wins_an_overlap():
    spans = [{"start": 10, "end": 21, "entity": "URL", "score": 0.5},
             {"start": 0, "end": 21, "entity": "EMAIL_ADDRESS", "score": 1.0},
             {"start": 30, "end": 35, "entity": "PERSON", "score": 0.85}]
    assert [s["entity"] for s in resolve_overlaps(spans)] == ["EMAIL_ADDRESS", "PERSON"]


def test_recognizers_that_cannot_match_are_skipped():
    entities = CleanConfig().entities
    # a street needs no digit ("we live on Elm Street"); every other structured value does
    assert possible_entities("hello there, how are you", entities) == {"PERSON", "STREET_ADDRESS"}
    assert "EMAIL_ADDRESS" in possible_entities("mail a@b.io", entities)
    assert "PHONE_NUMBER" in possible_entities("call 212 555 0187", entities)


@pytest.mark.parametrize("text", [
    "see example.com", "HTTPS://WWW.EXAMPLE.ORG/a", "go to http://84.23.11.9.nip.io/admin", "my-site.io rocks",
    "'www.x.co.uk'", "It rained. Then it stopped.", "pi is 3.14 and e is 2.72", "Ok.Thanks", "no dot at all",
])
def test_the_url_gate_never_hides_a_url_presidio_finds(text):
    from presidio_analyzer.predefined_recognizers import UrlRecognizer

    from builder.clean.recognizers import _presidio

    found = bool(_presidio(UrlRecognizer(), "URL")(text, []))
    gate = "URL" in possible_entities(text, CleanConfig().entities)
    assert gate >= found
    # prose with its full stops followed by a space, and decimals, skip the recognizer
    assert gate == (text not in ("It rained. Then it stopped.", "pi is 3.14 and e is 2.72", "no dot at all"))


@pytest.mark.parametrize("text,ip", [
    ("my server is 192.168.10.24 lol", True), ("ping 2001:db8:85a3::8a2e:370:7334 from here 42", True),
    ("bind to ::1 port 8080", True), ("route ::ffff:10.0.0.7/96 via 12", True), ("iface fe80::1%eth0 is up 12", True),
    ("the net 10.20.30.0/24 is ours", True), ("64:ff9b::192.0.2.33 is mapped", True), ("meet at 3:30 on 12/05", False),
    ("version 2 of 2024, 11 items", False), ("Note: call 555 0187 today", False),
])
def test_the_ip_gate_never_hides_an_address_presidio_finds(text, ip):
    from presidio_analyzer.predefined_recognizers import IpRecognizer

    from builder.clean.recognizers import _presidio

    found = bool(_presidio(IpRecognizer(), "IP_ADDRESS")(text, []))
    gate = "IP_ADDRESS" in possible_entities(text, CleanConfig().entities)
    assert found is ip and gate >= found
    assert gate == (text not in ("version 2 of 2024, 11 items", "Note: call 555 0187 today"))  # "3:30" passes


def test_every_presidio_ip_pattern_match_passes_the_ip_gate():
    """On generated strings of hex digits, colons, dots, "%" and "/", each of Presidio's IP patterns
    matches only where the gate (recognizers.IP_SHAPE) does."""
    import random

    import regex
    from presidio_analyzer.predefined_recognizers import IpRecognizer

    from builder.clean.recognizers import IP_SHAPE

    patterns = [regex.compile(p.regex, regex.DOTALL | regex.MULTILINE | regex.IGNORECASE) for p in IpRecognizer().patterns]
    rng = random.Random(11)
    pieces = ["0", "1", "25", "255", "192", "a", "F", "ff", "db8", ":", "::", ".", "%", "eth0", "/", "24", " ", "x"]
    matched = 0
    for _ in range(30000):
        text = "".join(rng.choice(pieces) for _ in range(rng.randint(1, 14)))
        if any(p.search(text) for p in patterns):
            matched += 1
            assert IP_SHAPE.search(text), text
    assert matched > 1000  # the strings do reach every kind of address


@pytest.mark.parametrize("text,iban", [
    ("my iban is GB82 WEST 1234 5698 7654 32 thanks", True), ("iban: de89370400440532013000", True),
    ("FR14-2004-1010-0505-0001-3M02-606", True), ("paid 1234 5678 9012 on the 3rd", False), ("GPT4 on win11, build 22631 99", False),
])
def test_the_iban_gate_never_hides_an_iban_presidio_finds(text, iban):
    from presidio_analyzer.predefined_recognizers import IbanRecognizer

    from builder.clean.recognizers import _presidio

    found = bool(_presidio(IbanRecognizer(), "IBAN_CODE")(text, []))
    gate = "IBAN_CODE" in possible_entities(text, CleanConfig().entities)
    assert found is iban and gate >= found
    assert gate is (text != "paid 1234 5678 9012 on the 3rd")  # "win11" has the shape of a start


def test_every_presidio_iban_match_passes_the_iban_gate():
    """On generated strings (letters, also the ones that fold to ASCII under IGNORECASE, digits, spaces
    and dashes), each of Presidio's IBAN patterns matches, on the text or its capitals, only where the
    gate (recognizers.IBAN_START) does."""
    import random

    import regex
    from presidio_analyzer.predefined_recognizers import IbanRecognizer

    from builder.clean.recognizers import IBAN_START

    patterns = [regex.compile(p.regex, regex.DOTALL | regex.MULTILINE | regex.IGNORECASE) for p in IbanRecognizer().patterns]
    rng = random.Random(13)
    pieces = ["G", "b", "de", "ſ", "ı", "K", "é", "82", "0", "1234", "WEST", "3m", " ", "-", "  ", "x9"]
    matched = 0
    for _ in range(30000):
        text = "".join(rng.choice(pieces) for _ in range(rng.randint(1, 16)))
        for read in {text, text.upper() if len(text.upper()) == len(text) else text}:
            if any(p.search(read) for p in patterns):
                matched += 1
                assert IBAN_START.search(text), text
    assert matched > 500  # the strings do reach IBANs of every length


def test_the_url_finder_reads_host_words_and_finds_what_presidio_finds_in_the_whole_text():
    import regex
    from presidio_analyzer.predefined_recognizers import UrlRecognizer

    from builder.clean.recognizers import _presidio

    text = ('See "https://example.com/a?b=1" and (www.test.org/x), then\nfoo.io.\tmail me at a@b.co.uk '
            "or 'docs.python.org/3/'. Version 3.11. Done.Next line: http://84.23.11.9/admin")
    whole = UrlRecognizer().analyze(text, ["URL"], None, regex_flags=regex.DOTALL | regex.MULTILINE | regex.IGNORECASE)
    found = _presidio(UrlRecognizer(), "URL")(text, [])
    assert sorted(found) == sorted((r.start, r.end, "URL", float(r.score)) for r in whole)
    assert {text[s:e] for s, e, _, _ in found} == {'"https://example.com/a?b=1"', "www.test.org/x", "foo.io", "b.co.uk",
                                                   "'docs.python.org/3/'", "Done.Ne"}  # Presidio's own reading


@pytest.mark.parametrize("entity,value,keep", [
    ("PERSON", "Anna Berg", True), ("PERSON", "Einstein", False), ("PERSON", "Barack Obama", False),
    ("PERSON", "Hi", False), ("PERSON", "ChatGPT", False), ("PERSON", "42", False), ("PERSON", "J.", False),
    ("URL", "https://en.wikipedia.org/wiki/Paris", False), ("URL", "https://docs.python.org/3/", False),
    ("URL", "https://facebook.com/profile/anna.berg", True), ("URL", "https://x.io/reset?token=abc", True),
    ("URL", "http://84.23.11.9/admin", True), ("URL", "example.com", False),
    ("IP_ADDRESS", "127.0.0.1", False), ("IP_ADDRESS", "84.23.11.9", True),
])
def test_precision_rules(entity, value, keep):
    assert keep_span(entity, value, 0.9, 0.5) is keep


def test_surrogates_are_deterministic_per_dialogue_and_hash_needs_a_salt(monkeypatch):
    config = CleanConfig(action="surrogate")
    a, b = Redactor(config, "d1"), Redactor(config, "d1")
    assert a.replacement("PERSON", "Anna Berg") == b.replacement("PERSON", "Anna Berg")
    assert a.replacement("PERSON", "Anna Berg").split()[0] == a.replacement("PERSON", "Anna")
    assert a.replacement("IP_ADDRESS", "84.23.11.9").startswith("192.0.2.")
    assert a.replacement("EMAIL_ADDRESS", "x@y.com").endswith("@example.com")
    text = "Anna Berg wrote to x@y.com"
    spans = [{"start": 0, "end": 9, "entity": "PERSON", "score": 0.9},
             {"start": 19, "end": 26, "entity": "EMAIL_ADDRESS", "score": 1.0}]
    cleaned, new = apply_spans(text, spans, a)
    assert "Anna" not in cleaned and "x@y.com" not in cleaned
    assert [cleaned[s["start"]:s["end"]] for s in new] == [a.replacement("PERSON", "Anna Berg"),
                                                            a.replacement("EMAIL_ADDRESS", "x@y.com")]
    hashed = Redactor(CleanConfig(action="hash"), "d1")
    first = hashed.replacement("PHONE_NUMBER", "212 555 0187")
    assert first.startswith("<PHONE_NUMBER:") and first == Redactor(CleanConfig(action="hash"), "d2").replacement(
        "PHONE_NUMBER", "212 555 0187")
    monkeypatch.delenv("MMRC_USER_SALT")
    monkeypatch.delenv("MMRC_PII_SALT", raising=False)
    with pytest.raises(ConfigError, match="salt"):
        Redactor(CleanConfig(action="hash"), "d1").replacement("PERSON", "Anna")


def test_unknown_entities_and_actions_list_the_valid_ones():
    with pytest.raises(ConfigError, match="available: PERSON"):
        CleanConfig(entities=("PASSPORT_NO",))
    with pytest.raises(ConfigError, match="available: placeholder, surrogate, hash"):
        CleanConfig(action="mask")


def test_contractions_without_apostrophes_are_english_words_and_no_first_names():
    from builder.clean.names import first_names
    from builder.clean.truecase import APOSTROPHE_LESS, is_english_word, truecase

    assert not APOSTROPHE_LESS & set(first_names())
    assert all(is_english_word(w) for w in ("whats", "dont", "youre", "theyll", "shes", "couldve"))
    assert truecase("hey whats up, dont be late fernando") == "hey whats up, dont be late Fernando"


@pytest.mark.parametrize("text,value,entity", [
    ("ok 4929\u00a01234\u00a05678\u00a09013 there", "4929\u00a01234\u00a05678\u00a09013", "ID_NUMBER"),
    ("my visa is 4929\u202f1234\u202f5678\u202f9013", "4929\u202f1234\u202f5678\u202f9013", "CREDIT_CARD"),
    ("call me on 0176\u20092234\u20099981", "0176\u20092234\u20099981", "PHONE_NUMBER"),
    ("my number is 212\u2011555\u20110187", "212\u2011555\u20110187", "PHONE_NUMBER"),
    ("my zip code is \uff19\uff10\uff12\uff11\uff10", "\uff19\uff10\uff12\uff11\uff10", "ZIP_CODE"),
])
def test_values_written_with_unicode_spaces_hyphens_or_wide_digits_are_found_at_their_offsets(text, value, entity):
    from builder.clean.pii import PiiDetector

    spans = PiiDetector(CleanConfig()).scan([text])[0].spans
    assert [(text[s["start"]:s["end"]], s["entity"]) for s in spans] == [(value, entity)]


def test_a_lone_surrogate_is_scanned_as_a_replacement_character_at_the_same_offsets():
    """Half a UTF-16 pair from a broken log made spaCy's tokenizer raise UnicodeEncodeError; the
    scan now reads it as U+FFFD (one character for one) and still finds what is around it."""
    from builder.clean.pii import PiiDetector

    text = "hi Anna \ud800 call me at (212) 555-0187 tomorrow"
    spans = PiiDetector(CleanConfig()).scan([text, "\udfff"])
    assert [(text[s["start"]:s["end"]], s["entity"]) for s in spans[0].spans] == [
        ("Anna", "PERSON"), ("(212) 555-0187", "PHONE_NUMBER")]
    assert spans[1].spans == []


def test_a_record_line_written_with_number_hyphens_counts_for_nothing_in_the_coherence_share():
    """The finders read U+2011 as "-" (pii.PLAIN); the coherence share reads the record the same way."""
    from builder.clean.redact import replaced_share

    spans = [{"start": 0, "end": 8}, {"start": 10, "end": 20}, {"start": 22, "end": 34}]
    assert replaced_share("Jane Roe, 1 May 1990, 212\u2011555\u20110187", spans) == 0.0
    assert replaced_share("Jane Roe 1 May 1990 212 555 0187 ok", [{"start": 0, "end": 8}]) == round(1 / 8, 4)


def test_a_record_written_one_field_per_line_counts_for_nothing_in_the_coherence_share():
    """With surrogates in its fields a record block reads as the same record."""
    from builder.clean.redact import replaced_share

    text = "Ana Ruiz\n03/12/1990\n62598822"
    spans = [{"start": 0, "end": 8}, {"start": 9, "end": 19}, {"start": 20, "end": 28}]
    assert replaced_share(text, spans) == 0.0
    assert replaced_share("Agenda\nTom Lee\n03/12/2024", [{"start": 7, "end": 14}, {"start": 15, "end": 25}]) == round(2 / 3, 4)


def test_a_cued_plate_with_two_digits_reaches_the_scan():
    """possible_entities skips an entity in a turn with fewer digits than any of its values holds:
    ID_NUMBER's floor was four, so "DS75 YXN" (two digits) was found and then silently dropped."""
    from builder.clean.pii import PiiDetector

    text = "i really shouldnt post this but my licence plate is DS75 YXN, can u see if its legit"
    spans = PiiDetector(CleanConfig()).scan([text])[0].spans
    assert [(text[s["start"]:s["end"]], s["entity"]) for s in spans] == [("DS75 YXN", "ID_NUMBER")]


def test_a_surname_that_is_also_a_title_word_and_an_interjection_before_a_comma():
    """"king" never starts a name ("hey king") but ends one ("my name is ayse king"); "Uhm," opening
    the next line is neither a vocative nor a town closing the address above it."""
    from builder.clean.addresses import find_streets
    from builder.clean.names import cued_names

    text = "my name is ayse king and i live on 80 rue des lilas\nUhm, well BYU was close"
    assert [(text[s:e], basis) for s, e, _, _, basis in cued_names(text)] == [("ayse king", "intro")]
    assert [text[s:e] for s, e, _, _ in find_streets(text)] == ["80 rue des lilas"]
    assert cued_names("hey king, what's up") == []

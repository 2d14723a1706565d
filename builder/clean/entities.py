"""Every PII entity the clean stage knows, with all its facts in one row.

A new finder is one file (its ``find`` function) and one row here: which finder reports it, the
fewest digits a match can hold (a cheap test that skips finders on texts without them), whether
it is a structured value (contact or account data: a dialogue that holds one the user typed is
about the user's own affairs), whether a chat model makes such values up (an example IP in an
answer is nobody's unless the user gave it), what its surrogate looks like, its score threshold,
and whether it is scrubbed by default.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Entity:
    name: str
    finder: str  # who reports it (builder/clean/recognizers.py)
    min_digits: int = 0
    structured: bool = False
    model_made: bool = False  # a chat model invents such values in examples
    surrogate: str = "placeholder"  # person|email|phone|ssn|digits|iban|ip|url|street|city|date|handle|placeholder
    threshold: float = 0.5
    default: bool = True
    match_as_written: bool = False  # looked up in the user's text as written (else by its letters and digits)


ENTITIES: dict[str, Entity] = {e.name: e for e in (
    Entity("PERSON", "names.py (NER + context), cued_names", threshold=0.8, surrogate="person"),
    Entity("EMAIL_ADDRESS", "presidio EmailRecognizer (offline), spelled.find_spelled", structured=True, model_made=True, surrogate="email",
           match_as_written=True),
    Entity("PHONE_NUMBER", "numbers.find_phones, spelled.find_spelled", min_digits=6, structured=True, model_made=True, surrogate="phone",
           threshold=0.4),
    Entity("CREDIT_CARD", "numbers.find_cards", min_digits=3, structured=True, model_made=True, surrogate="digits"),
    Entity("IBAN_CODE", "presidio IbanRecognizer", min_digits=8, structured=True, model_made=True, surrogate="iban"),
    Entity("IP_ADDRESS", "presidio IpRecognizer", min_digits=1, model_made=True, surrogate="ip", match_as_written=True),
    Entity("US_SSN", "presidio UsSsnRecognizer, cued SSN", min_digits=9, structured=True, model_made=True,
           surrogate="ssn"),
    Entity("STREET_ADDRESS", "addresses.find_streets", min_digits=0, structured=True, surrogate="street"),
    Entity("ZIP_CODE", "numbers.find_postal_codes", min_digits=2, structured=True, surrogate="digits"),
    Entity("US_DRIVER_LICENSE", "numbers.find_ids", min_digits=1, structured=True, model_made=True, surrogate="digits"),
    Entity("ID_NUMBER", "numbers.find_ids (cued), numbers.find_identifiers (shape)", min_digits=2, structured=True, model_made=True, surrogate="digits"),
    Entity("URL", "presidio UrlRecognizer + the URL policy (precision.py)", surrogate="url"),
    Entity("DATE_OF_BIRTH", "dates.find_birth_dates", min_digits=1, structured=True, surrogate="date"),
    Entity("USERNAME", "handles.find_handles", structured=True, model_made=True, surrogate="handle"),
    Entity("PASSWORD", "handles.find_handles", structured=True, model_made=True),
    Entity("LOCATION", "NER GPE/LOC", surrogate="city", default=False),
    Entity("US_PASSPORT", "presidio UsPassportRecognizer", min_digits=6, structured=True, model_made=True,
           surrogate="digits", default=False),
    Entity("US_BANK_NUMBER", "presidio UsBankRecognizer", min_digits=8, structured=True, model_made=True,
           surrogate="digits", default=False),
    Entity("CRYPTO", "presidio CryptoRecognizer", default=False),
    Entity("MAC_ADDRESS", "presidio MacAddressRecognizer", default=False),
)}

DEFAULT_ENTITIES = tuple(name for name, e in ENTITIES.items() if e.default)
ALL_ENTITIES = tuple(ENTITIES)
STRUCTURED = frozenset(name for name, e in ENTITIES.items() if e.structured)
MODEL_MADE = frozenset(name for name, e in ENTITIES.items() if e.model_made)
DEFAULT_THRESHOLDS = tuple((name, e.threshold) for name, e in ENTITIES.items() if e.threshold != 0.5)

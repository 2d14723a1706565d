"""What a PII span becomes: a typed placeholder, a consistent surrogate, or a salted hash.

Surrogates are consistent within a dialogue: the seed is (dialogue id, entity, normalised
value), and person names are replaced token by token, so "Anna Berg" in turn 0 and "Anna"
in turn 3 become "Mira Holt" and "Mira". Fake values come from reserved ranges where one
exists (555-01xx phone lines, 192.0.2.0/24 and 2001:db8:: addresses, example.com).
"""

from __future__ import annotations

import hashlib
import os
import random
import re

from builder.clean.handles import HANDLE_MARKERS
from builder.errors import ConfigError

FIRST_NAMES = (
    "Alex", "Bea", "Cleo", "Dario", "Edda", "Finn", "Greta", "Hugo", "Ines", "Jonas", "Kira", "Lars", "Mira",
    "Nils", "Oona", "Pavel", "Quinn", "Rosa", "Sami", "Tove", "Ugo", "Vera", "Wim", "Xenia", "Yara", "Zeno",
)
LAST_NAMES = (
    "Arden", "Brook", "Calder", "Dunmore", "Ellery", "Fairlie", "Garrow", "Holt", "Ivers", "Jessop", "Kettle",
    "Lowry", "Marlow", "Nesbit", "Orme", "Penhale", "Quarry", "Rook", "Sallow", "Tarrant", "Upward", "Vane",
    "Wexley", "Yardley",
)
STREETS = ("Elm", "Birch", "Harbour", "Mill", "Orchard", "Quarry", "Rowan", "Station", "Willow", "Linden")
STREET_KINDS = ("Street", "Road", "Lane", "Avenue", "Way")
MONTH_NAMES = ("January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
               "November", "December")
CITIES = ("Eastholm", "Northby", "Westerlea", "Southmere", "Ashford Vale", "Brightwater")


def _rng(*parts: str) -> random.Random:
    return random.Random(hashlib.sha256("\x1f".join(parts).encode("utf-8")).digest())


def _normal(value: str) -> str:
    return re.sub(r"\s+", " ", value.strip().lower())


def _case_like(template: str, word: str) -> str:
    if template.isupper() and len(template) > 1:
        return word.upper()
    if template.islower():
        return word.lower()
    return word


def _digits_like(value: str, rng: random.Random, keep_prefix_letters: bool = False) -> str:
    out = []
    for i, ch in enumerate(value):
        if ch.isdigit():
            out.append(str(rng.randrange(10)))
        elif ch.isalpha() and not (keep_prefix_letters and i < 2):
            out.append(rng.choice("ABCDEFGHJKLMNPRSTUVWXYZ"))
        else:
            out.append(ch)
    return "".join(out)


class Redactor:
    """Turns (entity, value) into its replacement for one dialogue."""

    def __init__(self, config, dialogue_id: str):
        self.config = config
        self.dialogue_id = dialogue_id
        self._salt: str | None = None  # read on the first hash
        self._names: dict[str, str] = {}

    def replacement(self, entity: str, value: str) -> str:
        action = self.config.action_for(entity)
        if action == "placeholder":
            return f"<{entity}>"
        if action == "hash":
            digest = hashlib.sha256(f"{self._hash_salt()}\x1f{entity}\x1f{_normal(value)}".encode()).hexdigest()
            return f"<{entity}:{digest[:10]}>"
        fake = self.surrogate(entity, value)
        return fake if _normal(fake) != _normal(value) else f"<{entity}>"

    def _hash_salt(self) -> str:
        if self._salt is None:
            env = self.config.hash_salt_env
            self._salt = os.environ.get(env) or os.environ.get("MMRC_USER_SALT") or ""
            if not self._salt:
                raise ConfigError(f"PII action 'hash' needs a secret salt: set {env} (or MMRC_USER_SALT); "
                                  "an unsalted hash of a phone number can be reversed by brute force")
        return self._salt

    def surrogate(self, entity: str, value: str) -> str:
        """A fake value of the entity's surrogate kind (entities.py), seeded by the dialogue and the value."""
        from builder.clean.entities import ENTITIES

        rng = _rng(self.dialogue_id, entity, _normal(value))
        kind = ENTITIES[entity].surrogate if entity in ENTITIES else "placeholder"
        if kind == "phone" and sum(c.isdigit() for c in value) >= 10:
            return f"+1-555-01{rng.randrange(100):02d}"
        if kind == "ssn":
            return f"9{rng.randrange(10)}{rng.randrange(10)}-{rng.randrange(10, 100)}-{rng.randrange(1000, 10000)}"
        make = {
            "person": lambda: self._person(value),
            "email": lambda: f"{rng.choice(FIRST_NAMES).lower()}.{rng.choice(LAST_NAMES).lower()}@example.com",
            "phone": lambda: _digits_like(value, rng),
            "digits": lambda: _digits_like(value, rng),
            "iban": lambda: _digits_like(value, rng, keep_prefix_letters=True),
            "ip": lambda: f"2001:db8::{rng.randrange(1, 0xffff):x}" if ":" in value else f"192.0.2.{rng.randrange(1, 255)}",
            "url": lambda: f"https://example.com/{rng.getrandbits(32):08x}",
            "street": lambda: f"{rng.randrange(1, 200)} {rng.choice(STREETS)} {rng.choice(STREET_KINDS)}",
            "city": lambda: rng.choice(CITIES),
            "date": lambda: f"{rng.randrange(1, 29)} {rng.choice(MONTH_NAMES)} {rng.randrange(1950, 2006)}",
            "handle": lambda: _handle_like(value, rng),
        }.get(kind)
        return make() if make else f"<{entity}>"

    def _person(self, value: str) -> str:
        tokens = value.split()
        out, first = [], True
        for token in tokens:
            core = token.strip(".,'\"")
            if core.lower() in ("mr", "mrs", "ms", "dr", "prof", "jr", "sr", "phd", "md", "ii", "iii") or not core:
                out.append(token)
                continue
            out.append(token.replace(core, _case_like(core, self._name_token(core, first=first))))
            first = False
        return " ".join(out)

    def _name_token(self, core: str, first: bool) -> str:
        """One fake per real name token per dialogue (first use fixes it), never shared by two."""
        key = core.lower()
        if key not in self._names:
            pool = FIRST_NAMES if first else LAST_NAMES
            start = _rng(self.dialogue_id, "PERSON", key).randrange(len(pool))
            taken = set(self._names.values())
            for step in range(len(pool) * 2):
                fake = (pool if step < len(pool) else LAST_NAMES + FIRST_NAMES)[(start + step) % len(pool)]
                if fake not in taken and fake.lower() != key:
                    break
            self._names[key] = fake
        return self._names[key]


def apply_spans(text: str, spans: list[dict], redactor: Redactor) -> tuple[str, list[dict]]:
    """Replace non-overlapping ``spans`` (start/end/entity/score in ``text``).

    Returns the cleaned text and the spans with offsets in the cleaned text."""
    pieces, cleaned, cursor, length = [], [], 0, 0
    for span in sorted(spans, key=lambda s: s["start"]):
        pieces.append(text[cursor:span["start"]])
        length += span["start"] - cursor
        new = redactor.replacement(span["entity"], text[span["start"]:span["end"]])
        cleaned.append({**span, "start": length, "end": length + len(new),
                        "action": redactor.config.action_for(span["entity"])})
        pieces.append(new)
        length += len(new)
        cursor = span["end"]
    pieces.append(text[cursor:])
    return "".join(pieces), cleaned


def _handle_like(value: str, rng) -> str:
    """A fake account handle with the real one's marker ("@", "$", "u/") and Discord tag, if any."""
    prefix = next((p for p in HANDLE_MARKERS if value.startswith(p)), "")
    tag = f"#{rng.randrange(1000, 10000)}" if re.search(r"#\d{4,5}$", value) else ""
    return f"{prefix}{rng.choice(FIRST_NAMES).lower()}_{rng.randrange(10, 1000)}{tag}"

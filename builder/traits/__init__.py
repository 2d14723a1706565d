"""Traits of a dialogue, tagged once: is there code, a story request, a worksheet, a puzzle, a
long paste, the user's own affairs, a public text, talk of sport and show business?

``clean`` computes them into the ``traits`` column (``[{name, turns}]``: the trait and the turns
where it holds); the PII policy (builder/clean/policy.py), swap's refusals and the toxicity
lexicon read them, so each question has one answer, computed one way, in one place. A trait
module holds its detector, why it matters (``WHY``) and examples the tests run (``EXAMPLES``).
A later stage given a folder without the column (an older clean, or clean skipped) tags the
dialogue itself with the same code.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from builder.traits import (code, exercise, fiction, long_paste, peer_chat, personal_affairs, public_life, public_text,
                            puzzle, verse_request)


@dataclass(frozen=True)
class Trait:
    name: str
    scope: str  # "turn": holds for some turns; "dialogue": for the dialogue as a whole
    why: str
    examples: tuple  # (turn text, or a list of turn texts or (role, text) pairs for a dialogue trait; expected)
    detect: Callable  # turn dict -> bool, or list of turn dicts -> bool (scope "dialogue")
    role: str = "user"  # the role of the turns the examples are (fiction reads model turns too)


TRAITS: tuple[Trait, ...] = (
    Trait("code", "turn", code.WHY, code.EXAMPLES, code.detect),
    Trait("long_paste", "turn", long_paste.WHY, long_paste.EXAMPLES, long_paste.detect),
    Trait("fiction", "turn", fiction.WHY, fiction.EXAMPLES, fiction.detect),
    Trait("verse_request", "turn", verse_request.WHY, verse_request.EXAMPLES, verse_request.detect),
    Trait("exercise", "turn", exercise.WHY, exercise.EXAMPLES, exercise.detect),
    Trait("coursework", "turn", exercise.COURSEWORK_WHY, exercise.COURSEWORK_EXAMPLES, exercise.detect_coursework),
    Trait("puzzle", "turn", puzzle.WHY, puzzle.EXAMPLES, puzzle.detect),
    Trait("personal_affairs", "turn", personal_affairs.WHY, personal_affairs.EXAMPLES, personal_affairs.detect),
    Trait("public_text", "turn", public_text.WHY, public_text.EXAMPLES, public_text.detect),
    Trait("public_life", "dialogue", public_life.WHY, public_life.EXAMPLES,
          lambda turns: public_life.about_public_life([t.get("text") or "" for t in turns])),
    Trait("peer_chat", "dialogue", peer_chat.WHY, peer_chat.EXAMPLES, peer_chat.detect),
)
NAMES = tuple(t.name for t in TRAITS)


class Traits:
    """The traits of one dialogue: ``has(name)``, ``at(name, turn)``, ``turns(name)``."""

    def __init__(self, found: dict[str, tuple[int, ...]]):
        self.found = found

    def has(self, name: str) -> bool:
        return name in self.found

    def at(self, name: str, turn: int) -> bool:
        return turn in self.found.get(name, ()) or (name in self.found and not self.found[name])

    def names_at(self, turn: int) -> frozenset[str]:
        """The traits that hold at ``turn`` (a dialogue trait holds at every turn)."""
        return frozenset(name for name in self.found if self.at(name, turn))

    def turns(self, name: str) -> tuple[int, ...]:
        return self.found.get(name, ())

    def to_column(self) -> list[dict]:
        """The ``traits`` column value: a dialogue trait has no turns."""
        return [{"name": name, "turns": list(self.found[name])} for name in NAMES if name in self.found]

    @classmethod
    def from_column(cls, value) -> "Traits":
        return cls({entry["name"]: tuple(entry["turns"] or ()) for entry in value or []})


def tag(turns: list[dict]) -> Traits:
    """Every trait of a dialogue (``turns``: dicts with role and text)."""
    found: dict[str, tuple[int, ...]] = {}
    for trait in TRAITS:
        if trait.scope == "dialogue":
            if trait.detect(turns):
                found[trait.name] = ()
            continue
        where = tuple(i for i, turn in enumerate(turns) if trait.detect(turn))
        if where:
            found[trait.name] = where
    return Traits(found)


def column_values(frame) -> list | None:
    """Each row's ``traits`` column value, or None for a frame without the column (a folder clean
    never saw): the reader then tags the dialogues itself."""
    return frame["traits"].to_list() if "traits" in frame.columns else None


def select_with_traits(scan, columns: list[str]):
    """``scan.select(columns)``, with the ``traits`` column too where the folder has one."""
    return scan.select(columns + (["traits"] if "traits" in scan.collect_schema().names() else []))


def of_row(row: dict) -> Traits:
    """A dialogue row's traits: its ``traits`` column, or tagged now when the column is empty."""
    value = row.get("traits")
    return Traits.from_column(value) if value is not None else tag(row["turns"])

"""Which original dialogues a release keeps, and why the others are left out.

Every filter returns the dialogues it keeps and the ids it leaves out under a stable reason
(``takedown``, ``language_not_selected``, ``not_annotated``), so the card's funnel counts them.
A dialogue's language is read again with the tool's one language identifier
(``builder.language``, the same lingua that ``clean`` uses): what the card and ``--languages``
go by is what the text is in, not what a log's metadata claimed. When the text is too short or
too mixed to tell, the recorded language stays; when there is none, it is ``und``.
"""

from __future__ import annotations

import polars as pl

from builder.errors import ConfigError
from builder.records import ABILITIES

UNDETERMINED = "und"  # as clean's --languages: a dialogue whose language cannot be told


def check_language_codes(codes: tuple[str, ...]) -> None:
    bad = [c for c in codes if not (len(c) == 2 and c.isalpha() and c.islower()) and c != UNDETERMINED]
    if bad:
        raise ConfigError(f"--languages {bad[0]!r} is not an ISO 639-1 code (two lower-case letters, e.g. en,de) "
                          f"or '{UNDETERMINED}' (undetermined)")


def detect_languages(dialogues: pl.DataFrame) -> tuple[pl.DataFrame, int]:
    """``dialogues`` with ``language`` set from the text; and how many recorded languages changed."""
    if not dialogues.height:
        return dialogues, 0
    from builder.language import detect_many, dialogue_text

    recorded = dialogues["language"].to_list()
    found = detect_many([dialogue_text(turns or []) for turns in dialogues["turns"].to_list()])
    final = [new or old for new, old in zip(found, recorded)]
    changed = sum(1 for new, old in zip(found, recorded) if new and old and new != old)
    return dialogues.with_columns(pl.Series("language", final, dtype=pl.String)), changed


def by_language(dialogues: pl.DataFrame, wanted: tuple[str, ...]) -> tuple[pl.DataFrame, list[str]]:
    if not wanted:
        return dialogues, []
    code = pl.col("language").fill_null(UNDETERMINED)
    return dialogues.filter(code.is_in(list(wanted))), dialogues.filter(~code.is_in(list(wanted)))["dialogue_id"].to_list()


def missing_abilities(dialogues: pl.DataFrame) -> dict[str, list[str]]:
    """dialogue_id -> the abilities it has no question for (only dialogues that lack some)."""
    have = dialogues.select("dialogue_id", pl.col("questions").list.eval(pl.element().struct.field("ability")))
    out = {}
    for did, abilities in have.iter_rows():
        missing = [a for a in ABILITIES if a not in set(abilities or [])]
        if missing:
            out[did] = missing
    return out


def fully_annotated(dialogues: pl.DataFrame) -> tuple[pl.DataFrame, list[str]]:
    """Only the dialogues with a question for each of the six abilities."""
    lacking = sorted(missing_abilities(dialogues))
    return dialogues.filter(~pl.col("dialogue_id").is_in(lacking)), lacking

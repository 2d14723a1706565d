"""Redact one dialogue: spread detected values to every turn, replace them, judge coherence.

MMRC deletes personal segments, or removes the whole dialogue when its coherence is
compromised. Coherence is judged on the turn as it reads after replacement: a turn in which
replacements (each one unit) are more than ``max_redacted_share`` of its units (replacements and
the words outside them), with at least ``coherence_min_spans`` replacements, is unreadable and must
be deleted (a pasted record's line counts for nothing: it reads the same with surrogates);
policy ``drop`` then drops the dialogue (``pii_coherence``), ``delete_exchange`` removes the
turn with its partner (the user question and the answers to it) and keeps the dialogue
while enough of it is left.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from builder.clean import policy
from builder.clean.context_names import add_lower_case_names, add_unfound_names, complete_lower_case_names
from builder.clean.context_numbers import add_unfound_numbers
from builder.clean.context_streets import add_streets
from builder.clean.names import PARTICLES, lower_case_first_name
from builder.clean.pii import TurnScan, plain, resolve_overlaps
from builder.clean.precision import NOT_NAMES, is_public
from builder.clean.records import record_blocks, record_lines
from builder.clean.suppressions import Context
from builder.clean.surrogates import Redactor, apply_spans
from builder.clean.truecase import is_english_word
from builder.traits import Traits, tag


@dataclass
class Redaction:
    turns: list[dict]
    spans: list[dict]  # the `pii` field: turn, start, end, entity, score, action (cleaned offsets)
    reason: str | None = None  # pii_coherence | pii_timeout when the dialogue must go
    deleted_turns: list[int] = field(default_factory=list)
    shares: dict[int, float] = field(default_factory=dict)
    evidence: list[dict] = field(default_factory=list)  # the spans that made turns go (original offsets)
    suppressed: list[dict] = field(default_factory=list)  # found, then kept by a named rule (suppressed_by)
    by_model: dict[str, int] = field(default_factory=dict)  # values redacted on a context model's reading


SENTENCE_START = re.compile(r"(?:^|[.!?:;\n]\s*|[\"“(]\s*)$")
URL_IN_TEXT = re.compile(r"\bhttps?://[^\s<>\"')\]]+|\bwww\.[^\s<>\"')\]]+", re.I)


def _spreadable_part(part: str) -> bool:
    """A part of a found name that may be looked for elsewhere: capitalised, three letters or
    more, not a stop word, a chat word or a public name."""
    return (len(part) >= 3 and part[0].isupper() and not part.isupper() and part.lower() not in NOT_NAMES
            and not is_public(part))


def spread_values(texts: list[str], scans: list[TurnScan]) -> dict[str, tuple[str, float, bool]]:
    """``{value: (entity, score, common_word)}`` of everything found, name parts included.

    A name is looked for with its exact case ("Anna" but not "anna", never "the"); a name found
    in lower case also in title case, and its parts that are census first names and at most nouns in
    lower case too ("lucas" ... "lucas was mad"; never "für" of a German clause NER took). A name
    found in lower case is looked for whole in lower case too ("dean kowalski"). A name
    found as a single word that is also an English word ("Material", "Lily") is not looked
    for elsewhere; as a part of a longer name ("Will Turner") it is looked for only inside a
    sentence, never as its first word ("Will you...")."""
    values: dict[str, tuple[str, float, bool]] = {}
    for text, scan in zip(texts, scans):
        for s in scan.spans:
            value = text[s["start"]:s["end"]]
            if s.get("basis") == "first_person":
                continue  # a guess from grammar alone is redacted where it stands, never looked for elsewhere
            if s["entity"] != "PERSON":
                if len(value) >= 4:
                    values.setdefault(value, (s["entity"], s["score"], False))
                continue
            if value.islower():  # "my name praba": the model will write "Praba", a person "praba" again
                if len(value.split()) > 1:
                    values.setdefault(value, ("PERSON", s["score"], False))  # "dean kowalski" whole, never half
                for part in value.split():
                    part = part.strip(".,'\"’")
                    if part not in NOT_NAMES and part not in PARTICLES and lower_case_first_name(part):
                        values.setdefault(part, ("PERSON", s["score"], False))
                value = value.title()
            words = value.split()
            if len(words) > 1 or (_spreadable_part(value.strip(".,'\"")) and not is_english_word(value)):
                values.setdefault(value, ("PERSON", s["score"], False))
            for part in words:
                part = part.strip(".,'\"’")
                if _spreadable_part(part):
                    values.setdefault(part, ("PERSON", s["score"], is_english_word(part)))
    return values


def propagate(texts: list[str], scans: list[TurnScan]) -> list[list[dict]]:
    """A value found in one turn is redacted in every turn (models echo user data), and so is
    each part of a found person name ("Anna Berg" -> "Anna" elsewhere), with the care of
    :func:`spread_values`; a URL that holds a found name ("linkedin.com/in/anna-berg") goes too."""
    values = spread_values(texts, scans)
    if not values:
        return [list(scan.spans) for scan in scans]
    pattern = re.compile(r"(?<![\w@])(" + "|".join(re.escape(v) for v in sorted(values, key=len, reverse=True))
                         + r")(?![\w@])")
    names = [v.lower() for v, (entity, _, _) in values.items() if entity == "PERSON" and len(v) >= 4]
    out = []
    for text, scan in zip(texts, scans):
        found = list(scan.spans)
        for m in pattern.finditer(text):
            entity, score, common = values[m.group(1)]
            if common and SENTENCE_START.search(text[max(0, m.start() - 3):m.start()]):
                continue
            found.append({"start": m.start(), "end": m.end(), "entity": entity, "score": score})
        for m in URL_IN_TEXT.finditer(text):
            if _url_names(m.group(), names):
                found.append({"start": m.start(), "end": m.end(), "entity": "URL", "score": 0.85})
        out.append(resolve_overlaps(found))
    return out


def _url_names(url: str, names: list[str]) -> bool:
    """True when a found name stands in the URL, with any separator ("anna-berg", "anna_berg",
    "annaberg")."""
    flat = re.sub(r"[^\w]|_", "", url.lower())
    for name in names:
        parts = [p for p in re.split(r"\W+", name) if p]
        if len(parts) > 1 and "".join(parts) in flat:
            return True
        if len(parts) == 1 and len(parts[0]) >= 5 and re.search(rf"(?<![a-z]){re.escape(parts[0])}(?![a-z])",
                                                                    url.lower()):
            return True
    return False


def redact_dialogue(dialogue_id: str, turns: list[dict], scans: list[TurnScan], config,
                    traits: Traits | None = None) -> Redaction:
    texts = [t["text"] or "" for t in turns]
    if any(scan.timed_out for scan in scans):
        return Redaction(turns, [], reason="pii_timeout",
                         deleted_turns=[i for i, s in enumerate(scans) if s.timed_out])
    traits = traits if traits is not None else tag(turns)
    if config.judges_person_context:
        scans = add_unfound_names(turns, texts, scans, traits, config.chunk_chars)
    if config.judges_lower_case_names:
        scans = add_lower_case_names(turns, texts, scans, traits, config.chunk_chars)
    scans = complete_lower_case_names(texts, scans)
    if config.judges_street_context:  # before the numbers: a house number is the street's
        scans = add_streets(turns, texts, scans, traits, config.chunk_chars)
    if config.judges_number_context:
        scans = add_unfound_numbers(turns, texts, scans, traits, config.entities, config.chunk_chars)
    ctx = Context(turns, texts, scans, traits, config)
    suppressed = [{**sp, "turn": i} for i, scan in enumerate(scans) for sp in scan.suppressed]
    suppressed += policy.apply(ctx)
    by_model = model_decisions(ctx.scans)
    per_turn = propagate(texts, ctx.scans)
    redactor = Redactor(config, dialogue_id)
    shares, too_much = {}, []
    for index, (text, spans) in enumerate(zip(texts, per_turn)):
        if spans:
            shares[index] = replaced_share(text, spans)
            # Judged as the turn reads after replacement: a replaced value is one unit, however long
            # ("I live at <STREET_ADDRESS>" reads fine), and one replaced answer ("Anna") is no
            # incoherence: it takes several replacements crowding out the words.
            if shares[index] > config.max_redacted_share and len(spans) >= config.coherence_min_spans:
                too_much.append(index)
    evidence = [{"turn": i, "start": s["start"], "end": s["end"], "entity": s["entity"],
                 "score": round(float(s["score"]), 4)} for i in too_much for s in per_turn[i]]
    cleaned_turns, pii = [], []
    for index, (turn, text, spans) in enumerate(zip(turns, texts, per_turn)):
        new_text, new_spans = apply_spans(text, spans, redactor) if spans else (text, [])
        cleaned_turns.append({**turn, "text": new_text})
        pii.append(new_spans)
    if not too_much:
        return Redaction(cleaned_turns, _flat(pii), shares=shares, suppressed=suppressed, by_model=by_model)
    if config.coherence == "drop":
        return Redaction(turns, [], reason="pii_coherence", deleted_turns=too_much, shares=shares, evidence=evidence,
                         suppressed=suppressed)
    gone = _exchanges(turns, too_much)
    left = [i for i in range(len(turns)) if i not in gone]
    if (len(left) < 2 or len(gone) / len(turns) > config.max_deleted_turn_share
            or not any(turns[i]["role"] == "user" for i in left)):
        return Redaction(turns, [], reason="pii_coherence", deleted_turns=sorted(gone), shares=shares,
                         evidence=evidence, suppressed=suppressed)
    kept_turns = [{**cleaned_turns[i], "index": new} for new, i in enumerate(left)]
    kept_pii = [[{**s} for s in pii[i]] for i in left]
    return Redaction(kept_turns, _flat(kept_pii), deleted_turns=sorted(gone), shares=shares, evidence=evidence,
                     suppressed=suppressed, by_model=by_model)


def model_decisions(scans: list[TurnScan]) -> dict[str, int]:
    """How many spans the policy kept stand on a context model's reading: a found name on the second
    side of a person-to-person chat (``person_context_found``), a word no finder found
    (``person_context_unfound``, basis ``context``), a number no finder found (``number_context``), a
    name typed in lower case (``lower_case_name``; ``lower_case_name_reread`` counts those of them the
    second reading took, context_names.read_as_people), a street no form found (``street_context``) and a
    found street the model widened (``street_context_grown``)."""
    out: dict[str, int] = {}
    for scan in scans:
        for s in scan.spans:
            if s.get("private_context") is not None:
                key = "person_context_unfound" if s.get("basis") == "context" else "person_context_found"
                out[key] = out.get(key, 0) + 1
            elif s.get("street_context") is not None:
                out["street_context"] = out.get("street_context", 0) + 1
            elif s.get("street_context_grown"):
                out["street_context_grown"] = out.get("street_context_grown", 0) + 1
            elif s.get("number_context") is not None:
                out["number_context"] = out.get("number_context", 0) + 1
            elif s.get("lower_case_name") is not None:
                out["lower_case_name"] = out.get("lower_case_name", 0) + 1
                if s.get("capitalised_reading"):
                    out["lower_case_name_reread"] = out.get("lower_case_name_reread", 0) + 1
    return out


def replaced_share(text: str, spans: list[dict]) -> float:
    """The share of a turn's units that replacements are, after replacement: each replaced span
    counts one unit, each word outside the spans one. A pasted record (records.py: a line, or one
    field per line) counts for nothing: with surrogates in its fields it reads as the same record
    ("Jane Roe, 1 May 1990, jane@example.com"), however much of it was replaced. Records are read in
    the finders' plain characters (pii.PLAIN: one for one, so at the same offsets)."""
    read = plain(text)
    records = [(s, e) for s, e, _ in record_lines(read) + record_blocks(read)]
    spans = [sp for sp in spans if not any(s <= sp["start"] and sp["end"] <= e for s, e in records)]
    for s, e in sorted(records, reverse=True):
        text = text[:s] + " " * (e - s) + text[e:]
    if not spans:
        return 0.0
    outside, pos = [], 0
    for span in sorted(spans, key=lambda s: s["start"]):
        outside.append(text[pos:span["start"]])
        pos = max(pos, span["end"])
    outside.append(text[pos:])
    words = len(re.findall(r"\w+", " ".join(outside)))
    return round(len(spans) / (len(spans) + words), 4)


def _exchanges(turns: list[dict], indices: list[int]) -> set[int]:
    """A user turn goes with the assistant turns answering it; an answer goes with its question."""
    gone: set[int] = set()
    for i in indices:
        start = i
        while start > 0 and turns[start]["role"] != "user":
            start -= 1
        end = start + 1
        while end < len(turns) and turns[end]["role"] != "user":
            end += 1
        gone.update(range(start, end))
    return gone


def _flat(per_turn: list[list[dict]]) -> list[dict]:
    return [{"turn": i, "start": s["start"], "end": s["end"], "entity": s["entity"],
             "score": round(float(s["score"]), 4), "action": s["action"]}
            for i, spans in enumerate(per_turn) for s in spans]

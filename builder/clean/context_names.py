"""Names no finder found, proposed by their shape and judged by the person-context model.

NER misses names it has not seen ("Chiamaka got the job", "Aisling") and most names typed in
lower case ("picking up lucas and ana", "dawn said she'd cover"). Two kinds of word are proposed
here, where no found value stands:

- ``census``: a known first name (US census) that as an English word is at most a noun ("sarah",
  "tyler"; never "mark", "grace" or "will", which are verbs and adjectives too);
- ``capital``: a capitalised word inside a sentence that is no English word ("with Chiamaka"),
  unless NER takes it for another entity (a place, a work, an organisation: "Machu Picchu"; NER
  reads lower-case text truecased, so its labels there are no guide for ``census`` words).

Each is judged by the person-context model (classifiers/person_context) with the dialogue's
traits, in the turns a person typed (the user's, and the second side's in a person-to-person
chat: a model's names are public or invented) that are English, of chat size, with no code and no
long paste; one it reads as a
private person's becomes a PERSON span with basis ``context`` and
``private_context`` (its probability), so that the policy treats it like a name its own context
vouches for. The threshold for these candidates is the model's ``threshold_unfound``, chosen out of
fold on hand-labelled candidates of this kind.

Names typed in lower case that neither kind proposes or the person-context model does not take
("me and dean kowalski", "mama nkechi just called") are judged by a second model, the lower-case-name
model (classifiers/lower_case_name, ``add_lower_case_names``), which reads whether a lower-case word is
used as a name at all; the policy then decides whose name it is, as for NER's.
"""

from __future__ import annotations

import re
from dataclasses import replace

from builder.clean.names import (PARTICLES, PARTICLES_RE, first_names, last_names, lower_case_first_name, relation_word,
                                 unknown_name_word, whole_lower_case_name, whole_name)

WORD = re.compile(r"(?<![\w@#/.'’-])([^\W\d_][^\W\d_]{2,}(?:-[^\W\d_]{2,})?)(?![\w@/]|['’-]\w)")
SENTENCE_START = re.compile(r"(?:^|[.!?…:;]\s*|\n\s*|[\"“(]\s*)$")  # as redact.SENTENCE_START, and "…"


def candidates(text: str, spans: list[dict]) -> list[tuple[int, int, str]]:
    """``(start, end, kind)`` of the words of ``text`` that may be a name no finder found."""
    from builder.clean.truecase import is_english_word

    taken = [(s["start"], s["end"]) for s in spans]
    out = []
    for m in WORD.finditer(text):
        start, end, word = m.start(1), m.end(1), m.group(1)
        if any(a < end and start < b for a, b in taken):
            continue
        if lower_case_first_name(word.split("-")[0]) and (word.islower() or word.istitle()):
            out.append((start, end, "census"))
        elif (word[0].isupper() and word[1:].replace("-", "").islower() and not is_english_word(word)
              and not SENTENCE_START.search(text[max(0, start - 8):start])):
            out.append((start, end, "capital"))
    return out


def with_spans(scan, added: list[dict]):
    """``scan`` with the ``added`` spans among its own, in order of their start."""
    return replace(scan, spans=sorted([*scan.spans, *added], key=lambda s: s["start"])) if added else scan


def typed_chat_turn(turn: dict, text: str, i: int, traits, max_chars: int) -> bool:
    """A turn a person typed (the user's; the second side's in a person-to-person chat: a model's
    names and numbers are public or its examples), of chat size, with no code and no long paste:
    where the context models judge what no finder found."""
    typed = turn["role"] == "user" or (traits.has("peer_chat") and turn["role"] == "assistant")
    return (typed and bool(text) and len(text) <= max_chars and not traits.at("code", i)
            and not traits.at("long_paste", i))


def add_unfound_names(turns: list[dict], texts: list[str], scans: list, traits, max_chars: int = 4000) -> list:
    """The scans with a PERSON span added for each candidate the person-context model reads as a
    private person's (see the module docstring)."""
    from classifiers.person_context.model import load

    model = load()
    found = frozenset(traits.found)
    out = []
    for i, (turn, text, scan) in enumerate(zip(turns, texts, scans)):
        if not scan.english or not typed_chat_turn(turn, text, i, traits, max_chars):
            out.append(scan)
            continue
        added: list[dict] = []
        for start, end, kind in candidates(text, [*scan.spans, *scan.suppressed]):
            if kind == "capital" and any(a < end and start < b for a, b in scan.things):
                continue  # NER calls the unknown word a place, a work, an organisation: "Machu Picchu"
            if any(a["start"] < end and start < a["end"] for a in added):
                continue  # inside a name already taken with its surname
            p = model.probability(text, start, end, kind, turn["role"], found, traits.names_at(i))
            if p >= model.threshold_unfound:
                start, end = whole_name(text, start, end)  # never half a name: "Ksenia Abernathy"
                if text[start:end].islower():
                    start, end = whole_lower_case_name(text, start, end)  # "magdalena van der linde"
                added.append({"start": start, "end": end, "entity": "PERSON", "score": round(p, 3),
                              "basis": "context", "private_context": round(p, 3)})
        out.append(with_spans(scan, added))
    return out


def refused_for_case(text: str, span: dict) -> bool:
    """A PERSON span the value rules refused (``not_a_name``) though it reads as a name once
    capitalised: NER's "malgorzata", refused only because no word of it starts with a capital."""
    from builder.clean.precision import VALUE_RULES

    value = text[span["start"]:span["end"]]
    rule, allowed = VALUE_RULES["PERSON"]
    return (span.get("suppressed_by") == rule and span.get("entity") == "PERSON" and value.islower()
            and value.split()[0] not in ("the", "a", "an") and allowed(value.title()))  # "a jake": its article


def lower_word_guess(value: str) -> bool:
    """NER's label on lower-case words it has no capital to read by: one word ("marek" as an organisation), or
    a name's words only, census names, words no dictionary has and the particles between them ("maria de
    souza" as an organisation). No entity that settles the words: the lower-case-name model judges them."""

    bare = re.sub(r"['’]s$", "", value)  # "marek's"
    if bare.isalpha() and bare.islower():
        return True
    words = bare.split()
    return (bare.islower() and len(words) > 1 and all(w.isalpha() for w in words)
            and all(w in PARTICLES or w in first_names() or w in last_names() or unknown_name_word(w) for w in words)
            and any(w not in PARTICLES for w in words))


def slip_of_a_word(word: str) -> bool:
    """A word one slip of the keyboard from an English word ("peroid"), unless the census knows it as a
    first or last name: the dictionary lists people and places too, so a name is often one letter from
    one of them ("cheng" from "chang", "hassan" from "hassam", "keisha", "javier" from "xavier")."""
    from builder.clean.truecase import typo_of_english_word

    w = word.lower()
    return typo_of_english_word(w) and w not in first_names() and w not in last_names()


# A word the lower-case-name model half believes (at least this, under its threshold) gets a second
# reading: the turn again with such words capitalised, through the NER, which knows a name by where it
# stands once it looks like one ("the dinner for Ngozi"). The NER reads "my Funtion" as a person too,
# which is why the model must half believe the word first. A word over the threshold that the typo check
# refused ("jarvis") is not re-read: with it, the characters of chats about films went (chitchat tuning
# bench, fictional names damaged 11 -> 21); nor is a word beside a name the model took or beside another
# word being re-read (``beside``): capitalised together, a pair reads as a person ("Cherry Blossom").
SECOND_READING = 0.5


def beside(text: str, start: int, end: int, spans: list[dict]) -> bool:
    """Whether ``text[start:end]`` stands next to one of ``spans``, spaces between: a word beside a name
    the model took is that name's surname or no name ("tom yum goong", "cherry blossom"), which the
    name's own widening decides; capitalised with it, the NER reads the pair as a person."""
    def gap(a: int, b: int) -> bool:
        return a <= b and all(c.isspace() and c not in "\n\r" for c in text[a:b])

    return any(gap(s["end"], start) or gap(end, s["start"]) for s in spans)


def read_as_people(text: str, words: list[tuple[int, int, float]]) -> list[tuple[int, int, float]]:
    """The ``words`` (start, end, probability) that the NER reads as a person when the turn is read
    again with each of them capitalised: first with the words beside it that may be part of a name
    (``_beside_word``, up to two a side: "li wei chen" is read as "Li Wei Chen"), then, for those not read
    so, alone (one NER pass each; a letter whose capital is longer, "ß", is left as it is)."""
    if not words:
        return []
    with_names = _people_among(text, words, {a for s, e, _ in words
                                             for a, _ in (*[(s, e)], *[w for side in _name_run(text, s, e) for w in side])})
    rest = [w for w in words if w not in with_names]
    return with_names + (_people_among(text, rest, {s for s, _, _ in rest}) if rest else [])


def _name_run(text: str, start: int, end: int) -> tuple[list[tuple[int, int]], list[tuple[int, int]]]:
    """The words after and before ``text[start:end]`` (nearest first) that may be part of one name with it:
    up to two a side, each beside the last; a possessive ends the name ("keisha brown's mom")."""
    after: list[tuple[int, int]] = []
    at = end
    while len(after) < 2:
        m = _WORD_AFTER.match(text, at)
        word = m.group(1) if m else ""
        possessive = word.endswith(("'s", "’s"))
        word = word[:-2] if possessive else word
        if not (m and _beside_word(word, after=True)):
            break
        after.append((m.start(1), m.start(1) + len(word)))
        if possessive:
            break  # the name ends at its "'s"
        at = m.end(1)
    before: list[tuple[int, int]] = []
    at = start
    while len(before) < 2:
        m = _WORD_BEFORE.search(text, max(0, at - 40), at)
        if not (m and _beside_word(m.group(1))):
            break
        before.append((m.start(1), m.end(1)))
        at = m.start(1)
    return after, before


def _people_among(text: str, words: list[tuple[int, int, float]], capitals: set[int]) -> list[tuple[int, int, float]]:
    """The ``words`` inside a PERSON entity of the NER's reading of ``text`` with a capital at ``capitals``."""
    people = _people_read_capitalised(text, capitals)
    return [(s, e, p) for s, e, p in words if any(a <= s and e <= b for a, b in people)]


def _people_read_capitalised(text: str, capitals: set[int]) -> list[tuple[int, int]]:
    """``(start, end)`` of the PERSON entities the NER reads in ``text`` with a capital at ``capitals`` (one NER
    pass; a letter whose capital is longer, "ß", is left as it is)."""
    from builder.clean.pii import LONE_SURROGATE
    from builder.clean.recognizers import load_ner
    from builder.clean.truecase import capitalise_at

    # the NER cannot read a lone surrogate: U+FFFD instead, one for one
    capped = capitalise_at(LONE_SURROGATE.sub("\ufffd", text), sorted(capitals))
    return [(e.start_char, e.end_char) for e in load_ner()(capped).ents if e.label_ == "PERSON"]


def dictionary_person(word: str) -> bool:
    """A word the dictionary has as a noun only whose word vectors, capitalised, sit with people's names: one of
    the people WordNet lists by name ("lakshmi", "musa", "devi")."""
    from builder.clean.truecase import at_most_a_noun
    from builder.clean.word_kinds import kind_of

    return at_most_a_noun(word) and kind_of(word.title()) == "person"


def person_like_nouns(text: str) -> list[tuple[int, int]]:
    """``(start, end)`` of the lower-case words that the dictionary has as nouns only and whose word vectors,
    capitalised, sit with people's names, though no census lists them ("lakshmi", "ibrahim", "musa": WordNet
    lists deities, people and peoples by name, so they are English words to it and no candidates of the
    lower-case-name model). Not after an article ("the sami"), not alone on a line, not a stop word or slang."""
    from builder.clean.truecase import APOSTROPHE_LESS, SLANG, STOP_WORDS, is_english_word
    from classifiers.lower_case_name.features import DETERMINER, WORD, alone_on_its_line

    out = []
    for m in WORD.finditer(text):
        word = m.group(1)
        if (not word.islower() or word in STOP_WORDS or word in SLANG or word in APOSTROPHE_LESS or word in first_names()
                or any(ord(c) >= 0x250 for c in word) or not is_english_word(word)):
            continue
        if DETERMINER.search(text, max(0, m.start(1) - 12), m.start(1)) or alone_on_its_line(text, m.start(1), m.end(1)):
            continue
        if dictionary_person(word):
            out.append((m.start(1), m.end(1)))
    return out


def add_lower_case_names(turns: list[dict], texts: list[str], scans: list, traits, max_chars: int = 4000) -> list:
    """The scans with a PERSON span added for each lower-case word the lower-case-name model
    (classifiers/lower_case_name) reads as a name its writer did not capitalise ("went to the mall
    with jake", "hunter said no"), widened over the surname typed after it ("dean kowalski"), in the
    same turns as ``add_unfound_names``. The span's basis is ``lower_case_name`` and ``lower_case_name``
    holds the probability; the policy then judges it like any name (public figures, stories, puzzles).
    A word the dialogue writes elsewhere inside another entity NER found (a work, a place, an
    organisation: "alice" beside "Alice in Wonderland") is that entity's (but NER's label on one lower-case
    word alone, "marek" as an organisation, is only a guess: ``lower_word_guess``), and a word one slip of the
    keyboard away from an English word ("peroid") is that word: neither is guessed a name. A name NER
    found in lower case that the span rules refused only for its case (``not_a_name``: "malgorzata") is the
    model's to judge, not a word already decided."""
    from builder.clean.truecase import is_english_word
    from classifiers.lower_case_name.features import candidates as lower_words
    from classifiers.lower_case_name.model import load

    model = load()
    things = [[(a, b) for a, b in scan.things if not lower_word_guess(text[a:b])] for text, scan in zip(texts, scans)]
    in_things = {w.lower() for text, spans in zip(texts, things) for a, b in spans for w in WORD.findall(text[a:b])}
    out = []
    for i, (turn, text, scan) in enumerate(zip(turns, texts, scans)):
        if not scan.english or not typed_chat_turn(turn, text, i, traits, max_chars):
            out.append(scan)
            continue
        refused = [s for s in scan.suppressed if refused_for_case(text, s)]
        taken = [(s["start"], s["end"]) for s in (*scan.spans, *scan.suppressed) if s not in refused]
        taken += things[i]
        added: list[dict] = []
        unsure: list[tuple[int, int, float]] = []
        for start, end in lower_words(text):
            if (any(a < end and start < b for a, b in taken) or any(a["start"] < end and start < a["end"] for a in added)
                    or text[start:end] in in_things):
                continue
            p = model.probability(text, start, end)
            if p >= model.threshold and not slip_of_a_word(text[start:end]):  # the typo check only for a flag
                start, end = whole_lower_case_name(text, start, end)
                added.append({"start": start, "end": end, "entity": "PERSON", "score": round(p, 3),
                              "basis": "lower_case_name", "lower_case_name": round(p, 3)})
            elif SECOND_READING <= p < model.threshold:  # one over it that the typo check refused is not re-read
                unsure.append((start, end, p))
        for start, end in person_like_nouns(text):  # "lakshmi", "ibrahim": the dictionary's people, only re-read
            if not (any(a < end and start < b for a, b in taken) or any(a["start"] < end and start < a["end"] for a in added)
                    or any(a < end and start < b for a, b, _ in unsure) or text[start:end] in in_things):
                p = model.probability(text, start, end)
                if p >= SECOND_READING:
                    unsure.append((start, end, p))
        # a pair read again together reads as a person ("cherry blossom"), unless both words may be names ("wei chen")
        # and not both are English words of four letters or more ("cherry" and "blossom" are census names and
        # words; the dictionary's "li" and "wei", a unit and a dynasty, are no words of chat)
        named = {(s, e) for s, e, _ in unsure if _beside_word(text[s:e])}
        words = {(s, e) for s, e, _ in unsure if e - s > 3 and is_english_word(text[s:e].lower())}

        def one_name(x: tuple[int, int], y: tuple[int, int]) -> bool:
            return x in named and y in named and not (x in words and y in words)

        unsure = [(s, e, p) for s, e, p in unsure
                  if not beside(text, s, e, added) and not beside(text, s, e, [
                      {"start": a, "end": b} for a, b, _ in unsure if not one_name((s, e), (a, b))])]
        for start, end, p in read_as_people(text, unsure):
            start, end = whole_lower_case_name(text, start, end)  # over a span already found: merged later
            if not any(a["start"] < end and start < a["end"] for a in added):
                added.append({"start": start, "end": end, "entity": "PERSON", "score": round(p, 3),
                              "basis": "lower_case_name", "lower_case_name": round(p, 3), "capitalised_reading": True})
        overturned = [s for s in refused if any(a["start"] < s["end"] and s["start"] < a["end"] for a in added)]
        if overturned:  # a refusal the model overturned is no longer a kept span ("malgorzata": redacted, not kept)
            scan = replace(scan, suppressed=[s for s in scan.suppressed if s not in overturned])
        out.append(with_spans(scan, added))
    return out


# A lower-case name is completed by the words beside it that it leaves out: a census surname that is also
# an English word ("keisha brown", "teresa white"), a given name before it ("olga" of "olga ivanovna petrova"),
# a middle name ("priya devi sharma"), a surname across particles ("maria de souza"). Whether such words are
# part of the name is read as for the second reading (``read_as_people``): the turn once more through the NER
# with the name's words and the words beside it (up to two a side) capitalised; when one PERSON entity then
# holds them, the span takes them, and is read again while it grows. "keisha brown eyes" and "met jake
# yesterday" stay as they were when the NER, capitalised, does not read them as one name.
# Not completed: a span whose every word is also an adjective or a verb ("cherry"), nor over a word of three
# letters or fewer that is no first name and no surname after it ("yum"): capitalised, "Cherry Blossom" and
# "Tom Yum" read as people too (the demo's "cherry blossom season", "tom yum goong").
_WORD_AFTER = re.compile(r"[ \t]+([^\W\d_][^\W\d_'’-]+)")
_WORD_BEFORE = re.compile(r"([^\W\d_][^\W\d_'’-]+)[ \t]+$")
# a name word across the particles between it and the span ("maria [de souza]", "[magdalena] van der linde")
_PARTICLE_RUN = r"(?:[ \t]+(?:" + PARTICLES_RE + r")){1,3}"
_NAME_AFTER_PARTICLES = re.compile(_PARTICLE_RUN + r"[ \t]+([^\W\d_][^\W\d_'’-]+)")
_NAME_BEFORE_PARTICLES = re.compile(r"([^\W\d_][^\W\d_'’-]+)" + _PARTICLE_RUN + r"[ \t]+$")


def _beside_word(word: str, after: bool = False) -> bool:
    """A word that may be part of a name beside one: a census name (of any part of speech), no English word, or
    a noun the dictionary has whose vectors sit with people's names; never a stop word or chat slang. A word of
    three letters or fewer only as a census first name, or as a census surname after the span ("li wei
    chen", "david ng") that is at most a noun, so not the "yum" of "tom yum goong" nor "sam day". A census
    surname that is an English word only after the span, where a surname stands ("keisha brown")."""
    from builder.clean.precision import NOT_NAMES
    from builder.clean.truecase import APOSTROPHE_LESS, SLANG, STOP_WORDS, at_most_a_noun, is_english_word

    w = word.lower()
    if (not word.islower() or w in STOP_WORDS or w in SLANG or w in APOSTROPHE_LESS or w in NOT_NAMES or len(w) < 2
            or relation_word(w)):
        return False  # "my sister keisha": the relation is no part of the name, though "Sister" reads as one
    if len(w) <= 3 and w.isascii():
        return w in first_names() or after and w in last_names() and at_most_a_noun(w)  # "mary ann", "david ng"
    if w in last_names() and (after or not is_english_word(w)):
        return True  # an English word that is a census surname only as one: "keisha brown", not "button onlick"
    return w in first_names() or unknown_name_word(w) or dictionary_person(w)


def _name_over_particles(word: str, census: frozenset) -> bool:
    """A lower-case word that joins a name across particles: a census name of the side it stands on, or a word
    no dictionary has ("maria de souza", "ahmed bin rashid")."""

    return word.islower() and (word in census or unknown_name_word(word))


def complete_lower_case_names(texts: list[str], scans: list) -> list:
    """The scans with each lower-case PERSON span widened over the words beside it that the NER, reading the
    turn with those words capitalised, reads as part of the same person's name (``_complete_once``), read
    again while a span grew ("petrova" → "ivanovna petrova" → "olga ivanovna petrova"); then two person
    spans with only a middle initial or a short given name between them are joined (``_join_over_middle``)."""
    out = []
    for text, scan in zip(texts, scans):
        if scan.english:  # the NER reads English: capitalised, "kündige meinen" is a person to it
            for _ in range(WIDEST_COMPLETION):
                scan, grown = _complete_once(text, scan)
                if not grown:
                    break
        out.append(_join_over_middle(text, scan))
    return out


# Between two parts of one name: nothing but spaces, an initial ("mary j. smith") or a short given name ("anna
# mae jenkins"). A letter people type for "and", "or", "versus", "you" or "are" between two names joins
# nothing ("jake n amy", "ana y luis": names.PARTICLES "y", "e"; truecase.SLANG "u", "r", "k").
_MIDDLE = re.compile(r"[ \t]+(?:([^\W\d_]{1,3})(\.?)[ \t]+)?")
_JOINING_LETTERS = frozenset("n o x v y e u r k".split())


def _join_over_middle(text: str, scan):
    """``scan`` with two PERSON spans that only spaces, a middle initial or a short given name part made one."""
    spans = sorted(scan.spans, key=lambda s: s["start"])
    joined: list[dict] = []
    for span in spans:
        prev = joined[-1] if joined else None
        m = _MIDDLE.fullmatch(text, prev["end"], span["start"]) if prev else None
        if (prev is not None and m and prev.get("entity") == span.get("entity") == "PERSON"
                and (m.group(1) is None or len(m.group(1)) == 1 and (m.group(2) or m.group(1).lower() not in _JOINING_LETTERS)
                     or len(m.group(1)) > 1 and _beside_word(m.group(1)))):
            joined[-1] = {**prev, "end": span["end"]}
            continue
        joined.append(span)
    return scan if len(joined) == len(spans) else replace(scan, spans=joined)


WIDEST_COMPLETION = 3  # readings per turn: a name of up to four words found from one of them, in either order


def _complete_once(text: str, scan):
    """``scan`` with its lower-case PERSON spans widened over the name words beside them (``_name_run``, and
    a name across particles) where the NER reads the widened stretch, capitalised, as one person; and
    whether any span grew."""
    from builder.clean.truecase import at_most_a_noun, is_english_word

    asks = []  # (span, start, end): the span widened over the name words on a side
    for span in scan.spans:
        value = text[span["start"]:span["end"]]
        if (span.get("entity") != "PERSON" or not value.islower() or not any(c.isalpha() for c in value)
                or all(is_english_word(w) and not at_most_a_noun(w) for w in re.findall(r"[^\W\d_]+", value))):
            continue  # a name that is also an adjective or a verb ("cherry", "grace") beside a word: "cherry blossom"
        run_after, run_before = _name_run(text, span["start"], span["end"])
        asks += [(span, span["start"], b) for _, b in run_after] + [(span, a, span["end"]) for a, _ in run_before]
        after = _NAME_AFTER_PARTICLES.match(text, span["end"])  # only a name joins over "de la": no "maria de janeiro"
        if after and _name_over_particles(after.group(1), last_names()):
            asks.append((span, span["start"], after.end(1)))
        before = _NAME_BEFORE_PARTICLES.search(text, max(0, span["start"] - 60), span["start"])
        if before and _name_over_particles(before.group(1), first_names()):
            asks.append((span, before.start(1), span["end"]))
    taken = [(s["start"], s["end"]) for s in scan.spans]
    asks = [(sp, a, b) for sp, a, b in asks  # never over another found value
            if not any(x < b and a < y and (x, y) != (sp["start"], sp["end"]) for x, y in taken)]
    if not asks:
        return scan, False
    people = _people_read_capitalised(text, _starts(text, asks))
    widened: dict[int, tuple[int, int]] = {}
    for span, a, b in asks:
        if any(x <= a and b <= y for x, y in people):
            lo, hi = widened.get(id(span), (span["start"], span["end"]))
            widened[id(span)] = (min(lo, a), max(hi, b))
    if not widened:
        return scan, False
    spans = [{**s, "start": widened[id(s)][0], "end": widened[id(s)][1]} if id(s) in widened else s
             for s in scan.spans]
    return replace(scan, spans=spans), True


def _starts(text: str, asks) -> set[int]:
    """The first letter of every word of the asked stretches."""
    return {a + m.start() for _, a, b in asks for m in re.finditer(r"(?<![^\W\d_'’-])[^\W\d_]", text[a:b])}

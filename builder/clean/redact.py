"""Redact one dialogue: spread detected values to every turn, replace them, judge coherence.

MMRC deletes personal segments, or removes the whole dialogue when its coherence is
compromised. A turn whose redacted share exceeds ``max_redacted_share`` must be deleted;
policy ``drop`` then drops the dialogue (``pii_coherence``), ``delete_exchange`` removes the
turn with its partner (the user question and the answers to it) and keeps the dialogue
while enough of it is left.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace

from builder.clean.mentions import about_public_life, mentioned_not_people
from builder.clean.pii import TurnScan, resolve_overlaps
from builder.clean.precision import NOT_NAMES, PUBLIC_FIGURES, is_public
from builder.clean.samples import drop_values, keep_in_model_turns, sample_values, user_sourced_values
from builder.clean.truecase import is_english_word
from builder.clean.surrogates import Redactor, apply_spans


@dataclass
class Redaction:
    turns: list[dict]
    spans: list[dict]  # the `pii` field: turn, start, end, entity, score, action (cleaned offsets)
    reason: str | None = None  # pii_coherence | pii_timeout when the dialogue must go
    deleted_turns: list[int] = field(default_factory=list)
    shares: dict[int, float] = field(default_factory=dict)
    evidence: list[dict] = field(default_factory=list)  # the spans that made turns go (original offsets)


def user_sourced_names(turns: list[dict], texts: list[str], scans: list[TurnScan]) -> list[TurnScan]:
    """Drop PERSON spans in model turns that the user did not give: a chat model cannot know
    private people, so a name it brings up itself (Edward Everett, a film's director) is public
    knowledge or fiction. A model-turn name stays when a name found in a user turn holds it
    (propagate spreads those anyway) or when its own context vouches for it ("Dear Anna," in a
    drafted e-mail) and the user typed it; a word the user merely wrote ("Chicago Tylenol
    murders" -> "del Tylenol" in a Spanish title) is not enough."""
    user_text = " ".join(t for turn, t in zip(turns, texts) if turn["role"] == "user")
    user_names = {_bare(part) for turn, text, scan in zip(turns, texts, scans) if turn["role"] == "user"
                  for s in scan.spans if s["entity"] == "PERSON"
                  for part in [text[s["start"]:s["end"]], *text[s["start"]:s["end"]].split()]}

    def given(text: str, s: dict) -> bool:
        value = text[s["start"]:s["end"]]
        parts = [_bare(p) for p in [value, *value.split()]]
        return s["entity"] != "PERSON" or any(p in user_names for p in parts if len(p) >= 3) or (
            s.get("basis") not in WEAK and any(re.search(rf"(?<!\w){re.escape(p)}(?!\w)", user_text)
                                               for p in parts if len(p) >= 3))

    return keep_in_model_turns(turns, texts, scans, given)


def _bare(word: str) -> str:
    """A name or name part without surrounding punctuation or a possessive ("Anna's" -> "Anna")."""
    return word.strip(".,'\"’").removesuffix("’s").removesuffix("'s")


SENTENCE_START = re.compile(r"(?:^|[.!?:;\n]\s*|[\"“(]\s*)$")
URL_IN_TEXT = re.compile(r"\bhttps?://[^\s<>\"')\]]+|\bwww\.[^\s<>\"')\]]+", re.I)


def _spreadable_part(part: str) -> bool:
    """A part of a found name that may be looked for elsewhere: capitalised, three letters or
    more, not a stop word, a chat word or a public name."""
    return (len(part) >= 3 and part[0].isupper() and not part.isupper() and part.lower() not in NOT_NAMES
            and not is_public(part))


def spread_values(texts: list[str], scans: list[TurnScan]) -> dict[str, tuple[str, float, bool]]:
    """``{value: (entity, score, common_word)}`` of everything found, name parts included.

    A name is looked for with its exact case ("Anna" but not "anna", never "the"). A name
    found as a single word that is also an English word ("Material", "Lily") is not looked
    for elsewhere; as a part of a longer name ("Will Turner") it is looked for only inside a
    sentence, never as its first word ("Will you...")."""
    values: dict[str, tuple[str, float, bool]] = {}
    for text, scan in zip(texts, scans):
        for s in scan.spans:
            value = text[s["start"]:s["end"]]
            if s["entity"] != "PERSON":
                if len(value) >= 4:
                    values.setdefault(value, (s["entity"], s["score"], False))
                continue
            if value.islower():  # "my name praba": the model will write "Praba"
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


# A user asking for fiction: names in it are characters, not people ("write a story about Lily").
FICTION = re.compile(
    r"\b(?:write|writing|continue|create|make|generate|tell|compose|rewrite|imagine)\b[^.\n]{0,60}"
    r"\b(?:story|stories|fanfic\w*|fan[- ]?fiction|script|screenplay|episode|chapter|novel|scene|roleplay|role-play"
    r"|dialogue|tale|fable|sitcom|movie|comic|backstory|lore)\b"  # poems and songs are often for real people
    r"|\b(?:fanfic\w*|fan[- ]?fiction|role-?play(?:ing)?|screenplay|fictional|character(?:s)?\s*:|(?:main|the|these)\s+"
    r"characters?|protagonist|antagonist|storyline|(?:rpg|dnd|d&d)\b|\bin\s+the\s+(?:anime|manga|game|series|show"
    r"|movie|film|novel|book|story)|\b(?:anime|manga|cartoon|video\s+game|tv\s+show|tv\s+series)\b"
    # things the user made up: "Ultra Kids is a channel (It's a channel I made)", "a made-up country"
    r"|\b(?:channel|show|company|country|kingdom|world|city|town|brand|band|game|universe|school)\s+(?:that\s+)?"
    r"(?:i|we)\s+(?:made|invented|created|came\s+up\s+with|made\s+up)\b|\bmade[- ]up\b|\binvented\s+by\s+me\b)",
    re.I)
# In fiction a name stays unless the user gave it as their own or a contact's.
FICTION_KEEPS = ("intro", "relation", "signoff", "address_block", "ner+intro", "ner+relation", "context+intro",
                 "context+relation")  # "named"/"field" kinds ("a kid named Hinson", "Name: Ayumi") are characters


# Role-play and scripts without the word: "imagine you are...", speaker lines "Natsuki: ...".
PRETEND = re.compile(r"\b(?:imagine|pretend|act\s+as|you\s+are\s+now|once\s+upon\s+a\s+time|story|stories|storyline"
                     r"|characters|narrative|fairy\s*tale|point\s+of\s+view|plot|season\s+\d+|episode|chapter|script"
                     r"|sequel|prequel|crossover|universe|forum\s+(?:post|conversation|thread)|monologue|sitcom|episodes|credits"
                     r"|react(?:s|ing)?\s+to)\b", re.I)
SPEAKER_LINE = re.compile(r"^\s*\(?(?!(?:name|date|phone|tel|email|e-mail|address|subject|from|to|cc|age|id|title"
                          r"|note|time|re|fax|mobile)\s*:)[A-Z][\w .'-]{0,24}\)?\s*:\s*[\"“(*]?\w", re.M | re.I)
# Public text handed over to work on: names in a pasted article or paper are public.
PUBLIC_TEXT = re.compile(r"\b(?:summari[sz]e|summary|translate|translation|paraphrase|proofread|polish|rephrase"
                         r"|academic|paper|article|essay|abstract|news|wikipedia|research)\b", re.I)
# Writing about one's own affairs: a letter or e-mail to send, an application, a relation.
# ("the message above", "a text message" in a maths problem, "web application" are not.)
PERSONAL_TEXT = re.compile(
    r"\b(?:(?:write|draft|compose|send|reply|respond|answer|check|proofread|rewrite|correct|polish|improve|edit"
    r"|modify|reword|paraphrase)\b[^.\n?!]{0,40}\b(?:e-?mail|letter|message|note|text)"
    r"|(?:my|this|the\s+following|following|formal|cover|recommendation|reference|motivation|resignation"
    r"|complaint|apology|thank[- ]you|condolence|invitation)\s+(?:e-?mail|letter)"
    r"|(?:e-?mail|letter|message|note|text)\s+(?:to|for)\s+(?:my|our|a|an|the)\s+(?!following\b)"
    r"|(?:^|[.!?:]\s+)(?:an?\s+)?(?:e-?mail|letter|message|note)\s+(?:to|for)\b"
    r"|cv|resume|résumé|reply\s+to\s+(?:this|my|his|her|their|an?)\b"
    r"|(?:job|visa|grant|ph\.?d\.?|university|college|school|scholarship|loan|rental|internship|my|an?)\s+application"
    r"|my\s+(?:name|friend|boss|teacher|wife|husband|colleague|mom|dad|son|daughter|landlord|manager|professor"
    r"|supervisor|client|girlfriend|boyfriend|partner|brother|sister|mother|father))\b", re.I)
# A worksheet item: multiple-choice options or a word problem. Its people are invented.
OPTION_LINE = re.compile(r"^[ \t]*\(?[a-dA-D][).:\t][ \t]*(?:\S|$)", re.M)
WORD_PROBLEM = re.compile(r"\b(?:which\s+of\s+the\s+following|which\s+(?:assertion|statement|expression|equation)"
                          r"|how\s+(?:many|much|long|far|fast)\b[^?\n]{0,120}\?|what\s+(?:is|was|would\s+be|will\s+be)"
                          r"\s+the\s+(?:area|perimeter|volume|probability|total|average|mean|median|ratio|speed"
                          r"|distance|cost|price|value)|solve\s+for|word\s+problem|answer\s+choices|multiple\s+choice"
                          r"|choose\s+the\s+(?:best|correct)|true\s+or\s+false|using\s+(?:at\s+least\s+)?\w+\s+of\s+"
                          r"(?:these|the\s+following)\s+words|use\s+the\s+(?:simple|present|past|future|correct)\b)", re.I)


def exercise(turns: list[dict]) -> bool:
    """A user turn is a worksheet item: three or more options on their own lines, or a word
    problem ("Suki wants to build a sheep pen ... what would be the area")."""
    for turn in turns:
        text = turn["text"] or ""
        if turn["role"] == "user" and (len(OPTION_LINE.findall(text)) >= 3
                                       or WORD_PROBLEM.search(text)):
            return True
    return False


def _typed(turns: list[dict]) -> list[str]:
    """What the user typed themselves: user turns shorter than a pasted text."""
    return [t["text"] or "" for t in turns if t["role"] == "user" and len(t["text"] or "") < LONG_TURN]


QUOTED_SPEECH = re.compile(r"[\"“][^\"“”\n]{2,200}[\"”]")
SPEECH_VERB = re.compile(r"\b(?:said|asked|replied|exclaimed|whispered|shouted|muttered|smiled|laughed|nodded|sighed)\b")


STORY_MARKERS = re.compile(r"\bonce upon a time\b|\bhappily ever after\b|\blittle did (?:he|she|they) know\b", re.I)


def narrated(text: str) -> bool:
    """A model's answer that is a story or a script: a fairy-tale opening, quoted speech and
    speech verbs throughout a long text, or speaker lines ("User2: ...", "JANE: ...")."""
    return bool(STORY_MARKERS.search(text)) or len(SPEAKER_LINE.findall(text)) >= 3 or (
        len(text) >= LONG_TURN and len(QUOTED_SPEECH.findall(text)) >= 4 and len(SPEECH_VERB.findall(text)) >= 2)


def fiction(turns: list[dict]) -> bool:
    """The user asks for or writes fiction: names in it are characters. Also when the user
    only set a scene ("Stella, the cafe owner, hypnotises David...") and the model answered
    with a story: the names are the story's."""
    for turn in turns:
        text = turn["text"] or ""
        if turn["role"] != "user":
            if narrated(text):
                return True
            continue
        if FICTION.search(text) or PRETEND.search(text) or len(SPEAKER_LINE.findall(text)) >= 3:
            return True
    return False


def public_text(turns: list[dict]) -> bool:
    """The user hands over a public text (an article, a paper) to summarise or translate."""
    users = [t["text"] or "" for t in turns if t["role"] == "user"]
    return any(PUBLIC_TEXT.search(u) for u in users) and not any(PERSONAL_TEXT.search(u) for u in _typed(turns))


STRUCTURED = ("EMAIL_ADDRESS", "PHONE_NUMBER", "CREDIT_CARD", "IBAN_CODE", "US_SSN", "STREET_ADDRESS", "ZIP_CODE",
              "US_DRIVER_LICENSE", "ID_NUMBER", "US_PASSPORT", "US_BANK_NUMBER")
WEAK = ("ner", "list")  # a name only NER (or a list next to such a name) vouches for
LONG_TURN = 1000  # characters: a pasted article, paper, story or program


def personal(turns: list[dict], scans: list[TurnScan]) -> bool:
    """The user writes about their own affairs: in a turn they typed (not a long pasted text)
    they mention a letter, an application or a relation, give contact data or introduce someone."""
    for turn, scan in zip(turns, scans):
        text = turn["text"] or ""
        if turn["role"] != "user" or len(text) >= LONG_TURN:
            continue
        if PERSONAL_TEXT.search(text) or any(
                s["entity"] in STRUCTURED or (s["entity"] == "PERSON" and s.get("basis") in FICTION_KEEPS)
                for s in scan.spans):
            return True
    return False


def drop_pasted_names(texts: list[str], scans: list[TurnScan]) -> list[TurnScan]:
    """Names NER alone found in a long pasted text (an article, a paper, a story) are public
    or invented; they stay everywhere in the dialogue. (Only in dialogues that are not personal.)"""
    public = {text[s["start"]:s["end"]] for text, scan in zip(texts, scans) if len(text) >= LONG_TURN
              for s in scan.spans if s["entity"] == "PERSON" and s.get("basis") in WEAK}
    return [replace(scan, spans=[s for s in scan.spans if not (s["entity"] == "PERSON" and s.get("basis") in WEAK
                                                                and text[s["start"]:s["end"]] in public)])
            for text, scan in zip(texts, scans)]


def drop_characters(scans: list[TurnScan]) -> list[TurnScan]:
    """Every PERSON span goes: in fiction, a worksheet or a public text that is not about the
    user's own affairs, even "I'm John Smith" is a character speaking (``personal`` already
    looked for the user's own introductions in the turns they typed)."""
    return [replace(scan, spans=[s for s in scan.spans if s["entity"] != "PERSON"]) for scan in scans]


def drop_public_life_names(scans: list[TurnScan]) -> list[TurnScan]:
    """A chat about professional sport or show business that is not about the user's own
    affairs (mentions.about_public_life): its people are players, coaches and stars, even
    where a verb vouches for a person ("the coach told Smith", "his name is Green-Ellis"). A
    self-introduction or a relation still counts."""
    return [replace(scan, spans=[s for s in scan.spans
                                 if s["entity"] != "PERSON" or s.get("basis") in FICTION_KEEPS]) for scan in scans]


def drop_common_words(texts: list[str], scans: list[TurnScan]) -> list[TurnScan]:
    """A one-word name NER found that the dialogue also uses in lower case ("Kelvin" and
    "kelvin structure", "Rose" and "a rose") is a word, not a name."""
    cased = "\n".join(t for t in texts if any(c.isupper() for c in t))  # an all lower-case text proves nothing
    lower = set(re.findall(r"(?<![\w.])[a-z][a-z'-]+(?![\w])", cased))
    out = []
    for text, scan in zip(texts, scans):
        spans = [s for s in scan.spans if not (s["entity"] == "PERSON" and s.get("basis") == "ner"
                                                 and text[s["start"]:s["end"]].lower() in lower)]
        out.append(replace(scan, spans=spans))
    return out


_MULTIWORD_PUBLIC = re.compile(r"(?<!\w)(" + "|".join(sorted((re.escape(n) for n in PUBLIC_FIGURES if " " in n),
                                                                key=len, reverse=True)) + r")(?!\w)")


def public_name_parts(texts: list[str]) -> set[str]:
    """The words (three letters or more) of the well-known full names the dialogue mentions."""
    return {w for m in _MULTIWORD_PUBLIC.finditer("\n".join(texts).lower()) for w in m.group().split() if len(w) >= 3}


def drop_public_parts(texts: list[str], scans: list[TurnScan], parts: set[str]) -> list[TurnScan]:
    """A dialogue that names "Kobe Bryant" means him by "bryant" too: parts of a well-known
    name it mentions (``parts``, :func:`public_name_parts`) are public within the dialogue."""
    if not parts:
        return scans

    def public(value: str) -> bool:
        words = [_bare(w).lower() for w in value.split()]
        return bool(words) and all(w in parts for w in words if w)

    return [replace(scan, spans=[s for s in scan.spans
                                 if s["entity"] != "PERSON" or not public(text[s["start"]:s["end"]])])
            for text, scan in zip(texts, scans)]


def drop_lowercase_guesses(turns: list[dict], texts: list[str], scans: list[TurnScan],
                           public_parts: set[str]) -> list[TurnScan]:
    """A dialogue about well-known people ("write a 2016 nba season with kobe bryant ... and
    kevin durant"), typed all in lower case: the other names NER guessed there after
    truecasing are their peers, too weak to act on outside a personal dialogue; cues ("my
    name praba", "my friend kevin") still count. (Without a public name a lower-case guess
    stays: "i want to add julie novak as a beneficiary" is someone.)"""
    if not public_parts:
        return scans
    out = []
    for turn, text, scan in zip(turns, texts, scans):
        if turn["role"] == "user" and not any(c.isupper() for c in text):
            scan = replace(scan, spans=[s for s in scan.spans
                                        if not (s["entity"] == "PERSON" and s.get("basis") in WEAK)])
        out.append(scan)
    return out


def drop_mentioned(texts: list[str], scans: list[TurnScan], personal_dialogue: bool) -> list[TurnScan]:
    """NER-only names that some mention shows are no private person (mentions.py): a place
    ("in Robina"); outside a personal dialogue also a name discussed as a word and a
    character of a work."""
    weak = {text[s["start"]:s["end"]] for text, scan in zip(texts, scans) for s in scan.spans
            if s["entity"] == "PERSON" and s.get("basis") in WEAK}
    gone = mentioned_not_people(texts, weak, places_only=personal_dialogue)
    if not gone:
        return scans
    parts = {_bare(p) for v in gone for p in v.split() if len(_bare(p)) >= 3}
    holds_gone = re.compile(r"(?<!\w)(?:" + "|".join(re.escape(v) for v in gone) + r")(?!\w)")

    def mentioned(value: str) -> bool:  # the value, a longer span around it ("А Gerald Commerson The"), a part
        return bool(holds_gone.search(value)) or all(_bare(p) in parts for p in value.split())

    return [replace(scan, spans=[s for s in scan.spans if not (
        s["entity"] == "PERSON" and s.get("basis") in WEAK and mentioned(text[s["start"]:s["end"]]))])
        for text, scan in zip(texts, scans)]


def redact_dialogue(dialogue_id: str, turns: list[dict], scans: list[TurnScan], config) -> Redaction:
    texts = [t["text"] or "" for t in turns]
    if any(scan.timed_out for scan in scans):
        return Redaction(turns, [], reason="pii_timeout",
                         deleted_turns=[i for i, s in enumerate(scans) if s.timed_out])
    if config.model_names_public:
        scans = user_sourced_values(turns, texts, user_sourced_names(turns, texts, scans))
    scans = drop_values(texts, scans, sample_values(turns, texts, scans))
    public_parts = public_name_parts(texts)
    scans = drop_public_parts(texts, drop_common_words(texts, scans), public_parts)
    is_personal = personal(turns, scans)
    if not is_personal:
        if fiction(turns) or public_text(turns) or exercise(turns):
            scans = drop_characters(scans)
        elif about_public_life(texts):
            scans = drop_public_life_names(scans)
        scans = drop_lowercase_guesses(turns, texts, drop_pasted_names(texts, scans), public_parts)
    scans = drop_mentioned(texts, scans, is_personal)
    per_turn = propagate(texts, scans)
    redactor = Redactor(config, dialogue_id)
    shares, too_much = {}, []
    for index, (text, spans) in enumerate(zip(texts, per_turn)):
        if spans:
            covered = sum(len("".join(text[s["start"]:s["end"]].split())) for s in spans)
            shares[index] = round(covered / max(1, len("".join(text.split()))), 4)
            # A short turn that is mostly one name ("Привет", "Gustav III") is not the
            # incoherence the rule is for: it needs enough redacted characters too.
            if shares[index] > config.max_redacted_share and covered >= config.coherence_min_chars:
                too_much.append(index)
    evidence = [{"turn": i, "start": s["start"], "end": s["end"], "entity": s["entity"],
                 "score": round(float(s["score"]), 4)} for i in too_much for s in per_turn[i]]
    cleaned_turns, pii = [], []
    for index, (turn, text, spans) in enumerate(zip(turns, texts, per_turn)):
        new_text, new_spans = apply_spans(text, spans, redactor) if spans else (text, [])
        cleaned_turns.append({**turn, "text": new_text})
        pii.append(new_spans)
    if not too_much:
        return Redaction(cleaned_turns, _flat(pii), shares=shares)
    if config.coherence == "drop":
        return Redaction(turns, [], reason="pii_coherence", deleted_turns=too_much, shares=shares, evidence=evidence)
    gone = _exchanges(turns, too_much)
    left = [i for i in range(len(turns)) if i not in gone]
    if (len(left) < 2 or len(gone) / len(turns) > config.max_deleted_turn_share
            or not any(turns[i]["role"] == "user" for i in left)):
        return Redaction(turns, [], reason="pii_coherence", deleted_turns=sorted(gone), shares=shares,
                         evidence=evidence)
    kept_turns = [{**cleaned_turns[i], "index": new} for new, i in enumerate(left)]
    kept_pii = [[{**s} for s in pii[i]] for i in left]
    return Redaction(kept_turns, _flat(kept_pii), deleted_turns=sorted(gone), shares=shares, evidence=evidence)


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

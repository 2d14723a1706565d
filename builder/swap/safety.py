"""When a rewrite must be refused: spans in figures of speech, quotes, code or exercises, and
rewrites whose grammar would break. Each check names a reason (counted in the ledger detail of
``no_safe_rewrite``): a variant that reads wrongly or changes what is asked is worse than none.

Refusals that depend on what the turn is come from its traits (builder/traits, tagged once by
clean): ``long_paste`` (a user turn of 1,000 characters or more: a pasted article, story or
brief), ``code`` (the turn holds code or names a source file; the span itself in inline code or
on a code line refuses too), ``exercise`` (a worksheet item; also a numbered list of three or
more items), ``story_request`` (the ``fiction`` or ``verse_request`` trait). The others:

* ``simile``: the span follows "like"/"as" used as a preposition ("fly like an eagle": the
  user does not mean a pictured eagle), or sits inside "as ... as";
* ``quoted``: the span is inside quotation marks (a title, a citation, someone's words);
* ``creation_request``: the span is what the user asks to be drawn, written or generated ("give me
  a painting of …", "draw a cat"): a photo of one would change the request;
* ``activity``: the span is an activity, not a thing ("repairs, painting, flooring");
* ``title``: the span is the name of a show, film, book or game ("what is my little pony
  about?", "an episode of south park", "my favourite show is the office"); see :mod:`.names`,
  which also refuses bare singular nouns ("we love south park", "by car") and bare plurals that
  name a kind ("chips in helmets") once a category is known;
* ``sky``: the span is a body in the sky, the sky itself or the weather ("the Sun", "Jupiter",
  "the stars", "the sunset", "a storm"); see :data:`.lexicon.SKY`;
* ``word_sense``: an ambiguous word whose sense the sentence does not settle, or settles
  against the picture's ("an advanced process in the lab" is no Labrador); see ``SENSES``;
* ``wished_for``: the span is what the user wishes they had ("I wish we had video cameras back
  then"): a photo would show a thing they lack;
* ``generic_reference``: the span names a kind or a medium, not a thing of the user's scene
  ("watch football on TV", "players can't eat at the same restaurant"); a swap needs a name, "my"/
  "our", or a thing the user (or their own thing) does something with;
* ``agreement`` (checked on the rewritten turn): "is these", "are this", "a this", "these X is",
  "on this place" (a beach one is *on*, a place one is *at*) and "down/up/across/along this place
  from" ("I live down the street from the stadium": a distance, not a place one is at).
"""

from __future__ import annotations

import re

from builder.swap.lexicon import SKY, SKY_PHRASES
from builder.traits.code import code_ranges, in_ranges
from builder.swap.names import work_title

QUOTES = {'"': '"', "“": "”", "«": "»", "„": "“", "「": "」"}
CREATE = {"draw", "paint", "write", "generate", "create", "design", "compose", "sketch", "render", "illustrate",
          "imagine", "invent"}
_DEICTIC_NOUN = r"(?:items?|places?|dish(?:es)?|drinks?|animals?|artworks?|vehicles?)(?:\s+of\s+(?:mine|ours|yours|his|hers|theirs))?"
_S_VERBS = r"(?:costs|looks|seems|needs|makes|works|gets|goes|comes|keeps|takes|feels|tastes|smells|belongs|runs|lives)"
BAD_AGREEMENT = re.compile(
    r"\b(what|where|who|how|here|there|that|it)'s\s+these\b|"
    rf"\bthis\s+(?:\w+\s+)?{_DEICTIC_NOUN}\s+(?:have|do|don't|haven't)\b|"
    rf"\bthese\s+(?:\w+\s+)?{_DEICTIC_NOUN}\s+{_S_VERBS}\b|"
    r"\b(is|was|has|does|isn't|wasn't|doesn't)\s+these\b|\b(are|were|have|do|aren't|weren't|don't)\s+this\b|"
    r"\b(a|an|the)\s+(this|these)\b|\bthese\s+(\w+\s+){0,2}?\w+\s+(is|was|has|does)\b|"
    r"\bthis\s+(\w+\s+){0,2}?\w+\s+(are|were)\b|\bon\s+(this|these)\s+(\w+\s+)?places?\b|"
    r"\b(down|up|across|along)\s+(this|these)\s+(\w+\s+)?places?\s+from\b", re.IGNORECASE)
# Things one makes, not photographs: "a drawing of a dog", "a logo of a lion" (a photo of one changes the request)
MADE_THINGS = {"drawing", "painting", "sketch", "illustration", "cartoon", "logo", "render", "rendering", "design",
               "prompt", "poem", "story", "song", "sculpture", "model", "icon", "emoji", "caricature", "mural"}
# Words whose everyday chat sense and their sense in photo captions part ways. Each names the
# context words of every sense; a swap needs the sentence to show the sense the picture shows.
SENSES = {
    "lab": {"dog": r"dogs?|pupp(?:y|ies)|pets?|labradors?|retrievers?|fetch|leash|breed",
            "laboratory": r"science|scientists?|experiments?|chemistry|research|biology|physics|tests?|samples?|grown"
                          r"|process|equipment|coats?|report|class|school|data|results?"},
    "mouse": {"animal": r"animals?|pets?|rodents?|cheese|cats?|traps?|tail|squeak",
              "device": r"computer|click|cursor|keyboard|laptop|pc|usb|wireless|gaming|buttons?|scroll"},
    "bat": {"animal": r"animals?|caves?|wings?|nocturnal|vampire|fly|flying|mammals?",
            "sport": r"baseball|cricket|swing|hit|ball|softball"},
    "glasses": {"eyewear": r"wear|wearing|eyes?|vision|sight|lenses|frames?|reading|sun",
                "drinkware": r"wine|water|drink|beer|pour|cups?|kitchen|dishes"},
    "pool": {"swimming": r"swim\w*|water|dive|diving|splash|lifeguard",
             "billiards": r"cue|billiards?|table|balls?|snooker|shot"},
    "bar": {"drinking": r"drinks?|drinking|beers?|pubs?|bartenders?|games?|watch\w*|counter|stools?|clubs?",
            "gym": r"monkey|jungle|gym|pull-?ups?|hang\w*|swing\w*|climb\w*|parallel"},
    "court": {"sport": r"tennis|basketball|volleyball|play\w*|game|match|ball",
              "law": r"judge|lawyers?|trial|case|legal|law|sued?|hearing|ruling|jury"},
    "club": {"nightlife": r"dance|dancing|party|dj|music|night",
             "golf": r"golf|swing|course|hole|driver|iron",
             "organisation": r"members?|join|meeting|book|chess|school|fan|football|sports"},
    "trunk": {"tree": r"trees?|bark|woods?|forest", "car": r"car|boot|luggage|drive",
              "elephant": r"elephants?"},
    "ring": {"jewellery": r"wedding|engagement|diamond|gold|finger|proposal|propose|married",
             "boxing": r"boxing|boxers?|fight|wrestl\w*|match"},
    "seal": {"animal": r"animals?|ocean|sea|beach|zoo|swim\w*", "stamp": r"wax|stamp|official|document|envelope"},
    "table": {"furniture": r"sit|sits|sat|sitting|seated|dinner|dining|kitchen|wooden|chairs?|restaurants?|eat\w*|picnic"
                           r"|coffee|meals?|plates?|cloth|furniture|bought|assembl\w*",
              "data": r"databases?|sql|columns?|rows?|excel|spreadsheets?|html|mongodb|quer(?:y|ies)|schema|csv|data"
                      r"|cells?|pandas|code|markdown|fields?|records?|joins?"},
    "station": {"transit": r"trains?|bus|subway|metro|platforms?|underground|railway|transit|commut\w*|tickets?",
                "broadcast": r"radio|fm|listen\w*|music|channels?|broadcast\w*|podcasts?|songs?|hosts?|tune\w*",
                "fuel": r"gas|petrol|fuel|fill(?:ing)?\s+up|pumps?"},
    "ball": {"american football": r"football|nfl|fumbl\w*|quarterback|touchdown|kick\w*|tackle\w*|punt\w*",
             "soccer": r"soccer|goal\w*|striker|penalty", "golf": r"golf\w*|putt\w*|tee",
             "tennis": r"tennis|racket|serve", "basketball": r"basketball|dunk\w*|hoop|nba",
             "toy": r"pit|plastic|colou?rful|colou?red|toys?|babies|baby|dogs?|pupp(?:y|ies)|fetch\w*",
             "dance": r"dance|dancing|gown|masquerade|prom"},
}


NUMBERED = re.compile(r"^\s*\d{1,2}[.)]\s", re.MULTILINE)
# Refusals read from the turn's traits (builder/traits, tagged once by clean): trait -> reason
TRAIT_REFUSALS = (("long_paste", "long_paste"), ("code", "code"), ("exercise", "exercise"),
                  ("fiction", "story_request"), ("verse_request", "story_request"))


def context_refusal(doc, chunk_start: int, start: int, end: int, traits: frozenset[str] = frozenset()) -> str | None:
    """Why the span ``start:end`` (characters; token ``chunk_start`` begins it) in ``doc`` must
    not be swapped, or None. ``traits``: the traits of the turn (builder/traits)."""
    text = doc.text
    for trait, reason in TRAIT_REFUSALS[:3]:
        if trait in traits:
            return reason
    if in_ranges(start, end, code_ranges(text)):
        return "code"  # the span itself in inline code or on a code line
    if len(NUMBERED.findall(text)) >= 3:
        return "exercise"  # a numbered list of items to answer or fill in
    if _quoted(text, start, end):
        return "quoted"
    if _simile(doc, chunk_start):
        return "simile"
    if _to_be_made(doc, chunk_start):
        return "creation_request"
    for trait, reason in TRAIT_REFUSALS[3:]:
        if trait in traits:
            return reason
    chunk = next((c for c in doc.noun_chunks if c.start == chunk_start), None)
    if chunk is not None and _in_the_sky(chunk):
        return "sky"
    if chunk is not None and _activity(chunk):
        return "activity"
    if chunk is not None and _wished_for(chunk):
        return "wished_for"
    if chunk is not None and not _own_thing(chunk):
        return "generic_reference"
    if chunk is not None and work_title(text, chunk):
        return "title"
    return None


ING_THINGS = frozenset("""building ceiling clothing ring king string wing spring pudding dumpling earring swing thing
morning evening wedding icing stuffing filling dressing topping seasoning frosting awning railing sibling duckling
seedling sapling viking""".split())


def _activity(chunk) -> bool:
    """"general repairs, painting, flooring": a bare singular -ing word, no article or possessive."""
    root = chunk.root
    ing = root.tag_ == "VBG" or (root.lower_.endswith("ing") and len(root.lower_) > 5 and root.tag_ == "NN"
                                 and root.lower_ not in ING_THINGS)
    return ing and not any(t.dep_ in ("det", "poss", "nummod") for t in chunk)


def _in_the_sky(chunk) -> bool:
    """"the solar activity on the Sun", "Jupiter's storm", "we watched the sunset": a photo shows
    the sky and the weather, if at all, as the backdrop of another scene (the Sun as a beach at
    sunset), and "this place" for the Sun or Jupiter names no place one could stand in. What the
    user points at in a photo is on the ground."""
    root = chunk.root
    if root.lower_ in SKY or root.lemma_.lower() in SKY:  # "the stars", but not "a sun hat"
        return True
    return any(re.search(rf"\b{phrase}\b", chunk.text, re.I) for phrase in SKY_PHRASES)


def _wished_for(chunk) -> bool:
    """"I wish we had video cameras back then", "I wish I owned a boat": a thing the user wishes
    for is not in their scene, and a photo of one would point at a thing they lack. A thing the
    wish is about stays ("I wish my dog could talk": the dog is real)."""
    if any(t.dep_ == "poss" for t in chunk):
        return False
    tok = chunk.root
    for _ in range(6):
        if tok.head is tok:
            return False
        tok = tok.head
        if tok.pos_ == "VERB" and tok.lemma_.lower() == "wish":
            return True
    return False


FIRST_PERSON = {"i", "we"}
MEDIA = {"tv", "television", "radio", "internet", "web", "news", "telly"}
OWN = {"my", "our"}


def _own_thing(chunk) -> bool:
    """The span is a particular thing of the user's scene, as in MMRC's swaps ("I visited the
    Eiffel Tower", "my dog", "when I buy a new TV"): a name, a thing with "my"/"our", or the
    object of something the user (or their own thing) does. A kind or a medium is not one
    ("watch football on TV", "players can't eat at the same restaurant", "he fumbled the
    ball"): a photo would show some other TV, restaurant or ball."""
    root = chunk.root
    if root.lower_ in MEDIA and not any(t.lower_ in ("a", "an") or t.dep_ == "poss" for t in chunk):
        return False  # "watch football on TV", "glued to the Tv": the medium (whatever its case), not a set
    if root.pos_ == "PROPN" or any(t.dep_ == "poss" and t.lower_ in OWN for t in chunk):
        return True
    tok = root
    for _ in range(6):  # up to the verb that governs the phrase
        if tok.head is tok:
            return False
        tok = tok.head
        if tok.pos_ not in ("VERB", "AUX"):
            continue
        subjects = [c for c in tok.children if c.dep_ in ("nsubj", "nsubjpass", "expl")]
        if subjects:
            return any(_is_own(s) for s in subjects)
        if tok.dep_ not in ("xcomp", "conj"):
            # only a controlled verb takes its subject from above ("my dog loves running on the
            # beach", "I want to run it on ..."); "a cheerleader avoiding a player in a restaurant"
            # and "to have to leave the restaurant is absurd" describe someone else, or no one
            return False
    return False


def _is_own(subject) -> bool:
    return subject.lower_ in FIRST_PERSON or any(t.dep_ == "poss" and t.lower_ in OWN for t in subject.subtree)


def word_sense(word: str, sentence: str, captions: str) -> bool:
    """True when ``word`` is unambiguous here, or the sentence and the picture's captions show
    the same sense of it (:data:`SENSES`)."""
    senses = SENSES.get(word.lower()) or SENSES.get(word.lower().removesuffix("s"))
    if not senses:
        return True
    def shown(text: str) -> set[str]:
        return {name for name, cues in senses.items() if re.search(rf"\b(?:{cues})\b", text, re.I)}
    in_sentence, in_picture = shown(sentence), shown(captions)
    return bool(in_sentence & in_picture) and len(in_sentence) == 1


def _to_be_made(doc, chunk_start: int) -> bool:
    """"Draw me a cat", "give me a painting of …": the user asks for the thing to be made; a photo of
    one would change the request."""
    chunk = next((c for c in doc.noun_chunks if c.start == chunk_start), None)
    if chunk is None:
        return False
    head = chunk.root.head
    if chunk.root.dep_ == "pobj" and head.lower_ == "of" and head.head.lemma_.lower() in MADE_THINGS:
        return True  # "a drawing of a dog made of stars"
    if chunk.root.dep_ not in ("dobj", "obj", "dative", "attr") or head.pos_ != "VERB":
        return False
    if head.lemma_.lower() in CREATE:
        return True
    if head.lemma_.lower() in ("obtain", "produce", "get") and chunk.root.lemma_.lower() in MADE_THINGS:
        return True  # "which prompt gives me ... to obtain a drawing of a dog"
    return head.lemma_.lower() in ("give", "make", "show") and any(
        c.dep_ in ("dative", "iobj") and c.lower_ in ("me", "us") for c in head.children)


def grammar_refusal(rewritten: str) -> str | None:
    return "agreement" if BAD_AGREEMENT.search(rewritten) else None


def _quoted(text: str, start: int, end: int) -> bool:
    before = text[:start]
    para = before[before.rfind("\n\n") + 2:] if "\n\n" in before else before
    for open_q, close_q in QUOTES.items():
        if open_q == close_q:
            if para.count(open_q) % 2 == 1:
                return True
        elif para.count(open_q) > para.count(close_q):
            return True
    # 'single quotes' around the span (not apostrophes: a quote mark right before the span)
    return bool(re.search(r"(^|[\s(])'$", before)) and "'" in text[end:end + 2]


def _simile(doc, chunk_start: int) -> bool:
    prev = [t for t in doc[max(chunk_start - 3, 0):chunk_start]]
    if not prev:
        return False
    last = prev[-1]
    if last.lower_ == "like" and last.pos_ in ("ADP", "SCONJ", "INTJ"):
        return True
    if last.lower_ in ("as", "than") and last.pos_ in ("ADP", "SCONJ"):
        # "as big as a house", "bigger than a car", "as if", "such as" is a list of examples (allowed)
        return not (len(prev) >= 2 and prev[-2].lower_ == "such")
    return False

"""Give an all lower-case English message the capitals NER needs to see names.

spaCy's English NER relies on capitals: in "follow up with tracy wiśniewska" it finds nobody.
For a message with no capital letter at all, NER reads a copy in which every word that is
not an English word gets a capital ("follow up with Tracy Wiśniewska"), offsets unchanged.
"An English word" is a stop word, chat slang, or a word whose lemma is in WordNet (the
lemma index and rules shipped inside the spaCy model package, read without loading the
lemmatizer). Names that are also English words ("grace", "mark") stay lower-case: NER then
misses them, which is the cautious side.
"""

from __future__ import annotations

import functools
import re

from spacy.lang.en.stop_words import STOP_WORDS

WORD = re.compile(r"[^\W\d_]+(?:['’][^\W\d_]+)?")
NAME_CUE = re.compile(r"\b(?:mr|mrs|ms|dr|prof|named(?:\s+(?:him|her|them))?|called(?:\s+(?:him|her))?"
                      r"|my name is|name's)\.?\s+$")
SLANG = frozenset("""
lol lmao lmfao rofl pls plz thx thanx ty tysm idk idc tbh btw omg omfg wtf imo imho irl brb gonna wanna gotta
yeah yea yep yup nope nah hey heya hmm hmmm uh um umm ok okay okey kinda sorta dunno gimme lemme ya yall y'all
cuz coz bc tho thru ur u r k kk ikr smh fyi asap aka etc vs ie eg np ttyl xd haha hahaha hehe
chatgpt gpt ai api url http https www html css json sql js py cpp iphone ipad ios macos wifi usb pdf
""".split())


# Contractions typed without their apostrophe ("whats up", "dont", "youre"): English words, no names.
# None of them is a first name in builder/clean/first_names.txt (a test checks).
APOSTROPHE_LESS = frozenset(
    [a + "nt" for a in "do does did is are was were has have had could would should must might need ca wo ai".split()]
    + [p + "re" for p in "you we they who what there".split()]
    + [p + "ve" for p in "i you we they who would could should might must".split()]
    + [p + e for p in "i you he she we they it that there who what".split() for e in ("ll", "d")]
    + [p + "s" for p in "what that how where who there he she it let here when why".split()] + ["im", "iam"])  # "iam": "i am" typed as one


@functools.cache
def _lexicon():
    from pathlib import Path

    from spacy.lookups import Lookups

    from builder.clean.recognizers import NER_MODEL, NER_PACKAGE

    import importlib.util

    root = Path(importlib.util.find_spec(NER_PACKAGE).origin).parent / NER_MODEL / "lemmatizer" / "lookups"
    lookups = Lookups().from_disk(root)
    index = lookups.get_table("lemma_index")
    rules = lookups.get_table("lemma_rules")
    exc = lookups.get_table("lemma_exc")
    words = {pos: frozenset(index[pos]) for pos in ("noun", "verb", "adj", "adv")}
    return words, {pos: list(rules[pos]) for pos in words if pos in rules}, {pos: dict(exc[pos]) for pos in words
                                                                               if pos in exc}


@functools.cache
def is_english_word(word: str) -> bool:
    w = word.lower().replace("’", "'")
    if w in STOP_WORDS or w in SLANG or w in APOSTROPHE_LESS or len(w) < 3:
        return True
    words, rules, exc = _lexicon()
    for pos, known in words.items():
        if w in known or w in exc.get(pos, {}):
            return True
        for old, new in rules.get(pos, ()):
            if w.endswith(old) and (w[: len(w) - len(old)] + new) in known:
                return True
    return w.removesuffix("'s") in words["noun"]


def at_most_a_noun(word: str) -> bool:
    """No stop word, and the dictionary has it as a noun or not at all: WordNet lists people and
    places by name ("sarah", "bangalore"), while "mark", "will" or "port" are also verbs."""
    w = word.lower()
    if w in STOP_WORDS:
        return False
    words, _, _ = _lexicon()
    return not any(w in words[pos] for pos in ("verb", "adj", "adv"))


def modifier(word: str) -> bool:
    """The dictionary has the word as an adjective or an adverb ("crazy", "back"), a noun too or not."""
    w = word.lower()
    words, _, _ = _lexicon()
    return w in words["adj"] or w in words["adv"]


def adverb(word: str) -> bool:
    """The dictionary has the word as an adverb ("soon", "round", "hopefully")."""
    words, _, _ = _lexicon()
    return word.lower() in words["adv"]


def truecase(text: str) -> str:
    """``text`` with a capital on every non-English word, when it has no capital at all."""
    if any(c.isupper() for c in text):
        return text
    words = list(WORD.finditer(text))
    capped = [not is_english_word(m.group()) for m in words]
    for k, m in enumerate(words):
        # "tracy wiśniewska", "david lange": a first name (or noun) right before a name
        if (not capped[k] and k + 1 < len(words) and capped[k + 1] and _first_name_or_noun(m.group())
                and text[m.end():words[k + 1].start()].strip() == ""):
            capped[k] = True
    for k, m in enumerate(words[1:], 1):  # "mr. martin", "she named him randy": a name by position
        if NAME_CUE.search(text[max(0, m.start() - 24):m.start()]) and m.group().lower() not in STOP_WORDS:
            capped[k] = True
    return capitalise_at(text, [m.start() for m, cap in zip(words, capped) if cap])


def capitalise_at(text: str, starts) -> str:
    """``text`` with a capital at each of ``starts``, one character for one (a letter whose capital is two,
    "ß", is left as it is): offsets stay those of ``text``."""
    out = list(text)
    for start in starts:
        if len(out[start].upper()) == 1:
            out[start] = out[start].upper()
    return "".join(out)


def _first_name_or_noun(word: str) -> bool:
    from builder.clean.names import first_names

    w = word.lower()
    if w in STOP_WORDS or w in SLANG or len(w) < 3:
        return False
    if w in first_names():
        return True
    words, _, _ = _lexicon()
    return w in words["noun"] and at_most_a_noun(w)


LETTERS = "abcdefghijklmnopqrstuvwxyz"


@functools.cache
def typo_of_english_word(word: str) -> bool:
    """A word of five letters or more that is no English word but becomes one with a single swap of
    neighbours, a changed letter or an added one ("peroid", "hypotehtical", "recepie", "teh" is too
    short): a slip of the keyboard, not a name. Dropping a letter is not tried: "aisling" is a name
    though "ailing" is a word."""
    w = word.lower()
    if len(w) < 5 or not w.isalpha() or is_english_word(w):
        return False
    swaps = (w[:i] + w[i + 1] + w[i] + w[i + 2:] for i in range(len(w) - 1))
    changes = (w[:i] + c + w[i + 1:] for i in range(len(w)) for c in LETTERS if c != w[i])
    inserts = (w[:i] + c + w[i:] for i in range(len(w) + 1) for c in LETTERS)
    return any(_dictionary_word(v) for gen in (swaps, changes, inserts) for v in gen)


@functools.lru_cache(maxsize=1 << 16)
def extra_letter_of_english_word(word: str) -> bool:
    """A word of five letters or more that is no English word but becomes one with a letter dropped
    ("insuline", "problemm", but also the name "aisling" -> "ailing"): a hint the lower-case-name model
    weighs, never a rule by itself."""
    w = word.lower()
    if len(w) < 5 or not w.isalpha() or is_english_word(w):
        return False
    return any(_dictionary_word(w[:i] + w[i + 1:]) for i in range(len(w)))


def _dictionary_word(word: str) -> bool:
    """In WordNet's lemma index as it stands (no inflection rules: "peroid" -> "perods" is no word)."""
    words, _, _ = _lexicon()
    return any(word in known for known in words.values())

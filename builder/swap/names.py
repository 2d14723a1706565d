"""When a noun phrase is a name, not a description of a thing in the user's scene.

A swap rewrites a description ("a new bike" -> "this new item"). It cannot do that to a name,
nor to a kind. Two kinds of names hide among ordinary nouns in real chat, and bare plurals name
kinds:

* ``title``: the name of a show, film, book or game. A photo of a pony, an office or a park is
  not the work, and the dialogue goes on about episodes and characters. The work may be asked
  about as one ("what is my little pony about?"), tied to a word for a work ("an episode of south
  park", "my favourite show is the office"), or be what someone watches or reads in a turn that
  talks of works ("have you seen the office? every episode is gold"). The case does not matter
  here: "an episode of South Park" names a show as much as the lower-case spelling does. A
  lower-case phrase written as a title in another turn is one too (:func:`titled_elsewhere`).
* ``bare_singular``: a singular count noun with no article, possessive or number ("we love
  south park", "I read animal farm", "we went by car", "time for bed"). English gives a
  singular count noun a determiner. Without one, the phrase is either a name written in lower
  case, which the rewrite would split ("this south place"), or an idiom about no particular
  thing ("by car", "in bed", "watch college ball"). Dishes and drinks are exempt. They are
  mass nouns, and plain use leaves them bare ("I drink coffee", "we made sushi").
* ``bare_plural``: a plural with no article, possessive, number or quantifier names a kind
  ("tracking chips in helmets", "the drive-thru of restaurants", "I love dogs"), unless it is
  the object of a past event ("we saw elephants at the zoo", "I bought new shoes"). "These items" and a photo point
  at particular ones, which changes what the sentence says. On real chat every bare plural that
  reached the judged sample failed (bench/swap_real_labels.json). Dishes and drinks are exempt as
  above ("tacos are my favourite"): a photo of a dish stands for the dish.
"""

from __future__ import annotations

import re

# Words for works. A phrase tied to one by "of"/"in"/"from" or by a copula names a work.
WORKS = frozenset("""show shows series episode episodes season seasons sitcom sitcoms cartoon cartoons anime
movie movies film films book books novel novels character characters cast sequel sequels trailer franchise
""".split())
# Verbs that take a work as their object: one watches a show, reads a book, plays a game
CONSUME = frozenset("watch see read play stream binge rewatch reread".split())
MASS_CATEGORIES = frozenset({"dish", "drink"})
OWN = frozenset({"my", "our"})


def work_title(text: str, chunk) -> bool:
    """Is the phrase the name of a work? See the module docstring; "my book" is the user's own."""
    words = [t for t in chunk if t.is_alpha]
    if len(words) >= 2 and chunk.text.islower() and re.search(
            rf"\bwhat\s+is\s+{re.escape(chunk.text)}\s+about\b", text, re.I):
        return True  # the title may start with "my": "what is my little pony about?"
    if any(t.dep_ == "poss" and t.lower_ in OWN for t in chunk):
        return False
    root = chunk.root
    head = root.head
    if root.dep_ == "pobj" and head.lower_ in ("of", "in", "from") and head.head.lower_ in WORKS:
        return True  # "an episode of south park", "the characters in the office"
    if root.dep_ in ("nsubj", "attr") and head.lemma_ == "be":
        other = [c for c in head.children if c.dep_ in ("nsubj", "attr") and c is not root]
        if any(c.lower_ in WORKS for c in other):
            return True  # "my favourite show is the office", "south park is a cartoon"
    if root.dep_ == "dobj" and head.lemma_.lower() in CONSUME:  # "have you seen the office? every episode ..."
        return any(t.lower_ in WORKS for t in root.doc if not chunk.start <= t.i < chunk.end)  # not "read a book"
    return False


def titled_elsewhere(row: dict, mention) -> str | None:
    """``title`` when a lower-case phrase of two or more words is written as a title in another
    turn ("write a brief about interesting cats" / the answer: "Interesting Cats" is a book)."""
    words = [w for w in re.findall(r"[^\W\d_]+", mention.text)]
    if len(words) < 2 or not mention.text.islower():
        return None
    titled = re.compile(r"\b" + r"\s+".join(re.escape(w.capitalize()) for w in words) + r"\b")
    return "title" if any(titled.search(t.get("text") or "") for t in row.get("turns") or []) else None


def named_in_other_turn(row: dict, turn: int, mention) -> str | None:
    """``other_turn`` when another user turn names the same thing ("my bed" in turn 0 and in turn 4):
    swapping one mention for a picture while another turn still names it leaves a variant that
    both shows and tells, so the swap is refused (one picture cannot stand in for every mention).
    A proper name matches as written; a common noun by its head word, singular or plural."""
    if mention.proper:
        forms = {mention.core}
    else:
        lemma = mention.lemma.lower()
        forms = {lemma, mention.head.lower(), lemma + "s", lemma + "es"}
    pattern = re.compile(r"\b(?:" + "|".join(re.escape(f) for f in sorted(forms, key=len, reverse=True)) + r")\b",
                         0 if mention.proper else re.I)
    for i, t in enumerate(row.get("turns") or []):
        if i != turn and t.get("role") == "user" and pattern.search(t.get("text") or ""):
            return "other_turn"
    return None


QUANTIFIERS = frozenset("several many few multiple numerous various both".split())
PAST = frozenset({"VBD", "VBN"})


def is_bare(chunk, plural: bool = False) -> bool:
    """A singular (``plural``: plural) common noun with no article, possessive, number or
    quantifier, nor one shared with the phrase it is joined to ("my dog and cat"). A plural that
    is the object of a past event ("we saw elephants at the zoo", "I bought new shoes") is a set
    of particular things, not a kind."""
    root = chunk.root
    if root.tag_ != ("NNS" if plural else "NN"):
        return False  # proper nouns ("Paris") are bare in plain use
    if any(t.dep_ in ("det", "poss", "nummod", "predet") or t.lower_ in QUANTIFIERS for t in chunk):
        return False
    if root.dep_ == "conj" and any(c.dep_ in ("det", "poss") for c in root.head.children):
        return False
    phrase = root.head if root.dep_ == "conj" else root
    return not (plural and phrase.dep_ == "dobj" and phrase.head.tag_ in PAST)


def bare_noun(candidate) -> str | None:
    """``bare_singular`` or ``bare_plural`` for a bare common noun (see the module docstring);
    dishes and drinks pass."""
    if candidate.category in MASS_CATEGORIES:
        return None
    if candidate.mention.bare:
        return "bare_singular"
    return "bare_plural" if candidate.mention.bare_plural else None

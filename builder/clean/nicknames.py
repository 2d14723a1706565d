"""Nicknames: what people who chat call each other and their own people, whatever the word.

A nickname is often a plain word ("tank", "bean", "Sparks") or a short form no name list holds
("jj", "tati"): no census list and no NER finds it, and the word alone says nothing. Two slots of
chat grammar say that a word is what someone is called, in any corpus:

- **the addressee of a greeting, thanks or farewell** that opens and ends its clause: "bye bean",
  "thanks digger", "Cya tmrw Liv", "gracias maca" (``GREETING_SLOT``);
- **the complement of a naming verb**: "everyone calls me Bubba", "we call her Noodle", "goes by
  Blaze", "aka Ace", "me dicen Toño", "qu'on appelle Nounours"; a chat's screen name and the other
  speaker's name asked about or quoted: "the screen name Kookaburro", "is Pito your name?" (``NAMING``).

What else stands in those slots is a closed class, declared in ``NOT_ADDRESSEES`` (and
``OTHER_NOT_ADDRESSEES`` with spaCy's stop words for the other languages): terms of address and
kinship (dude, babe, mom, everyone), time and degree words (again, tonight, so much) and the
assistant's names; with the words names.py and precision.py already know are no names (chat words,
interjections, products, public figures). A naming verb's complement must also not be an adjective
or an adverb ("call me crazy", "call me back") nor a vehicle, unless it is written with a capital.
After a greeting that is also a noun an English word is a compound's ("Night shift!", so "night bean"
is not read), after a comma a verb or adjective a reply ("thanks, noted").
"""

from __future__ import annotations

import functools
import re

from builder.clean.alternation import gate
from builder.clean.precision import NOT_NAMES, is_public

NameSpan = tuple[int, int, str, float, str]

# Words that address someone without naming them, or end a greeting: a closed class of the language.
# (Checked beside precision.NOT_NAMES, names.CHAT_WORDS and INTERJECTIONS and the relation words, which
# hold more of them: "dude", "mom", "guys", "everyone".)
NOT_ADDRESSEES = frozenset("""
anyone anybody someone y'all yall you u ya yah gals gents peeps people users fam family squad gang crew class chat group
boy girl bud brah dog auntie aunty papa irl mi
children boys girls lads lasses mates bros buddies pals homies homes fella fellas lad lass kiddo miss mister
mrs mr ms dr doc babe baby bae luv lovely hun hon sweetheart sweety dearie cutie cutey sunshine beautiful
gorgeous handsome angel chief champ teach mommy mummy mama mamma momma ma pa pops gran nan grandad
again too also anyway anyways now then later tonight today tomorrow tmrw tmr yesterday everything anything
much so lot lots loads heaps tons bunch million billion alot soo sooo back home
computer machine robot brb gtg g2g ttyl xd xoxo hru tho fr bb xx sm hf rn smh cuz ngl frens
goodness god gosh heavens
traveler traveller stranger strangers visitor visitors reader readers newcomer adventurer hero player
""".split()) | frozenset((
    "alligator",  # "see ya later alligator": a rhyme
))
# ... and in the other languages the slots read: address, kinship, time and degree words ("gracias amigo",
# "hallo zusammen", "tchau galera", "nos llaman mañana"), beside spaCy's stop words of those languages.
OTHER_NOT_ADDRESSEES = frozenset("""
amor cariño cariña querido querida mija mijo güey wey amigo amiga amigos amigas hermano hermana gente mundo
tardes noches días igualmente mañana hoy luego pronto
mec meuf chéri chérie copain copine infiniment demain bientôt
schatz liebling maus leute zusammen schön morgen heute später bescheid
mano cara galera pessoal amanhã hoje louco
bella bello tutti domani mille mil beaucoup vielmals muito muchas mucho tanto tante todos tous alle
""".split())
# Greetings that are also census names ("Elaine Chao", "Jim Goodnight"): a name widened over the words beside it
# takes them; of these, the ones a name starts with ("Ty Cobb", "Chao Li") are never trimmed off its front.
GREETING_NAMES = frozenset("ty chao bye goodnight morning".split())
LEADING_GREETING_NAMES = frozenset("ty chao".split())
# Greetings that are also nouns: without a comma, the word after one is a compound's ("Night shift!",
# "Morning routine", "Welcome message", "Good luck charm"), unless it is no English word ("night Liv").
NOUN_GREETINGS = re.compile(r"(?:good\s+)?(?:night|nite|morning|mornin|evening|afternoon)|goodnight|welcome|later|cheers"
                            r"|good\s+luck|happy\s+birthday|congrats|congratulations", re.I)


@functools.cache
def _other_stop_words() -> frozenset[str]:
    """spaCy's stop words of the other languages the slots read (es, fr, de, pt, it)."""
    import importlib

    words: set[str] = set()
    for lang in ("es", "fr", "de", "pt", "it"):
        words |= importlib.import_module(f"spacy.lang.{lang}.stop_words").STOP_WORDS
    return frozenset(words)


# A word between the greeting and the name: "see you tomorrow Liv", "night again sprout", "love you nana bea".
_BETWEEN = r"(?:(?:again|too|tmrw|tmr|tomorrow|tonight|later|soon|then|there|so\s+much|a\s+lot|lots|guys|man|dude|bro)[ \t]*,?[ \t]+)?"
_KIN = r"(?:(?:nana|grandma|grandpa|granny|abuela|abuelo|uncle|auntie|aunt|aunty|tia|tio|tía|tío|cousin|coach|lil|big)[ \t]+)?"
_WORD = r"[^\W\d_][^\W\d_'’]*(?:-[^\W\d_]+)?"
_END = r"(?=[ \t]*(?:$|\n|[^\w\s'’:-]))"  # the clause ends: a line's end, a mark, an emoji (no heading's colon)
GREETINGS = (r"hi|hii+|hey+|heya|hiya|hello|sup|thanks|thank\s+you|thankyou|thx|ty|tysm|tyvm|bye|bye\s+bye|goodbye"
             r"|cya|see\s+ya|see\s+you|see\s+u|later|laters|night|nite|nighty\s+night|goodnight|good\s+night|gn|gnight"
             r"|morning|mornin|good\s+morning|gm|evening|good\s+evening|congrats|congratulations|love\s+you|love\s+u|ily"
             r"|miss\s+you|miss\s+u|take\s+care|gl|good\s+luck|happy\s+birthday|hbd|cheers|welcome|welcome\s+back"
             r"|gracias|hola|buenas|buenas\s+noches|adi[oó]s|chao|merci|salut|coucou|bonne\s+nuit|bisous|ciao|grazie"
             r"|danke|tsch[üu]ss|gute\s+nacht|hallo|valeu|obrigad[oa]|oi|ol[áa]|boa\s+noite|tchau|beijos")
# The greeting opens its clause: a line's or a sentence's start, a comma, or a sound before it ("ok night
# sprout", "aww thanks Lolo!"); "a starry night sky", "the morning air" are no greetings.
_OPENS = r"(?:^|(?<=[.!?,;:…(¡¿])|(?<=\n))[ \t]*(?:(?:ok|okay|k|aw+|omg|lol|haha|well|oh|and|so|gotta\s+go)[ \t]*,?[ \t]+)?"
GREETING_SLOT = re.compile(rf"{_OPENS}(?P<greeting>{GREETINGS})(?P<comma>[ \t]*,)?[ \t]+{_BETWEEN}(?P<kin>{_KIN})"
                           rf"(?P<name>{_WORD}){_END}", re.I | re.M)
# Asked first, whether a greeting word stands anywhere (its words grouped: alternation.py): a tenth of
# WildChat's turns hold one.
GREETING_ANY = gate(rf"\b(?:{GREETINGS})(?![\w'’])", re.I)
_GREETING_WORD = re.compile(rf"(?:{GREETINGS})", re.I)

# The naming verbs: what someone is called ("calls me", "goes by", "aka", "nicknamed"), in English and
# the languages the slot reads (Spanish, French, German, Portuguese).
_WHOM = r"(?:me|him|her)"  # not "them": "they called them foxhole radios"; "my brother": _call_my
NAMING = re.compile(
    rf"\b(?:call|calls|called|calling)[ \t]+{_WHOM}[ \t]+(?P<n1>{_WORD})"
    rf"|\b(?:i|he|she|they|we|who|everyone|everybody)[ \t]+(?:just[ \t]+|usually[ \t]+|mostly[ \t]+|now[ \t]+)?"
    rf"(?:go|goes)[ \t]+by[ \t]+(?P<n11>{_WORD})"  # a person goes by it: in any case ("I go by nightowl")
    rf"|\b(?:go|goes|going)[ \t]+by[ \t]+(?:the[ \t]+name[ \t]+(?:of[ \t]+)?)?(?P<n2>{_WORD})"
    rf"|\b(?:a\.?k\.?a\.?|nick-?named|nickname\s+(?:is|was))[ \t]*,?[ \t]+(?P<n3>{_WORD})"
    rf"|\b(?:me|le|te|nos|les)[ \t]+(?:dicen|llaman|decimos|llamamos)[ \t]+(?:el[ \t]+|la[ \t]+)?(?P<n4>{_WORD})"
    rf"|\bque[ \t]+(?:todos[ \t]+)?(?:le[ \t]+)?(?:llamamos|decimos|dicen|llaman)[ \t]+(?P<n5>{_WORD})"
    rf"|\b(?:qu['’]on|on[ \t]+(?:m|l|t)['’])[ \t]*appelle[ \t]+(?P<n6>{_WORD})"
    rf"|\b(?:nennen|nennt|nenne)[ \t]+(?:mich|ihn|sie|uns)[ \t]+(?:alle[ \t]+)?(?P<n7>{_WORD})"
    rf"|\b(?:sagen|sagt|sage)[ \t]+(?:alle[ \t]+)?(?P<n8>{_WORD})[ \t]+zu[ \t]+(?:mir|ihm|ihr|uns)\b"
    rf"|\b(?:me|o|a)[ \t]+chamam[ \t]+(?:de[ \t]+)?(?P<n9>{_WORD})"
    rf"|\bchama(?:mos)?[ \t]+(?:ela|ele)[ \t]+de[ \t]+(?P<n10>{_WORD})"
    # a chat's screen name, and the other speaker's name asked about or quoted: "the screen name Kookaburro",
    # "is Pito your name?", "by your name "Mitchell""
    rf"|\b(?:screen|display)[ \t]*-?name(?:['’]s|[ \t]+(?:is|was))?[ \t]*[,:]?[ \t]*[\"“'‘]?(?P<n12>{_WORD})"
    rf"|\bis[ \t]+(?P<n13>{_WORD})[ \t]+(?:your|ur|his|her)[ \t]+(?:real[ \t]+|first[ \t]+|actual[ \t]+)?name\b"
    rf"|\b(?:your|ur)[ \t]+name[ \t]*[,:]?[ \t]*[\"“](?P<n14>{_WORD})[\"”]",
    re.I)
# ... and its verbs first (every branch needs one; the pronouns "me", "le", "que" before some are common)
NAMING_VERB = gate(r"\b(?:call|calls|called|calling|go|goes|going|a\.?k\.?a|nick-?named|nickname|dicen|llaman|decimos"
                   r"|llamamos|appelle|nennen|nennt|nenne|sagen|sagt|sage|chamam|chama|chamamos|name|screenname"
                   r"|displayname)(?![\w'’])", re.I)
NAMING_GROUPS = ("n1", "n11", *(f"n{k}" for k in range(2, 15)))
_POSSESSIVE_AFTER = re.compile(r"['’]s\b")  # "they call him Korea's Maicon": a comparison, not his name
# The function words of the other languages the slots read: never a name ("... llamamos de la ...").
OTHER_FUNCTION_WORDS = frozenset("de del la el los las le les un una unos des du et y e o a en que qui por para con "
                                 "à au aux der die das den dem ein eine und zu mit von um ao do da dos das em no na com"
                                 .split())
NOT_COMPLEMENTS = frozenset("names something anything whatever sometime anytime maybe please car cars bus train plane boat "
                            "bike foot taxi cab subway metro tram ferry".split())  # "call me names", "goes by bus"

EXAMPLES: tuple[tuple[str, list[str]], ...] = (  # (text, the nicknames found)
    ("night bean, sleep well", []),  # the cost of "Night shift!": a word after a noun greeting is a compound's
    ("bye bean, sleep well", ["bean"]),
    ("Cya tmrw Liv", ["Liv"]),
    ("love you nana bea, see you sunday", ["bea"]),
    ("thanks digger", ["digger"]),
    ("gracias maca, te debo una", ["maca"]),
    ("everyone calls me Bubba at work", ["Bubba"]),
    ("We call her Noodle.", ["Noodle"]),
    ("i call my little brother Bug and he hates it", ["Bug"]),
    ("I call my mom every day", []),
    ("The guy I'm dating goes by Blaze.", ["Blaze"]),
    ("My coworker, aka Ace, keeps taking credit", ["Ace"]),
    ("Me dicen Toño en el trabajo.", ["Toño"]),
    ("Mon coloc, qu'on appelle Nounours, ne fait jamais la vaisselle.", ["Nounours"]),
    ("alle sagen Hansi zu mir", ["Hansi"]),
    ("thanks everyone!", []),
    ("thanks again", []),
    ("love you mom", []),
    ("night babe", []),
    ("hello world", []),
    ("call me crazy but I like it", []),
    ("call me back later", []),
    ("thanks chatgpt", []),
    ("time goes by so fast", []),
    ("we go by bus", []),
    ("the powers dominate the colonized, aka subjugation.", []),
    ("no joke they call him Korea's Maicon", []),
    ('she always calls her father "daddy"', []),
    ("Yeah, they called them foxhole radios.", []),
    ("En Guaranda, la llama de la libertad nunca se apagó.", []),
    ("thanks for the help", []),
    ("hi there!", []),
    ("a drawing of a starry night sky", []),
    ("Good morning, followers!", []),
    ("Salut salut", []),
    ("ok bye sprout", ["sprout"]),
    ("See you soon!", []),
    ("Thanks you too! Good luck debugging", []),
    ("welcome backkkkkkk", []),
    ("hey brb", []),
    ("hey Sailorrr", ["Sailorrr"]),
    ("Night shift!", []),
    ("Morning routine:", []),
    ("thanks, noted", []),
    ("gracias amigo", []),
    ("hallo zusammen!", []),
    ("danke schön", []),
    ("thanks tho", []),
    ("it goes by weight", []),
    ("Why did you select the screen name Kookaburro", ["Kookaburro"]),
    ("So is Pito your name or a nick name?", ["Pito"]),
    ('I\'m assuming by your name "Mitchell" that you\'re a boy', ["Mitchell"]),
    ("my screen name is cool, right?", []),  # an adjective, not a name
    ("what is the name of your dog", []),
    ('Chuck Bednarik earned the nickname "Concrete Charlie"', []),  # a public figure's: no chat's screen name
    ("I go by nightowl on most forums", ["nightowl"]),
    ("pls call my neighbour sue, she has a key", ["sue"]),
    ("call me ASAP", []),
)


def greeting_word(word: str) -> bool:
    """A greeting ("Hola", "thanks", "cya"): never part of the name it greets, unless it is a name too
    (``GREETING_NAMES``)."""
    return word.lower() not in GREETING_NAMES and _GREETING_WORD.fullmatch(word) is not None


def _addressee(word: str) -> bool:
    """A word that may name whom a greeting addresses: none of the closed classes above nor a relation
    ("she calls her father ..."), no greeting ("salut salut"), and in lower case no plural of a noun
    ("good morning, followers")."""
    from builder.clean.names import CHAT_WORDS, INTERJECTIONS, REL_WORDS, first_names, looks_like_identifier
    from builder.clean.truecase import SLANG, adverb, is_english_word

    low = word.lower().strip("'’")
    if len(word) < 3 or low in NOT_ADDRESSEES or low in NOT_NAMES or low in CHAT_WORDS or low in INTERJECTIONS:
        return False  # (two letters: no name the span rules keep)
    if low in OTHER_NOT_ADDRESSEES or low in SLANG or low in _other_stop_words() and low not in first_names():
        return False  # ("sue" is an Italian stop word and an English name)
    if re.fullmatch(rf"(?:{REL_WORDS})s?", low):
        return False
    if _GREETING_WORD.fullmatch(low) or is_public(word) or looks_like_identifier(word):
        return False
    plain = re.sub(r"(\w)\1{2,}", r"\1", low)  # "niiiiiiiice", "backkkkkkk", "hahahah": typed for effect
    if re.fullmatch(r"a?(?:ha|he|hi|ah)+h?a?", low):
        return False  # a laugh: "thanks man hahah"
    if plain != low and (plain in NOT_ADDRESSEES or plain in CHAT_WORDS or word.islower() and is_english_word(plain)):
        return False
    if word.islower() and (re.search(r"[^su]s$", low) and is_english_word(low[:-1])  # "good morning, followers"
                           or low.endswith("ing") and is_english_word(low)  # "good luck studying"
                           or adverb(low)):  # "see you soon", "see ya round"
        return False
    return True


def _named(word: str) -> bool:
    """A naming verb's complement: an addressee that is, in lower case, no adjective or adverb
    ("call me crazy", "call me back"; "slim" too, a price paid) nor a means of transport ("goes by bus"); written
    with a capital it is a name ("call me Slim")."""
    from builder.clean.truecase import modifier

    if not _addressee(word):
        return False
    return word[0].isupper() or not modifier(word) and word.lower() not in NOT_COMPLEMENTS


@functools.cache
def _call_my() -> re.Pattern:
    """"I call my little brother Bug": a naming verb, "my", up to two words and a relation word (names.py's)."""
    from builder.clean.names import REL_WORDS

    return re.compile(rf"\b(?:call|calls|called|calling)[ \t]+my[ \t]+(?:[\w'’-]+[ \t]+){{0,2}}?(?:{REL_WORDS})s?"
                      rf"[ \t]+(?P<name>{_WORD})", re.I)


def nicknames(text: str) -> list[NameSpan]:
    """Nicknames in a greeting's slot (basis ``vocative_greeting``) and after a naming verb (``intro``)."""
    from builder.clean.truecase import at_most_a_noun, is_english_word

    out: list[NameSpan] = []
    for m in GREETING_SLOT.finditer(text) if GREETING_ANY.search(text) else ():
        word = m.group("name")
        if m.group("comma") and word.islower() and not at_most_a_noun(word):
            continue  # "thanks, noted", "hey, listen": a reply, not an addressee
        if not m.group("comma") and NOUN_GREETINGS.fullmatch(m.group("greeting")) and is_english_word(word):
            continue  # "Night shift!", "Morning routine": a compound
        if _addressee(word):
            start = m.start("kin") if m.group("kin").lower().strip() in ("lil", "big") else m.start("name")
            out.append((start, m.end("name"), "PERSON", 0.85, "vocative_greeting"))
    if NAMING_VERB.search(text) is None:
        return out  # (the verbs of _call_my's pattern are among them)
    for m in NAMING.finditer(text):
        group = next(g for g in NAMING_GROUPS if m.group(g))
        word = m.group(group)
        if group in ("n2", "n3") and (word.islower() or word.isupper()):
            continue  # "aka subjugation", "goes by weight", "aka NYC": they rename things too; a nickname is written as a name
        if word.lower() in OTHER_FUNCTION_WORDS or _POSSESSIVE_AFTER.match(text, m.end(group)):
            continue
        if _named(word):
            out.append((m.start(group), m.end(group), "PERSON", 0.85, "intro"))
    out += [(m.start("name"), m.end("name"), "PERSON", 0.85, "intro") for m in _call_my().finditer(text)
            if not _POSSESSIVE_AFTER.match(text, m.end("name")) and _named(m.group("name"))]
    return out

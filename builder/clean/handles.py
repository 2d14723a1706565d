"""Online accounts and secrets a person gives away: a social handle, a username, a password.

"follow me on insta @spencer.ch", "my username is l93s11", "hmu on discord: nightowl#4821", "the
wifi password is BlueMoose2291": each points at one person (or opens their account) as surely as
a phone number does, and no NER or digit rule finds it. A handle is personal when it is *given*:

* owned: a possessive before the platform or the account word ("my insta is x", "her username
  is x", "my gamertag on xbox is x");
* offered: an invitation to reach someone there ("add me on snap, its x", "venmo me at @x",
  "dm me on ig @x", "hmu on discord: x");
* labelled: a platform or account word as a field label ("IG: @x", "Discord - x#1234");
* alone: an @handle that is the whole line, the way people paste theirs into a chat.

A public account named in passing ("go look up @heardatbyu", "a tweet tagging @Nike") has none
of these and stays. What follows the cue must look like a handle: letters, digits, ``_ . -``, an
optional ``@``, ``u/`` or ``$`` before it and a ``#1234`` tag after it; a word that says
something about the account instead ("my insta is private", "my username is just my name") is
no handle (an English word that can be other than a noun, or a stop word). A password is any
token after a password cue ("password: hunter2", "pin is 4821"), unless it is an English word
that can be other than a noun ("the password is wrong") or a placeholder ("your_password",
"****", "<password>").

Every cue is a ``Cue`` with a name, a reason and examples (tests/clean/test_clean_handles.py
runs them all).
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass

from builder.clean.alternation import gate
from builder.traits.code import code_ranges

# Platforms whose name is no common English word; "line", "signal", "switch", "league", "lol" and
# "ps" are, and count only with an account word after them ("my league username is x").
PLATFORM = (r"(?:insta(?:gram)?|ig|snap(?:chat)?|discord|twitter(?:/x)?|tik\s?tok|reddit|venmo|cash\s?app|paypal"
            r"|zelle|telegram|kik|skype|steam|xbox(?:\s+live)?|psn|playstation|twitch|youtube|yt|facebook|fb"
            r"|linkedin|github|gitlab|roblox|minecraft|fortnite|epic\s+games|battle\.?net|riot|wechat|whatsapp"
            r"|bluesky|bsky|substack|tumblr|pinterest|soundcloud|spotify|vsco|bereal|onlyfans|mastodon|myspace)"
            r"(?![\w'’])")
AMBIGUOUS_PLATFORM = r"(?:line|signal|switch|league|lol|threads|epic|ps|x)(?![\w'’])"
# Words for an account, in the languages the chats come in; the first group says "online
# account" by itself ("my username is x", "mon pseudo est x"), the second only beside a platform.
OWN_ACCOUNT = (r"(?:user\s?-?name|handle|gamer\s?-?tag|screen\s?-?name|ign|in-game\s+name|log-?in|account\s+name"
               r"|pseudo|usuario|nombre\s+de\s+usuario|utente|nome\s+utente|nome\s+de\s+usuário|usuário"
               r"|benutzer-?name|nutzer-?name|gebruikers-?naam|nazwa\s+użytkownika|login)(?![\w'’])")
ACCOUNT = (rf"(?:{OWN_ACCOUNT}|account|profile|page|channel|id|tag|name|acc|acct|perfil|cuenta|conta|konto"
           r"|compte|profilo|kanaal|kanał|canal|chaîne|kanal)(?![\w'’])")
WHOSE = (r"(?:my|his|her|their|our|your|ur|mine|mi|mis|mio|mia|il\s+mio|la\s+mia|meu|minha|o\s+meu|a\s+minha"
         r"|mein|meine|meinen|mon|ma|mes|mijn|mój|moja|moje|mojego|el\s+mío|tu|tus|tuo|tua|teu|tua|dein|deine|ton|ta"
         r"|je|jouw|twój|twoja)(?![\w'’])")
OWNER = rf"(?:\b{WHOSE}\s+(?:[\w-]+['’]s\s+)?|(?<![\w'’-])[\w-]+['’]s\s+)"  # "my ", "my bf's ", "Bob's "
# Matched once, never shortened by backtracking (a lookahead and a backreference: an atomic group
# that Python 3.10 reads), so a 4,000-character "a-a-a-…" costs one pass, not one per dash.
HANDLE = r"(?P<handle>(?=(?P<whole>(?:@|u/|\$)?[A-Za-z0-9_]+(?:[.\-][A-Za-z0-9_]+)*(?:#\d{4,5})?))(?P=whole))"
AFTER = r"(?![\w@/#$.\-]*[\w@/#$])"  # the handle ends the token (no "x@y.com": e-mails are another finder's)
# "is" (in the chats' languages) or a colon before the handle; without one, only an @handle
SAID = r"(?:(?:is|was|es|é|ist|est|c['’]est|è|era|war|heißt|heisst|to|jest)(?![\w'’])|->|→|=|:|-|–|—|'s|’s)"
IS = (rf"(?:\s*{SAID}\s*[:\-]?\s*(?:just\s+|still\s+|now\s+|ainda\s+|todavía\s+|noch\s+|encore\s+)?[\"'“‘(]?"
      r"|[!.,:]?\s+(?=@|u/))")
THERE = r"(?:\s+(?:on\s+there|there|here|too|also|instead|now|then|would\s+be|will\s+be))?"
# Words that make an @handle in the same turn somebody's own: "my YouTube channel? It's @x".
OWNED_TURN = (rf"{OWNER}(?:[\w-]+\s+){{0,2}}?(?:{PLATFORM}|{ACCOUNT})|\b(?:mine|mío|mía|meu|minha|meins|mien|mienne"
              r"|mijne|mój|moje)(?![\w'’])|\b(?:follow|add|dm|sub(?:scribe)?\s+to)\s+(?:me|us)\b")
INVITE = (r"(?:add|follow|dm|pm|message|msg|text|hmu|hit\s+me\s+up|find|look\s+me\s+up|friend|snap|catch|sub(?:scribe)?"
          r"|reach|contact|ping"
          r"|chama|me\s+chama|folg(?:e|t)?|sígueme|sigueme|segue|seguimi|agrégame|agregame|ajoute|suis|volg|dodaj"
          r"|obserwuj|aggiungimi|adiciona)")
ON = r"(?:on|at|in|via|through|over|to|no|na|en|auf|bei|sur|op|w|su)"
THERE_WORD = r"(?:there|l[áà]|la|a[ií]|ah[ií]|dort|da)(?![\w'’])"  # "me segue lá, @x", "follow me there @x"

PASSWORD_WORD = (r"(?:pass\s?words?|passcode|passwd|pwd|pw|pass(?=\s*[:=])|pin(?:\s?(?:code|number))?|pass\s?phrase"
                 r"|contraseña|clave|senha|pass?wort|kennwort|mot\s+de\s+passe|mdp|wachtwoord|hasło|haslo"
                 r"|parola\s+d['’]ordine|digicode|(?:gate|door|front\s+door|building|entry|locker|garage|alarm|keypad"
                 r"|lock|lockbox|safe|access|bike|storage|mailbox|wi-?fi)\s+(?:code|key|pin)"
                 r"|(?:code|código|codice|kod)\s+(?:to|for|of|do|da|du|de|del|della|van|für|dla)\s+(?:[\w'’-]+\s+){0,3}?"
                 r"(?:gate|door|building|entry|locker|garage|alarm|keypad|lock|lockbox|safe|wi-?fi|portão|porta|puerta"
                 r"|portail|porte|haustür|tür|fietsenstalling|deur|poort|cancello|portone|drzwi|bramy?|klatki)"
                 r"|security\s+(?:question\s+)?answer|security\s+question)(?![\w'’])")
SECRET = r"(?P<secret>\d(?:\s\d){3,7}(?!\s?\w)|[^\s\"“”‘’<>]{3,64})"


@dataclass(frozen=True)
class Cue:
    name: str
    entity: str
    why: str
    pattern: re.Pattern
    examples: tuple[tuple[str, str], ...]  # (text, the value found); an empty value: nothing is
    weak_handles: bool = False  # a plain word or a name may be the handle ("my username is plankton")
    marked_handles: bool = False  # only a handle with a marker, a digit, "_ . - #" or an inner capital


CUES: tuple[Cue, ...] = (
    Cue("owned_account", "USERNAME",
        "an account word after a possessive names the handle of the one who owns it",
        re.compile(rf"{OWNER}(?:[\w-]+\s+){{0,2}}?(?:{OWN_ACCOUNT}(?:\s+(?:on|for|in|at|en|auf|sur|op|na|no|su)\s+{PLATFORM})?)"
                   rf"{THERE}{IS}{HANDLE}{AFTER}", re.I),
        (("my username is l93s11", "l93s11"), ("do you know why my username is plankton", "plankton"),
         ("I think his screen name is Jaezo.", "Jaezo"), ("Mon pseudo sur Twitch est LeRenardGris", "LeRenardGris"),
         ("my username is just my name", ""), ("oh shoot, is my user name that....Dang", "")),
        weak_handles=True),
    Cue("labelled_account", "USERNAME",
        "a platform or account word as a field label holds the account ('IG: @x', 'Discord - x#1234', 'IG @x')",
        re.compile(rf"(?:^|(?<=[\s|•·,;(\"'“‘/]))(?:{PLATFORM}|{OWN_ACCOUNT})(?:\s+{ACCOUNT})?(?:[ \t]*[:\-–][ \t]*|[ \t]+(?=@))"
                   rf"{HANDLE}{AFTER}", re.I),
        (("IG: @jessk.art", "@jessk.art"), ("Discord - nightowl#4821", "nightowl#4821"),
         ("Username: l93s11", "l93s11"), ("Include 'IG @petalandpress' at the bottom.", "@petalandpress"),
         ("Twitter: the best place for news", ""))),
    Cue("bluesky_handle", "USERNAME",
        "a Bluesky handle is a domain under bsky.social: one account",
        re.compile(r"(?<![\w.@/-])(?P<handle>[A-Za-z0-9][\w-]*(?:\.[\w-]+)*\.bsky\.social)(?![\w.-])", re.I),
        (("bsky: bennyhops.bsky.social", "bennyhops.bsky.social"), ("see bsky.social for the app", ""))),
    Cue("platform_account", "USERNAME",
        "a platform after a possessive, or as a clause's subject, with 'is' and a handle-shaped token",
        re.compile(rf"(?:{OWNER}|(?:^|[\n.!?;,]|\b(?:and|btw|also|y|e|und|et|en|i)\b)\s*)(?:{PLATFORM}(?:\s+{ACCOUNT})?"
                   rf"|{AMBIGUOUS_PLATFORM}\s+{ACCOUNT}|(?<=\s)@(?=\s)){THERE}{IS}{HANDLE}{AFTER}",
                   re.I),
        (("Yes! My insta is naomi_th7. Follow me!", "naomi_th7"), ("my gamertag on xbox is ShadowReaper92", ""),
         ("my @ is jess.k.art on there", "jess.k.art"),
         ("discord is pumpkinspice.exe now btw", "pumpkinspice.exe"), ("meu insta é @caio.fotografia", "@caio.fotografia"),
         ("Check out my instagram! @skywalker135", "@skywalker135"), ("my insta is just my first and last name so", ""),
         ("my snap is private lol", ""), ("Snapchat is a good tool for that", ""), ("my ps username is xo_luna", "xo_luna"))),
    Cue("offered_account", "USERNAME",
        "an invitation to reach someone on a platform gives their handle",
        re.compile(rf"\b{INVITE}(?:[\s-]+(?:me|us|it|him|her|mir|moi|mnie|mi))?(?:\s+up)?(?:\s+{THERE_WORD})?"
                   rf"(?:\s+{ON}\s+{PLATFORM}(?:\s+{ACCOUNT})?[\s,:!\-–]*(?:(?:it'?s|its|i'?m|im|at|as|is|é|es|como|als"
                   r"|comme|(?:user)?name['’]s|(?:user)?name\s+is)\s+)?"
                   r"|[\s,:]*(?=@)|(?<=\bme)\s+(?:at|as)\s+(?=\S*[\d_.]))[\"'“]?" + rf"{HANDLE}{AFTER}", re.I),
        (("Btw follow me on insta @spencerchandler", "@spencerchandler"), ("snap me at lil.mango.x 🥭", "lil.mango.x"), ("add me on snap, its jkow92 lol", "jkow92"),
         ("hmu on discord: nightowl#4821", "nightowl#4821"), ("dm me on ig @pito.bedo", "@pito.bedo"),
         ("catch me on fortnite as Sk8rBoi_Zed", "Sk8rBoi_Zed"), ("follow me @danny.reyes.films I just posted", "@danny.reyes.films"),
         ("add me on snapchat sometime!", ""), ("follow us on twitter for updates", ""),
         ("you can reach me on telegram at vlad_kh", "vlad_kh"), ("find me on discord, name's kestrel_99", "kestrel_99"),
         ("me segue lá, @bia.desenha", "@bia.desenha"), ("reach me on discord later", ""),
         ("reach me on telegram at 5pm", ""))),
    Cue("goes_by", "USERNAME",
        "'I go by x on', 'I'm x on Twitch': a name someone uses on a platform",
        re.compile(rf"\b(?:i\s+go|(?:he|she|they)\s+goes?|i'?m|im|i\s+am|soy|sou|ich\s+bin|je\s+suis)\s+(?:by\s+)?"
                   rf"{HANDLE}{AFTER}\s+(?:on|in|there|everywhere|en|no|auf|sur)\b", re.I),
        (("I go by night_owl on most forums", "night_owl"), ("ya follow my spotify, im bassline.benny there", "bassline.benny"),
         ("I'm home on Sunday", ""), ("Bewertung der Ergebnisse im Hinblick auf die Fragestellung", "")),
        marked_handles=True),
    Cue("known_as_on_platform", "USERNAME",
        "'I'm on twitter as @x', 'she's on discord as x': the name someone uses there",
        re.compile(rf"\b(?:i['’]?m|im|i\s+am|(?:he|she)['’]s|(?:he|she)\s+is|they['’]re|they\s+are|we['’]re|we\s+are)"
                   rf"\s+(?:on|in)\s+{PLATFORM}\s+(?:as|under)\s+{HANDLE}{AFTER}", re.I),
        (("I'm on twitter as @hollowmoth_art, can you help me?", "@hollowmoth_art"),
         ("she's on discord as kestrel_99", "kestrel_99"), ("I'm on twitter as a lurker", "")),
        marked_handles=True),
    Cue("mine_is", "USERNAME",
        "'whats ur snap? mine's x': a handle-shaped token said to be mine, in a turn that names a platform",
        re.compile(rf"(?:{PLATFORM}|{OWN_ACCOUNT})[^\n]{{0,80}}?\bmine(?:['’]s|\s+is)\s+{HANDLE}{AFTER}", re.I),
        (("yo whats ur snap? mine's jen.k.22", "jen.k.22"), ("your snap is cool, mine is boring", ""),
         ("your snap score is huge, mine is 12k", "")),
        marked_handles=True),
    Cue("handle_is_mine", "USERNAME",
        "a handle said to be someone's account, after it ('jess.k.art is my insta', 'x is her gamertag')",
        re.compile(rf"(?<![\w@./-]){HANDLE}{AFTER}\s+(?:is|was|'s|’s|es|é|ist|est|è|jest)\s+{OWNER}"
                   rf"(?:[\w-]+\s+){{0,1}}?(?:{PLATFORM}|{OWN_ACCOUNT}|{AMBIGUOUS_PLATFORM}\s+{ACCOUNT}|@)", re.I),
        (("jess.k.art is my insta btw", "jess.k.art"), ("Sk8rBoi_Zed is my gamertag", "Sk8rBoi_Zed"),
         ("Paris is my favourite city", ""), ("@NASA is my favourite account", "")),
        marked_handles=True),
    Cue("handle_on_platform", "USERNAME",
        "a token shaped like a handle right before 'on <platform>' is that account ('add jkow92 on snap')",
        re.compile(rf"(?<![\w@./-]){HANDLE}{AFTER}\s+(?:on|in|at|no|na|en|auf|sur|op|su)\s+{PLATFORM}", re.I),
        (("add jkow92 on snap", "jkow92"), ("jess.k.art on insta, come say hi", "jess.k.art"),
         ("I saw Beyonce on Instagram", ""), ("I saw @NASA on twitter", ""), ("I slid in to her DMs on instagram", "")),
        marked_handles=True),
    Cue("money_app", "USERNAME",
        "a payment app's handle after 'venmo me', 'cashapp' is the payee's account",
        re.compile(rf"\b(?:venmo|cash\s?app|paypal(?:\.me)?)(?:\s+me)?(?:\s+(?:at|to))?\s*[:\-]?\s*"
                   rf"(?P<handle>(?:@|\$)[A-Za-z0-9_][A-Za-z0-9_.\-]{{1,38}}[A-Za-z0-9_]){AFTER}", re.I),
        (("cashapp $jesskow92", "$jesskow92"), ("venmo me at @Jess-Kowalski-7 for the pizza", "@Jess-Kowalski-7"),
         ("it costs $20 on venmo", ""))),
    Cue("handle_alone", "USERNAME",
        "an @handle that is a whole line is a person pasting their own",
        re.compile(r"(?:^|\n)[ \t]*(?P<handle>@[A-Za-z0-9_](?:[A-Za-z0-9_.]{1,28}[A-Za-z0-9_]))[ \t]*"
                   r"(?:[!.:)(;]+|lol|haha)?[ \t]*(?=\n|$)", re.I),
        (("yessss\n@pito.bedo", "@pito.bedo"), ("@victoria.garvin", "@victoria.garvin"),
         ("go look up @heardatbyu . its so funny", ""), ("@startuml\nclass A {\n  x: int;\n}\n@enduml", ""))),
    Cue("password", "PASSWORD",
        "a password, PIN, door code or security answer opens someone's account or door",
        re.compile(rf"(?<![/.\w-]){PASSWORD_WORD}(?:\s+(?:for|to|of|on|do|da|de|del|du|van|für|dla|di|voor)"
                   rf"(?:\s+[\w'’-]+){{1,4}})?(?:(?P<said>\s*{SAID})\s*|[ \t]+)(?:still\s+|now\s+|ainda\s+|noch\s+)?"
                   rf"[\"'“‘]?{SECRET}", re.I),
        (("the wifi password is BlueMoose2291 btw", "BlueMoose2291"),
         ("my login is jkowalski and password hunter2_92", "hunter2_92"), ("the password manager app", ""),
         ("password: hunter2", "hunter2"), ("my pin is 4821", "4821"), ("gate code is 4417, drive up", "4417"),
         ("Fail\nPass\n1.5\nExcellent", ""), ("wifi: HomeNet_5G pass: pickles4ever", "pickles4ever"),
         ("pin for the garage keypad: 7 3 1 9", "7 3 1 9"), ("Mein Passwort ist Zugspitze!84 – sicher?", "Zugspitze!84"),
         ("the password is wrong, it says", ""), ("PASSWORD=your_password", ""),
         ("Password: Tr33house!Lake", "Tr33house!Lake"))),
    Cue("password_set_to", "PASSWORD",
        "'I set my password to x': what a password was set or changed to",
        re.compile(rf"\b(?:set|changed?|reset|updated?)\s+(?:[\w'’-]+\s+){{0,4}}?{PASSWORD_WORD}\s+(?:to|into|as)\s+"
                   rf"[\"'“‘]?{SECRET}", re.I),
        (("I set my router admin password to Kestrel-Hill-42 but", "Kestrel-Hill-42"),
         ("I changed my password to something longer", ""))),
    Cue("owned_at_handle", "USERNAME",
        "an @handle in a turn where someone speaks of their own account ('my YouTube channel? It's @x')",
        re.compile(r"(?<![\w@./])(?P<handle>(?=(?P<at>@[A-Za-z0-9_]+(?:[.\-][A-Za-z0-9_]+)*))(?P=at))(?![\w@])"),
        (("What's a good way to grow my YouTube channel? It's @BakeWithBenji, mostly bread.", "@BakeWithBenji"),
         ("His account is @waffles_the_corgi", "@waffles_the_corgi"), ("I love the new @Nike ads", ""),
         ("follow @nytimes for updates", ""))),
    Cue("security_answer", "PASSWORD",
        "the answer to a security question (a maiden name, a first pet) unlocks an account",
        re.compile(r"\b(?:maiden\s+name|first\s+(?:pet|car|school|teacher)(?:['’]s\s+name)?|name\s+of\s+(?:my|your|the)\s+"
                   r"first\s+(?:pet|car|school|teacher)|street\s+(?:i|you|we)\s+grew\s+up\s+on|childhood\s+(?:best\s+friend"
                   r"|nickname|hero)|city\s+(?:i|you)\s+(?:was|were)\s+born\s+in)(?:\s+(?:is|was|:|->|→|=|-)|\s*[:=]|\s*->|\s*→)"
                   r"\s*[\"'“‘]?(?P<secret>[^\s\"“”‘’<>,;]{2,40})", re.I),
        (("Security question: first pet -> Biscuit", "Biscuit"), ("my mom's maiden name is Kowalczyk", "Kowalczyk"),
         ("what is a maiden name?", ""))),
    Cue("wifi_secret", "PASSWORD",
        "what a wifi 'is' when it is shaped like a secret (digits, symbols, mixed case) is its password",
        re.compile(rf"\bwi-?fi(?:\s+(?:network|pw|pass))?{IS}(?P<secret>[^\s\"“”‘’<>]{{6,64}})", re.I),
        (("yeah the apartment wifi is still Waffle$Iron99", "Waffle$Iron99"), ("the wifi is slow today", ""))),
)

# (its branches grouped under their first letter: alternation.py; a gate asks only whether one matches)
PREFILTER = gate(rf"@|\$[A-Za-z]|#\d{{4}}|wi-?fi|\bgo(?:es)?\s+by\b|maiden|first\s+pet|grew\s+up\s+on"
                 rf"|{PASSWORD_WORD}|{PLATFORM}|{OWN_ACCOUNT}|u/\w", re.I)
# The words one of the cues needs (a platform, an account or password word, the first word of a
# phrase): most turns hold none, and a set lookup of a turn's words costs a tenth of PREFILTER.
KEY_WORDS = frozenset("""
insta instagram ig snap snapchat discord twitter tik tiktok reddit venmo cash cashapp paypal zelle telegram kik
skype steam xbox psn playstation twitch youtube yt facebook fb linkedin github gitlab roblox minecraft fortnite epic
battle riot wechat whatsapp bluesky bsky substack tumblr pinterest soundcloud spotify vsco bereal onlyfans mastodon
myspace line signal switch league lol threads ps
user username usernames handle gamertag gamer screen screenname ign login log pseudo usuario utente usuário nome
benutzername nutzername benutzer nutzer gebruikersnaam gebruikers nazwa account
password passwords passcode passwd pwd pw pass pin pincode passphrase contraseña clave senha passwort kennwort mot
mdp wachtwoord hasło haslo parola digicode code código codice kod security wifi wi maiden pet grew go goes
""".split())
TOKEN = re.compile(r"[^\W\d_]+")
MARKERS = re.compile(r"[@$#]|u/")


@functools.lru_cache(maxsize=256)  # asked by the stage's entity gate, then by find_handles
def may_hold(text: str) -> bool:
    """A cheap test: ``text`` may hold an account or a secret (a marker, a key word, then PREFILTER)."""
    if not (MARKERS.search(text) or not KEY_WORDS.isdisjoint(TOKEN.findall(text.lower()))):
        return False
    return PREFILTER.search(text) is not None
PLACEHOLDER = re.compile(r"^(?:[*x•.#_\-]+|<[^>]*>|\[[^\]]*\]|\{[^}]*\}|\$\w+|your[_\-]?\w*|my[_\-]?\w*|\w*password\w*"
                         r"|example\w*|placeholder|secret|changeme|redacted|hidden|xxx+|none|null|empty|blank)$", re.I)
TRAILING = ".,;:!?)]}\"'”’…-"
# A time, a count or a version ("at 5pm", "mine is 12k", "v2.0", "mine is 40"); a long run of digits may be an id.
AMOUNT = re.compile(r"v?\d+(?:[.:,]\d+)+|v\d+|\d+(?:am|pm|k|m|h|min|s|x|st|nd|rd|th)|\d{1,4}", re.I)
OWNED_TURN_RE = gate(OWNED_TURN, re.I)  # asked only whether there is one (alternation.py)


def _a_word_about_it(token: str) -> bool:
    """A plain word that says something about the account or the password rather than being it:
    a stop word or chat word, or an English word that can be a verb, an adjective or an adverb
    ("private", "wrong", "down"); a noun ("plankton") or a name ("Celeste") may be a handle."""
    from builder.clean.precision import NOT_NAMES
    from builder.clean.truecase import at_most_a_noun, is_english_word

    bare = token.strip(".-")
    if not bare.isalpha():
        return False  # digits, "_", "." or "#": a handle's shape
    plain = re.sub(r"(\w)\1{2,}", r"\1", bare.lower())  # "sooooo", "hahaaa"
    if bare.lower() in NOT_NAMES or plain in NOT_NAMES or plain in ("so", "ha", "he"):
        return True  # chat words: "lol", "haha", "hehe"
    return is_english_word(bare) and not at_most_a_noun(bare)


HANDLE_MARKERS = ("@", "$", "u/")  # what a platform writes before a handle (surrogates keep it)


def bare_handle(value: str) -> str:
    """The handle without its marker: "@jess.k" -> "jess.k", "u/x" -> "x", "$cash" -> "cash"."""
    return value.lstrip("@$").removeprefix("u/")


def handle_shaped(value: str, marked: bool = False) -> bool:
    """A token no one would write as a plain word: a marker (@, $, u/), a digit, ``_ . - #``, a
    capital inside ("BakeWithBenji"), or (unless ``marked``) no English word at all ("ghostlyfern";
    German "im Hinblick" shows why "I'm x on" asks for a marked one)."""
    from builder.clean.truecase import is_english_word

    bare = bare_handle(value)
    if bare != value or any(c.isdigit() or c in "_.-#" for c in bare) or (
            any(c.isupper() for c in bare[1:]) and not bare.isupper() and not re.fullmatch(r"[A-Z]+s", bare)):
        return True  # (an acronym's plural, "DMs", "IDs", has no inner capital of a handle)
    return not marked and not is_english_word(bare)


def find_handles(text: str) -> list[tuple[int, int, str, float, str]]:
    """``(start, end, entity, score, cue)`` of the handles and secrets given in ``text`` (USERNAME,
    PASSWORD), each by the first cue of :data:`CUES` that finds it."""
    if not may_hold(text):
        return []
    out: list[tuple[int, int, str, float, str]] = []
    in_code = bool(code_ranges(text))
    owned_turn = OWNED_TURN_RE.search(text) is not None  # someone speaks of their own account here
    for cue in CUES:
        if cue.name == "handle_alone" and in_code:
            continue  # "@startuml", "@Override" on a line of a pasted program are its directives
        if cue.name == "owned_at_handle" and not (owned_turn and not in_code):
            continue
        group = "secret" if cue.entity == "PASSWORD" else "handle"
        for m in cue.pattern.finditer(text):
            start, end = m.span(group)
            value = text[start:end].rstrip(TRAILING) if group == "secret" else text[start:end].rstrip(".-")
            end = start + len(value)
            bare = bare_handle(value)
            if len(value) > 40 or len(bare) < 3 or _a_word_about_it(bare):
                continue
            if PLACEHOLDER.match(bare if group == "handle" else value):
                continue
            if group == "handle" and AMOUNT.fullmatch(bare):
                continue  # "reach me on telegram at 5pm", "mine is 12k", "v2.0": a time, a count, a version
            if group == "handle" and not cue.weak_handles and not handle_shaped(value, cue.marked_handles):
                continue  # "Snapchat is poison": a plain word counts only after "my username is"
            if cue.name == "handle_on_platform" and value.startswith("@") and not owned_turn:
                continue  # "I saw @NASA on twitter": an @handle there is anyone's, unless it is somebody's own
            said = m.groupdict().get("said")
            if group == "secret" and cue.name == "password" and not said and not any(c.isdigit() for c in value):
                continue  # "password manager", "**Password Handling**": without "is" or ":" a secret has digits
            if cue.name == "wifi_secret" and not (any(not c.isalpha() for c in value) or not value.islower()):
                continue  # "the wifi is terrible": a network's password has digits, symbols or capitals
            if any(s < end and start < e for s, e, *_ in out):
                continue
            out.append((start, end, cue.entity, 0.85, cue.name))
    return out

"""An explicitly chosen offline backend: word lists and patterns, no model weights.

It exists for machines without Detoxify weights (the demo) and is never used unless asked
for with ``--toxicity-backend lexicon``. English: better-profanity's plain-text word list
(PyPI ``better-profanity``; the file only, not its slow censor) plus insults and threat
patterns a swear-word list does not cover. Other languages: the lists in ``wordlists/``,
applied to turns identified as that language (``score(texts, languages)``). Scores are
coarse (0, 0.5, 0.9, 1.0): it catches plain insults, slurs, threats and requests for
sexual content, not sarcasm or coded hate.

Words that are mostly innocent in chat (``kill`` a process, ``strip`` a string, ``virgin``
olive oil) never count alone; words that are slurs only when aimed at someone (``slope``,
``coon``, ``dong``, ``hoare``) count only then ("you ..."); code and identifiers are not
read (textscan.py).
"""

from __future__ import annotations

import hashlib
import re
from functools import lru_cache
from pathlib import Path

from builder.errors import require
from builder.traits.fiction import asks_for_fiction
from classifiers.toxicity.textscan import prepare, words

LABELS = ("toxicity", "obscene", "insult", "threat", "sexual_explicit")
WORDLISTS = Path(__file__).resolve().parent / "wordlists"
CJK = ("zh", "ja", "ko")

# Words on better-profanity's list that are mostly innocent in chat (technical, medical, cooking, everyday).
AMBIGUOUS = frozenset("""
anal anus areole arian aryan ass asses balls bang bent blow breast breasts busty crack crap crotch damn drunk
dummy dopey doofus erect erotic facial fanny fart fat flange foobar fondle glans god hardcore hell hemp heroin
herpes hiv hooch hookah hooker hump inbred incest jerked junkie kill kinky knob labia leper lesbian lmao lmfao
loin loins lube lust lusty maxi menses meth murder naked napalm nipple nude nudes omg opiate opium oral orally
organ orgasm ovary ovum ovums pawn pcp pee penile penis period pms pot potty prude pubic pubis queer racy rape
raped rectal rectum rectus revue rum rump sadism screw seaman seamen seduce semen sex sexual slave sniper snuff
spunk steamy sperm stoned strip stroke suck sucks sucked tampon teat teste testes testis thrust thug tinkle tit
toke undies unwed urinal urine uterus uzi vagina valium viagra virgin vodka vomit vulgar vulva weed womb woody
xx xxx gay gays jesus drugs nazi nazism hitler reich klan kkk molest cock cocks nob beaver willy wang tramp
len nad lez hore ho homo bone boner butt dyke johnson pecker prick muff nuts booty shag tart knockers
poop penetrate penetrated weirdo shota loli sucking
""".split())
# Slurs only when aimed at someone: "you slope", not "the slope of a line"; "Maine Coon" is a cat.
AIMED_ONLY = frozenset("slope slopes coon coons dong hoare jap japs spic spics gook gooks fag fags nig "
                       "penetration dick dicks pussy bitch bitches".split())
INSULTS = frozenset(
    "idiot idiots moron morons stupid dumb imbecile loser losers pathetic worthless scum trash retard "
    "retarded cretin dumbass jerk fool clown garbage useless brainless disgusting".split()
)
_INSULT = "|".join(sorted(INSULTS))
_FILLER = rf"(?:a|an|the|such|so|most|complete|total|absolute|utter|fucking|little|big|piece of|{_INSULT}),?"
INSULT_AIMED = re.compile(
    rf"\b(?:you|u|ya)(?:\s*'re|\s+are|\s+r)?\s+(?:{_FILLER}\s+){{0,4}}(?:{_INSULT})\b"
    rf"|\b(?:{_INSULT}),?\s+(?:bot|machine|program|ai|assistant|chatbot)\b"
)
AIMED = re.compile(r"\b(?:you|u|ya|your|ur)(?:\s*'re|\s+are|\s+r)?\s+(?:\w+\s+){0,3}(?P<word>\w+)\b"
                   r"|\b(?P<word2>\w+)\s+(?:bot|machine|ai|assistant)\b")
THREATS = re.compile(
    r"\b(i|we|i'll|we'll|ill)\s*('ll|will|am going to|'m going to|'m gonna|am gonna|gonna|going to|shall)?\s*"
    r"(kill|hurt|murder|beat|stab|shoot|strangle|find|destroy|end)\s+(you|u|ya|your)\b"
    r"|\b(you|u)\s*('re|are|r)\s+(dead|going to die|gonna die)\b"
    r"|\b(hope|wish)\s+(you|u)\s+(die|get killed|burn)\b"
    r"|\b(kill|hang|shoot)\s+(yourself|urself)\b"
)
# A request for sexual fiction: a story request (the ``fiction`` trait, builder/traits/fiction.py)
# or a "describe" that holds one of these words.
SEXUAL_TERMS = re.compile(r"\b(?:fetish\w*|smut\w*|porn\w*|erotic\w*|nsfw|hentai|sex\s+scene|explicit\s+sex\w*|lewd)\b")
DESCRIBE = re.compile(r"\b(?:describe|continue|write)\b")


@lru_cache(maxsize=1)
def _english() -> tuple[frozenset[str], str]:
    package = require("better_profanity", "better-profanity")
    data = (Path(package.__file__).parent / "profanity_wordlist.txt").read_bytes()
    listed = {w.strip().lower() for w in data.decode("utf-8").splitlines() if w.strip()}
    return frozenset(listed - AMBIGUOUS - INSULTS - AIMED_ONLY), hashlib.sha256(data).hexdigest()


@lru_cache(maxsize=None)
def _language_list(code: str) -> tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...]]:
    """``(obscene entries, sexual entries, stems)`` of one language (wordlists/<code>.txt)."""
    path = WORDLISTS / f"{code}.txt"
    obscene: list[str] = []
    sexual: list[str] = []
    stems: list[str] = []
    if path.exists():
        for line in path.read_text(encoding="utf-8").splitlines():
            entry, _, note = line.partition("#")
            entry = entry.strip().casefold()
            if not entry:
                continue
            if code not in CJK and not entry.endswith("*"):
                entry = " ".join(words(entry))  # "foda-se" is matched as the words "foda se"
            if entry.endswith("*"):
                stems.append(entry[:-1])
            else:
                (sexual if "sexual" in note else obscene).append(entry)
    return tuple(obscene), tuple(sexual), tuple(stems)


def _wordlists_sha256() -> str:
    digest = hashlib.sha256()
    for path in sorted(WORDLISTS.glob("*.txt")):
        digest.update(path.name.encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()


class LexiconScorer:
    name = "lexicon"
    labels = list(LABELS)
    uses_language = True

    def __init__(self):
        self.words, self.wordlist_sha256 = _english()

    def describe(self) -> dict:
        from importlib.metadata import version

        return {
            "name": "lexicon", "version": f"better-profanity=={version('better-profanity')}+mmrc-lexicon-2",
            "source": "explicit", "files": {"better_profanity/profanity_wordlist.txt": self.wordlist_sha256,
                                            "classifiers/toxicity/wordlists/*.txt": _wordlists_sha256()},
        }

    def score(self, texts: list[str], languages: list[str | None] | None = None) -> list[dict[str, float]]:
        languages = languages or [None] * len(texts)
        return [self._score_one(t, lang) for t, lang in zip(texts, languages)]

    def _score_one(self, text: str, language: str | None = None) -> dict[str, float]:
        lower = prepare(text)
        tokens = words(lower)
        grams = set(tokens) | {f"{a} {b}" for a, b in zip(tokens, tokens[1:])}
        obscene = 0.9 if grams & self.words else 0.0
        insult = 0.0
        if grams & INSULTS:
            insult = 1.0 if INSULT_AIMED.search(lower) else 0.5
        if grams & AIMED_ONLY and self._aimed(lower):
            insult = 1.0
        threat = 1.0 if THREATS.search(lower) else 0.0
        sexual = 0.9 if SEXUAL_TERMS.search(lower) and (asks_for_fiction(lower) or DESCRIBE.search(lower)) else 0.0
        for code in self._languages_of(text, language):
            found_obscene, found_sexual = self._language_hits(code, lower, tokens)
            obscene = max(obscene, 0.9 * found_obscene)
            sexual = max(sexual, 0.9 * found_sexual)
        return {"toxicity": max(obscene, insult, threat), "obscene": obscene, "insult": insult, "threat": threat,
                "sexual_explicit": sexual}

    @staticmethod
    def _aimed(lower: str) -> bool:
        for m in AIMED.finditer(lower):
            if (m.group("word") or m.group("word2")) in AIMED_ONLY:
                return True
        return False

    @staticmethod
    def _languages_of(text: str, language: str | None) -> list[str]:
        """The turn's language list, and the CJK lists wherever their script appears (a
        short Chinese turn may be too short to identify)."""
        out = [language] if language and language != "en" else []
        if re.search(r"[\u4e00-\u9fff]", text):
            out.append("zh")
        if re.search(r"[\u3040-\u30ff]", text):
            out.append("ja")
        if re.search(r"[\uac00-\ud7a3]", text):
            out.append("ko")
        return sorted(set(out))

    @staticmethod
    def _language_hits(code: str, lower: str, tokens: list[str]) -> tuple[bool, bool]:
        obscene, sexual, stems = _language_list(code)
        if code in CJK:
            return any(e in lower for e in obscene), any(e in lower for e in sexual)
        joined = f" {' '.join(tokens)} "
        hit = any(f" {e} " in joined for e in obscene) or any(t.startswith(stems) for t in tokens if stems)
        return hit, any(f" {e} " in joined for e in sexual)

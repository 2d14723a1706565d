"""An explicitly chosen offline backend: word lists and threat patterns, no model weights.

It exists for machines without Detoxify weights (the demo) and is never used unless asked
for with ``--toxicity-backend lexicon``. It reads better-profanity's plain-text word list
(PyPI ``better-profanity``; the file only, not its slow censor) and adds a short list of
insults and second-person threat patterns that a swear-word list does not cover. Scores
are coarse (0, 0.5, 0.9, 1.0): it catches plain insults, slurs and threats, not sarcasm
or coded hate. Words that are mostly innocent in chat (``kill`` a process, ``strip`` a
string, ``pot``, ``virgin`` olive oil) are not counted alone.
"""

from __future__ import annotations

import hashlib
import re
from functools import lru_cache
from pathlib import Path

from builder.errors import require

LABELS = ("toxicity", "obscene", "insult", "threat")

# Words on that list that are mostly innocent in chat (technical, medical, cooking, everyday).
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
""".split())
INSULTS = frozenset(
    "idiot idiots moron morons stupid dumb imbecile loser losers pathetic worthless scum trash retard "
    "retarded cretin dumbass jerk fool clown garbage useless brainless disgusting".split()
)
_INSULT = "|".join(sorted(INSULTS))
_FILLER = rf"(?:a|an|the|such|so|most|complete|total|absolute|utter|fucking|little|big|piece of|{_INSULT}),?"
# An insult word aimed at someone: "you (are a) stupid idiot", "you're so dumb", "stupid bot".
INSULT_AIMED = re.compile(
    rf"\b(?:you|u|ya)(?:\s*'re|\s+are|\s+r)?\s+(?:{_FILLER}\s+){{0,4}}(?:{_INSULT})\b"
    rf"|\b(?:{_INSULT}),?\s+(?:bot|machine|program|ai|assistant|chatbot)\b"
)
THREATS = re.compile(
    r"\b(i|we|i'll|we'll|ill)\s*('ll|will|am going to|'m going to|'m gonna|am gonna|gonna|going to|shall)?\s*"
    r"(kill|hurt|murder|beat|stab|shoot|strangle|find|destroy|end)\s+(you|u|ya|your)\b"
    r"|\b(you|u)\s*('re|are|r)\s+(dead|going to die|gonna die)\b"
    r"|\b(hope|wish)\s+(you|u)\s+(die|get killed|burn)\b"
    r"|\b(kill|hang|shoot)\s+(yourself|urself)\b"
)
WORD = re.compile(r"[a-z]+(?:'[a-z]+)?")


@lru_cache(maxsize=1)
def _wordlist() -> tuple[frozenset[str], str]:
    package = require("better_profanity", "better-profanity")
    path = Path(package.__file__).parent / "profanity_wordlist.txt"
    data = path.read_bytes()
    words = {w.strip().lower() for w in data.decode("utf-8").splitlines() if w.strip()}
    return frozenset(words - AMBIGUOUS - INSULTS), hashlib.sha256(data).hexdigest()


class LexiconScorer:
    name = "lexicon"
    labels = list(LABELS)

    def __init__(self):
        self.words, self.wordlist_sha256 = _wordlist()

    def describe(self) -> dict:
        from importlib.metadata import version

        return {
            "name": "lexicon", "version": f"better-profanity=={version('better-profanity')}+mmrc-lexicon-1",
            "source": "explicit", "files": {"better_profanity/profanity_wordlist.txt": self.wordlist_sha256},
        }

    def score(self, texts: list[str]) -> list[dict[str, float]]:
        return [self._score_one(t) for t in texts]

    def _score_one(self, text: str) -> dict[str, float]:
        lower = text.lower().replace("\u2019", "'")
        tokens = WORD.findall(lower)
        grams = set(tokens) | {f"{a} {b}" for a, b in zip(tokens, tokens[1:])}
        obscene = 0.9 if grams & self.words else 0.0
        insult = 0.0
        if grams & INSULTS:
            insult = 1.0 if INSULT_AIMED.search(lower) else 0.5
        threat = 1.0 if THREATS.search(lower) else 0.0
        return {"toxicity": max(obscene, insult, threat), "obscene": obscene, "insult": insult, "threat": threat}

"""A refusal-phrase matcher: the judge-free cross-check of the judge's refusal verdict (MMRC AR).

It looks for the ways an answer says "I can't answer that from what we discussed": not
knowing, the information not being mentioned, given or specified, the question not being
answerable, and declining. It is deliberately plain (regular expressions over a casefolded
answer, English only): its verdict is reported beside the judge's, and their disagreements
are counted, so where it errs is visible rather than hidden.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

PATTERNS: tuple[str, ...] = (
    r"\bi (?:do not|don't|did not|didn't|cannot|can't|can not|am unable to|'m unable to) "
    r"(?:know|tell|say|determine|find|recall|remember|see|answer|confirm|identify|be sure)\b",
    r"\b(?:wasn't|weren't|isn't|aren't|hasn't been|hadn't been|haven't been) (?:explicitly |specifically |"
    r"clearly )?(?:mentioned|specified|stated|provided|given|discussed|said|shared|included|indicated|revealed|"
    r"disclosed|recorded)\b",
    r"\b(?:not|never) (?:explicitly |specifically |clearly )?(?:mentioned|specified|stated|provided|given|discussed|"
    r"shared|disclosed|revealed)\b",
    r"\bno (?:information|mention|details?|indication|record|data|reference|evidence) (?:about|of|on|regarding|"
    r"was|is|in|that|to)\b",
    r"\b(?:does|did|do)(?: not|n't) (?:say|mention|specify|state|include|provide|indicate|reveal|contain|tell)\b",
    r"\b(?:unable|impossible) to (?:determine|answer|tell|find|say|know|identify)\b",
    r"\b(?:cannot|can't|can not|could not|couldn't) be (?:determined|answered|known|inferred|found|identified)\b",
    r"\bthere (?:is|was) no (?:way|mention|information|indication|record|detail)\b",
    r"\bnot (?:possible|able) to (?:tell|determine|say|know|answer)\b",
    r"\bi(?:'m| am) (?:not sure|uncertain)\b",
    r"\b(?:the )?(?:conversation|dialogue|chat|context|discussion|user|text)(?: itself)? (?:does not|doesn't|did not|"
    r"didn't|never) (?:say|mention|specify|include|contain|provide|give|name|state|list|tell|reveal|indicate|show|"
    r"share|disclose|identify|describe)\b",
    r"\bno (?:[\w'-]+ ){0,3}(?:is|was|were|has been|have been|had been) (?:given|mentioned|specified|stated|provided|"
    r"named|shared|listed|disclosed|revealed)\b",
)


@dataclass(frozen=True)
class RefusalMatcher:
    patterns: tuple[str, ...] = PATTERNS

    def match(self, answer: str | None) -> str | None:
        """The phrase that marks ``answer`` as a refusal, or None."""
        if not answer:
            return None
        text = unicodedata.normalize("NFKC", answer).casefold().replace("’", "'")
        text = " ".join(text.split())
        for pattern in _compiled(self.patterns):
            found = pattern.search(text)
            if found:
                return found.group(0)
        return None


_CACHE: dict[tuple[str, ...], list[re.Pattern]] = {}


def _compiled(patterns: tuple[str, ...]) -> list[re.Pattern]:
    if patterns not in _CACHE:
        _CACHE[patterns] = [re.compile(p) for p in patterns]
    return _CACHE[patterns]


def is_refusal(answer: str | None) -> bool:
    return RefusalMatcher().match(answer) is not None

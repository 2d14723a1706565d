"""Trait ``peer_chat`` (of a dialogue): the other side writes like a person, not a chat model.

Logs are user–model chats, and the PII policy leans on that: a chat model cannot know private
people, so a name only a model turn brings up is public or invented. Some logs hold people
talking to people (a support desk, a chat app, a crowd-sourced conversation collected as
"user" and "assistant"); there the second speaker's friends, partners and screen names are as
private as the user's. The second side reads as a person when its turns are as short as a
chat message (median ≤ 40 words, none over 150), it never writes like a model (no markdown
list, heading or code fence, no "As an AI", "I hope this helps", "How can I assist"), the user
does not set up a role-play (then a model plays a person), and at least one of its turns tells
of a life (my wife, my dog, I went, I grew up), chats (lol, yeah, hmm, :) ), asks back (you?)
or speaks of its own state (I'm, I was, I had, I don't).
"""

from __future__ import annotations

import re
import statistics

from builder.traits.fiction import role_play_setup

MODEL_VOICE = re.compile(
    r"\bas an ai\b|\blanguage model\b|\bi(?:'m| am) (?:an ai|a (?:chat)?bot|an assistant|a virtual)\b"
    r"|\bi hope (?:this|that) helps\b|\bfeel free to\b|\blet me know if (?:you|there)\b"
    r"|\bhow (?:can|may) i (?:help|assist)\b|\bassist you\b|\bi (?:can(?:no|')t|am unable to) (?:help|assist|provide)\b"
    r"|\bcertainly[!,.]|\bhere(?:'s| is| are) (?:a|an|the|some|your)\b|^\s*(?:#{1,6} |[-*] |\d+\. |```)",
    re.I | re.M)
LIFE = re.compile(
    r"\bmy (?:wife|husband|kids?|son|daughter|mom|mum|dad|mother|father|brother|sister|friends?|boyfriend|girlfriend"
    r"|family|dog|cat|job|boss|roommate|parents|grandma|grandpa|cousin|aunt|uncle|coworkers?|neighbou?r)\b"
    r"|\bi (?:went|live|lived|grew up|work|worked|was born|moved|used to|just got|got back|have been|'ve been)\b"
    r"|\b(?:lol|lmao|haha\w*|hehe|omg|xd|yeah|yea|yep|nah|um+|hm+|dude|gonna|gotta|kinda|cuz|tho|wbu|hbu)\b"
    r"|[:;]-?[)dp3]\B|\b(?:what|how) about you\b|\band you\?|(?:^|\n)\s*you\?"
    r"|\bi (?:think|guess|like|love|hate|prefer|agree|remember|wish)\b"
    r"|\bi(?:'m|’m| am| was| had| don'?t| do not| didn'?t| can'?t)\b", re.I)
MEDIAN_WORDS = 40
MAX_WORDS = 150

WHY = "a person's side of a chat names private people too; a chat model's names are public or invented"
EXAMPLES = (([("user", "hi! how was your weekend?"), ("assistant", "pretty good, my sister visited lol"),
              ("user", "nice, what did you do?"), ("assistant", "we went to the lake with her kids")], True),
            ([("user", "hi"), ("assistant", "Hello! How can I assist you today?"),
              ("user", "tell me a joke"), ("assistant", "Why did the chicken cross the road? To get to the other side!")],
             False))


def detect(turns: list[dict]) -> bool:
    other = [t.get("text") or "" for t in turns if t.get("role") != "user"]
    user = [t.get("text") or "" for t in turns if t.get("role") == "user"]
    if len(other) < 2 or any(role_play_setup(u) for u in user):
        return False
    words = [len(t.split()) for t in other]
    if statistics.median(words) > MEDIAN_WORDS or max(words) > MAX_WORDS:
        return False
    if any(MODEL_VOICE.search(t) for t in other):
        return False
    return any(LIFE.search(t) for t in other)

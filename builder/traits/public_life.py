"""Trait ``public_life`` (of a dialogue): it talks about professional sport or show business (two
mentions or more): its people are players, coaches and stars, public figures no list can hold."""

from __future__ import annotations

import re

PRO_SPORT = re.compile(r"\b(?:nfl|nba|mlb|nhl|mls|fifa|uefa|premier\s+league|super\s+bowl|touchdowns?|quarterbacks?|drafted"
                       r"|draft\s+pick|rookie|playoffs?|halftime|linebackers?|receivers?|fumbled?|rushing\s+yards"
                       r"|hall\s+of\s+fame|mvp|grand\s+slam|world\s+cup|olympics?|oscars?|grammys?|emmys?|box\s+office"
                       r"|billboard|sitcom|starred|starring)\b", re.I)

WHY = "people of professional sport and show business are public figures"
EXAMPLES = ((["Do you know who Baker Mayfield is?", "He was drafted first by the Browns; an NFL quarterback."], True),
            (["my son plays football on Sundays"], False))


def about_public_life(texts: list[str]) -> bool:
    return sum(len(PRO_SPORT.findall(t)) for t in texts) >= 2

"""Street addresses judged by the street-context model: where one ends, and the ones no form found.

The street forms (addresses.py) each name a shape ("42 Willow Lane", "Rua Augusta 1508"); people
write others, and a form that matches part of one leaves the rest ("55 bloor st e <STREET_ADDRESS>",
"<STREET_ADDRESS> de Mayo #214", "H.No. <STREET_ADDRESS>"). The street-context model
(classifiers/street_context) reads every word near a number and says how likely it is part of an
address. In the turns a person typed (the user's, and the second side's in a person-to-person chat),
outside code and long pastes:

- **a found street grows** over the words next to it that the model gives at least ``GROW`` ("Calle 5
  de Mayo #214", "H.No. 1-8-449, Chikkadpally"), joined to it as ``model.joined`` says: across commas,
  colons, "#", brackets, dashes, slashes, "&" and ordinal marks; not past a full stop
  (``features.full_stop``), a line break or a preposition of place ("Zofia Zielinska at ul. Lipowa
  14": whoever stands before "at" is no part of the address); in a text with capitals, across a comma or a colon only
  between capitalised words or numbers; never ending on a stop word. A word the form cut ("93" of
  "93-47") is taken whole. The form found where an address is, the model says where it ends; from
  there the unit, town and postal code after it are the address's, as for the forms
  (``addresses.extend_block``). The span keeps its basis and gets ``street_context_grown``.
- **a street no form found** becomes a ``STREET_ADDRESS`` span (basis ``street_context``, its
  ``street_context`` probability, with the unit, town and code after it) where the model's words
  reach its shipped threshold, unless it touches a street or a name a rule kept (a landmark's
  address, a public figure's house), or an organisation or a date before 1920 stands by it, as for
  the forms.

``clean --no-street-context`` turns both off. Spans stand on the model's own threshold:
``--pii-threshold`` does not apply to them.
"""

from __future__ import annotations

ENTITY = "STREET_ADDRESS"
GROW = 0.2  # chosen out of fold on the tuning halves (classifiers/street_context/README.md)


# A preposition of place introduces an address and is never part of one: growth stops there ("my
# grandmother Zofia Zielinska at ul. Lipowa 14": the words before "at" are whoever lives there).
PLACE_PREPOSITIONS = frozenset("at in on near to from into onto outside by".split())


def grow(toks, prob: dict[int, float], start: int, end: int) -> tuple[int, int]:
    """``(start, end)`` widened over the neighbouring words of probability ``GROW`` or more that
    ``model.joined`` lets join it, never ending on a stop word (never narrowed), never across a
    preposition of place (PLACE_PREPOSITIONS)."""
    from classifiers.street_context.features import stop_word
    from classifiers.street_context.model import JOINERS, end_of, joined

    # a word the span cuts ("Carrera 15 # 93" of "93-47") is the street's whole: a form stopped inside it
    inside = [i for i, (s, e, t) in enumerate(toks) if s < end and start < e and t not in JOINERS]
    if not inside:
        return start, end
    first, last = inside[0], inside[-1]
    cased = any(c.isupper() for _, _, t in toks for c in t)
    for step in (-1, 1):
        origin = edge = first if step < 0 else last
        while True:
            k = edge + step
            while 0 <= k < len(toks) and toks[k][2] in JOINERS:
                k += step
            if not (0 <= k < len(toks)) or prob.get(k, 0.0) < GROW or not joined(toks, min(k, edge), max(k, edge), cased):
                break
            if toks[k][2].lower() in PLACE_PREPOSITIONS:
                break
            edge = k
        while edge != origin and stop_word(toks[edge][2].rstrip(".")):
            edge -= step  # "the house at 12 Main St, in ...": a stop word never ends a grown street
            while edge != origin and toks[edge][2] in JOINERS:
                edge -= step
        if step < 0:
            first = edge
        else:
            last = edge
    return min(start, toks[first][0]), max(end, end_of(toks, last))


def add_streets(turns: list[dict], texts: list[str], scans: list, traits, max_chars: int = 4000) -> list:
    """The scans with their street spans grown and the model's own streets added (see above)."""
    from dataclasses import replace

    from builder.clean.addresses import extend_block, historical, organisation_before
    from builder.clean.context_names import typed_chat_turn, with_spans
    from builder.clean.pii import plain
    from classifiers.street_context import features
    from classifiers.street_context.model import load, spans

    model = None
    out = []
    for i, (turn, text, scan) in enumerate(zip(turns, texts, scans)):
        if not typed_chat_turn(turn, text, i, traits, max_chars) or not any(c.isdigit() for c in text):
            out.append(scan)
            continue
        text = plain(text)  # what the finders read: one character for one, offsets unchanged
        toks = features.tokens(text)
        judged = features.candidates(toks)
        if not judged:
            out.append(scan)
            continue
        model = load() if model is None else model
        probs = model.probabilities(text, toks, judged)
        prob = dict(zip(judged, probs.tolist()))
        lower = features.lower_text(text)
        grown = []
        for s in scan.spans:
            if s["entity"] == ENTITY:
                start, end = grow(toks, prob, s["start"], s["end"])
                if end != s["end"]:
                    end = extend_block(text, end, lower)[0]  # the unit, town and code after where it now ends
                if (start, end) != (s["start"], s["end"]):
                    s = {**s, "start": start, "end": end, "street_context_grown": True}
            grown.append(s)
        if grown != list(scan.spans):
            scan = replace(scan, spans=sorted(grown, key=lambda s: s["start"]))
        taken = [(s["start"], s["end"]) for s in scan.spans if s["entity"] == ENTITY]
        # a street or a name a rule kept (a landmark's address, "Anne Frank House"): a public place
        # (not a "name" with a digit in it, which a rule refused as no name: "3710 Linwood" says no public place)
        taken += [(s["start"], s["end"]) for s in scan.suppressed if s["entity"] == ENTITY
                  or s["entity"] == "PERSON" and not any(c.isdigit() for c in text[s["start"]:s["end"]])]
        added = []
        for start, end, p in spans(toks, judged, probs, model.threshold):
            if any(a < end and start < b for a, b in taken):
                continue
            if organisation_before(text, start) or historical(text, start, end):
                continue
            end = extend_block(text, end, lower)[0]
            added.append({"start": start, "end": end, "entity": ENTITY, "score": round(p, 3),
                          "basis": "street_context", "street_context": round(p, 3)})
        out.append(with_spans(scan, added))
    return out

"""Street addresses judged by the street-context model: where one ends, and the ones no form found.

The street forms (addresses.py) each name a shape ("42 Willow Lane", "Rua Augusta 1508"); people
write others, and a form that matches part of one leaves the rest ("55 bloor st e <STREET_ADDRESS>",
"<STREET_ADDRESS> de Mayo #214", "H.No. <STREET_ADDRESS>"). The street-context model
(classifiers/street_context) reads every word near a number and says how likely it is part of an
address. In the turns a person typed (the user's, and the second side's in a person-to-person chat),
outside code and long pastes:

- **a found street grows** over the words next to it (across commas, "#", brackets, a line break)
  that the model gives at least ``GROW`` ("Calle 5 de Mayo #214", "H.No. 1-8-449, Chikkadpally"):
  the form found where an address is, the model says where it ends. The span keeps its basis and
  gets ``street_context_grown``.
- **a street no form found** becomes a ``STREET_ADDRESS`` span (basis ``street_context``, its
  ``street_context`` probability) where the model's words reach its shipped threshold, unless it
  touches a street or a name a rule kept (a landmark's address, a public figure's house), or an organisation or a
  date before 1920 stands by it, as for the forms.

``clean --no-street-context`` turns both off. Spans stand on the model's own threshold:
``--pii-threshold`` does not apply to them.
"""

from __future__ import annotations

ENTITY = "STREET_ADDRESS"
GROW = 0.2  # chosen out of fold on the tuning halves (classifiers/street_context/README.md)


def grow(toks, prob: dict[int, float], start: int, end: int) -> tuple[int, int]:
    """``(start, end)`` widened over the neighbouring words of probability ``GROW`` or more, joined
    to it by ``model.JOINERS`` only."""
    from classifiers.street_context.model import JOINERS

    inside = [i for i, (s, e, _) in enumerate(toks) if s >= start and e <= end]
    if not inside:
        return start, end
    first, last = inside[0], inside[-1]
    for step in (-1, 1):
        j = (first if step < 0 else last) + step
        while 0 <= j < len(toks):
            k = j
            while 0 <= k < len(toks) and toks[k][2] in JOINERS:
                k += step
            if not (0 <= k < len(toks)) or prob.get(k, 0.0) < GROW:
                break
            if step < 0:
                first = k
            else:
                last = k
            j = k + step
    return min(start, toks[first][0]), max(end, toks[last][1])


def add_streets(turns: list[dict], texts: list[str], scans: list, traits, max_chars: int = 4000) -> list:
    """The scans with their street spans grown and the model's own streets added (see above)."""
    from dataclasses import replace

    from builder.clean.addresses import historical, organisation_before
    from builder.clean.context_names import typed_chat_turn, with_spans
    from builder.clean.pii import PLAIN
    from classifiers.street_context import features
    from classifiers.street_context.model import load, spans

    model = None
    out = []
    for i, (turn, text, scan) in enumerate(zip(turns, texts, scans)):
        if not typed_chat_turn(turn, text, i, traits, max_chars) or not any(c.isdigit() for c in text):
            out.append(scan)
            continue
        text = text.translate(PLAIN)  # what the finders read: one character for one, offsets unchanged
        toks = features.tokens(text)
        judged = features.candidates(toks)
        if not judged:
            out.append(scan)
            continue
        model = load() if model is None else model
        probs = model.probabilities(text, toks, judged)
        prob = dict(zip(judged, probs.tolist()))
        grown = []
        for s in scan.spans:
            if s["entity"] == ENTITY:
                start, end = grow(toks, prob, s["start"], s["end"])
                if (start, end) != (s["start"], s["end"]):
                    s = {**s, "start": start, "end": end, "street_context_grown": True}
            grown.append(s)
        if grown != list(scan.spans):
            scan = replace(scan, spans=sorted(grown, key=lambda s: s["start"]))
        taken = [(s["start"], s["end"]) for s in scan.spans if s["entity"] == ENTITY]
        # a street or a name a rule kept (a landmark's address, "Anne Frank House"): a public place
        taken += [(s["start"], s["end"]) for s in scan.suppressed if s["entity"] in (ENTITY, "PERSON")]
        added = []
        for start, end, p in spans(toks, judged, probs, model.threshold):
            if any(a < end and start < b for a, b in taken):
                continue
            if organisation_before(text, start) or historical(text, start, end):
                continue
            added.append({"start": start, "end": end, "entity": ENTITY, "score": round(p, 3),
                          "basis": "street_context", "street_context": round(p, 3)})
        out.append(with_spans(scan, added))
    return out

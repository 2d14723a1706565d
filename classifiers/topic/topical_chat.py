"""Topical-Chat (valid_freq) as a real labelled test set for the topic classifier.

Nearly every valid_freq conversation is grounded on an American-football article, so
whole conversations are ~99% Sport. The topic signal that varies is finer: every message
lists the fact sections it draws on (``knowledge_source``: FS1..FS3, each an entity
such as "Television" or "President", whose topic is in ``entity_to_topic.json``).
A test unit is therefore: all messages of one conversation grounded on exactly one
fact section, whose topic maps clearly onto ours:

    sports -> Sport, movies -> Film, music -> Music, sci_tech -> Computer,
    politics -> Society, fashion -> Shopping        (books, entertainment: no clear match)

agent_1 speaks as ``user``, agent_2 as ``assistant``. Units are canonical dialogue dicts
(``source_id`` = ``<conversation id>#<entity>``) carrying their ``topic``.
"""

from __future__ import annotations

import json
from pathlib import Path

from builder.records import dialogue_id

TOPIC_MAP = {"sports": "Sport", "movies": "Film", "music": "Music", "sci_tech": "Computer",
             "politics": "Society", "fashion": "Shopping"}
FILES = ("topical_chat_valid_freq.json", "topical_chat_reading_valid_freq.json", "topical_chat_entity_to_topic.json")


def load_units(folder: Path, min_messages: int = 2, per_topic: int | None = None) -> list[dict]:
    """Labelled units, sorted by dialogue_id; ``per_topic`` caps each topic (first ids win)."""
    folder = Path(folder)
    convs, reading, entity_topic = (json.loads((folder / f).read_text()) for f in FILES)
    units: list[dict] = []
    for conv_id in sorted(convs):
        sections = reading[conv_id]
        grouped: dict[str, list[dict]] = {}
        for message in convs[conv_id]["content"]:
            fs = [k for k in message["knowledge_source"] if k.startswith("FS")]
            if len(fs) != 1:
                continue
            entity = sections[message["agent"]][fs[0]]["entity"]
            if entity_topic.get(entity) in TOPIC_MAP:
                grouped.setdefault(entity, []).append(message)
        for entity, messages in sorted(grouped.items()):
            if len(messages) < min_messages:
                continue
            turns = [{"index": i, "role": "user" if m["agent"] == "agent_1" else "assistant",
                      "text": m["message"].strip(), "images": []} for i, m in enumerate(messages)]
            units.append({"dialogue_id": dialogue_id(turns), "source": FILES[0],
                          "source_id": f"{conv_id}#{entity}", "turns": turns,
                          "topic": TOPIC_MAP[entity_topic[entity]]})
    units.sort(key=lambda u: u["dialogue_id"])
    unique = list({u["dialogue_id"]: u for u in units}.values())
    if per_topic is None:
        return unique
    kept = []
    seen: dict[str, int] = {}  # topic -> units kept
    for unit in unique:
        if seen.get(unit["topic"], 0) < per_topic:
            seen[unit["topic"]] = seen.get(unit["topic"], 0) + 1
            kept.append(unit)
    return kept

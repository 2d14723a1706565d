"""Span-level precision/recall of PII detection against labelled sentences.

The reference format is presidio-research's generated data: ``full_text`` and ``spans``
with ``entity_type, start_position, end_position``. Their types are mapped onto ours
(ADDRESS -> STREET_ADDRESS, DOMAIN_NAME -> URL); types we never scrub (ORGANIZATION,
TITLE, DATE_TIME, ...) are left out. A prediction matches a gold span of the same entity
when they overlap; ``any`` counts a gold span as found when any prediction covers part of
it, whatever its type (what matters for privacy).
"""

from __future__ import annotations

GOLD_MAP = {"PERSON": "PERSON", "ADDRESS": "STREET_ADDRESS", "STREET_ADDRESS": "STREET_ADDRESS",
            "LOCATION": "LOCATION", "PHONE_NUMBER": "PHONE_NUMBER", "CREDIT_CARD": "CREDIT_CARD",
            "US_SSN": "US_SSN", "IP_ADDRESS": "IP_ADDRESS", "EMAIL_ADDRESS": "EMAIL_ADDRESS",
            "DOMAIN_NAME": "URL", "URL": "URL", "IBAN_CODE": "IBAN_CODE"}


def _overlap(a: dict, b: dict) -> bool:
    return a["start"] < b["end"] and b["start"] < a["end"]


def score_spans(records: list[dict], predictions: list[list[dict]], entities: tuple[str, ...]) -> dict:
    """``{entity: {precision, recall, gold, predicted}}`` plus ``any`` (untyped recall)."""
    table = {e: {"tp_pred": 0, "pred": 0, "tp_gold": 0, "gold": 0} for e in entities}
    any_found = any_gold = 0
    for record, pred in zip(records, predictions):
        gold = [{"start": s["start_position"], "end": s["end_position"], "entity": GOLD_MAP[s["entity_type"]]}
                for s in record["spans"] if GOLD_MAP.get(s["entity_type"]) in entities
                and s["entity_value"].strip() not in ("", "nan")]
        pred = [p for p in pred if p["entity"] in entities]
        for g in gold:
            row = table[g["entity"]]
            row["gold"] += 1
            row["tp_gold"] += any(p["entity"] == g["entity"] and _overlap(p, g) for p in pred)
            any_gold += 1
            any_found += any(_overlap(p, g) for p in pred)
        for p in pred:
            row = table[p["entity"]]
            row["pred"] += 1
            row["tp_pred"] += any(g["entity"] == p["entity"] and _overlap(p, g) for g in gold)
    out = {}
    for entity, row in table.items():
        if row["gold"] or row["pred"]:
            out[entity] = {
                "precision": round(row["tp_pred"] / row["pred"], 3) if row["pred"] else None,
                "recall": round(row["tp_gold"] / row["gold"], 3) if row["gold"] else None,
                "gold": row["gold"], "predicted": row["pred"],
            }
    out["any"] = {"recall": round(any_found / any_gold, 3) if any_gold else None, "gold": any_gold}
    return out

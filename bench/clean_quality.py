"""Quality half of the clean benchmark (bench/clean.py runs it): how well PII and toxicity are judged.

- ``dev_set``: per entity precision / recall on presidio-research's generated sentences
  (../shared/data/pii/presidio_generated_large.json, the development set). Each sentence is
  cleaned as a one-turn dialogue, as `clean` does it; recall counts a labelled value as
  caught only when none of its letters or digits survive in the cleaned text (a sentence
  the coherence rule drops keeps nothing; ``recall_spans_only`` counts the detected spans
  alone, without that rule); precision is typed span overlap of the spans.
- ``oasst``: redacted spans per 100 OpenAssistant messages (clean chat: every span is a
  false positive unless a person's data is in it), with every redacted value listed.
- ``wildchat``: the real stage (lexicon toxicity) over the WildChat sample; 100 redactions
  drawn with a fixed seed are joined with the by-eye verdicts in
  ``bench/clean_wildchat_labels.json`` (a person read them; the bench only counts); the
  coherence rule's drop rate; toxicity drops and their by-eye false-drop verdicts.
- ``ethos``: ROC AUC of the lexicon's toxicity score on ETHOS (isHate >= 0.5).
"""

from __future__ import annotations

import hashlib
import json
import random
from pathlib import Path

HERE = Path(__file__).resolve().parent
LABELS = HERE / "clean_wildchat_labels.json"
GOLD_MAP = {"PERSON": "PERSON", "ADDRESS": "STREET_ADDRESS", "PHONE_NUMBER": "PHONE_NUMBER",
            "CREDIT_CARD": "CREDIT_CARD", "US_SSN": "US_SSN", "IP_ADDRESS": "IP_ADDRESS",
            "EMAIL_ADDRESS": "EMAIL_ADDRESS", "IBAN_CODE": "IBAN_CODE", "US_DRIVER_LICENSE": "US_DRIVER_LICENSE"}


def dev_set(path: Path) -> dict:
    from builder.clean.config import CleanConfig
    from builder.clean.pii import PiiDetector
    from builder.clean.redact import propagate, redact_dialogue

    records = json.loads(path.read_text())
    texts = [r["full_text"] for r in records]
    config = CleanConfig()
    scans = PiiDetector(config).scan(texts)
    table: dict[str, dict[str, int]] = {}
    dropped = 0
    for n, (record, text, scan) in enumerate(zip(records, texts, scans)):
        turn = {"index": 0, "role": "user", "text": text, "images": []}
        red = redact_dialogue(f"dev-{n}", [turn], [scan], config)  # what `clean` does with the sentence
        spans = propagate([text], [scan])[0]
        dropped += bool(red.reason)
        covered = set(range(len(text))) if red.reason else _covered(text, red.turns[0]["text"], red.spans)
        detected = {i for sp in spans for i in range(sp["start"], sp["end"])}
        gold = [(GOLD_MAP[g["entity_type"]], g["start_position"], g["end_position"]) for g in record["spans"]
                if g["entity_type"] in GOLD_MAP]
        for entity, start, end in gold:
            chars = [i for i in range(start, end) if text[i].isalnum()]
            if not chars:
                continue
            row = table.setdefault(entity, {"gold": 0, "caught": 0, "detected": 0, "predicted": 0, "correct": 0})
            row["gold"] += 1
            row["caught"] += all(i in covered for i in chars)
            row["detected"] += all(i in detected for i in chars)
        for s in spans:
            row = table.setdefault(s["entity"], {"gold": 0, "caught": 0, "detected": 0, "predicted": 0, "correct": 0})
            row["predicted"] += 1
            row["correct"] += any(e == s["entity"] and start < s["end"] and s["start"] < end for e, start, end in gold)
    out = {entity: {"recall": round(r["caught"] / r["gold"], 4) if r["gold"] else None,
                    "recall_spans_only": round(r["detected"] / r["gold"], 4) if r["gold"] else None,
                    "precision": round(r["correct"] / r["predicted"], 4) if r["predicted"] and r["gold"] else None,
                    **r} for entity, r in sorted(table.items())}
    out["sentences_dropped_by_coherence"] = dropped
    return out


def _covered(raw: str, cleaned: str, spans: list[dict]) -> set[int]:
    """Positions of ``raw`` that the cleaned text no longer shows: the text between
    placeholders is unchanged, so it is found in ``raw`` left to right; the rest was redacted."""
    keep, pos_r, pos_c = set(), 0, 0
    for span in sorted(spans, key=lambda s: s["start"]):
        literal = cleaned[pos_c:span["start"]]
        at = raw.find(literal, pos_r) if literal else pos_r
        keep.update(range(at, at + len(literal)))
        pos_r, pos_c = at + len(literal) + 1, span["end"]
    literal = cleaned[pos_c:]
    at = raw.find(literal, pos_r - 1 if pos_c else 0) if literal else len(raw)
    keep.update(range(at, at + len(literal)))
    return set(range(len(raw))) - keep


def oasst(path: Path) -> dict:
    """Every message of the OpenAssistant trees as a one-turn dialogue with its role."""
    from builder.clean.config import CleanConfig
    from builder.clean.languages import dialogue_languages, english_turns
    from builder.clean.pii import PiiDetector
    from builder.clean.redact import redact_dialogue

    messages = []
    for line in path.read_text().splitlines():
        stack = [json.loads(line)["prompt"]]
        while stack:
            node = stack.pop()
            messages.append({"index": 0, "role": "user" if node["role"] == "prompter" else "assistant",
                             "text": node["text"], "images": []})
            stack.extend(node.get("replies") or [])
    config = CleanConfig()
    languages = dialogue_languages([[m] for m in messages])
    english = [english_turns([m], langs)[0] for m, (_, langs) in zip(messages, languages)]
    scans = PiiDetector(config).scan([m["text"] for m in messages], english)
    found = []
    for n, (message, scan) in enumerate(zip(messages, scans)):
        red = redact_dialogue(f"oasst-{n}", [message], [scan], config)
        text = message["text"]
        values = ([{"entity": s["entity"], "value": text[s["start"]:s["end"]]} for s in scan.spans] if red.reason
                  else _values(text, red))  # a dropped message counts its spans too
        found += [{**v, "role": message["role"]} for v in values]
    per_entity: dict[str, int] = {}
    for f in found:
        per_entity[f["entity"]] = per_entity.get(f["entity"], 0) + 1
    return {"messages": len(messages), "spans": len(found),
            "spans_per_100_messages": round(100 * len(found) / len(messages), 2), "per_entity": per_entity,
            "redacted": sorted(found, key=lambda f: (f["entity"], f["value"]))}


def topical_chat(path: Path) -> dict:
    """Topical-Chat (human-human chat about articles: athletes, actors, bands) through the clean
    path, one whole conversation a dialogue (agent_1 as the user). Its people are public figures
    almost without exception, so every redacted span is a candidate false alarm: the count
    measures the public-figure rules where no list reaches."""
    from builder.clean.config import CleanConfig
    from builder.clean.languages import dialogue_languages, english_turns
    from builder.clean.pii import PiiDetector
    from builder.clean.policy import personal
    from builder.clean.redact import redact_dialogue
    from builder.clean.suppressions import Context
    from builder.traits import tag

    convs = json.loads(path.read_text())
    dialogues = [[{"index": i, "role": "user" if m["agent"] == "agent_1" else "assistant",
                   "text": m["message"].strip(), "images": []} for i, m in enumerate(convs[c]["content"])]
                 for c in sorted(convs)]
    config = CleanConfig()
    languages = dialogue_languages(dialogues)
    english = [e for turns, (_, langs) in zip(dialogues, languages) for e in english_turns(turns, langs)]
    flat = iter(PiiDetector(config).scan([t["text"] for turns in dialogues for t in turns], english))
    spans = with_spans = in_personal = 0
    for n, turns in enumerate(dialogues):
        scans = [next(flat) for _ in turns]
        red = redact_dialogue(f"topical-{n}", turns, scans, config)
        found = len(red.spans) if not red.reason else sum(len(s.spans) for s in scans)
        spans += found
        with_spans += bool(found)
        in_personal += found if personal(Context(turns, [t["text"] for t in turns], scans, tag(turns), config)) else 0
    return {"conversations": len(dialogues), "redacted_spans": spans, "conversations_with_spans": with_spans,
            "spans_in_personal_conversations": in_personal,
            "note": "public figures almost throughout: a redacted span is a likely false alarm"}


def _values(text: str, red) -> list[dict]:
    """Original values of a one-turn redaction (placeholders replaced left to right)."""
    from builder.clean.report import _original_value

    row = {"turns": red.turns, "pii": red.spans}
    original = {"turns": [{"index": 0, "role": red.turns[0]["role"], "text": text}]}
    return [{"entity": s["entity"], "value": _original_value(original, row, s)} for s in red.spans]


def span_key(dialogue_id: str, span: dict) -> str:
    raw = f"{dialogue_id}:{span['turn']}:{span['start']}:{span['end']}:{span['entity']}"
    return hashlib.sha256(raw.encode()).hexdigest()[:16]


def wildchat_sample(folder: Path, n: int = 100, seed: int = 0) -> list[dict]:
    """``n`` redactions of a finished clean folder, drawn with a fixed seed, with context and value."""
    import polars as pl

    from builder import io
    from builder.clean.report import _input_rows, _original_value

    manifest = json.loads((folder / io.MANIFEST).read_text())
    rows = pl.read_parquet(io.parts(folder)).sort("dialogue_id").to_dicts()
    spans = [(row, s) for row in rows for s in row["pii"] or []]
    picked = sorted(random.Random(seed).sample(range(len(spans)), min(n, len(spans))))
    originals = _input_rows(manifest, {spans[i][0]["dialogue_id"] for i in picked})
    out = []
    for i in picked:
        row, span = spans[i]
        text = row["turns"][span["turn"]]["text"]
        out.append({"key": span_key(row["dialogue_id"], span), "entity": span["entity"],
                    "role": row["turns"][span["turn"]]["role"],
                    "value": _original_value(originals.get(row["dialogue_id"]), row, span),
                    "context": text[max(0, span["start"] - 80):span["end"] + 60]})
    return out


def wildchat(folder: Path) -> dict:
    """By-eye precision of 100 sampled redactions, coherence drop rate, toxicity false drops."""
    import polars as pl

    from builder import io

    labels = json.loads(LABELS.read_text()) if LABELS.exists() else {"redactions": {}, "toxicity_drops": {}}
    sample = wildchat_sample(folder)
    verdicts = [labels["redactions"].get(s["key"], {}).get("verdict") for s in sample]
    judged = [v for v in verdicts if v]
    ledger = pl.read_parquet(folder / io.LEDGER).filter(pl.col("stage") == "clean")
    n = ledger.height
    coherence = ledger.filter(pl.col("reason") == "pii_coherence").height
    toxic = ledger.filter(pl.col("reason").str.starts_with("toxic:")).sort("dialogue_id").to_dicts()
    tox_verdicts = [labels["toxicity_drops"].get(r["dialogue_id"], {}).get("verdict") for r in toxic]
    false_drops = sum(v == "false_drop" for v in tox_verdicts)
    return {
        "dialogues": n,
        "redaction_sample": len(sample), "sample_judged_by_eye": len(judged),
        "sample_real_personal_data": sum(v == "personal" for v in judged),
        "by_eye_precision": round(sum(v == "personal" for v in judged) / len(judged), 3) if judged else None,
        "coherence_drops": coherence, "coherence_drop_rate": round(coherence / n, 4) if n else None,
        "toxicity_drops": len(toxic), "toxicity_drops_judged": sum(v is not None for v in tox_verdicts),
        "toxicity_false_drops": false_drops, "toxicity_false_drop_rate": round(false_drops / n, 4) if n else None,
        "pii_spans": json.loads((folder / io.MANIFEST).read_text())["stats"]["pii_spans"],
        "unjudged_sample": [s for s, v in zip(sample, verdicts) if not v][:20],
    }


def ethos_auc(path: Path) -> dict:
    import csv

    from classifiers.toxicity import load_backend

    with open(path, newline="") as fh:
        rows = [(r["comment"], float(r["isHate"]) >= 0.5) for r in csv.DictReader(fh, delimiter=";")]
    scores = [max(s.values()) for s in load_backend("lexicon").score([c for c, _ in rows])]
    return {"comments": len(rows), "auc": round(auc(scores, [y for _, y in rows]), 4),
            "flagged_at_0.8": sum(s >= 0.8 for s in scores)}


def auc(scores: list[float], labels: list[bool]) -> float:
    """ROC AUC as the Mann-Whitney statistic (ties count half)."""
    pos = [s for s, y in zip(scores, labels) if y]
    neg = [s for s, y in zip(scores, labels) if not y]
    wins = sum((p > q) + 0.5 * (p == q) for p in pos for q in neg)
    return wins / (len(pos) * len(neg))

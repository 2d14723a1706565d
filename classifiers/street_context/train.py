"""Train the street-context model and write street_context.safetensors + train_results.json.

Every word within ``features.WINDOW`` words of a number-bearing word (``features.candidates``) is a
row, labelled 1 when it is part of a street address. All from tuning sources (nothing of
bench/pii_heldout, whose ``source_id`` fields alone are read to stay off it):

- addresses written by people, not by this project's rules: the TUNING halves (odd ids) of
  bench/pii_written_probes ``streets.jsonl``, ``streets_b.jsonl``, ``probes.jsonl`` and, since session 50,
  ``places_c.jsonl`` and ``places_d.jsonl``, whose
  helpers never saw this code: a word in a ``STREET`` value is 1; the words right after one in its
  sentence (of the ``AFTER`` words after it, the capitalised ones and numbers: the town, the postcode,
  which the values leave out) are left out; every
  other word, and those of the messages to keep (public addresses, "Route 66", "Room 101"), is 0;
  the tuning halves of the sets without streets (numbers, names, accounts) give 0s too;
- presidio-research's generated_large.json (MIT, ../shared/data/pii; at most ``PER_TEMPLATE``
  sentences per template): a word in an ``ADDRESS`` span is 1, in a ``LOCATION`` left out, else 0;
- real chat, where people's numbers are seldom addresses: chitchat-dataset's conversations (not those
  of the held-out bench, of bench/pii_chitchat_tuning or of the topic seed), Topical-Chat valid_freq
  (not the held-out bench's) and WildChat's user turns, outside code: 0, except words in a street
  clean's rules find (a real address may be there): left out, and counted.

Out of fold (``FOLDS`` folds grouped by message or conversation) it reports, per source and
threshold, how many addresses the joined words remove whole and how many spans real chat gets per
1,000 messages with a number; the threshold is the lowest at which real chat gets at most
``MAX_REAL_SPANS`` per 1,000. Then the model is refit on everything.

Usage: python -m classifiers.street_context.train --chitchat WHEEL [--data ../shared/data]
"""

from __future__ import annotations

import json
from collections import Counter, defaultdict
from pathlib import Path

import numpy as np

from classifiers.context_training import find_all, parse_args, positive_weights, tuning_probes
from classifiers.street_context import features
from classifiers.street_context.model import FEATURES_VERSION, WEIGHTS, spans

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
RESULTS = HERE / "train_results.json"
WITH_STREETS = ("streets.jsonl", "streets_b.jsonl", "probes.jsonl", "places_c.jsonl", "places_d.jsonl")  # places_*: session 50
WITHOUT_STREETS = ("structured_d.jsonl", "numbers.jsonl", "numbers_b.jsonl", "numbers_c.jsonl", "names.jsonl",
                   "names_b.jsonl", "accounts.jsonl")
AFTER = 6
PER_TEMPLATE = 3
MAX_REAL_SPANS = 2.0  # per 1,000 real messages with a number, out of fold
POSITIVE_WEIGHT = 1.0  # the positives together weigh as much as the negatives
C = 1.0
FOLDS = 5
THRESHOLDS = tuple(round(t, 2) for t in np.arange(0.2, 0.96, 0.05))


def _message(text: str, group: str, source: str, pos: list[tuple[int, int]], skip: list[tuple[int, int]],
             after: bool) -> dict | None:
    """One message: its judged words and their labels (1 in ``pos``, left out in ``skip`` or, with
    ``after``, within ``AFTER`` words after a ``pos`` value in its sentence)."""
    from builder.clean.pii import PLAIN

    text = text.translate(PLAIN)
    toks = features.tokens(text)
    judged = features.candidates(toks)
    if not judged:
        return None
    left_out: set[int] = set()
    if after:  # the town and code after a street: capitalised words and numbers up to the sentence's end
        for _, e in pos:
            ends = [k for k, t in enumerate(toks) if t[0] < e]
            if ends and features.full_stop(toks, ends[-1]):
                continue  # "... ul. Lipowa 14. Was ...": the sentence ended with the value
            words, j = 0, next((k for k, t in enumerate(toks) if t[0] >= e), len(toks))
            while j < len(toks) and words < AFTER and toks[j][2] not in ("!", "?", "\n"):
                t = toks[j][2]
                if features.is_word(t) and (t[:1].isupper() or features.has_digit(t)) and not features.stop_word(t):
                    left_out.add(j)
                words += features.is_word(t)
                if features.full_stop(toks, j) or t == ".":
                    break
                j += 1
    idx, labels = [], []
    for i in judged:
        s, e = toks[i][0], toks[i][1]
        if any(a < e and s < b for a, b in skip) or (i in left_out and not any(a < e and s < b for a, b in pos)):
            continue
        idx.append(i)
        labels.append(int(any(a < e and s < b for a, b in pos)))
    return {"source": source, "group": group, "text": text, "judged": idx, "labels": labels, "values": pos}


def written_probes() -> list[dict]:
    out = []
    for name in WITH_STREETS + WITHOUT_STREETS:
        for row in tuning_probes(name):
            text = row["text"]
            values = [v for v in row.get("values", []) if isinstance(v, dict)]  # names sets list plain strings
            pos = [x for v in values if v.get("kind") == "STREET" for x in find_all(text, v["value"])]
            # a postcode or a birth date beside a street is the address block's: left out
            skip = [x for v in values if v.get("kind") in ("ZIP", "DOB") and pos
                    for x in find_all(text, v["value"])]
            m = _message(text, f"{name}:{row['id']}", f"probes:{name}", pos, skip, after=True)
            if m:
                out.append(m)
    return out


def presidio(data: Path) -> list[dict]:
    path = data / "pii" / "presidio_generated_large.json"
    per_template: Counter = Counter()
    out = []
    for k, row in enumerate(json.loads(path.read_text(encoding="utf-8"))):
        template = row.get("template_id", k)
        if per_template[template] >= PER_TEMPLATE:
            continue
        per_template[template] += 1
        pos = [(sp["start_position"], sp["end_position"]) for sp in row["spans"] if sp["entity_type"] == "ADDRESS"]
        skip = [(sp["start_position"], sp["end_position"]) for sp in row["spans"] if sp["entity_type"] == "LOCATION"]
        m = _message(row["full_text"], f"presidio:{k}", "presidio", pos, skip, after=False)
        if m:
            out.append(m)
    return out


def real_chat(data: Path, chitchat: Path, left_out: Counter) -> list[dict]:
    from builder.clean.addresses import find_non_latin_addresses, find_streets
    from builder.traits.code import code_ranges
    from classifiers.context_training import real_chat_texts

    texts = real_chat_texts(data, chitchat)
    out = []
    for source, group, text in texts:
        if not any(c.isdigit() for c in text):
            continue
        streets = [(s, e) for s, e, *_ in find_streets(text) + find_non_latin_addresses(text)]
        left_out[source] += len(streets)
        skip = streets + [(s, e) for s, e in code_ranges(text)]
        m = _message(text, group, f"real:{source}", [], skip, after=False)
        if m:
            out.append(m)
    return out


def matrix(messages: list[dict]):
    from classifiers.context_training import hashed_matrix

    rows = [(m["text"], features.tokens(m["text"]), i) for m in messages for i in m["judged"]]
    return hashed_matrix(rows, lambda r: features.buckets(features.sparse(*r)), features.DIMS)


def _fit(x, y):
    from sklearn.linear_model import LogisticRegression

    model = LogisticRegression(C=C, max_iter=3000)
    model.fit(x, y, sample_weight=positive_weights(y, POSITIVE_WEIGHT))
    return model


def out_of_fold(messages: list[dict], x, y: np.ndarray) -> np.ndarray:
    from sklearn.model_selection import GroupKFold

    groups = np.array([m["group"] for m in messages for _ in m["judged"]])
    proba = np.zeros(len(y))
    for train, test in GroupKFold(n_splits=FOLDS).split(x, y, groups):
        proba[test] = _fit(x[train], y[train]).predict_proba(x[test])[:, 1]
    return proba


def removed(text: str, value: tuple[int, int], found: list[tuple[int, int, float]]) -> bool:
    """Every letter and digit of the value lies inside a found span."""
    s, e = value
    return all(not text[k].isalnum() or any(a <= k < b for a, b, _ in found) for k in range(s, e))


def report(messages: list[dict], proba: np.ndarray) -> dict:
    by_threshold = []
    offsets = np.cumsum([0] + [len(m["judged"]) for m in messages])
    for t in THRESHOLDS:
        entry: dict = {"threshold": float(t)}
        tally: dict = defaultdict(Counter)
        for k, m in enumerate(messages):
            found = spans(features.tokens(m["text"]), m["judged"], proba[offsets[k]:offsets[k + 1]], t)
            c = tally[m["source"]]
            c["messages"] += 1
            c["values"] += len(m["values"])
            c["removed"] += sum(removed(m["text"], v, found) for v in m["values"])
            c["spans_without_value"] += sum(not any(a < e and s < b for a, b in m["values"]) for s, e, _ in found)
        entry.update({src: dict(c) for src, c in sorted(tally.items())})
        real = [c for src, c in tally.items() if src.startswith("real:")]
        n = sum(c["messages"] for c in real)
        entry["real_spans_per_1000"] = round(1000 * sum(c["spans_without_value"] for c in real) / max(n, 1), 2)
        by_threshold.append(entry)
    return {"folds": FOLDS, "grouped_by": "message (written probes, presidio) or conversation (real chat)",
            "by_threshold": by_threshold}


def main() -> None:
    args = parse_args(__doc__.splitlines()[0])
    left_out: Counter = Counter()
    messages = written_probes() + presidio(args.data) + real_chat(args.data, args.chitchat, left_out)
    x = matrix(messages)
    y = np.array([label for m in messages for label in m["labels"]])
    oof = report(messages, out_of_fold(messages, x, y))
    chosen = next((e for e in oof["by_threshold"] if e["real_spans_per_1000"] <= MAX_REAL_SPANS),
                  oof["by_threshold"][-1])
    model = _fit(x, y)
    counts = Counter((m["source"], label) for m in messages for label in m["labels"])
    meta = {"features_version": FEATURES_VERSION, "threshold": chosen["threshold"], "C": C,
            "max_real_spans_per_1000": MAX_REAL_SPANS,
            "trained_on": {f"{s}/{label}": n for (s, label), n in sorted(counts.items())},
            "messages": dict(sorted(Counter(m["source"] for m in messages).items())),
            "real_left_out_found_by_rules": dict(sorted(left_out.items()))}
    from safetensors.numpy import save

    WEIGHTS.write_bytes(save({"sparse": np.ascontiguousarray(model.coef_[0].astype(np.float32)),
                              "bias": model.intercept_.astype(np.float32)}, metadata={"meta": json.dumps(meta)}))
    RESULTS.write_text(json.dumps({"meta": meta, "out_of_fold": oof, "chosen": chosen}, indent=1) + "\n")
    print(json.dumps({"threshold": chosen["threshold"], "chosen": chosen, "rows": len(y)}, indent=1))


if __name__ == "__main__":
    main()

"""Train the number-context model and write number_context.safetensors + train_results.json.

Every candidate (``features.candidates``: a run of digit tokens) gets one of ``features.CLASSES``.
Training candidates, all from tuning sources (nothing of bench/pii_heldout, whose ``source_id``
fields alone are read to stay off it):

- personal numbers written by people, not by this project's rules: the TUNING halves (odd ids)
  of bench/pii_written_probes (``probes.jsonl``, ``structured_d.jsonl``, ``numbers.jsonl``, and since
  session 44 ``numbers_b.jsonl`` and ``numbers_c.jsonl``, since session 47 ``places_c.jsonl``), whose
  helpers never saw this code: a candidate overlapping a value of kind ZIP, CARD, ID or PHONE is
  that class; one overlapping another kind (a street, an e-mail, a birth date) is left out; every
  other candidate, and those of the messages to keep, is ``none``;
- presidio-research's generated_large.json (MIT, ../shared/data/pii; at most ``PER_TEMPLATE``
  sentences per template): credit cards, phones, SSNs, driver's licences, IBANs; candidates inside
  another span (an address with its ZIP) are left out, the rest are ``none``;
- numbers nobody shares as their own, as real people type them: every candidate outside code in
  chitchat-dataset's conversations (both sides; not those of the held-out bench, of
  bench/pii_chitchat_tuning or of the topic seed), Topical-Chat valid_freq (not the held-out bench's)
  and WildChat's user turns. (Candidates in a list of numbers are left out everywhere: clean never
  judges them, context_numbers.LIST_GAP.) These are ``none`` unless one of clean's number finders already flags it
  (a real phone or card may be there): those are left out, and counted.

Out of fold (``FOLDS`` folds grouped by message or conversation) it reports, per source, how many
personal numbers reach each threshold and how many real numbers do (false positives per 1,000);
the threshold is the lowest whose out-of-fold false-positive rate on the real numbers is at most
``MAX_REAL_FP``. Then the model is refit on everything.

Usage: python -m classifiers.number_context.train --chitchat WHEEL [--data ../shared/data]
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

import numpy as np

from classifiers.context_training import find_all, parse_args, positive_weights, tuning_probes
from classifiers.number_context import features
from classifiers.number_context.model import FEATURES_VERSION, WEIGHTS

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
RESULTS = HERE / "train_results.json"
PROBES = ("probes.jsonl", "structured_d.jsonl", "numbers.jsonl", "numbers_b.jsonl", "numbers_c.jsonl", "places_c.jsonl")
NUMERIC = {"ZIP": "ZIP", "CARD": "CARD", "ID": "ID", "PHONE": "PHONE"}
PRESIDIO = {"CREDIT_CARD": "CARD", "PHONE_NUMBER": "PHONE", "US_SSN": "ID", "US_DRIVER_LICENSE": "ID",
            "IBAN_CODE": "ID", "US_BANK_NUMBER": "ID", "US_PASSPORT": "ID"}
PER_TEMPLATE = 3
MAX_REAL_FP = 0.0015  # at most 1.5 real numbers in 1,000 flagged out of fold
POSITIVE_WEIGHT = 0.5  # the positives together weigh this share of the negatives' weight
C = 1.0
FOLDS = 5
THRESHOLDS = tuple(round(t, 2) for t in np.arange(0.3, 0.96, 0.05))


def _overlaps(s: int, e: int, spans) -> list:
    return [x for x in spans if x[0] < e and s < x[1]]


def _label(text: str, group: str, source: str, values: list[tuple[int, int, str | None]]) -> list[dict]:
    """One row per candidate of ``text``: the class of the value it overlaps (None: leave it out)."""
    from builder.clean.context_numbers import in_lists
    from builder.clean.pii import PLAIN

    text = text.translate(PLAIN)  # what clean judges (context_numbers): one character for one
    rows = []
    found = features.candidates(text)
    listed = in_lists(text, found)
    for k, (s, e) in enumerate(found):
        if k in listed:
            continue  # never judged at run time (context_numbers.LIST_GAP)
        hit = _overlaps(s, e, values)
        if hit:
            kinds = {k for _, _, k in hit}
            if len(kinds) != 1 or None in kinds:
                continue
            label = kinds.pop()
        else:
            label = "none"
        rows.append({"source": source, "group": group, "text": text, "start": s, "end": e, "label": label})
    return rows


def written_probes() -> list[dict]:
    out = []
    for name in PROBES:
        for row in tuning_probes(name):
            text = row["text"]
            values = [(s, e, NUMERIC.get(v["kind"])) for v in row.get("values", [])
                      for s, e in find_all(text, v["value"])]
            out += _label(text, f"{name}:{row['id']}", f"probes:{name}", values)
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
        values = [(sp["start_position"], sp["end_position"], PRESIDIO.get(sp["entity_type"])) for sp in row["spans"]]
        out += _label(row["full_text"], f"presidio:{k}", "presidio", values)
    return out


def _flagged_by_rules(text: str) -> list[tuple[int, int]]:
    from builder.clean import numbers

    found = []
    for find in (numbers.find_phones, numbers.find_cards, numbers.find_ids, numbers.find_postal_codes,
                 numbers.find_identifiers):
        found += [(s, e) for s, e, *_ in find(text)]
    return found


def real_numbers(data: Path, chitchat: Path, left_out: Counter) -> list[dict]:
    from builder.clean.context_numbers import in_lists
    from builder.clean.pii import PLAIN
    from builder.traits.code import code_ranges, in_ranges
    from classifiers.context_training import real_chat_texts

    texts = real_chat_texts(data, chitchat)
    out = []
    for source, group, text in texts:
        text = text.translate(PLAIN)
        if sum(c.isdigit() for c in text) < 2:
            continue
        code = code_ranges(text)
        flagged = None
        found = features.candidates(text)
        listed = in_lists(text, found)
        for k, (s, e) in enumerate(found):
            if k in listed or in_ranges(s, e, code):
                continue
            flagged = _flagged_by_rules(text) if flagged is None else flagged
            if _overlaps(s, e, flagged):
                left_out[source] += 1
                continue
            out.append({"source": f"real:{source}", "group": group, "text": text, "start": s, "end": e, "label": "none"})
    return out


def matrix(rows: list[dict], vectors):
    from classifiers.context_training import hashed_matrix

    x_sparse = hashed_matrix(rows, lambda r: features.buckets(features.sparse(r["text"], r["start"], r["end"])),
                             features.DIMS)
    x_dense = np.stack([features.dense(r["text"], r["start"], r["end"], vectors) for r in rows]) if vectors else None
    return x_sparse, x_dense


def _stack(x_sparse, x_dense):
    from scipy.sparse import csr_matrix, hstack

    return x_sparse if x_dense is None else hstack([x_sparse, csr_matrix(x_dense)]).tocsr()


def _fit(x, y):
    from sklearn.linear_model import LogisticRegression

    model = LogisticRegression(C=C, max_iter=3000)
    model.fit(x, y, sample_weight=positive_weights(y, POSITIVE_WEIGHT))
    return model


def out_of_fold(rows: list[dict], x, y: np.ndarray) -> np.ndarray:
    from sklearn.model_selection import GroupKFold

    groups = np.array([r["group"] for r in rows])
    proba = np.zeros((len(rows), len(features.CLASSES)))
    for train, test in GroupKFold(n_splits=FOLDS).split(x, y, groups):
        model = _fit(x[train], y[train])
        proba[np.ix_(test, model.classes_)] = model.predict_proba(x[test])
    return proba


def report(rows: list[dict], y: np.ndarray, proba: np.ndarray) -> dict:
    personal = 1 - proba[:, 0]
    kind = proba[:, 1:].argmax(axis=1) + 1
    sources = sorted({r["source"] for r in rows})
    by_threshold = []
    for t in THRESHOLDS:
        flag = personal >= t
        entry: dict[str, Any] = {"threshold": float(t)}
        for src in sources:
            m = np.array([r["source"] == src for r in rows])
            pos, neg = m & (y != 0), m & (y == 0)
            if pos.any():
                entry[src] = {"personal": int(pos.sum()), "flagged": int((flag & pos).sum()),
                              "right_kind": int((flag & pos & (kind == y)).sum())}
            if neg.any():
                entry.setdefault(src, {})["numbers_kept"] = int(neg.sum())
                entry[src]["false_positives"] = int((flag & neg).sum())
        real = np.array([r["source"].startswith("real:") for r in rows])
        entry["real_fp_rate"] = round(float((flag & real).sum() / max(real.sum(), 1)), 5)
        by_threshold.append(entry)
    return {"folds": FOLDS, "grouped_by": "message (written probes, presidio) or conversation (real chat)",
            "by_threshold": by_threshold}


def main() -> None:
    args = parse_args(__doc__.splitlines()[0], (("--no-vectors",), {"action": "store_true",
                                                                   "help": "hashed features only"}))
    left_out: Counter = Counter()
    rows = written_probes() + presidio(args.data) + real_numbers(args.data, args.chitchat, left_out)
    vectors = None
    if not args.no_vectors:
        from builder.clean.recognizers import load_ner
        from classifiers.person_context.features import Vectors

        vectors = Vectors(load_ner().vocab)
    x = _stack(*matrix(rows, vectors))
    y = np.array([features.CLASSES.index(r["label"]) for r in rows])
    proba = out_of_fold(rows, x, y)
    oof = report(rows, y, proba)
    chosen = next((e for e in oof["by_threshold"] if e["real_fp_rate"] <= MAX_REAL_FP), oof["by_threshold"][-1])
    model = _fit(x, y)
    coef = np.zeros((len(features.CLASSES), x.shape[1]), dtype=np.float32)
    bias = np.zeros(len(features.CLASSES), dtype=np.float32)
    coef[model.classes_] = model.coef_
    bias[model.classes_] = model.intercept_
    counts = Counter((r["source"], r["label"]) for r in rows)
    meta = {"features_version": FEATURES_VERSION, "threshold": chosen["threshold"], "classes": list(features.CLASSES),
            "vectors": vectors is not None, "C": C, "max_real_fp": MAX_REAL_FP,
            "trained_on": {f"{s}/{label}": n for (s, label), n in sorted(counts.items())},
            "real_left_out_flagged_by_rules": dict(sorted(left_out.items()))}
    from safetensors.numpy import save

    WEIGHTS.write_bytes(save({"sparse": np.ascontiguousarray(coef[:, :features.DIMS]),
                              "dense": np.ascontiguousarray(coef[:, features.DIMS:]), "bias": bias},
                             metadata={"meta": json.dumps(meta)}))
    RESULTS.write_text(json.dumps({"meta": meta, "out_of_fold": oof, "chosen": chosen}, indent=1) + "\n")
    print(json.dumps({"threshold": chosen["threshold"], "chosen": chosen, "rows": len(rows)}, indent=1))


if __name__ == "__main__":
    main()

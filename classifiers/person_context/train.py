"""Train the person-context model and write person_context.safetensors + results.

Training spans (all from tuning sources; nothing of bench/pii_heldout):
- ``candidates.jsonl``: 640 PERSON spans clean's detector finds in 348 chitchat-dataset chats,
  each labelled by hand (private / public / fictional / not_person / unsure; unsure left out);
- bench/pii_chitchat_tuning: the detector's PERSON spans in its 220 chats, private when they
  overlap a hand-labelled ``must_redact`` name, else not;
- bench/pii_written_probes/names.jsonl, tuning half (odd ids): spans overlapping a private value
  are private, those overlapping a value to keep are not, the rest are left out.

Out of fold (5 folds grouped by conversation) it reports AUC and, at each threshold, precision
and recall over all spans and over the spans the model decides at run time (names on the second
side of a person-to-person chat that no introduction, relation or vocative makes that person's own). The threshold is the lowest whose out-of-fold
precision on those spans is at least ``MIN_PRECISION``; then the model is refit on everything.

Usage: python -m classifiers.person_context.train --chitchat WHEEL [--no-vectors]
"""

from __future__ import annotations

import argparse
import json
import os
import re
from pathlib import Path

import numpy as np

from classifiers.person_context import features
from classifiers.person_context.model import FEATURES_VERSION, WEIGHTS

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
RESULTS = HERE / "train_results.json"
MIN_PRECISION = 2 / 3  # recall first: at most one wrong redaction for every two right ones
C = 1.0  # inverse L2 strength (out of fold: 0.05, 0.2, 1.0 gave decided-span AUC 0.796, 0.806, 0.809)
FOLDS = 5
CANDIDATES = ("candidates.jsonl", "candidates_2.jsonl", "candidates_3.jsonl")
UNFOUND = ("census", "capital")  # the bases of words no finder found (builder/clean/context_names.py)


def decided_at_run_time(row: dict) -> bool:
    """The spans the model judges in clean (suppressions.model_names): a PERSON span on the second
    side of a person-to-person chat whose basis does not already make it that person's own."""
    from builder.clean.suppressions import PEER_OWN_BASES

    return row["role"] != "user" and row["basis"] not in (*PEER_OWN_BASES, *UNFOUND)


def _row(source: str, group: str, turns: list[dict], turn: int, span: dict, label: int) -> dict:
    from builder.traits import tag

    traits = tag(turns)
    return {"source": source, "group": group, "text": turns[turn]["text"], "start": span["start"], "end": span["end"],
            "basis": span.get("basis"), "role": turns[turn]["role"], "label": label,
            "traits": sorted(traits.found), "traits_here": sorted(traits.names_at(turn))}


def hand_labelled(chitchat: Path, files: tuple[str, ...] = CANDIDATES) -> list[dict]:
    """The hand-labelled candidates, each with its whole conversation (for the dialogue's traits)."""
    from classifiers.person_context.draw import load, to_turns

    data = load(chitchat)
    out = []
    lines = [line for name in files for line in (HERE / name).read_text().splitlines()]
    for line in lines:
        r = json.loads(line)
        if r["label"] in (None, "unsure"):
            continue
        turns = to_turns(data[r["source_id"]])
        assert turns[r["turn"]]["text"] == r["text"], r["id"]
        out.append(_row("hand", r["source_id"], turns, r["turn"], r, int(r["label"] == "private")))
    return out


def _scan(dialogues: list[list[dict]]):
    from builder.clean.config import CleanConfig
    from builder.clean.pii import PiiDetector

    texts = [t["text"] for turns in dialogues for t in turns]
    follows = [k > 0 for turns in dialogues for k in range(len(turns))]
    flat = iter(PiiDetector(CleanConfig(person_context=False)).scan(texts, None, follows))  # finders only
    return [[next(flat) for _ in turns] for turns in dialogues]


def _overlaps(text: str, span: dict, values: list[str]) -> bool:
    for v in values:
        for m in re.finditer(re.escape(v), text):
            if m.start() < span["end"] and span["start"] < m.end():
                return True
    return False


def chitchat_tuning() -> list[dict]:
    base = ROOT / "bench" / "pii_chitchat_tuning"
    dialogues = [json.loads(x) for x in (base / "dialogues.jsonl").read_text().splitlines()]
    labels = {json.loads(x)["id"]: json.loads(x) for x in (base / "labels.jsonl").read_text().splitlines()}
    out = []
    for d, scans in zip(dialogues, _scan([d["turns"] for d in dialogues])):
        private = labels[d["id"]]["must_redact"]
        for k, (turn, scan) in enumerate(zip(d["turns"], scans)):
            names = [v["text"] for v in private if v["turn"] == turn["index"]]
            out += [_row("chitchat_tuning", d["source_id"], d["turns"], k, s, int(_overlaps(turn["text"], s, names)))
                    for s in [*scan.spans, *_unfound(turn["text"], scan)] if s["entity"] == "PERSON"]
    return out


def _unfound(text: str, scan) -> list[dict]:
    """The words no finder found that clean proposes to the model (as spans with their kind as basis)."""
    from builder.clean.context_names import candidates

    return [{"start": a, "end": b, "entity": "PERSON", "basis": kind}
            for a, b, kind in candidates(text, [*scan.spans, *scan.suppressed])]


def probes_tuning_half() -> list[dict]:
    import sys

    sys.path.insert(0, str(ROOT / "bench"))
    import pii_written_probes as probes

    items = [json.loads(x) for x in (ROOT / "bench/pii_written_probes/names.jsonl").read_text().splitlines()]
    items = [i for i in items if probes.half(i["id"]) == "tune"]
    built = [probes.dialogue(i) for i in items]
    out = []
    for item, (turns, at), scans in zip(items, built, _scan([t for t, _ in built])):
        text, values = turns[at]["text"], item.get("values", [])
        keep = item.get("keep", [])
        for s in [*scans[at].spans, *_unfound(text, scans[at])]:
            if s["entity"] != "PERSON":
                continue
            label = 1 if _overlaps(text, s, values) else 0 if _overlaps(text, s, keep) else None
            if label is not None:
                out.append(_row("probes_tuning", item["id"], turns, at, s, label))
    return out


def matrices(rows: list[dict], use_vectors: bool):
    from scipy.sparse import csr_matrix

    from builder.clean.names import first_names
    from builder.clean.recognizers import load_ner

    names = first_names()
    vectors = features.Vectors(load_ner().vocab)
    indptr, indices = [0], []
    for r in rows:
        idx = features.buckets(features.sparse(r["text"], r["start"], r["end"], r["basis"], r["role"], names,
                                               frozenset(r["traits"]), frozenset(r["traits_here"])))
        indices.extend(idx.tolist())
        indptr.append(len(indices))
    xs = csr_matrix((np.ones(len(indices), dtype=np.float32), indices, indptr), shape=(len(rows), features.DIMS))
    xd = (np.stack([features.dense(r["text"], r["start"], r["end"], vectors) for r in rows]) if use_vectors
          else np.zeros((len(rows), 0), dtype=np.float32))
    return xs, xd


def fit(xs, xd, y):
    from scipy.sparse import csr_matrix, hstack
    from sklearn.linear_model import LogisticRegression

    x = hstack([xs, csr_matrix(xd)]).tocsr() if xd.shape[1] else xs
    model = LogisticRegression(C=C, max_iter=2000, class_weight="balanced")
    model.fit(x, y)
    w = model.coef_[0].astype(np.float32)
    return w[:features.DIMS], w[features.DIMS:], float(model.intercept_[0])


def predict(ws, wd, b, xs, xd):
    z = xs @ ws + b + (xd @ wd if xd.shape[1] else 0)
    return 1 / (1 + np.exp(-z))


def auc(y, p) -> float:
    pos, neg = p[y == 1], p[y == 0]
    return float(((pos[:, None] > neg[None, :]).mean() + 0.5 * (pos[:, None] == neg[None, :]).mean()))


def at(y, p, t) -> dict:
    pred = p >= t
    tp = int((pred & (y == 1)).sum())
    return {"threshold": round(t, 2), "flagged": int(pred.sum()), "true_private": tp, "private": int(y.sum()),
            "precision": round(tp / max(int(pred.sum()), 1), 3), "recall": round(tp / max(int(y.sum()), 1), 3)}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--chitchat", type=Path, default=os.environ.get("MMRC_CHITCHAT_WHEEL"),
                    help="chitchat-dataset 0.9.0 wheel or its dataset.json (the candidates' whole conversations)")
    ap.add_argument("--no-vectors", action="store_true")
    args = ap.parse_args()
    if not args.chitchat or not Path(args.chitchat).is_file():
        raise SystemExit("pass --chitchat WHEEL or set $MMRC_CHITCHAT_WHEEL "
                         "(pip download --no-deps chitchat-dataset==0.9.0 -d DIR)")
    rows = hand_labelled(Path(args.chitchat)) + chitchat_tuning() + probes_tuning_half()
    y = np.array([r["label"] for r in rows])
    xs, xd = matrices(rows, not args.no_vectors)
    groups = sorted({(r["source"], r["group"]) for r in rows})
    order = np.random.default_rng(0).permutation(len(groups))
    fold_of = {groups[j]: k % FOLDS for k, j in enumerate(order)}
    fold = np.array([fold_of[(r["source"], r["group"])] for r in rows])
    oof = np.zeros(len(rows))
    for k in range(FOLDS):
        tr, te = fold != k, fold == k
        ws, wd, b = fit(xs[tr], xd[tr], y[tr])
        oof[te] = predict(ws, wd, b, xs[te], xd[te])
    decided = np.array([decided_at_run_time(r) for r in rows])
    unfound = np.array([r["basis"] in UNFOUND for r in rows])
    grid = [round(t, 2) for t in np.arange(0.3, 0.96, 0.05)]
    table = {"all": [at(y, oof, t) for t in grid], "decided": [at(y[decided], oof[decided], t) for t in grid],
             "unfound": [at(y[unfound], oof[unfound], t) for t in grid]}

    def lowest(rows_: list[dict]) -> float:
        ok = [row for row in rows_ if row["precision"] >= MIN_PRECISION and row["flagged"] >= 5]
        return ok[0]["threshold"] if ok else 0.95

    threshold, threshold_unfound = lowest(table["decided"]), lowest(table["unfound"])
    ws, wd, b = fit(xs, xd, y)
    meta = {"features_version": FEATURES_VERSION, "threshold": threshold, "threshold_unfound": threshold_unfound,
            "vectors": not args.no_vectors,
            "C": C, "trained_on": {s: int(sum(r["source"] == s for r in rows)) for s in sorted({r["source"] for r in rows})},
            "private": int(y.sum()), "spans": len(rows)}
    from safetensors.numpy import save_file

    save_file({"sparse": ws, "dense": wd, "bias": np.array([b], dtype=np.float32)}, str(WEIGHTS),
              metadata={"meta": json.dumps(meta)})
    report = {"meta": meta, "out_of_fold": {"folds": FOLDS, "grouped_by": "conversation",
                                            "auc_all": round(auc(y, oof), 3),
                                            "auc_decided": round(auc(y[decided], oof[decided]), 3),
                                            "auc_unfound": round(auc(y[unfound], oof[unfound]), 3),
                                            "decided_spans": int(decided.sum()), "unfound_spans": int(unfound.sum()),
                                            **table}}
    RESULTS.write_text(json.dumps(report, indent=1) + "\n")
    print(json.dumps({k: v for k, v in report["out_of_fold"].items() if k.startswith("auc")} | {"meta": meta}))
    for name in ("all", "decided", "unfound"):
        for row in table[name]:
            print(name, row)


if __name__ == "__main__":
    main()

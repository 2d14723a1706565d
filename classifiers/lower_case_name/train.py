"""Train the lower-case-name model and write lower_case_name.safetensors + train_results.json.

No hand labels: careful writers label the names themselves. In real chat turns typed with
capitals, the words NER reads as a person's name (title case, and a ``features.candidates`` word
once lower-cased) are names; the turn is then given as a fast typist would have typed it, and each
candidate word in it is a row:

- ``names_lowered``: only those names lower-cased ("went to the mall with jake"); the row of a
  name word is 1, every other candidate of the turn (a word its writer typed in lower case) 0;
- ``all_lowered``: the whole turn lower-cased (every name, place, brand and sentence start too):
  the name words 1, the rest 0 ("netflix", "byu", a lower-cased "Dang");
- ``as_typed``: a quarter of the turns with no name, unchanged: their lower-case candidates 0.

- ``unseen_name``: each name row again, the name replaced by a name the model cannot know by its
  word vector, so it must read the name's use: half of the time a census first or last name the NER
  model has no vector for ("with jake" -> "with nakisha"), half of the time a made-up one, the start
  of one such name joined to the end of another, in no list and no dictionary ("with nakmer"), as
  names from outside the census lists are ("nkechi", "tomasz"). Its recall is reported apart; the
  threshold is chosen on the other rows.

A word its writer typed in lower case is no sure 0: chat is full of names typed that way, which NER
misses. So each 0 of the ``as_typed`` and ``names_lowered`` turns is tried with a capital (all of a
turn's at once; not a slip or a word with a letter too many, which NER reads as a person's once
capitalised whatever it is: "my Funtion"): one NER then reads as a person's ("went with Ngozi", "Isla, Freddie") is
``doubtful``, left out of every fit and kept, as a 0, in the out-of-fold counts (so the reported
precision stays a floor, taken on the same labels as before).

A name word that opens a sentence is left out unless it is a census first or last name (NER reads
"Dang", "Uhm", "Goodnight" there as people); so are the other words inside a person's name. The
turns: chitchat-dataset's conversations (both sides are people; not those of bench/pii_heldout, of
bench/pii_chitchat_tuning or of the topic seed: only their ``source_id`` fields are read) and
WildChat's user turns (the tuning source). Topical-Chat and OpenAssistant are left out, for benches.
NER's own mistakes stay in the labels (a name it missed is a 0): the out-of-fold precision below is
a floor.

Out of fold (``FOLDS`` folds grouped by conversation) it reports, per variant and threshold, the
names reached and the other words flagged; the threshold is the lowest whose out-of-fold precision
is at least ``MIN_PRECISION``. Then the model is refit on every row not doubtful.

Beside these, hand-labelled rows (since session 48, ``probe_rows``): the tuning halves of the written
name sets of bench/pii_written_probes, every candidate of a message as typed, 1 inside a name its
writer marked.

Usage: python -m classifiers.lower_case_name.train --chitchat WHEEL [--data ../shared/data]
"""

from __future__ import annotations

import json
import random
import re
import sys
from collections import Counter
from pathlib import Path
from typing import Any

import numpy as np

from classifiers.lower_case_name import features
from classifiers.lower_case_name.model import FEATURES_VERSION, WEIGHTS

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
RESULTS = HERE / "train_results.json"
MAX_CHARS = 2000
AS_TYPED_SHARE = 0.3  # of the turns with no name, kept as typed
ALL_LOWERED_SHARE = 0.25  # of the turns with no name, lower-cased whole
MIN_PRECISION = 0.9
C = 1.0
FOLDS = 5
SEED = 7
THRESHOLDS = tuple(round(t, 2) for t in np.arange(0.5, 0.99, 0.05))
TITLE = re.compile(r"[A-Z][a-z]+$")
OPENS = re.compile(r"(?:^|[.!?\n])\s*$")


def turns(data: Path, chitchat: Path) -> list[tuple[str, str, str]]:
    """(source, conversation, text) of every turn used."""
    sys.path.insert(0, str(ROOT / "bench"))
    from pii_heldout import load_chitchat

    from classifiers.context_training import excluded_ids, wildchat_user_turns

    excluded = excluded_ids()  # held-out bench, chitchat tuning bench, topic seed
    out = []
    for cid, conv in load_chitchat(chitchat).items():
        if cid not in excluded:
            out += [("chitchat", f"chitchat:{cid}", t["text"]) for t in conv]
    out += wildchat_user_turns(data, MAX_CHARS)
    return [t for t in out if any(c.isupper() for c in t[2]) and any(c.islower() for c in t[2])]


PROBES = ("names.jsonl", "names_b.jsonl", "names_c.jsonl")  # bench/pii_written_probes sets of names (values: strings)


def probe_rows(counts: Counter) -> list[dict]:
    """Hand-labelled rows: the TUNING halves (odd ids) of bench/pii_written_probes' name sets, messages
    written by helpers who never saw this code, each name marked by its writer. Every candidate of a
    message as typed is a row: 1 inside a marked name, 0 elsewhere (the sets' public names, brands and
    name-like words to keep are 0s too). The check halves (even ids) are never read here."""
    from classifiers.context_training import tuning_probes

    rows = []
    for name in PROBES:
        for row in tuning_probes(name):
            text = row["text"]
            marked = [(m.start(), m.end()) for value in row.get("values", [])
                      for m in re.finditer(rf"(?<!\w){re.escape(value)}(?!\w)", text)]
            for s, e in features.candidates(text):
                label = int(any(a <= s and e <= b for a, b in marked))
                counts[f"probes/as_typed/{label}"] += 1
                rows.append({"source": "probes", "group": f"probes:{name}:{row['id']}", "variant": "as_typed",
                             "text": text, "start": s, "end": e, "label": label})
    return rows


def name_words(text: str, people: list[tuple[int, int]]) -> list[tuple[int, int]]:
    from builder.clean.names import first_names, last_names

    out = []
    for s, e in people:
        for m in re.finditer(r"\S+", text[s:e]):
            w = m.group().strip(".,!?'’\"")
            a = s + m.start() + m.group().find(w)
            if not TITLE.match(w) or not features.word_kind(w.lower()):
                continue
            if OPENS.search(text[max(0, a - 3):a]) and w.lower() not in first_names() | last_names():
                continue  # "Dang", "Uhm" at a sentence's start: NER's, not a name
            out.append((a, a + len(w)))
    return out


def unseen_names(vocab) -> list[str]:
    """Census first and last names that are candidates and have no word vector ("nakisha", "kraemer")."""
    from builder.clean.names import first_names, last_names

    return sorted(w for w in first_names() | last_names() if features.word_kind(w) and not vocab.has_vector(w))


def made_up_name(pool: list[str], rng: random.Random, vocab) -> str:
    """The start of one unseen name joined to the end of another, in no list, dictionary or vocabulary."""
    from builder.clean.names import first_names, last_names

    while True:
        a, b = rng.choice(pool), rng.choice(pool)
        word = a[:max(2, len(a) // 2)] + b[len(b) // 2:]
        if (len(word) >= 4 and features.word_kind(word) == "unknown" and word not in last_names()
                and word not in first_names() and not vocab.has_vector(word)):
            return word


def rows_of(texts: list[tuple[str, str, str]], counts: Counter) -> list[dict]:
    from builder.clean.recognizers import load_ner

    rng = random.Random(SEED)
    nlp = load_ner()
    pool = unseen_names(nlp.vocab)
    rows = []
    for (source, group, text), doc in zip(texts, nlp.pipe([t[2] for t in texts], batch_size=256)):
        people = [(e.start_char, e.end_char) for e in doc.ents if e.label_ == "PERSON"]
        words = name_words(text, people)
        variants = []
        if words:
            lowered = list(text)
            for a, b in words:
                lowered[a:b] = text[a:b].lower()
            variants.append(("names_lowered", "".join(lowered)))
        if words or rng.random() < ALL_LOWERED_SHARE:
            variants.append(("all_lowered", text.lower()))
        if not words and rng.random() < AS_TYPED_SHARE:
            variants.append(("as_typed", text))
        for variant, typed in variants:
            for s, e in features.candidates(typed):
                name = (s, e) in words
                if not name and any(a <= s and e <= b for a, b in people):
                    counts["left_out_in_a_name"] += 1
                    continue
                counts[f"{source}/{variant}/{int(name)}"] += 1
                rows.append({"source": source, "group": group, "variant": variant, "text": typed, "start": s,
                             "end": e, "label": int(name)})
                if name:
                    other = rng.choice(pool) if rng.random() < 0.5 else made_up_name(pool, rng, nlp.vocab)
                    counts[f"{source}/unseen_name/1"] += 1
                    rows.append({"source": source, "group": group, "variant": "unseen_name", "label": 1,
                                 "text": typed[:s] + other + typed[e:], "start": s, "end": s + len(other)})
    mark_doubtful(rows, nlp, counts)
    return rows


def mark_doubtful(rows: list[dict], nlp, counts: Counter) -> None:
    """``doubtful`` on each 0 of a turn typed by its writer that NER reads as a person once capitalised."""
    from builder.clean.truecase import capitalise_at, extra_letter_of_english_word, typo_of_english_word

    by_turn: dict[tuple[str, str], list[dict]] = {}
    for r in rows:
        word = r["text"][r["start"]:r["end"]]
        if (r["label"] == 0 and r["variant"] in ("as_typed", "names_lowered") and len(word[0].upper()) == 1
                and not typo_of_english_word(word) and not extra_letter_of_english_word(word)):  # "my Funtion"
            by_turn.setdefault((r["group"], r["text"]), []).append(r)
    capped = [capitalise_at(text, [r["start"] for r in words]) for (_, text), words in by_turn.items()]
    for words, doc in zip(by_turn.values(), nlp.pipe(capped, batch_size=256)):
        people = [(e.start_char, e.end_char) for e in doc.ents if e.label_ == "PERSON"]
        for r in words:
            if any(a <= r["start"] and r["end"] <= b for a, b in people):
                r["doubtful"] = True
                counts[f"{r['source']}/{r['variant']}/0_doubtful"] += 1


def sure(rows: list[dict]) -> np.ndarray:
    return np.array([not r.get("doubtful") for r in rows])


def matrix(rows: list[dict], vectors):
    from scipy.sparse import csr_matrix, hstack

    from classifiers.context_training import hashed_matrix

    x = hashed_matrix(rows, lambda r: features.buckets(features.sparse(r["text"], r["start"], r["end"])), features.DIMS)
    if vectors is None:
        return x
    dense = np.stack([features.dense(r["text"], r["start"], r["end"], vectors) for r in rows])
    return hstack([x, csr_matrix(dense)]).tocsr()


def _fit(x, y):
    from sklearn.linear_model import LogisticRegression

    return LogisticRegression(C=C, max_iter=3000).fit(x, y)


def out_of_fold(rows: list[dict], x, y: np.ndarray) -> np.ndarray:
    from sklearn.model_selection import GroupKFold

    groups = np.array([r["group"] for r in rows])
    fit_on = sure(rows)
    proba = np.zeros(len(rows))
    for train, test in GroupKFold(n_splits=FOLDS).split(x, y, groups):
        train = train[fit_on[train]]  # a doubtful 0 is never learnt from, but counts against the precision
        proba[test] = _fit(x[train], y[train]).predict_proba(x[test])[:, 1]
    return proba


def report(rows: list[dict], y: np.ndarray, proba: np.ndarray) -> list[dict]:
    out = []
    real = np.array([r["variant"] != "unseen_name" for r in rows])
    kinds = np.array([features.word_kind(r["text"][r["start"]:r["end"]]) or "" for r in rows])
    for t in THRESHOLDS:
        flag = proba >= t
        entry: dict[str, Any] = {"threshold": float(t),
                 "precision": round(float((real & flag & (y == 1)).sum() / max((real & flag).sum(), 1)), 4),
                 "recall": round(float((real & flag & (y == 1)).sum() / max((real & (y == 1)).sum(), 1)), 4)}
        for variant in ("names_lowered", "all_lowered", "as_typed", "unseen_name"):
            m = np.array([r["variant"] == variant for r in rows])
            entry[variant] = {"names": int((m & (y == 1)).sum()), "names_flagged": int((m & flag & (y == 1)).sum()),
                              "other_words": int((m & (y == 0)).sum()), "other_flagged": int((m & flag & (y == 0)).sum())}
        for kind in ("census", "census_word", "unknown"):  # the real rows by candidate kind
            m = real & (kinds == kind)
            entry[f"kind_{kind}"] = {"names": int((m & (y == 1)).sum()), "names_flagged": int((m & flag & (y == 1)).sum()),
                                     "other_words": int((m & (y == 0)).sum()), "other_flagged": int((m & flag & (y == 0)).sum())}
        out.append(entry)
    return out


def main() -> None:
    from classifiers.context_training import parse_args

    args = parse_args(__doc__.splitlines()[0])
    from builder.clean.recognizers import load_ner
    from classifiers.person_context.features import Vectors

    counts: Counter = Counter()
    rows = rows_of(turns(args.data, args.chitchat), counts) + probe_rows(counts)
    x = matrix(rows, Vectors(load_ner().vocab))
    y = np.array([r["label"] for r in rows])
    oof = report(rows, y, out_of_fold(rows, x, y))
    chosen = next((e for e in oof if e["precision"] >= MIN_PRECISION), oof[-1])
    fit_on = sure(rows)
    model = _fit(x[fit_on], y[fit_on])
    coef = model.coef_[0].astype(np.float32)
    meta = {"features_version": FEATURES_VERSION, "threshold": chosen["threshold"], "C": C,
            "min_precision": MIN_PRECISION, "rows": dict(sorted(counts.items()))}
    from safetensors.numpy import save

    WEIGHTS.write_bytes(save({"sparse": np.ascontiguousarray(coef[:features.DIMS]),
                              "dense": np.ascontiguousarray(coef[features.DIMS:]),
                              "bias": np.array([model.intercept_[0]], dtype=np.float32)},
                             metadata={"meta": json.dumps(meta)}))
    RESULTS.write_text(json.dumps({"meta": meta, "folds": FOLDS, "grouped_by": "conversation",
                                   "out_of_fold": oof, "chosen": chosen}, indent=1) + "\n")
    print(json.dumps({"chosen": chosen, "rows": len(rows)}, indent=1))


if __name__ == "__main__":
    main()

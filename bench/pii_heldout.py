"""Held-out PII benchmark: the real `mmrc-build ingest` + `clean` CLI on hand-labelled real dialogues.

The data (bench/pii_heldout/, see its SOURCES.md) is HELD OUT from PII rule tuning: nobody who
tunes builder/clean reads it; only these aggregate numbers are read. Sources: chitchat-dataset
0.9.0, OpenAssistant en_100_tree, Topical-Chat valid_freq (never WildChat, the tuning source).

- labels.jsonl: real dialogues with `must_redact` (a private person's data) and `must_keep`
  (public figures, titles, products, places, numbers ...) values;
- canaries.jsonl: other real dialogues with fake personal data inserted into user turns.

Every row's turns are first checked against the sources (`--data`, default ../shared/data, and
the chitchat-dataset wheel: `--chitchat PATH` or $MMRC_CHITCHAT_WHEEL, fetched with
`pip download --no-deps chitchat-dataset==0.9.0 -d DIR`); without them the bench skips.
Both files are written as `native` JSONL (id, user_id, turns) and run through
`mmrc-build ingest RAW --min-turns 2 --max-turns 200` and `mmrc-build clean --toxicity-backend
lexicon`; rows are mapped back by source_id (ingest ledger) and dialogue_id.

Definitions. A value is *removed* when none of its letters/digits survive at its place in the
cleaned turn (the text between the output's `pii` spans is the input text unchanged, which places
every surviving character); *damaged* when any of them is gone; a multi-word canary name is a *half
name* when some words are removed and others survive. A dialogue `clean` drops keeps nothing:
must_redact recall is given counting dropped dialogues as removed and over surviving dialogues
only; must_keep and canary leaks are over surviving dialogues (the dropped share is reported
apart). Rates carry 95% Wilson intervals. Throughput: dialogues/s of the clean command (wall,
model loading included) and of its processing alone (the manifest's process_s).
Writes bench/results/pii_heldout.json.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
import time
import zipfile
from collections import Counter, defaultdict
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
DATA_DIR = HERE / "pii_heldout"
RESULTS = HERE / "results" / "pii_heldout.json"
SPLIT = {"tuned_on": "WildChat (../shared/data/logs/wildchat) and presidio generated sets",
         "held_out": ["chitchat-dataset 0.9.0", "OASST en_100_tree", "Topical-Chat valid_freq"]}
OASST_FILE = "logs/oasst_en_100_tree.jsonl"
TOPICAL_FILE = "topics/topical_chat_valid_freq.json"
STRUCTURED = ("PHONE", "EMAIL", "CARD", "ZIP", "ID")


# ---- sources: each dialogue as two-role turns, keyed by its source id ----------------------------

def _two_roles(messages: list[tuple[str, str]]) -> list[dict]:
    """(sender, text) in order -> turns: the first sender is the user; one sender's run is one turn."""
    turns: list[dict] = []
    first = messages[0][0] if messages else None
    for sender, text in messages:
        role = "user" if sender == first else "assistant"
        if turns and turns[-1]["role"] == role:
            turns[-1]["text"] += "\n" + text
        else:
            turns.append({"role": role, "text": text})
    return turns


def load_chitchat(wheel: Path) -> dict[str, list[dict]]:
    """chitchat-dataset's conversations with two senders (the wheel or its dataset.json)."""
    if zipfile.is_zipfile(wheel):
        with zipfile.ZipFile(wheel) as z:
            raw = json.loads(z.read("chitchat_dataset/dataset.json"))
    else:
        raw = json.loads(Path(wheel).read_text())
    out = {}
    for cid, conv in raw.items():
        messages = [(m["sender"], m["text"]) for group in conv["messages"] for m in group]
        if len({s for s, _ in messages}) == 2:
            out[cid] = _two_roles(messages)
    return out


def load_oasst(path: Path) -> dict[str, dict]:
    """Every root-to-leaf path without a deleted message, keyed by the leaf's message id (as
    `ingest` does): ``{"tree": message tree id, "turns": [...]}``."""
    out = {}
    for line in path.read_text().splitlines():
        tree = json.loads(line)
        stack = [(tree["prompt"], [])]
        while stack:
            node, path_ = stack.pop()
            if node.get("deleted"):
                continue
            path_ = path_ + [{"role": "user" if node["role"] == "prompter" else "assistant", "text": node["text"]}]
            replies = node.get("replies") or []
            if not replies:
                out[node["message_id"]] = {"tree": tree["message_tree_id"], "turns": path_}
            stack.extend((r, path_) for r in replies)
    return out


def load_topical(path: Path) -> dict[str, list[dict]]:
    convs = json.loads(path.read_text())
    return {cid: _two_roles([(m["agent"], m["message"].strip()) for m in conv["content"]])
            for cid, conv in convs.items()}


def load_sources(data: Path, wheel: Path) -> dict[str, dict[str, list[dict]]]:
    oasst = load_oasst(data / OASST_FILE)
    return {"chitchat": load_chitchat(wheel), "oasst": {k: v["turns"] for k, v in oasst.items()},
            "topical_chat": load_topical(data / TOPICAL_FILE)}


def original_turns(row: dict) -> list[dict]:
    """A row's turns without the canary text inserted into them (``inserted``: turn, at, text)."""
    turns = [dict(t) for t in row["turns"]]
    for ins in sorted(row.get("inserted", []), key=lambda i: -i["at"]):
        text = turns[ins["turn"]]["text"]
        assert text[ins["at"]:ins["at"] + len(ins["text"])] == ins["text"], (row["id"], ins)
        turns[ins["turn"]]["text"] = text[:ins["at"]] + text[ins["at"] + len(ins["text"]):]
    return turns


CHITCHAT_HELP = ("chitchat-dataset 0.9.0 not found: pass --chitchat PATH (the wheel or its dataset.json) or set "
                 "MMRC_CHITCHAT_WHEEL; get it with `pip download --no-deps chitchat-dataset==0.9.0 -d DIR`")


def chitchat_path(given: Path | None) -> Path | None:
    path = given or (Path(os.environ["MMRC_CHITCHAT_WHEEL"]) if os.environ.get("MMRC_CHITCHAT_WHEEL") else None)
    return path if path and path.is_file() else None

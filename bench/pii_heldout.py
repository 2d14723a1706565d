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
SPLIT = {"tuned_on": "WildChat (../shared/data/logs/wildchat), presidio generated sets, chitchat-dataset "
                     "conversations apart from these (bench/pii_chitchat_tuning, classifiers/person_context), "
                     "Topical-Chat valid_freq conversations apart from these, and the written probes' tuning "
                     "halves (bench/pii_written_probes, odd ids)",
         "held_out": ["chitchat-dataset 0.9.0", "OASST en_100_tree", "Topical-Chat valid_freq"]}
OASST_FILE = "logs/oasst_en_100_tree.jsonl"
TOPICAL_FILE = "topics/topical_chat_valid_freq.json"
STRUCTURED = ("PHONE", "EMAIL", "CARD", "ZIP", "ID")


def source_ids(path: Path, field: str | None = None, value: str | None = None) -> set[str]:
    """The ``source_id`` of every row of a JSONL file (where ``row[field] == value`` when given).
    Only those two fields are read: the tuning benches use it to stay off the held-out dialogues."""
    ids = set()
    for line in path.read_text(encoding="utf-8").splitlines():
        row = json.loads(line) if line.strip() else {}
        if row.get("source_id") and (field is None or row.get(field) == value):
            ids.add(row["source_id"])
    return ids


def held_out_source_ids(source: str | None = None) -> set[str]:
    """The source ids of this bench's dialogues (of one ``source`` when given)."""
    return set().union(*(source_ids(DATA_DIR / f"{name}.jsonl", source and "source", source)
                         for name in ("labels", "canaries")))


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


# ---- running the real CLI ------------------------------------------------------------------------

def cli() -> list[str]:
    exe = Path(sys.executable).parent / "mmrc-build"
    return [str(exe)] if exe.exists() else [shutil.which("mmrc-build") or "mmrc-build"]


def run(args: list[str]) -> float:
    """Run one mmrc-build command with this checkout's code first on the path; wall seconds."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))}
    env.setdefault("MMRC_USER_SALT", "bench")
    env.setdefault("HF_HUB_OFFLINE", "1")
    env.setdefault("TRANSFORMERS_OFFLINE", "1")
    t0 = time.perf_counter()
    done = subprocess.run(cli() + args, check=False, env=env, capture_output=True, text=True)
    if done.returncode:
        sys.exit(f"mmrc-build {args[0]} failed ({done.returncode}):\n{done.stdout}{done.stderr}")
    return time.perf_counter() - t0


def write_native(rows: list[dict], path: Path) -> None:
    with open(path, "w", encoding="utf-8") as f:
        f.writelines(json.dumps({"id": row["id"], "user_id": f"pii-heldout-user-{n}",
                                "turns": [{"role": t["role"], "text": t["text"]} for t in row["turns"]]},
                               ensure_ascii=False) + "\n" for n, row in enumerate(rows))


def read_stage(folder: Path) -> tuple[dict[str, dict], dict[str, tuple[str, str]]]:
    """(rows by dialogue_id, {dialogue_id: (decision, reason)} of this stage's ledger rows)."""
    import polars as pl

    parts = sorted(folder.glob("part-*.parquet"))
    rows = {r["dialogue_id"]: r for r in pl.read_parquet(parts).to_dicts()} if parts else {}
    stage = json.loads((folder / "manifest.json").read_text())["stage"]
    ledger = pl.read_parquet(folder / "ledger.parquet").filter(pl.col("stage") == stage).to_dicts()
    return rows, {r["dialogue_id"]: (r["decision"], r["reason"], r["detail"]) for r in ledger}


# ---- scoring -------------------------------------------------------------------------------------

def surviving(raw: str, cleaned: str, spans: list[dict]) -> list[bool] | None:
    """Which characters of ``raw`` are still in ``cleaned`` at their place. ``spans`` are the
    replacement spans in ``cleaned`` (the output's ``pii`` column); the text between them is
    ``raw``'s text unchanged, so ``raw`` = literal, value, literal, ... (values non-empty)."""
    if not spans:
        return [True] * len(raw) if raw == cleaned else None
    pattern, pos = "", 0
    for sp in sorted(spans, key=lambda s: s["start"]):
        pattern += re.escape(cleaned[pos:sp["start"]]) + "(.+?)"
        pos = sp["end"]
    m = re.fullmatch(pattern + re.escape(cleaned[pos:]), raw, re.DOTALL)
    if m is None:
        return None
    keep = [True] * len(raw)
    for g in range(1, (m.lastindex or 0) + 1):
        keep[m.start(g):m.end(g)] = [False] * (m.end(g) - m.start(g))
    return keep


def fate(keep: list[bool], start: int, value: str) -> tuple[bool, bool, list[bool]]:
    """(removed: none of the value's letters/digits survive, damaged: not all of them survive,
    removed or not per word of the value)."""
    def gone(lo, hi):
        return not any(keep[start + k] for k in range(lo, hi) if value[k].isalnum())
    alive = [keep[start + k] for k in range(len(value)) if value[k].isalnum()]
    words = [gone(m.start(), m.end()) for m in re.finditer(r"\S+", value) if any(c.isalnum() for c in m.group())]
    return gone(0, len(value)), not all(alive), words


def wilson(k: int, n: int) -> dict:
    z = 1.959964
    if not n:
        return {"k": 0, "n": 0, "rate": None, "ci95": None}
    p = k / n
    centre, half = (p + z * z / (2 * n)) / (1 + z * z / n), z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return {"k": k, "n": n, "rate": round(p, 4), "ci95": [round(max(0, centre - half), 4), round(min(1, centre + half), 4)]}


def outcome(row: dict, ingested: dict, ingest_ledger: dict, cleaned: dict, clean_ledger: dict, by_source_id: dict):
    """('ingest_dropped', reason) | ('dropped', reason) | ('kept', raw turns, per-turn survival)."""
    did = by_source_id.get(row["id"])
    if did is None or did not in ingested:
        reason = ingest_ledger.get(did, ("?", "not_found", ""))[1] if did else "not_found"
        return ("ingest_dropped", reason)
    decision, reason, _ = clean_ledger.get(did, ("?", "not_in_ledger", ""))
    if decision == "dropped" or did not in cleaned:
        return ("dropped", reason)
    raw = [t["text"] for t in ingested[did]["turns"]]
    out = cleaned[did]
    spans = defaultdict(list)
    for sp in out["pii"] or []:
        spans[sp["turn"]].append(sp)
    keep = [surviving(r, c["text"], spans[n]) for n, (r, c) in enumerate(zip(raw, out["turns"]))]
    return ("kept", raw, keep)


def locate(raw: str, text: str, start: int, value: str) -> int | None:
    """The value's offset in the ingested turn (the same as in the file unless ingest changed the text)."""
    if raw == text:
        return start
    hits = [m.start() for m in re.finditer(re.escape(value), raw)]
    return min(hits, key=lambda h: abs(h - start)) if hits else None


class Tally:
    """Counts per group (overall, per source, per kind)."""

    def __init__(self):
        self.c = defaultdict(lambda: defaultdict(int))

    def add(self, groups, **counts):
        for g in groups:
            for k, v in counts.items():
                self.c[g][k] += int(v)

    def get(self, group, key):
        return self.c[group][key]


def score_labels(rows, fates, misses: list | None = None) -> dict:
    """``misses``, when given, receives (kind, role, turn text, offset, value, row id, turn) of every must-redact
    value left in a surviving dialogue, for ``miss_causes`` and ``miss_rules`` (counts only: nobody reads the values)."""
    t = Tally()
    for row in rows:
        src, f = row["source"], fates[row["id"]]
        dgroups = ["overall", src]
        t.add(dgroups, dialogues=1, ingest_dropped=f[0] == "ingest_dropped", dropped=f[0] == "dropped")
        if f[0] == "ingest_dropped":
            continue
        for side in ("must_redact", "must_keep"):
            for e in row[side]:
                groups = dgroups + [f"{src}/{e['kind']}", f"kind/{e['kind']}"]
                if f[0] == "dropped":
                    t.add([f"{side}:{g}" for g in groups], n=1, dropped=1)
                    continue
                raw, keep = f[1][e["turn"]], f[2][e["turn"]]
                at = locate(raw, row["turns"][e["turn"]]["text"], e["start"], e["value"]) if keep else None
                if at is None:
                    t.add([f"{side}:{g}" for g in groups], n=1, unaligned=1)
                    continue
                removed, damaged, _ = fate(keep, at, e["value"])
                t.add([f"{side}:{g}" for g in groups], n=1, surviving=1, removed=removed, damaged=damaged)
                if side == "must_redact" and not removed and misses is not None:
                    role = "user" if row["turns"][e["turn"]]["role"] == "user" else "second_side"
                    misses.append((e["kind"], role, raw, at, e["value"], row["id"], e["turn"]))
    def redact(g):
        n, dropped, surv = t.get(f"must_redact:{g}", "n"), t.get(f"must_redact:{g}", "dropped"), t.get(f"must_redact:{g}", "surviving")
        removed = t.get(f"must_redact:{g}", "removed")
        return {"values": n, "in_dropped_dialogues": wilson(dropped, n),
                "removed_counting_dropped_as_removed": wilson(removed + dropped, n),
                "removed_in_surviving_dialogues": wilson(removed, surv),
                "unaligned": t.get(f"must_redact:{g}", "unaligned")}
    def keep(g):
        surv = t.get(f"must_keep:{g}", "surviving")
        return {"values": t.get(f"must_keep:{g}", "n"), "in_dropped_dialogues": t.get(f"must_keep:{g}", "dropped"),
                "removed_or_damaged_in_surviving_dialogues": wilson(t.get(f"must_keep:{g}", "damaged"), surv),
                "fully_removed_in_surviving_dialogues": wilson(t.get(f"must_keep:{g}", "removed"), surv),
                "unaligned": t.get(f"must_keep:{g}", "unaligned")}
    out = {}
    for g in ["overall", "chitchat", "oasst", "topical_chat"]:
        kinds_r = sorted({k.split("/")[1] for k in t.c if k.startswith(f"must_redact:{g if g != 'overall' else 'kind'}/")})
        kinds_k = sorted({k.split("/")[1] for k in t.c if k.startswith(f"must_keep:{g if g != 'overall' else 'kind'}/")})
        pre = "kind" if g == "overall" else g
        out[g] = {"dialogues": t.get(g, "dialogues"), "dropped_at_ingest": t.get(g, "ingest_dropped"),
                  "dropped_by_clean": wilson(t.get(g, "dropped"), t.get(g, "dialogues") - t.get(g, "ingest_dropped")),
                  "must_redact": {**redact(g), "per_kind": {k: redact(f"{pre}/{k}") for k in kinds_r}},
                  "must_keep": {**keep(g), "per_kind": {k: keep(f"{pre}/{k}") for k in kinds_k}}}
    return out


def score_canaries(rows, fates, leaks: list | None = None, people: list | None = None) -> dict:
    """``leaks``, when given, receives (kind, turn text, offset, value) of every leaked canary, for
    ``leak_causes``; ``people`` (kind, turn text, offset, value, removed, removed per word) of every PERSON, STREET and
    ZIP canary in a surviving dialogue, for ``person_shapes``, ``street_shapes`` and ``zip_shapes`` (aggregates only:
    nobody reads the values)."""
    t = Tally()
    for row in rows:
        src, f = row["source"], fates[row["id"]]
        dgroups = ["overall", src]
        t.add(dgroups, dialogues=1, ingest_dropped=f[0] == "ingest_dropped", dropped=f[0] == "dropped",
              coherence=f[0] == "dropped" and f[1] == "pii_coherence")
        if f[0] == "ingest_dropped":
            continue
        for v in row["canaries"]:
            groups = [f"{g}/{v['kind']}" for g in dgroups]
            if f[0] == "dropped":
                t.add(groups, n=1, dropped=1)
                continue
            raw, keep = f[1][v["turn"]], f[2][v["turn"]]
            at = locate(raw, row["turns"][v["turn"]]["text"], v["start"], v["value"]) if keep else None
            if at is None:
                t.add(groups, n=1, unaligned=1)
                continue
            removed, damaged, words = fate(keep, at, v["value"])
            half = len(words) > 1 and any(words) and not all(words)
            if not removed and leaks is not None:
                leaks.append((v["kind"], raw, at, v["value"]))
            if v["kind"] in ("PERSON", "STREET", "ZIP") and people is not None:
                people.append((v["kind"], raw, at, v["value"], removed, words))
            t.add(groups, n=1, surviving=1, removed=removed, leaked=not removed, intact=not damaged,
                  multiword=len(words) > 1, half=half)
    out = {}
    for g in ["overall", "chitchat", "oasst", "topical_chat"]:
        reached = t.get(g, "dialogues") - t.get(g, "ingest_dropped")
        res = {"dialogues": t.get(g, "dialogues"), "dropped_at_ingest": t.get(g, "ingest_dropped"),
               "dropped_by_clean": wilson(t.get(g, "dropped"), reached),
               "dropped_pii_coherence": wilson(t.get(g, "coherence"), reached),
               "dropped_other": wilson(t.get(g, "dropped") - t.get(g, "coherence"), reached)}
        structured = {}
        for k in STRUCTURED:
            c = f"{g}/{k}"
            structured[k] = {"values": t.get(c, "n"), "in_dropped_dialogues": t.get(c, "dropped"),
                             "leaked_in_surviving_dialogues": wilson(t.get(c, "leaked"), t.get(c, "surviving")),
                             "leaked_intact": t.get(c, "intact"), "unaligned": t.get(c, "unaligned")}
        tot = {key: sum(t.get(f"{g}/{k}", key) for k in STRUCTURED) for key in ("n", "dropped", "leaked", "surviving", "intact")}
        structured["all"] = {"values": tot["n"], "in_dropped_dialogues": tot["dropped"],
                             "leaked_in_surviving_dialogues": wilson(tot["leaked"], tot["surviving"]),
                             "leaked_intact": tot["intact"]}
        res["structured"] = structured
        for k in ("PERSON", "STREET"):
            c = f"{g}/{k}"
            res[k] = {"values": t.get(c, "n"), "in_dropped_dialogues": t.get(c, "dropped"),
                      "recall_in_surviving_dialogues": wilson(t.get(c, "removed"), t.get(c, "surviving")),
                      "recall_counting_dropped_as_removed": wilson(t.get(c, "removed") + t.get(c, "dropped"), t.get(c, "n")),
                      "untouched_in_surviving_dialogues": t.get(c, "intact"), "unaligned": t.get(c, "unaligned")}
        res["PERSON"]["half_names"] = wilson(t.get(f"{g}/PERSON", "half"), t.get(f"{g}/PERSON", "multiword"))
        out[g] = res
    return out


def clean_config(public_figures: Path | None = None, rules_only: bool = False, no_lower_case_names: bool = False):
    """The CleanConfig the clean command ran with (its public-figure list, its models)."""
    sys.path.insert(0, str(ROOT))
    from builder.clean.config import CleanConfig

    options: dict = {"number_context": not rules_only, "lower_case_names": not no_lower_case_names}
    if public_figures is not None:
        from builder.clean.gazetteer import fingerprint

        options.update(public_figures=str(public_figures.resolve()), public_figures_sha256=fingerprint(public_figures))
    return CleanConfig(**options)


def scan_alone(texts: set[str], public_figures: Path | None = None) -> dict:
    """``{turn text: TurnScan}``: each turn scanned alone by the finders (no dialogue, no context model),
    in this process, with the public-figure list the clean command had."""
    from builder.clean.pii import PiiDetector

    ordered = sorted(texts)
    return dict(zip(ordered, PiiDetector(clean_config(public_figures)).scan(ordered))) if ordered else {}


def _found_alone(values, found: dict) -> dict:
    """Per group, how many of ``values`` ((group, turn text, offset, value)) a span of their turn's
    ``scan_alone`` overlaps, and how many none does."""
    out: dict = defaultdict(lambda: {"not_found_in_turn_alone": 0, "found_in_turn_alone": 0})
    for group, text, at, value in values:
        out[group]["found_in_turn_alone" if _found(found, text, at, value) else "not_found_in_turn_alone"] += 1
    return out


def _found(found: dict, text: str, at: int, value: str) -> bool:
    """Whether a span of ``text``'s ``scan_alone`` overlaps the value at ``at``."""
    return any(sp["start"] < at + len(value) and at < sp["end"] for sp in found[text].spans)


def _tally(shapes: dict, keys: list[str], removed: bool) -> None:
    for key in keys:
        shapes[key]["n"] += 1
        shapes[key]["leaked"] += not removed


def leak_causes(leaks: list, found: dict) -> dict:
    """Per kind, how many leaked canaries the detector does not find even in their turn alone (a finder's
    miss) and how many it finds there (so the dialogue's context kept them: a policy rule, a trait, a
    model-made value). ``found``: ``scan_alone`` of their turns; counts only."""
    out = _found_alone(leaks, found)
    return {"note": "each leaked canary's turn scanned alone by the finders, without its dialogue: not found there = "
                    "the finders missed it (and so did the context models, which judge in the dialogue); found "
                    "there = kept by the dialogue's context (a policy rule, a trait)",
            **dict(sorted(out.items()))}


def miss_causes(misses: list, found: dict) -> dict:
    """Per kind and side (the user's turns, the other side's), how many must-redact values left in a
    surviving dialogue the finders do not find even in their turn alone, and how many they find there
    (so a policy rule or the dialogue's context kept them). ``found``: ``scan_alone``; counts only."""
    out = _found_alone(((f"{kind}/{role}", text, at, value) for kind, role, text, at, value, *_ in misses), found)
    return {"note": "must-redact values left in surviving dialogues, per kind and side, each turn scanned alone as in "
                    "canary_leak_causes (found there = a policy rule or the dialogue's context kept it)",
            **dict(sorted(out.items()))}


def miss_rules(missed: list, ingested: dict, by_source_id: dict, args) -> dict:
    """Per kind and side, the policy rules that kept the must-redact values left in surviving dialogues
    (``missed``, from ``score_labels``): each such dialogue redacted again in this process, as the clean
    command ran, its ``suppressed_by`` read where a suppressed span overlaps the value ("none": no rule;
    the finders or models missed it). Counts only: nobody reads the values."""
    from builder.clean.languages import dialogue_languages, english_turns
    from builder.clean.pii import PiiDetector
    from builder.clean.redact import redact_dialogue

    config = clean_config(args.public_figures, args.rules_only, args.no_lower_case_names)
    detector = PiiDetector(config)
    by_row: dict = defaultdict(list)
    for kind, role, _, at, value, row_id, turn in missed:
        by_row[row_id].append((f"{kind}/{role}", turn, at, len(value)))
    out: dict = defaultdict(Counter)
    for row_id, left in by_row.items():
        did = by_source_id[row_id]
        turns = ingested[did]["turns"]
        ((language, per_turn),) = dialogue_languages([turns])
        scans = detector.scan([t["text"] or "" for t in turns], english_turns(turns, per_turn, language),
                              [k > 0 for k in range(len(turns))])
        red = redact_dialogue(did, turns, scans, config)
        for group, turn, at, n in left:
            rules = sorted({sp["suppressed_by"] for sp in red.suppressed
                            if sp["turn"] == turn and sp["start"] < at + n and at < sp["end"]})
            out[group]["+".join(rules) or "none"] += 1
    return {"note": "must-redact values left in surviving dialogues, per kind and side: the policy rule that kept each "
                    "(its dialogue redacted again in process; 'none': no rule kept it, nothing found it)",
            **{g: dict(sorted(c.items())) for g, c in sorted(out.items())}}


def person_shapes(people: list, found: dict) -> dict:
    """Per shape of the PERSON canaries in surviving dialogues, how many there are and how many leaked
    (counts, never the values): words, case, whether the name opens a sentence, whether its first word
    is a census first name, an English word or a word the NER model has no vector for, whether the turn
    has any capital letter, and whether ``context_names.candidates`` proposes it to the person-context
    model (``found``: ``scan_alone`` of their turns)."""
    from builder.clean.context_names import candidates
    from builder.clean.names import first_names, unseen_word
    from builder.clean.truecase import is_english_word

    shapes: dict = defaultdict(lambda: {"n": 0, "leaked": 0})
    for kind, text, at, value, removed, per_word in people:
        if kind != "PERSON":
            continue
        words = value.split()
        first = words[0].strip(".,'’\"")
        case = ("lower" if value.islower() else "title" if all(w[:1].isupper() for w in words)
                else "upper" if value.isupper() else "mixed")
        before = text[max(0, at - 3):at]
        opens = at == 0 or bool(re.search(r"(?:^|[.!?:\n])\s*$", before))
        proposed = any(s < at + len(value) and at < e for s, e, _ in candidates(text, found[text].spans))
        capitals = any(c.isupper() for c in text)
        _tally(shapes, ["all", f"words_{min(len(words), 3)}", f"case_{case}", f"opens_sentence_{opens}",
                        f"first_word_census_{first.lower() in first_names()}", f"first_word_english_{is_english_word(first)}",
                        f"first_word_unseen_{unseen_word(first)}", f"turn_has_capitals_{capitals}",
                        f"case_{case}_turn_has_capitals_{capitals}", f"proposed_to_model_{proposed}"], removed)
        if len(per_word) > 1 and not all(per_word):  # of a multi-word name, the words left: where and what they are
            for i, (word, gone) in enumerate(zip([w for w in words if any(c.isalnum() for c in w)], per_word)):
                where = "first" if i == 0 else "last" if i == len(per_word) - 1 else "middle"
                key = f"multiword_{'all_left' if not any(per_word) else 'part_left'}_{where}_{word_kind(word)}"
                shapes[key]["n"] += 1
                shapes[key]["leaked"] += not gone
    return dict(sorted(shapes.items()))


PLACE_WORD_BEFORE = re.compile(r"\b(?:at|on|to|in|from|near|is)\s*:?\s*$", re.I)


def street_shapes(people: list, found: dict) -> dict:
    """Per shape of the STREET canaries in surviving dialogues, how many there are and how many leaked
    (counts, never the values): words, case, whether it starts with its number, holds an English
    street type word, a unit, a comma, letters outside ASCII; whether an address cue or a preposition
    of place stands before it; whether the turn has capitals; and, of the leaked ones, whether the
    finders found any part of it in its turn alone (``found``: ``scan_alone``) and whether part of it was removed."""
    from builder.clean.addresses import CUE, EN_TYPES, UNIT_WORD

    types = re.compile(rf"(?i:\b(?:{EN_TYPES})\b)")
    shapes: dict = defaultdict(lambda: {"n": 0, "leaked": 0})
    for kind, text, at, value, removed, per_word in people:
        if kind != "STREET":
            continue
        words = value.split()
        case = ("lower" if value.islower() else "upper" if value.isupper()
                else "title" if all(w[:1].isupper() or not w[:1].isalpha() for w in words) else "mixed")
        before = text[max(0, at - 60):at]
        part = _found(found, text, at, value)
        keys = ["all", f"words_{min(len(words), 5)}", f"case_{case}", f"number_first_{value[:1].isdigit()}",
                f"en_type_word_{types.search(value) is not None}", f"unit_{UNIT_WORD.search(value) is not None or '#' in value}",
                f"comma_{',' in value}", f"non_ascii_{any(ord(c) > 127 for c in value)}",
                f"cue_before_{CUE.search(before) is not None}",
                f"place_word_before_{PLACE_WORD_BEFORE.search(before) is not None}",
                f"turn_has_capitals_{any(c.isupper() for c in text)}"]
        if not removed:
            keys += [f"leaked_found_in_turn_alone_{part}", f"leaked_partly_removed_{any(per_word)}"]
        _tally(shapes, keys, removed)
    return dict(sorted(shapes.items()))


ZIP_SHAPES = (("5_digits", r"\d{5}"), ("5_4", r"\d{5}-\d{4}"), ("6_digits", r"\d{6}"), ("4_digits", r"\d{4}"),
              ("3_digits", r"\d{3}"), ("hyphenated", r"\d+-\d+"), ("spaced_digits", r"\d+ \d+"),
              ("letters_and_digits", r"(?=.*[A-Za-z])(?=.*\d)[A-Za-z\d -]+"))


CAPITALISED_BEFORE = re.compile(r"[A-Z][a-z]+,?[ \t]+$")
WORD_AFTER = re.compile(r"[ \t]+[^\W\d_]")
SET_OFF_BEFORE, SET_OFF_AFTER = re.compile(r"[,(][ \t]*$"), re.compile(r"[ \t]*[,)]")


def zip_shapes(people: list, found: dict) -> dict:
    """Per shape of the ZIP canaries in surviving dialogues, how many there are and how many leaked
    (counts, never the values): the code's shape, whether a postcode cue word stands in its turn,
    whether a preposition of place or a capitalised word (a town) stands right before it or a word
    right after it, whether it is set off by a comma or a bracket, whether it ends the turn; and of
    the leaked ones whether the finders found any part of it in its turn alone."""
    from builder.clean.numbers import ZIP_CUE_ANY

    shapes: dict = defaultdict(lambda: {"n": 0, "leaked": 0})
    for kind, text, at, value, removed, _ in people:
        if kind != "ZIP":
            continue
        shape = next((name for name, pattern in ZIP_SHAPES if re.fullmatch(pattern, value)), "other")
        before, after = text[max(0, at - 25):at], text[at + len(value):at + len(value) + 25]
        part = _found(found, text, at, value)
        town = CAPITALISED_BEFORE.search(before) is not None
        word = WORD_AFTER.match(after) is not None
        set_off = SET_OFF_BEFORE.search(before) is not None or SET_OFF_AFTER.match(after) is not None
        keys = ["all", f"shape_{shape}", f"cue_in_turn_{ZIP_CUE_ANY.search(text) is not None}",
                f"place_word_before_{PLACE_WORD_BEFORE.search(before) is not None}", f"capitalised_word_before_{town}",
                f"word_after_{word}", f"set_off_{set_off}", f"ends_turn_{not after.strip(' .!?')}"]
        if shape == "letters_and_digits":  # which of them: case, a space, letters first, how long
            case = "lower" if value.islower() else "upper" if value.isupper() else "mixed"
            keys += [f"lettered_case_{case}", f"lettered_space_{' ' in value}", f"lettered_hyphen_{'-' in value}",
                     f"lettered_letter_first_{value[:1].isalpha()}", f"lettered_chars_{len(value.replace(' ', ''))}"]
        if not removed:
            keys.append(f"leaked_found_in_turn_alone_{part}")
        _tally(shapes, keys, removed)
    return dict(sorted(shapes.items()))


def word_kind(word: str) -> str:
    """One word of a name, by what the finders know of it (counts only)."""
    from builder.clean.names import PARTICLES, first_names, last_names
    from builder.clean.truecase import is_english_word

    w = word.strip(".,'’\"").lower()
    case = "lower" if word.islower() else "cap"
    kind = ("particle" if w in PARTICLES else "short" if len(w) <= 3 else "census_first" if w in first_names()
            else "census_last" if w in last_names() else "english" if is_english_word(w) else "unknown")
    return f"{case}_{kind}"


# ---- main ----------------------------------------------------------------------------------------

def check_provenance(rows: list[dict], sources: dict) -> list[str]:
    """Rows whose turns (canary text taken out) are not their source dialogue's turns."""
    bad = []
    for row in rows:
        src = sources[row["source"]].get(row["source_id"])
        mine = [(t["role"], t["text"]) for t in original_turns(row)]
        if src is None or mine != [(t["role"], t["text"]) for t in src]:
            bad.append(row["id"])
    return bad


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=ROOT.parent / "shared" / "data", help="the shared data folder")
    parser.add_argument("--chitchat", type=Path, default=None,
                        help="chitchat-dataset 0.9.0 wheel or its dataset.json (else $MMRC_CHITCHAT_WHEEL)")
    parser.add_argument("--keep", type=Path, default=None, help="keep the raw/ingested/clean folders here")
    parser.add_argument("--output", type=Path, default=None,
                        help=f"where the JSON goes (default {RESULTS.name}, or *_public_figures.json with --public-figures)")
    parser.add_argument("--rules-only", action="store_true",
                        help="clean without the number-context model (--no-number-context); default output *_rules_only.json")
    parser.add_argument("--no-lower-case-names", action="store_true",
                        help="clean without the lower-case-name model; default output *_no_lower_case_names.json")
    parser.add_argument("--public-figures", type=Path, default=None,
                        help="pass clean a public-figure list (e.g. ../shared/data/people/pantheon_1_0_people.csv)")
    args = parser.parse_args()
    if args.output is None:
        suffix = (("_public_figures" if args.public_figures else "") + ("_rules_only" if args.rules_only else "")
                  + ("_no_lower_case_names" if args.no_lower_case_names else ""))
        args.output = RESULTS.with_name(RESULTS.stem + suffix + ".json")
    started = time.perf_counter()

    missing = [p for p in (args.data / OASST_FILE, args.data / TOPICAL_FILE) if not p.is_file()]
    if missing:
        print(f"skipped: {', '.join(map(str, missing))} not present (this benchmark needs ../shared/data)")
        return
    wheel = chitchat_path(args.chitchat)
    if wheel is None:
        print(f"skipped: {CHITCHAT_HELP}")
        return
    sets = {name: [json.loads(line) for line in (DATA_DIR / f"{name}.jsonl").read_text(encoding="utf-8").splitlines()]
            for name in ("labels", "canaries")}
    sources = load_sources(args.data, wheel)
    bad = {name: check_provenance(rows, sources) for name, rows in sets.items()}
    if any(bad.values()):
        sys.exit(f"rows that no longer match their source: {bad}")

    work = Path(tempfile.mkdtemp(prefix="pii-heldout-")) if args.keep is None else args.keep
    if args.keep is not None:
        shutil.rmtree(work, ignore_errors=True)
    (work / "raw").mkdir(parents=True)
    try:
        for name, rows in sets.items():
            write_native(rows, work / "raw" / f"{name}.jsonl")
        ingest_args = ["ingest", str(work / "raw"), "-o", str(work / "ingested"), "--min-turns", "2",
                       "--max-turns", "200", "--force", "--quiet"]
        clean_args = ["clean", str(work / "ingested"), "-o", str(work / "clean"), "--toxicity-backend", "lexicon",
                      "--force", "--quiet"]
        if args.public_figures:
            clean_args += ["--public-figures", str(args.public_figures.resolve())]
        if args.rules_only:
            clean_args += ["--no-number-context"]
        if args.no_lower_case_names:
            clean_args += ["--no-lower-case-names"]
        run(ingest_args)
        clean_s = run(clean_args)
        ingested, ingest_ledger = read_stage(work / "ingested")
        cleaned, clean_ledger = read_stage(work / "clean")
        clean_manifest = json.loads((work / "clean" / "manifest.json").read_text())
    finally:
        if args.keep is None:
            shutil.rmtree(work, ignore_errors=True)

    by_source_id = {json.loads(detail).get("source_id"): did for did, (_, _, detail) in ingest_ledger.items()}
    fates = {row["id"]: outcome(row, ingested, ingest_ledger, cleaned, clean_ledger, by_source_id)
             for rows in sets.values() for row in rows}
    ingest_drops = {name: dict(sorted(Counter(fates[r["id"]][1] for r in rows if fates[r["id"]][0] == "ingest_dropped").items()))
                    for name, rows in sets.items()}
    clean_drops = {name: dict(sorted(Counter(fates[r["id"]][1] for r in rows if fates[r["id"]][0] == "dropped").items()))
                   for name, rows in sets.items()}
    unaligned_turns = sum(k is None for f in fates.values() if f[0] == "kept" for k in f[2])
    n_clean = len(ingested)
    turns = sum(len(r["turns"]) for r in ingested.values())
    timings = clean_manifest.get("timings", {})
    canaries = score_canaries(sets["canaries"], fates, leaks := [], people := [])
    labels = score_labels(sets["labels"], fates, missed := [])
    alone = scan_alone({text for _, text, _, _ in leaks} | {text for _, text, *_ in people}
                       | {text for _, _, text, *_ in missed}, args.public_figures)
    result = {
        "bench": "pii_heldout",
        "split": SPLIT,
        "data": {name: {"dialogues": len(rows), "file": f"bench/pii_heldout/{name}.jsonl"} for name, rows in sets.items()},
        "provenance": {"rows_checked": sum(map(len, sets.values())), "mismatches": 0},
        "commands": {"ingest": "mmrc-build " + " ".join(ingest_args).replace(str(work), "T"),
                     "clean": "mmrc-build " + " ".join(clean_args).replace(str(work), "T").replace(
                         str(args.public_figures.resolve()) if args.public_figures else "\0", args.public_figures.name
                         if args.public_figures else "")},
        "ingest_dropped": ingest_drops,
        "clean_dropped": clean_drops,
        "unaligned_turns": unaligned_turns,
        "labels": labels,
        "must_redact_miss_causes": miss_causes(missed, alone),
        "must_redact_miss_rules": miss_rules(missed, ingested, by_source_id, args),
        "canaries": canaries,
        "canary_leak_causes": leak_causes(leaks, alone),
        "canary_person_shapes": person_shapes(people, alone),
        "canary_street_shapes": street_shapes(people, alone),
        "canary_zip_shapes": zip_shapes(people, alone),
        "throughput": {"dialogues_into_clean": n_clean, "turns_into_clean": turns, "clean_wall_s": round(clean_s, 2),
                       "dialogues_per_s_wall": round(n_clean / clean_s, 2),
                       "clean_setup_s": round(timings.get("setup_s", 0), 2),
                       "clean_process_s": round(timings.get("process_s", 0), 2),
                       "dialogues_per_s_process": round(n_clean / timings["process_s"], 2) if timings.get("process_s") else None,
                       "turns_per_s_process": round(turns / timings["process_s"], 1) if timings.get("process_s") else None,
                       "note": "wall = the whole clean command (model loading included); process = the manifest's process_s"},
        "elapsed_s": round(time.perf_counter() - started, 1),
    }
    args.output.parent.mkdir(parents=True, exist_ok=True)
    args.output.write_text(json.dumps(result, indent=2) + "\n")
    print(summary(result))
    print(f"-> {args.output}")


def summary(r: dict) -> str:
    def pct(w):
        return "n/a" if not w["n"] else f"{w['rate']:.2f} [{w['ci95'][0]:.2f}, {w['ci95'][1]:.2f}] ({w['k']}/{w['n']})"
    lines = []
    for g, s in r["labels"].items():
        lines.append(f"labels {g}: must_redact removed {pct(s['must_redact']['removed_in_surviving_dialogues'])} "
                     f"(dropped counted as removed {pct(s['must_redact']['removed_counting_dropped_as_removed'])}); "
                     f"must_keep removed {pct(s['must_keep']['removed_or_damaged_in_surviving_dialogues'])}; "
                     f"dialogues dropped {pct(s['dropped_by_clean'])}")
    for g, s in r["canaries"].items():
        lines.append(f"canaries {g}: structured leaked {pct(s['structured']['all']['leaked_in_surviving_dialogues'])}; "
                     f"PERSON recall {pct(s['PERSON']['recall_in_surviving_dialogues'])}; "
                     f"STREET recall {pct(s['STREET']['recall_in_surviving_dialogues'])}; "
                     f"half names {pct(s['PERSON']['half_names'])}; dropped {pct(s['dropped_by_clean'])}")
    t = r["throughput"]
    lines.append(f"clean: {t['dialogues_per_s_wall']} dialogues/s wall, {t['dialogues_per_s_process']} without setup")
    return "\n".join(lines)


if __name__ == "__main__":
    main()

"""Modality swap on real dialogues, judged by hand.

The real CLI path on real logs, per source: `mmrc-build ingest` -> `clean --languages en`
(lexicon toxicity) -> `swap --image-bank ../shared/data/image_bank` (Flickr8k photos, not shipped:
non-commercial terms) with ``--count 1000`` (more than the logs yield). Three sources:

* ``wildchat+oasst``: the WildChat sample + OpenAssistant trees of ../shared/data/logs (user-model chat);
* ``topical_chat``: the 539 Topical-Chat valid_freq conversations of ../shared/data/topics (human-human
  chat about articles), each written whole as one ``openai``-format JSONL line (agent_1 speaks as
  ``user``, agent_2 as ``assistant``) into a temporary raw folder, so ingest's own checks apply
  (conversations over 22 turns are dropped there, as any log would be);
* ``topical_chat_agent2``: the same conversations with the roles the other way round (agent_2 is
  the ``user``). Both partners are people writing their own turns, and swaps only touch user
  turns, so this doubles the human-written turns a swap can be tried on. It is its own run, so
  ingest's near-duplicate check never sees both role assignments together.
 Every variant is listed with the sentence before and after
the rewrite, the image file and the bank captions of that image, so a person can judge it:

* ``pass``: the rewrite reads naturally, the image shows the thing, the dialogue's later
  turns still make sense (a question about the thing is still answerable from the image);
* ``fail`` with a reason otherwise.

Verdicts live in ``bench/swap_real_labels.json`` (keyed by the variant's dialogue id, which
is a content hash: a changed rewrite is a new, unjudged variant). The bench only counts.
Runs the swap at the default threshold, at a looser one and at 0.0 (the whole score curve: the pass
share of the variants scoring at least t, for each t in CURVE, with Wilson 95% intervals).
Writes bench/results/swap_judged.json and bench/results/swap_real_variants.json (the sheet
to judge). Needs ../shared/data (skips with a message otherwise).
"""

from __future__ import annotations

import csv
import hashlib
import json
import os
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
SHARED = REPO.parent / "shared" / "data"
LABELS = HERE / "swap_real_labels.json"
COUNT = 1000  # more than the real logs yield: every variant the rules allow is made and judged
# The default (SwapConfig.threshold), a looser one, and 0.0: at 0.0 every dialogue gets the first
# candidate that a bank photo names at a score of 0 or more, so the judged pass share can be read as
# a curve over the score (CURVE) and the default checked against it. The curve filters the 0.0 run:
# a run at threshold t may pick a later candidate of a dialogue whose first one scores below t, so
# the points approximate real runs at t; the by_threshold entries are those real runs.
THRESHOLDS = (0.5, 0.40, 0.0)
CURVE = (0.5, 0.45, 0.40, 0.35, 0.30, 0.25, 0.0)


TOPICAL = SHARED / "topics" / "topical_chat_valid_freq.json"
SOURCES = ("wildchat+oasst", "topical_chat", "topical_chat_agent2")


def topical_chat_raw(folder: Path, user_agent: str = "agent_1") -> Path:
    """Topical-Chat conversations as an ``openai``-format log (one whole conversation a line);
    ``user_agent`` speaks as the user."""
    folder.mkdir(parents=True, exist_ok=True)
    log = folder / "topical_chat_valid_freq.jsonl"
    if not log.exists():
        convs = json.loads(TOPICAL.read_text())
        with open(log.with_suffix(".tmp"), "w") as f:
            for conv_id in sorted(convs):
                messages = [{"role": "user" if m["agent"] == user_agent else "assistant", "content": m["message"].strip()}
                            for m in convs[conv_id]["content"]]
                f.write(json.dumps({"id": conv_id, "messages": messages}, ensure_ascii=False) + "\n")
        log.with_suffix(".tmp").rename(log)
    return folder


def run_pipeline(work: Path, source: str, threshold: float) -> Path:
    from click.testing import CliRunner

    from builder.cli import main as cli

    os.environ.setdefault("MMRC_USER_SALT", "bench")
    if source.startswith("topical_chat"):
        raw = topical_chat_raw(work / "raw", "agent_2" if source.endswith("agent2") else "agent_1")
    else:
        raw = SHARED / "logs"  # wildchat/*.json and oasst_en_100_tree.jsonl
    runner = CliRunner()
    steps = (["ingest", str(raw), "-o", str(work / "ingested"), "--quiet"],
             ["clean", str(work / "ingested"), "-o", str(work / "clean"), "--toxicity-backend", "lexicon",
              "--languages", "en", "--device", "cpu"],
             ["swap", str(work / "clean"), "-o", str(work / f"swapped-{threshold}"), "--image-bank",
              str(SHARED / "image_bank"), "--count", str(COUNT), "--threshold", str(threshold), "--device", "cpu"])
    for args in steps:
        if (Path(args[3]) / "_SUCCESS").exists():
            continue  # a kept folder (BENCH_SWAP_REAL_KEEP) reuses finished stages
        result = runner.invoke(cli, args)
        if result.exit_code != 0:
            raise RuntimeError(f"mmrc-build {args[0]} failed: {result.output[-2000:]}")
    return work / f"swapped-{threshold}"


def bank_captions() -> dict[str, list[str]]:
    """sha256 of each bank image's bytes -> its captions (the swap re-encodes pixels, so the
    variant's image is matched by the bank file it came from through the decoded pixels)."""
    from PIL import Image

    captions: dict[str, list[str]] = {}
    with open(SHARED / "image_bank" / "captions.csv", newline="") as f:
        for row in csv.DictReader(f):
            captions.setdefault(row["image"], []).append(row["caption"])
    out = {}
    for name, caps in captions.items():
        path = SHARED / "image_bank" / "images" / name
        if not path.exists():
            path = SHARED / "image_bank" / name
        with Image.open(path) as im:
            out[hashlib.sha256(im.convert("RGB").tobytes()).hexdigest()] = caps
    return out


def variants(folder: Path) -> list[dict]:
    import polars as pl
    from PIL import Image

    from builder import io

    rows = pl.read_parquet(io.parts(folder)).to_dicts()
    by_id = {r["dialogue_id"]: r for r in rows}
    pixels = bank_captions()
    images = {p.stem: p for p in folder.rglob("*") if p.is_file() and p.suffix.lower() in (".jpg", ".jpeg", ".png")}
    out = []
    for row in sorted((r for r in rows if r["variant_of"]), key=lambda r: r["dialogue_id"]):
        original = by_id.get(row["variant_of"])
        for swap in row["swaps"] or []:
            turn = swap["turn"]
            path = images.get(swap["image_sha256"])
            caps = []
            if path:
                with Image.open(path) as im:
                    caps = pixels.get(hashlib.sha256(im.convert("RGB").tobytes()).hexdigest(), [])
            before = original["turns"][turn]["text"] if original else ""
            after = row["turns"][turn]["text"]
            later = [t["text"][:300] for t in row["turns"][turn + 1:turn + 3]]
            out.append({"variant": row["dialogue_id"], "variant_of": row["variant_of"], "turn": turn,
                        "original": swap["original"], "replacement": swap["replacement"],
                        "score": round(float(swap["score"]), 3),
                        "before": _around(before, swap["original"]), "after": _around(after, swap["replacement"]),
                        "later_turns": later, "image": str(path.relative_to(folder)) if path else None,
                        "bank_captions": caps})
    return out


def _around(text: str, needle: str, width: int = 220) -> str:
    at = text.find(needle)
    if at < 0:
        return text[:2 * width]
    return text[max(0, at - width):at + len(needle) + width]


def main() -> None:
    if not (SHARED / "logs" / "wildchat").exists() or not TOPICAL.exists() or not (SHARED / "image_bank").exists():
        print(f"skipped: needs {SHARED}/logs/wildchat, {TOPICAL} and {SHARED}/image_bank", file=sys.stderr)
        return
    keep = os.environ.get("BENCH_SWAP_REAL_KEEP")  # a folder to keep the run in (to look at the images)
    labels = json.loads(LABELS.read_text()) if LABELS.exists() else {"verdicts": {}}
    result: dict = {
        "what": f"modality-swap variants of real dialogues, per source (WildChat sample + OASST; Topical-Chat "
                f"valid_freq, human-human): ingest -> clean --languages en -> swap --image-bank "
                f"../shared/data/image_bank (Flickr8k) --count {COUNT}, judged by hand: reads naturally, image shows "
                "the thing, later turns still make sense",
        "target": 0.8, "by_source": {}, "by_threshold": {}}
    seen: dict[str, dict] = {}
    per_threshold: dict[str, list[dict]] = {str(t): [] for t in THRESHOLDS}
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(keep) if keep else Path(tmp)
        for source in SOURCES:
            work = root / source
            work.mkdir(parents=True, exist_ok=True)
            mine: dict[str, dict] = {}
            result["by_source"][source] = {"by_threshold": {}}
            for threshold in THRESHOLDS:
                folder = run_pipeline(work, source, threshold)
                found = [{**v, "source": source} for v in variants(folder)]
                report = json.loads((folder / "swap_report.json").read_text())
                result["by_source"][source]["by_threshold"][str(threshold)] = {
                    **_score(found, labels), "reasons": report.get("reasons")}
                per_threshold[str(threshold)] += found
                for v in found:
                    mine.setdefault(v["variant"], {**v, "threshold": threshold})
            result["by_source"][source]["all_variants"] = _score(list(mine.values()), labels)
            for key, v in mine.items():
                seen.setdefault(key, v)
    for threshold, found in per_threshold.items():
        result["by_threshold"][threshold] = _score(found, labels)
    result["all_variants"] = _score(list(seen.values()), labels)
    everything = per_threshold[str(min(THRESHOLDS))]
    result["curve"] = [{"min_score": t, **{k: v for k, v in _score([v for v in everything if v["score"] >= t], labels).items()
                                           if k != "unjudged"}} for t in CURVE]
    sheet = list(seen.values())
    (HERE / "results").mkdir(exist_ok=True)
    (HERE / "results" / "swap_real_variants.json").write_text(json.dumps(sheet, indent=1, ensure_ascii=False))
    (HERE / "results" / "swap_judged.json").write_text(json.dumps(result, indent=1, ensure_ascii=False))
    print(json.dumps(result, indent=1))


def _score(found: list[dict], labels: dict) -> dict:
    judged = [labels["verdicts"][v["variant"]] for v in found if v["variant"] in labels["verdicts"]]
    passed = sum(j["verdict"] == "pass" for j in judged)
    reasons: dict[str, int] = {}
    for j in judged:
        if j["verdict"] != "pass":
            reasons[j["reason"]] = reasons.get(j["reason"], 0) + 1
    from builder.eval.stats import wilson

    return {"variants": len(found), "judged": len(judged), "passed": passed,
            "pass_share": round(passed / len(judged), 3) if judged else None,
            "ci95": wilson(passed, len(judged)),
            "failures": dict(sorted(reasons.items(), key=lambda kv: -kv[1])),
            "unjudged": [v["variant"] for v in found if v["variant"] not in labels["verdicts"]]}


if __name__ == "__main__":
    main()

"""Clean-stage throughput: naive loop vs our stage vs the ceiling, side by side, plus PII P/R.

Messages: real chat messages from ../shared/data/logs (OpenAssistant) when present, else
generated ones. Detoxify's real weights cannot be downloaded here, so the toxicity model is
a randomly initialised BERT-base-shaped model in Detoxify's checkpoint format (built below
with bert-base-uncased's vocabulary): its *speed* is BERT-base's, its scores mean nothing,
and the int8 probability change measured on it is not the change on trained weights.

  naive    AnalyzerEngine().analyze per message + Detoxify.predict per message
  stage    `CleanStage` through the engine (batched nlp.pipe, recognizer skipping, length-sorted
           batched Detoxify with cache), fp32 and with --toxicity-int8, and fp32 on the same
           messages plus 50% repeats (what the content-hash cache is for)
  ceiling  bare nlp.pipe over the same pipeline (no Presidio) + bare model forward at the best
           batch size on pre-tokenized, length-sorted input; combined as 1/(1/a + 1/b)

Quality (bench/clean_quality.py): per-entity precision/recall on the development set, false
positives per 100 OpenAssistant messages, redacted spans in Topical-Chat (public figures
throughout), the WildChat by-eye precision of 100 sampled redactions (all of them when fewer),
the coherence drop rate, the toxicity false-drop rate next to ETHOS AUC.

Timed sections are best of two where the machine's load could swing them; PII detection against
bare nlp.pipe is five interleaved rounds, with each round's ratio and their median. Writes
bench/results/clean.json. ``BENCH_CLEAN_SECTIONS`` picks sections (default all:
quality,throughput,throughput_wildchat,stage; ``throughput_wildchat`` is the PII-only comparison again on 300
WildChat messages of at most one scan chunk, without the naive loop). Runs in about nine minutes on 2
shared CPU cores.
"""

from __future__ import annotations

import json
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
SHARED = ROOT.parent / "shared" / "data"
# BERT-base on 2 shared CPU cores does ~1-3 short messages/s, so the full-stage comparison uses
# a small sample of messages cut to MAX_CHARS; the PII-only comparison uses more, uncut.
N_MESSAGES = int(os.environ.get("BENCH_CLEAN_N", "24"))
MAX_CHARS = int(os.environ.get("BENCH_CLEAN_MAX_CHARS", "400"))
N_PII = int(os.environ.get("BENCH_CLEAN_N_PII", "200"))
PII_ROUNDS = int(os.environ.get("BENCH_CLEAN_PII_ROUNDS", "5"))
N_PII_WILDCHAT = int(os.environ.get("BENCH_CLEAN_N_PII_WILDCHAT", "300"))
ALL_SECTIONS = "quality,throughput,throughput_wildchat,stage"
SECTIONS = set(os.environ.get("BENCH_CLEAN_SECTIONS", ALL_SECTIONS).split(","))


def load_messages(n: int, seed: int = 0) -> tuple[list[str], str]:
    path = SHARED / "logs" / "oasst_en_100_tree.jsonl"
    if path.exists():
        texts = []
        for line in path.read_text().splitlines():
            stack = [json.loads(line)["prompt"]]
            while stack:
                node = stack.pop()
                texts.append(node["text"])
                stack.extend(node.get("replies") or [])
        random.Random(seed).shuffle(texts)
        return texts[:n], f"{path.name} ({len(texts)} messages, shuffled with seed {seed})"
    rng = random.Random(seed)
    words = "please help me plan a trip to Lisbon with my friend Anna Berg call 212 555 0187 thanks".split()
    return [" ".join(rng.choice(words) for _ in range(rng.randint(5, 120))) for _ in range(n)], "generated"


def timed(fn, *args) -> tuple[float, object]:
    t0 = time.perf_counter()
    out = fn(*args)
    return time.perf_counter() - t0, out


def naive_pii(texts) -> float:
    """Seconds for AnalyzerEngine().analyze on each message (spaCy once per message)."""
    from presidio_analyzer import AnalyzerEngine
    from presidio_analyzer.nlp_engine import SpacyNlpEngine

    from builder.clean.config import CleanConfig
    from builder.clean.recognizers import NER_PACKAGE

    engine = SpacyNlpEngine(models=[{"lang_code": "en", "model_name": NER_PACKAGE}])  # the same NER model
    analyzer = AnalyzerEngine(nlp_engine=engine, supported_languages=["en"])
    ours_only = ("STREET_ADDRESS", "ZIP_CODE", "ID_NUMBER")  # no Presidio recognizer exists for these
    entities = [e for e in CleanConfig().entities if e not in ours_only]
    analyzer.analyze(texts[0], language="en", entities=entities)  # compile regexes outside the timing
    seconds, _ = timed(lambda: [analyzer.analyze(t, language="en", entities=entities) for t in texts])
    return seconds


def pii_only(texts, with_naive: bool = True) -> dict:
    """PII detection alone, side by side: naive loop (unless ``with_naive`` is False), our batched
    detector, bare nlp.pipe."""
    from builder.clean.config import CleanConfig
    from builder.clean.pii import PiiDetector
    from builder.clean.recognizers import load_ner

    naive_s = naive_pii(texts) if with_naive else None
    detector = PiiDetector(CleanConfig())
    detector.scan(texts[:8])
    nlp = load_ner()  # the same components our detector loads
    list(nlp.pipe(texts[:8]))
    rounds = []
    for _ in range(PII_ROUNDS):  # interleaved: the machine's speed drifts by a tenth from one second to the next
        rounds.append((timed(detector.scan, texts)[0], timed(lambda: list(nlp.pipe(texts, batch_size=64)))[0]))
    ours_s, pipe_s = min(o for o, _ in rounds), min(p for _, p in rounds)
    n = len(texts)
    out = {"messages": n, "mean_chars": round(sum(map(len, texts)) / n, 1), "rounds": PII_ROUNDS,
           "ours_msgs_per_s": n / ours_s, "ceiling_nlp_pipe_msgs_per_s": n / pipe_s,
           "ours_vs_ceiling": pipe_s / ours_s,  # best against best
           "ours_vs_ceiling_each_round": [round(p / o, 3) for o, p in rounds],
           "ours_vs_ceiling_median_round": statistics.median(p / o for o, p in rounds)}
    if naive_s is not None:
        out.update(naive_msgs_per_s=n / naive_s, ours_vs_naive=naive_s / ours_s)
    return out


def load_wildchat(n: int, seed: int = 0) -> tuple[list[str], str]:
    """WildChat's messages (both roles) of at most one scan chunk (what the detector reads whole and
    bare nlp.pipe can read alike), shuffled: the corpus issue 25's throughput target names."""
    from builder.clean.config import CleanConfig
    from classifiers.context_training import wildchat_user_turns

    limit = CleanConfig().chunk_chars
    texts = [text for _, _, text in wildchat_user_turns(SHARED, limit, roles=("user", "assistant")) if text.strip()]
    random.Random(seed).shuffle(texts)
    return texts[:n], f"wildchat ({len(texts)} messages of at most {limit} characters, shuffled with seed {seed})"


def naive(texts, ckpt, hf_dir) -> dict:
    from detoxify import Detoxify

    from classifiers.toxicity.detoxify_scorer import DetoxifyScorer

    pii_s = naive_pii(texts)
    loaded = DetoxifyScorer.load(checkpoint=ckpt, hf_dir=hf_dir)
    detox = Detoxify.__new__(Detoxify)  # Detoxify's own predict(), on the same weights
    detox.model, detox.tokenizer, detox.class_names, detox.device = loaded.model, loaded.tokenizer, loaded.labels, "cpu"
    detox.predict(texts[0])
    tox_s, _ = timed(lambda: [detox.predict(t) for t in texts])
    return {"pii_msgs_per_s": len(texts) / pii_s, "toxicity_msgs_per_s": len(texts) / tox_s,
            "msgs_per_s": len(texts) / (pii_s + tox_s), "seconds": pii_s + tox_s}


def ceiling(texts, ckpt, hf_dir) -> dict:
    import spacy
    import torch

    from builder.clean.recognizers import NER_PACKAGE, load_ner
    from classifiers.toxicity.detoxify_scorer import DetoxifyScorer

    nlp = load_ner()
    list(nlp.pipe(texts[:16]))
    ner_s, _ = timed(lambda: list(nlp.pipe(texts, batch_size=64)))
    full = spacy.load(NER_PACKAGE)
    full_s, _ = timed(lambda: list(full.pipe(texts, batch_size=64)))
    out = {"ner_pipe_msgs_per_s": len(texts) / ner_s, "ner_pipe_full_pipeline_msgs_per_s": len(texts) / full_s}
    for int8 in (False, True):
        scorer = DetoxifyScorer.load(checkpoint=ckpt, hf_dir=hf_dir, quantize=int8)
        windows, _ = scorer._windows(texts)
        windows.sort(key=len)
        best = 0.0
        for batch_size in ((out["model_forward_best_batch"],) * 2 if int8 else (8, 32, 8, 32)):
            def forward():
                with torch.inference_mode():
                    for s in range(0, len(windows), batch_size):
                        chunk = windows[s:s + batch_size]
                        width = max(map(len, chunk))
                        ids = torch.zeros((len(chunk), width), dtype=torch.long)
                        mask = torch.zeros_like(ids)
                        for r, w in enumerate(chunk):
                            ids[r, :len(w)] = torch.tensor(w)
                            mask[r, :len(w)] = 1
                        scorer.model(input_ids=ids, attention_mask=mask)
            seconds, _ = timed(forward)
            if len(texts) / seconds > best:
                best, out[f"model_forward_best_batch{'_int8' if int8 else ''}"] = len(texts) / seconds, batch_size
        out[f"model_forward_msgs_per_s{'_int8' if int8 else ''}"] = best
    for suffix in ("", "_int8"):
        out[f"msgs_per_s{suffix}"] = 1 / (1 / out["ner_pipe_msgs_per_s"] + 1 / out[f"model_forward_msgs_per_s{suffix}"])
    return out


def stage(texts, ckpt, hf_dir, work: Path, int8: bool) -> dict:
    """The real stage through the engine on dialogues of 4 turns made from ``texts``."""
    from builder import io
    from builder.clean.config import CleanConfig
    from builder.clean.stage import CleanStage
    from builder.engine import run_stage
    from builder.records import dialogue_id, dialogues_frame, ledger_frame

    src = work / "in"
    if not (src / io.SUCCESS).exists():
        rows = []
        for k in range(0, len(texts), 4):
            turns = [{"index": i, "role": "user" if i % 2 == 0 else "assistant", "text": t, "images": []}
                     for i, t in enumerate(texts[k:k + 4])]
            rows.append({"dialogue_id": dialogue_id(turns), "source": "bench", "turns": turns})
        out = io.OutputFolder(src, {"bench": len(rows)}, force=True).open()
        io.write_dialogues(dialogues_frame(rows), out.path(io.PART_FMT.format(0)))
        ledger = ledger_frame([{"dialogue_id": r["dialogue_id"], "stage": "ingest", "decision": "kept",
                                "reason": "ok", "detail": {}} for r in rows])
        io.write_parquet_atomic(io.sort_ledger(ledger), out.path(io.LEDGER))
        out.commit({"stage": "ingest", "rows": io.ledger_counts(ledger, "ingest")})
    config = CleanConfig(toxicity_checkpoint=str(ckpt), toxicity_config=str(hf_dir), toxicity_int8=int8,
                         toxicity_thresholds=(("toxicity", 1.01),))  # random weights: tag only, drop nothing
    seconds, manifest = float("inf"), None
    for _ in range(2):  # best of two (a fresh stage each time: no cache carried over); the machine is shared
        manifest = run_stage(CleanStage(config), src, work / f"out-{int8}", force=True, device="cpu")
        # process_s holds the model loading (setup_s, lazily in the worker): the steady rate leaves it out
        seconds = min(seconds, manifest["timings"]["process_s"] - manifest["timings"]["setup_s"])
    return {"msgs_per_s": len(texts) / seconds, "seconds": seconds, "setup_s": manifest["timings"]["setup_s"],
            "stage_seconds": manifest["stats"]["seconds"], "rows": manifest["rows"]}


def int8_check(texts, ckpt, hf_dir) -> dict:
    from classifiers.toxicity.detoxify_scorer import DetoxifyScorer

    fp32 = DetoxifyScorer.load(checkpoint=ckpt, hf_dir=hf_dir).score(texts)
    int8 = DetoxifyScorer.load(checkpoint=ckpt, hf_dir=hf_dir, quantize=True).score(texts)
    diffs = [abs(a[k] - b[k]) for a, b in zip(fp32, int8) for k in a]
    return {"max_abs_prob_change": max(diffs), "mean_abs_prob_change": sum(diffs) / len(diffs),
            "note": "random BERT-base weights (probabilities near 0.5); trained weights may differ"}


def quality(work: Path) -> dict:
    """The quality tables (bench/clean_quality.py); each part skips when its data is absent."""
    import bench.clean_quality as q

    out: dict = {}
    dev = SHARED / "pii" / "presidio_generated_large.json"
    if dev.exists():
        out["dev_set"] = q.dev_set(dev)
    oasst_path = SHARED / "logs" / "oasst_en_100_tree.jsonl"
    if oasst_path.exists():
        out["oasst"] = q.oasst(oasst_path)
    topical = SHARED / "topics" / "topical_chat_valid_freq.json"
    if topical.exists():
        out["topical_chat"] = q.topical_chat(topical)
    wild = SHARED / "logs" / "wildchat"
    if wild.exists():
        out["wildchat"] = q.wildchat(clean_wildchat(wild, work))
    ethos = SHARED / "toxicity" / "ethos_binary.csv"
    if ethos.exists():
        out["ethos"] = q.ethos_auc(ethos)
    return out


def clean_wildchat(raw: Path, work: Path) -> Path:
    """`mmrc-build ingest` + `mmrc-build clean --toxicity-backend lexicon` on the WildChat sample."""
    from click.testing import CliRunner

    from builder.cli import main as cli

    os.environ.setdefault("MMRC_USER_SALT", "bench")
    runner = CliRunner()
    for args in (["ingest", str(raw), "-o", str(work / "wc-ingested")],
                 ["clean", str(work / "wc-ingested"), "-o", str(work / "wc-clean"), "--toxicity-backend", "lexicon",
                  "--device", "cpu"]):
        result = runner.invoke(cli, args)
        if result.exit_code != 0:
            raise RuntimeError(f"mmrc-build {args[0]} failed: {result.output}")
    return work / "wc-clean"


def main() -> None:
    out = HERE / "results" / "clean.json"
    results: dict = {}
    if out.exists() and SECTIONS != set(ALL_SECTIONS.split(",")):
        results = json.loads(out.read_text())  # a partial run keeps the other sections' numbers
    if "quality" in SECTIONS:
        with tempfile.TemporaryDirectory() as tmp:
            t0 = time.perf_counter()
            results["quality"] = quality(Path(tmp))
            print(f"quality: {time.perf_counter() - t0:.1f}s", file=sys.stderr)
    long_texts, corpus = load_messages(max(N_MESSAGES, N_PII))
    if "throughput" in SECTIONS:
        t0 = time.perf_counter()
        results["pii_only"] = pii_only(long_texts[:N_PII])
        print(f"pii_only: {time.perf_counter() - t0:.1f}s {json.dumps(results['pii_only'])}", file=sys.stderr)
    if "throughput_wildchat" in SECTIONS and (SHARED / "logs" / "wildchat").is_dir():
        t0 = time.perf_counter()
        texts, wild = load_wildchat(N_PII_WILDCHAT)
        results["pii_only_wildchat"] = {"corpus": wild, **pii_only(texts, with_naive=False)}
        print(f"pii_only_wildchat: {time.perf_counter() - t0:.1f}s {json.dumps(results['pii_only_wildchat'])}",
              file=sys.stderr)
    if "stage" in SECTIONS:
        results.update(stage_section(long_texts, corpus))
    if "pii_only" in results:
        results.setdefault("ratios", {}).update({
            "pii_ours_vs_naive": results["pii_only"]["ours_vs_naive"],
            "pii_ours_vs_ceiling": results["pii_only"]["ours_vs_ceiling"]})
    out.parent.mkdir(exist_ok=True)
    out.write_text(json.dumps(results, indent=2, sort_keys=True, default=lambda x: round(x, 4)))
    print(json.dumps({k: results[k] for k in ("ratios",) if k in results}, indent=2))
    print(f"wrote {out}")


def stage_section(long_texts: list[str], corpus: str) -> dict:
    """The full stage with a BERT-base Detoxify-format model: naive vs ours vs ceiling."""
    from classifiers.toxicity.tiny import BERT_BASE, build_checkpoint

    texts = [t[:MAX_CHARS] for t in long_texts[:N_MESSAGES]]
    # Chat logs repeat messages ("thanks!", the same pasted prompt): a third of this one are repeats.
    repeated = texts + [texts[i] for i in random.Random(1).sample(range(len(texts)), len(texts) // 2)]
    results: dict = {"corpus": corpus, "messages": len(texts), "max_chars": MAX_CHARS,
                     "mean_chars": round(sum(map(len, texts)) / len(texts), 1), "cpu_count": os.cpu_count(),
                     "toxicity_model": "random-init BERT-base (Detoxify 'original' architecture and format)"}
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        t0 = time.perf_counter()
        ckpt, hf_dir = build_checkpoint(tmp / "detoxify", shape=BERT_BASE)
        print(f"built BERT-base checkpoint in {time.perf_counter() - t0:.1f}s", file=sys.stderr)
        for name, fn in (("naive", lambda: naive(texts, ckpt, hf_dir)),
                         ("stage", lambda: stage(texts, ckpt, hf_dir, tmp / "work", False)),
                         ("stage_int8", lambda: stage(texts, ckpt, hf_dir, tmp / "work", True)),
                         ("stage_with_repeats", lambda: stage(repeated, ckpt, hf_dir, tmp / "work-rep", False)),
                         ("ceiling", lambda: ceiling(texts, ckpt, hf_dir)),
                         ("int8_probability_change", lambda: int8_check(texts[:16], ckpt, hf_dir))):
            t0 = time.perf_counter()
            results[name] = fn()
            print(f"{name}: {time.perf_counter() - t0:.1f}s {json.dumps(results[name])[:300]}", file=sys.stderr)
    naive_rate, ceil = results["naive"]["msgs_per_s"], results["ceiling"]
    results["ratios"] = {
        "stage_vs_naive": results["stage"]["msgs_per_s"] / naive_rate,
        "stage_int8_vs_naive": results["stage_int8"]["msgs_per_s"] / naive_rate,
        "stage_with_a_third_repeated_vs_naive": results["stage_with_repeats"]["msgs_per_s"] / naive_rate,
        "stage_vs_ceiling": results["stage"]["msgs_per_s"] / ceil["msgs_per_s"],
        "stage_int8_vs_ceiling_int8": results["stage_int8"]["msgs_per_s"] / ceil["msgs_per_s_int8"],
        "int8_forward_speedup": ceil["model_forward_msgs_per_s_int8"] / ceil["model_forward_msgs_per_s"],
    }
    return results


if __name__ == "__main__":
    main()

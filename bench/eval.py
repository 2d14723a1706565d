"""Eval benchmark: questions/s of the predict phase, side by side in one run.

On the demo release (``release/mmrc-v0.1.0``; ``make demo`` builds it) with a random-weight
LLaVA-style model built for the bench (``eval smoke-model --hidden 256 --layers 4``: the
weights are random, so the answers are noise; the point is the cost of the code path):

* naive: a per-question loop of ``processor.apply_chat_template`` + ``model.generate`` on the
  full prompt (what a first eval script does);
* ours: the transformers backend's default path (questions of many dialogues per generate call,
  sorted by prompt length, ``--batch-size auto``: on a CPU a fixed size), plus a sweep of batch
  sizes and the ablations (per-dialogue prefix cache at the same batch size; cross-dialogue at batch 1);
* ceiling: plain HF ``generate`` at the same batch size on the same prompts, batched the same way
  (sorted by length), no project code: the prompts encoded by the processor beforehand (generate
  only), and with that encoding timed too;
* answer mismatches of ours vs naive and vs the ceiling (greedy decoding, fp32: should be 0);
* openai backend against a local ``transformers serve`` of the same model, concurrency 16 vs 1.

Writes bench/results/eval.json.
"""

from __future__ import annotations

import argparse
import json
import os
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")


def load_groups(release: Path, limit: int, max_new: int):
    from builder.eval import prompts, source
    from builder.eval.backends import Group, Request

    ref = source.open_release(str(release), None)
    groups = []
    for dialogue in source.iter_dialogues(ref, ("default",)):
        if len(groups) >= limit:
            break
        if not dialogue.questions:
            continue
        history = prompts.history_messages(dialogue.turns)
        groups.append(Group([Request(f"{dialogue.dialogue_id}/{q['question_id']}",
                                     history + [prompts.question_message(q)], max_new)
                             for q in dialogue.questions], prefix_len=len(history)))
    return groups


def run_backend(spec, groups):
    from builder.eval.backends import make_backend

    backend = make_backend(spec)
    backend.setup() if hasattr(backend, "setup") else None
    out = {}
    start = time.perf_counter()
    backend.run(groups, lambda request, reply: out.__setitem__(request.key, reply))
    return time.perf_counter() - start, out, backend


def naive(model_dir: Path, groups):
    import torch
    from transformers import AutoModelForImageTextToText, AutoProcessor

    from builder.eval.backends.hf import TransformersBackend
    from builder.eval.backends import BackendSpec

    model = AutoModelForImageTextToText.from_pretrained(model_dir, use_safetensors=True).eval()
    processor = AutoProcessor.from_pretrained(model_dir)
    helper = TransformersBackend(BackendSpec("transformers", str(model_dir), device="cpu"))
    helper.model, helper.processor, helper.multimodal = model, processor, True
    out = {}
    start = time.perf_counter()
    with torch.inference_mode():
        for group in groups:
            for request in group.requests:
                enc = processor.apply_chat_template(helper._convert(request.messages), add_generation_prompt=True,
                                                    tokenize=True, return_dict=True, return_tensors="pt",
                                                    sanitize_control_tokens=True)
                ids = model.generate(**enc, max_new_tokens=request.max_new_tokens, do_sample=False)
                out[request.key] = processor.decode(ids[0, enc["input_ids"].shape[1]:], skip_special_tokens=True)
    return time.perf_counter() - start, out


def plain_generate(model_dir: Path, groups, batch: int) -> dict:
    """The ceiling: the same prompts through the processor and plain ``generate``, sorted by length and
    cut into batches of ``batch`` (what the backend does, without its code)."""
    import torch
    from transformers import AutoModelForImageTextToText, AutoProcessor

    from plain_batches import sorted_batches

    model = AutoModelForImageTextToText.from_pretrained(model_dir, use_safetensors=True).eval()
    processor = AutoProcessor.from_pretrained(model_dir)
    processor.tokenizer.padding_side = "left"
    chunks, encoded, t_encode = sorted_batches(processor, groups, batch)
    eos = model.generation_config.eos_token_id
    out = {}
    t0 = time.perf_counter()
    with torch.inference_mode():
        for chunk, enc in zip(chunks, encoded):
            ids = model.generate(**enc, max_new_tokens=chunk[0].max_new_tokens, do_sample=False,
                                 pad_token_id=processor.tokenizer.pad_token_id)
            for request, row in zip(chunk, ids[:, enc["input_ids"].shape[1]:].tolist()):
                stop = next((i for i, t in enumerate(row) if t == eos), len(row))
                out[request.key] = processor.decode(row[:stop], skip_special_tokens=True).strip()
    return {"generate_s": time.perf_counter() - t0, "encode_s": t_encode, "answers": out, "batches": len(chunks)}


def serve(model_dir: Path):
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    exe = Path(sys.executable).parent / "transformers"
    proc = subprocess.Popen([str(exe), "serve", str(model_dir), "--host", "127.0.0.1", "--port", str(port),
                             "--device", "cpu"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    import httpx

    url = f"http://127.0.0.1:{port}/v1"
    for _ in range(240):
        try:
            if httpx.get(f"{url}/models", timeout=2).status_code == 200:
                return proc, url
        except httpx.HTTPError:
            time.sleep(0.5)
    proc.kill()
    raise SystemExit("transformers serve did not start")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--release", type=Path, default=HERE.parent / "release" / "mmrc-v0.1.0")
    parser.add_argument("--dialogues", type=int, default=24)
    parser.add_argument("--max-new-tokens", type=int, default=32)
    parser.add_argument("--batch-size", default="auto", help="ours: a number or auto (the backend's default)")
    parser.add_argument("--sweep", type=int, nargs="*", default=[8, 32], help="ours at these batch sizes too")
    parser.add_argument("--hidden", type=int, default=256)
    parser.add_argument("--layers", type=int, default=4)
    parser.add_argument("--no-serve", action="store_true", help="skip the openai/transformers-serve part")
    args = parser.parse_args()
    args.batch_size = args.batch_size if args.batch_size == "auto" else int(args.batch_size)
    if not (args.release / "manifest.json").exists():
        raise SystemExit(f"{args.release} is missing: run `make demo` first (or pass --release)")
    import torch

    from builder.eval.backends import BackendSpec
    from builder.eval.smoke_model import build_smoke_model

    torch.set_num_threads(max(1, os.cpu_count() or 1))
    tmp = Path(tempfile.mkdtemp(prefix="mmrc-bench-eval-"))
    model_dir = build_smoke_model(tmp / "model", hidden=args.hidden, layers=args.layers)
    groups = load_groups(args.release, args.dialogues, args.max_new_tokens)
    n = sum(len(g.requests) for g in groups)
    prompt_tokens = []
    spec = lambda **kw: BackendSpec("transformers", str(model_dir), device="cpu", **kw)  # noqa: E731
    results: dict = {"release": str(args.release), "dialogues": len(groups), "questions": n,
                     "max_new_tokens": args.max_new_tokens, "batch_size": args.batch_size,
                     "model": f"random-weight LLaVA-style (hidden {args.hidden}, {args.layers} layers): answers are "
                              "noise, the cost of the code path is what is measured",
                     "cpu_threads": torch.get_num_threads()}
    t_naive, naive_out = naive(model_dir, groups)
    t_ours, ours, backend = run_backend(spec(batch_size=args.batch_size), groups)
    size = backend.stats["batch_size"]
    prompt_tokens = [r.prompt_tokens for r in ours.values()]
    ceiling = plain_generate(model_dir, groups, size)
    t_prefix, prefix, _ = run_backend(spec(batch_size=size, prefix_cache="off"), groups)
    t_one, one, _ = run_backend(spec(batch_size=1), groups)
    sweep = {}
    for b in args.sweep:
        t_b, out_b, _ = run_backend(spec(batch_size=b), groups)
        sweep[f"batch_{b}"] = {"qps": round(n / t_b, 2), "mismatches": sum(out_b[k].text != ours[k].text for k in ours)}
    qps = lambda t: round(n / t, 2)  # noqa: E731
    t_ceiling, t_ceiling_enc = ceiling["generate_s"], ceiling["generate_s"] + ceiling["encode_s"]
    results["transformers"] = {
        "naive_per_question_generate_qps": qps(t_naive),
        "ours_qps": qps(t_ours), "ours_path": backend.stats["path"], "ours_prefix_rule": backend.stats["prefix_rule"],
        "ours_batch_size": size, "ours_batch_size_rule": backend.stats["batch_size_rule"],
        "ceiling_plain_generate_same_batches_qps": qps(t_ceiling),
        "ceiling_plain_generate_with_encoding_qps": qps(t_ceiling_enc),
        "ours_over_naive": round(t_naive / t_ours, 2),
        "ceiling_over_naive": round(t_naive / t_ceiling, 2),
        "ours_share_of_ceiling": round(t_ceiling / t_ours, 3),
        "ours_share_of_ceiling_with_encoding": round(t_ceiling_enc / t_ours, 3),
        "ablation_prefix_cache_off_cross_dialogue_same_batch_qps": qps(t_prefix),
        "ablation_cross_dialogue_batch1_qps": qps(t_one),
        "batch_size_sweep": sweep,
        "answer_mismatch_vs_naive": f"{sum(1 for k, text in naive_out.items() if ours[k].text != text.strip())}/{n}",
        "answer_mismatch_vs_ceiling": f"{sum(1 for k, text in ceiling['answers'].items() if ours[k].text != text)}/{n}",
        "ablation_mismatches": {"prefix_cache_off": sum(prefix[k].text != ours[k].text for k in ours),
                                "batch1": sum(one[k].text != ours[k].text for k in ours)},
        "mean_prompt_tokens": round(sum(prompt_tokens) / len(prompt_tokens), 1),
        "backend_stats": backend.stats,
    }
    print(json.dumps(results["transformers"], indent=2))
    if not args.no_serve:
        proc, url = serve(model_dir)
        try:
            api = lambda c: BackendSpec("openai", str(model_dir), base_url=url, concurrency=c)  # noqa: E731
            sub = groups[: max(2, len(groups) // 2)]
            m = sum(len(g.requests) for g in sub)
            run_backend(api(4), sub[:1])  # warm-up
            t1, out1, _ = run_backend(api(1), sub)
            t16, out16, _ = run_backend(api(16), sub)
            results["openai_transformers_serve"] = {
                "questions": m, "concurrency_1_qps": round(m / t1, 2), "concurrency_16_qps": round(m / t16, 2),
                "speedup_16_over_1": round(t1 / t16, 2),
                "answer_mismatch_16_vs_1": f"{sum(out1[k].text != out16[k].text for k in out1)}/{m}",
                "answer_mismatch_vs_in_process": f"{sum(out1[k].text != ours[k].text for k in out1)}/{m}",
                "note": "transformers serve without continuous batching answers one request at a time on 2 CPU "
                        "cores; on vLLM/SGLang concurrency feeds their continuous batching",
            }
            print(json.dumps(results["openai_transformers_serve"], indent=2))
        finally:
            proc.terminate()
            proc.wait(timeout=30)
    out = HERE / "results" / "eval.json"
    out.parent.mkdir(exist_ok=True)
    out.write_text(json.dumps(results, indent=2) + "\n")
    print(f"wrote {out}")


if __name__ == "__main__":
    main()

"""GPU eval check (driven by bench/gpu_eval.sh): a LLaVA-1.5-7B-shaped random model through the
transformers backend's paths, beside plain ``generate`` on the same prompts as the ceiling.

Built on the device in bf16, no download: Llama-2-7B text shape (4096 hidden, 32 layers, 32 heads,
11008 MLP, 32k vocabulary) and a CLIP ViT-L/14-336 tower (576 image tokens per image), a BPE
tokenizer trained on the release's text, saved as safetensors and loaded by the project's backend.
Random weights: the special tokens' logits are zeroed so no answer ends early; every answer runs
to the cap, so rates are upper bounds of decode work (a real model stops earlier).

Runs, on the demo release's questions (``default`` config):
  batch1         --batch-size 1 (the per-question loop)
  prefix         --prefix-cache on (one dialogue's questions per generate call)
  cross          the default: cross-dialogue batches, --batch-size auto (from free GPU memory)
  compiled       cross + --compile (static KV cache, torch.compile; the first batch includes compiling)
  ceiling        plain HF generate at cross's batch size on the same prompts, sorted the same way,
                 encoded beforehand (no project code)
Writes $RESULT (bench/results/gpu_eval.json on CUDA) after every run: a killed check keeps what it
measured. Every size is an environment variable (see ``SHAPE``), so DEVICE=cpu with tiny shapes
checks the script itself on a CPU machine.
"""

from __future__ import annotations

import gc
import json
import os
import sys
import tempfile
import time
import traceback
from dataclasses import replace
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
T0 = time.time()
DEVICE = os.environ.get("DEVICE", "cuda")
DEADLINE = T0 + float(os.environ.get("BUDGET_S", "330"))
PAPER_QUESTIONS = 28720  # MMRC: questions in the full benchmark
SHAPE = {k: int(os.environ.get(k, v)) for k, v in dict(HIDDEN=4096, LAYERS=32, HEADS=32, INTER=11008, VOCAB=32000,
                                                       VISION_LAYERS=24, MAX_NEW=256, B1_QUESTIONS=2,
                                                       CROSS_BATCHES=2, DIALOGUES=83).items()}
VISION = os.environ.get("VISION", "clip-vit-l-14-336")  # or "tiny" (CPU self-check)
RESULT = Path(os.environ.get("RESULT") or (HERE / "results" / "gpu_eval.json" if DEVICE.startswith("cuda")
                                           else Path(tempfile.gettempdir()) / "gpu_eval.cpu.json"))
DOC: dict = {"device": DEVICE, "dtype": "bfloat16" if DEVICE.startswith("cuda") else "float32", "shape": SHAPE,
             "vision": VISION, "answer_cap": SHAPE["MAX_NEW"], "runs": {}}


def log(msg: str) -> None:
    print(f"[+{time.time() - T0:5.1f}s] {msg}", flush=True)


def save() -> None:
    DOC["elapsed_s"] = round(time.time() - T0, 1)
    RESULT.parent.mkdir(parents=True, exist_ok=True)
    RESULT.write_text(json.dumps(DOC, indent=2, default=str) + "\n")


def sync() -> None:
    import torch

    if DEVICE.startswith("cuda"):
        torch.cuda.synchronize()


def load_groups(release: Path) -> list:
    from builder.eval import prompts, source
    from builder.eval.backends import Group, Request

    ref = source.open_release(str(release), os.environ.get("REVISION") or None)
    groups = []
    for dialogue in source.iter_dialogues(ref, ("default",)):
        if len(groups) >= SHAPE["DIALOGUES"]:
            break
        if dialogue.questions:
            history = prompts.history_messages(dialogue.turns)
            groups.append(Group([Request(f"{dialogue.dialogue_id}/{q['question_id']}",
                                         history + [prompts.question_message(q)], SHAPE["MAX_NEW"])
                                 for q in dialogue.questions], prefix_len=len(history)))
    return groups


def build_model(folder: Path, groups: list) -> dict:
    """The 7B-shaped random LLaVA (see the module docstring), saved to ``folder``."""
    import torch
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers, trainers
    from transformers import (CLIPImageProcessor, CLIPVisionConfig, GenerationConfig, LlamaConfig, LlavaConfig,
                              LlavaForConditionalGeneration, LlavaProcessor, PreTrainedTokenizerFast)

    from builder.eval.smoke_model import CHAT_TEMPLATE

    texts = [p["text"] for g in groups for r in g.requests[:1] for m in r.messages for p in m["content"]
             if p["type"] == "text"]
    specials = ["<pad>", "<s>", "</s>", "<unk>", "<image>"]
    bpe = Tokenizer(models.BPE(unk_token="<unk>"))
    bpe.pre_tokenizer, bpe.decoder = pre_tokenizers.Metaspace(), decoders.Metaspace()
    bpe.train_from_iterator(texts, trainers.BpeTrainer(vocab_size=min(4000, SHAPE["VOCAB"]), special_tokens=specials,
                                                       initial_alphabet=[chr(c) for c in range(32, 127)],
                                                       show_progress=False))
    tokenizer = PreTrainedTokenizerFast(tokenizer_object=bpe, bos_token="<s>", eos_token="</s>", pad_token="<pad>",
                                        unk_token="<unk>", extra_special_tokens={"image_token": "<image>"})
    if VISION == "clip-vit-l-14-336":
        vision = CLIPVisionConfig(hidden_size=1024, intermediate_size=4096, num_hidden_layers=SHAPE["VISION_LAYERS"],
                                  num_attention_heads=16, image_size=336, patch_size=14, projection_dim=768)
    else:
        vision = CLIPVisionConfig(hidden_size=32, intermediate_size=64, num_hidden_layers=2, num_attention_heads=2,
                                  image_size=32, patch_size=8, projection_dim=32)
    text = LlamaConfig(vocab_size=SHAPE["VOCAB"], hidden_size=SHAPE["HIDDEN"], intermediate_size=SHAPE["INTER"],
                       num_hidden_layers=SHAPE["LAYERS"], num_attention_heads=SHAPE["HEADS"],
                       num_key_value_heads=SHAPE["HEADS"], max_position_embeddings=8192,
                       pad_token_id=tokenizer.pad_token_id, bos_token_id=tokenizer.bos_token_id,
                       eos_token_id=tokenizer.eos_token_id)
    config = LlavaConfig(vision_config=vision, text_config=text, vision_feature_select_strategy="default",
                         image_token_id=tokenizer.convert_tokens_to_ids("<image>"), vision_feature_layer=-2)
    torch.manual_seed(0)
    t = time.perf_counter()
    dtype = torch.bfloat16 if DEVICE.startswith("cuda") else torch.float32
    with torch.device(DEVICE):
        model = LlavaForConditionalGeneration._from_config(config, dtype=dtype).eval()
    with torch.no_grad():  # special tokens' logits stay 0 while the others spread: answers never end early
        model.get_output_embeddings().weight[[tokenizer.convert_tokens_to_ids(s) for s in specials]] = 0
    sync()
    init_s = time.perf_counter() - t
    model.generation_config = GenerationConfig(do_sample=False, eos_token_id=tokenizer.eos_token_id,
                                               pad_token_id=tokenizer.pad_token_id, bos_token_id=tokenizer.bos_token_id)
    processor = LlavaProcessor(
        image_processor=CLIPImageProcessor(size={"shortest_edge": vision.image_size},
                                           crop_size={"height": vision.image_size, "width": vision.image_size}),
        tokenizer=tokenizer, patch_size=vision.patch_size, vision_feature_select_strategy="default",
        num_additional_image_tokens=1, chat_template=CHAT_TEMPLATE)
    t = time.perf_counter()
    model.save_pretrained(folder)
    processor.save_pretrained(folder)
    info = {"parameters": sum(p.numel() for p in model.parameters()), "init_s": round(init_s, 1),
            "save_s": round(time.perf_counter() - t, 1), "image_tokens_per_image": (vision.image_size // 14) ** 2
            if VISION != "tiny" else (vision.image_size // vision.patch_size) ** 2,
            "weights_gib": round(sum(p.stat().st_size for p in folder.glob("*.safetensors")) / 2**30, 2)}
    del model
    gc.collect()
    if DEVICE.startswith("cuda"):
        torch.cuda.empty_cache()
    return info


def timed(backend, groups: list) -> dict:
    """One run of the backend over ``groups``: generate time, rates and the backend's own stats."""
    import torch

    before = {k: v for k, v in backend.stats.items() if isinstance(v, int) and not isinstance(v, bool)}
    answers = {}
    if DEVICE.startswith("cuda"):
        torch.cuda.reset_peak_memory_stats()
    sync()
    t = time.perf_counter()
    backend.run(groups, lambda request, reply: answers.__setitem__(request.key, reply))
    sync()
    seconds = time.perf_counter() - t
    stats = {k: (v - before[k] if k in before else v) for k, v in backend.stats.items()}
    n = sum(r.status == "ok" for r in answers.values())
    out = {"questions": n, "statuses": sorted({r.status for r in answers.values()}), "generate_s": round(seconds, 2),
           "questions_per_s": round(n / seconds, 3), "ms_per_step": round(1000 * seconds / max(1, stats["batches"])
                                                                         / SHAPE["MAX_NEW"], 1),
           "hours_for_28720": round(seconds / max(1, n) * PAPER_QUESTIONS / 3600, 2),
           "completion_tokens_mean": round(sum(r.completion_tokens or 0 for r in answers.values()) / max(1, n), 1),
           "stats": stats}
    if DEVICE.startswith("cuda"):
        out["peak_gib"] = round(torch.cuda.max_memory_allocated() / 2**30, 1)
    return out | {"_answers": {k: r.text for k, r in answers.items()}}


def ceiling(backend, groups: list, batch: int) -> dict:
    """Plain ``processor`` + ``model.generate`` on the same prompts, sorted by length, ``batch`` rows a call."""
    import torch

    from plain_batches import sorted_batches

    model, processor = backend.model, backend.processor
    chunks, encoded, encode_s = sorted_batches(processor, groups, batch)
    requests = [r for chunk in chunks for r in chunk]
    sync()
    t = time.perf_counter()
    with torch.inference_mode():
        for enc in encoded:
            model.generate(**enc.to(DEVICE), max_new_tokens=SHAPE["MAX_NEW"], min_new_tokens=SHAPE["MAX_NEW"],
                           do_sample=False, pad_token_id=processor.tokenizer.pad_token_id)
    sync()
    seconds = time.perf_counter() - t
    n = len(requests)
    return {"questions": n, "batch_size": batch, "batches": len(encoded), "generate_s": round(seconds, 2),
            "encode_s": round(encode_s, 2), "questions_per_s": round(n / seconds, 3),
            "ms_per_step": round(1000 * seconds / len(encoded) / SHAPE["MAX_NEW"], 1),
            "hours_for_28720": round(seconds / n * PAPER_QUESTIONS / 3600, 2)}


def take(groups: list, questions: int) -> list:
    """The first groups holding at least ``questions`` questions (the last one cut to fit)."""
    out, n = [], 0
    for group in groups:
        if n >= questions:
            break
        keep = group.requests[: questions - n]
        out.append(replace(group, requests=keep))
        n += len(keep)
    return out


def main() -> int:
    import torch

    from builder.eval.backends import BackendSpec
    from builder.eval.backends.hf import TransformersBackend

    release = Path(sys.argv[1] if len(sys.argv) > 1 else HERE.parent / "release" / "mmrc-v0.1.0")
    if DEVICE.startswith("cuda"):
        DOC["device"] = torch.cuda.get_device_name(0)
    DOC["versions"] = {"torch": torch.__version__, "transformers": __import__("transformers").__version__}
    groups = load_groups(release)
    log(f"{len(groups)} dialogues, {sum(len(g.requests) for g in groups)} questions")
    work = Path(os.environ.get("WORK") or tempfile.mkdtemp(prefix="mmrc-gpu-eval-"))
    folder = work / "llava-7b-shaped-random"
    DOC["model"] = build_model(folder, groups)
    log(f"model built and saved: {DOC['model']}")
    save()
    # cross-dialogue batches unless a run asks for the prefix path (auto would pick it on a CPU)
    spec = BackendSpec("transformers", str(folder), device=DEVICE, dtype=DOC["dtype"], batch_size="auto",
                       prefix_cache="off").validate()
    base = TransformersBackend(spec)
    t = time.perf_counter()
    base.setup()
    DOC["load_s"] = round(time.perf_counter() - t, 1)
    rows = base.plan.rows if base.plan.token_budget is None else None
    DOC["batch_plan"] = base.plan.describe()
    log(f"loaded in {DOC['load_s']}s; batch plan {DOC['batch_plan']}")
    save()
    warm = TransformersBackend(replace(spec, batch_size=2))
    warm.share_model(base)
    timed(warm, take(groups, 2))  # CUDA context, kernels: not reported
    runs = DOC["runs"]
    cross_groups = None
    plan = [("batch1", dict(batch_size=1), lambda: take(groups, SHAPE["B1_QUESTIONS"])),
            ("prefix", dict(prefix_cache="on"), lambda: groups[:1]),
            ("cross", dict(), lambda: cross_groups),
            ("ceiling", None, lambda: cross_groups),
            ("compiled", dict(compile=True), lambda: cross_groups)]
    answers = {}
    for name, changes, chosen in plan:
        if time.time() > DEADLINE - 20:
            runs[name] = {"skipped": "time budget spent"}
            continue
        try:
            if name == "cross":
                rows = rows or _rows_for(base, groups)
                cross_groups = take(groups, rows * SHAPE["CROSS_BATCHES"])
            if changes is None:
                runs[name] = ceiling(base, chosen(), runs["cross"]["stats"]["rows_max"])
            else:
                backend = TransformersBackend(replace(spec, **changes))
                backend.share_model(base)
                result = timed(backend, chosen())
                answers[name] = result.pop("_answers")
                runs[name] = result
        except Exception as exc:  # noqa: BLE001 - report it and go on to the next run
            runs[name] = {"error": f"{type(exc).__name__}: {str(exc)[:400]}", "traceback": traceback.format_exc()[-1500:]}
        log(f"{name}: {json.dumps({k: v for k, v in runs[name].items() if k not in ('stats', 'traceback')})}")
        save()
    summarise(runs, answers)
    save()
    log(f"wrote {RESULT}")
    return 0


def _rows_for(backend, groups: list) -> int:
    """Rows of one full cross-dialogue batch under the token budget, at the questions' median prompt length."""
    from builder.eval.backends import batching

    lengths = sorted(backend._encode([r.messages])["input_ids"].shape[1] for g in groups[:12] for r in g.requests)
    return len(batching.batches([lengths[len(lengths) // 2]] * backend.plan.rows, SHAPE["MAX_NEW"], backend.plan)[0])


def summarise(runs: dict, answers: dict) -> None:
    qps = {name: r.get("questions_per_s") for name, r in runs.items() if r.get("questions_per_s")}
    DOC["questions_per_s"] = qps
    if qps.get("cross") and qps.get("batch1"):
        DOC["cross_over_batch1"] = round(qps["cross"] / qps["batch1"], 2)
    if qps.get("cross") and qps.get("ceiling"):
        DOC["cross_share_of_ceiling"] = round(qps["cross"] / qps["ceiling"], 3)
    shared = set(answers.get("cross", {})) & set(answers.get("batch1", {}))
    if shared:
        DOC["answer_mismatch_cross_vs_batch1"] = f"{sum(answers['cross'][k] != answers['batch1'][k] for k in shared)}/" \
                                                 f"{len(shared)}" + ("" if DOC["dtype"] == "float32" else " (bf16 kernels differ by batch shape)")
    DOC["projection_hours_for_28720"] = {name: r["hours_for_28720"] for name, r in runs.items() if "hours_for_28720" in r}
    DOC["note"] = ("random weights: every answer runs to the cap, so these are upper bounds of decode work; generate "
                   "time only (model build, save and load reported apart); compiled's first batch includes compiling")


if __name__ == "__main__":
    sys.exit(main())

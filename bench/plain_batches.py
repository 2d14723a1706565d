"""The ceiling's input, shared by bench/eval.py and bench/gpu_eval.py: a backend's requests through
the processor's chat template alone, sorted by prompt length and cut into batches of ``batch``
rows, left-padded (what the transformers backend does, without its code)."""

from __future__ import annotations

import io
import time


def _convert(messages: list[dict]) -> list[dict]:
    from PIL import Image

    return [{"role": m["role"], "content": [{"type": "image", "image": Image.open(io.BytesIO(p["bytes"])).convert("RGB")}
                                            if p["type"] == "image" else {"type": "text", "text": p["text"]}
                                            for p in m["content"]]} for m in messages]


def sorted_batches(processor, groups: list, batch: int) -> tuple[list[list], list, float]:
    """(requests per batch, their encodings, seconds the batch encoding took)."""

    def encode(conversations):
        return processor.apply_chat_template(conversations, add_generation_prompt=True, tokenize=True,
                                             return_dict=True, return_tensors="pt", sanitize_control_tokens=True,
                                             processor_kwargs={"padding": True})

    requests = [r for g in groups for r in g.requests]
    lengths = [encode([_convert(r.messages)])["input_ids"].shape[1] for r in requests]
    order = sorted(range(len(requests)), key=lambda i: lengths[i])
    chunks = [[requests[i] for i in order[start:start + batch]] for start in range(0, len(order), batch)]
    started = time.perf_counter()
    encoded = [encode([_convert(r.messages) for r in chunk]) for chunk in chunks]
    return chunks, encoded, time.perf_counter() - started

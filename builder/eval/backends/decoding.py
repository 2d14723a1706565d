"""How the transformers backend decodes: the generation config (greedy, or the model's own sampling
settings) and generated rows back to text, cut at the first end-of-sequence token."""

from __future__ import annotations

import copy

from builder.eval.backends import clean_text


def generation_config(model, tokenizer, spec, max_new_tokens: int):
    """Greedy (the default), or the model's own generation settings (``--generation
    model-default``, as MMRC ran each model) with --temperature / --top-p overrides; sampling
    is seeded before every generate call."""
    config = copy.deepcopy(model.generation_config)
    if spec.generation == "greedy":
        config.do_sample = False
        config.temperature = config.top_p = config.top_k = None
        config.num_beams = 1
    else:
        if spec.temperature is not None:
            config.temperature = spec.temperature
            config.do_sample = spec.temperature > 0
        if spec.top_p is not None:
            config.top_p = spec.top_p
        if config.do_sample:
            import torch

            torch.manual_seed(spec.seed)
    config.max_new_tokens = max_new_tokens
    config.pad_token_id = tokenizer.pad_token_id
    return config


def decode(model, tokenizer, rows, limits: list[int]) -> list[tuple[str, int, str]]:
    """(text, new tokens, finish_reason) per row: cut at the first end-of-sequence token."""
    eos = model.generation_config.eos_token_id
    eos = set(eos if isinstance(eos, list) else [eos] if eos is not None else [])
    out = []
    for row, limit in zip(rows, limits):
        ids = row.tolist()[:limit]
        stop = next((i for i, t in enumerate(ids) if t in eos), None)
        if stop is not None:
            ids = ids[:stop]
        text = clean_text(tokenizer.decode(ids, skip_special_tokens=True).strip())
        out.append((text, len(ids), "stop" if stop is not None else "length"))
    return out

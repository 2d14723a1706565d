"""``--prefix-cache on`` in the transformers backend: one dialogue's questions on its encoded history.

The golden history is encoded once (one forward pass with its images) and its KV cache reused for every
question of the group, batched with the padding between the cached prefix and each question. Used only
when the chat template renders the history as an exact token prefix of each full prompt (checked per
group: ``prefix_unstable`` counts the others, which join the cross-dialogue pool). It measured slower on
a GPU than cross-dialogue batching (one dialogue per generate call), hence off by default.
"""

from __future__ import annotations

import copy

from builder.eval.backends import Group, Reply


def run_prefixed(backend, group: Group, ready, on_reply) -> bool:
    """Encode ``group``'s shared history once, then answer every question of ``ready`` ((request, messages,
    dropped, encoding) each) on top of its KV cache in batches of the backend's plan. False, with nothing
    generated, when the chat template does not render the history as an exact token prefix of every prompt."""
    import torch
    from transformers import DynamicCache

    prefix = backend._encode([ready[0][1][: group.prefix_len]], generation_prompt=False)
    prefix_ids = prefix["input_ids"][0]
    size = prefix_ids.shape[0]
    for _, _, _, enc in ready:
        ids = enc["input_ids"][0]
        if ids.shape[0] <= size or not torch.equal(ids[:size], prefix_ids):
            backend.stats["prefix_unstable"] += 1
            return False
    backend.stats["prefix_groups"] += 1
    cache = backend.model(**prefix.to(backend.device), use_cache=True,
                          cache=DynamicCache(config=backend.model.config.get_text_config())).cache
    pad = backend.tokenizer.pad_token_id
    step = backend.plan.rows
    for start in range(0, len(ready), step):
        chunk = ready[start:start + step]
        tails = [enc["input_ids"][0][size:] for _, _, _, enc in chunk]
        width = max(t.shape[0] for t in tails)
        ids = torch.stack([torch.cat([prefix_ids, torch.full((width - t.shape[0],), pad), t]) for t in tails])
        mask = torch.stack([torch.cat([torch.ones(size, dtype=torch.long),
                                       torch.zeros(width - t.shape[0], dtype=torch.long),
                                       torch.ones(t.shape[0], dtype=torch.long)]) for t in tails])
        batch_cache = copy.deepcopy(cache)
        batch_cache.batch_repeat_interleave(len(chunk))
        limits = [request.max_new_tokens for request, *_ in chunk]
        out = backend.model.generate(input_ids=ids.to(backend.device), attention_mask=mask.to(backend.device),
                                     cache=batch_cache, generation_config=backend._generation_config(max(limits)))
        backend.stats["batches"] += 1
        for (request, _, _, full), (text, n, finish) in zip(chunk, backend._decode(out[:, ids.shape[1]:], limits)):
            backend.stats["generated"] += 1
            on_reply(request, Reply("ok", text, int(full["input_ids"].shape[1]), n, finish))
    return True

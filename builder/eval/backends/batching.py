"""Cross-dialogue batching for in-process generation: which questions share a ``generate`` call.

Questions of many dialogues are pooled, sorted by prompt length and cut into batches, so a batch
holds prompts of about one length (little padding) whatever dialogue they come from. A batch is
capped by a question count (``--batch-size N``, or a fixed CPU size for ``auto``) and, with
``--batch-size auto`` on CUDA, by a token budget drawn from free accelerator memory: the KV cache
of every row (prompt + answer cap) must fit in it.
"""

from __future__ import annotations

from dataclasses import dataclass

CPU_AUTO_BATCH = 16  # --batch-size auto on a CPU: measured in bench/eval.py (2 cores, smoke model)
MAX_AUTO_BATCH = 256  # --batch-size auto on CUDA never puts more rows than this in one generate call
MEMORY_SHARE = 0.7  # of the free accelerator memory after loading, what the batches' KV caches may use
POOL_BATCHES = 8  # questions pooled before batching: this many batches' worth (longer pools pad less)


@dataclass(frozen=True)
class BatchPlan:
    """How many rows a generate call may hold: at most ``rows`` and, when ``token_budget`` is set, no more
    than fit ``rows x (longest prompt + answer cap) <= token_budget``."""

    rows: int
    token_budget: int | None = None
    rule: str = "fixed"

    def describe(self) -> dict:
        out = {"batch_size": self.rows, "batch_size_rule": self.rule}
        if self.token_budget is not None:
            out["token_budget"] = self.token_budget
        return out


def kv_bytes_per_token(text_config, dtype_bytes: int) -> int:
    """Bytes one token's keys and values take over all layers (grouped-query heads counted once)."""
    heads = text_config.num_attention_heads
    kv_heads = getattr(text_config, "num_key_value_heads", None) or heads
    head_dim = getattr(text_config, "head_dim", None) or text_config.hidden_size // heads
    return 2 * text_config.num_hidden_layers * kv_heads * head_dim * dtype_bytes


def activation_bytes_per_token(text_config, dtype_bytes: int) -> int:
    """Transient bytes one prompt token needs during prefill (one layer's MLP and residual streams)."""
    intermediate = getattr(text_config, "intermediate_size", None) or 4 * text_config.hidden_size
    return (3 * intermediate + 4 * text_config.hidden_size) * dtype_bytes


def plan_for(requested: int | str, device: str, text_config=None, dtype_bytes: int = 4,
             free_bytes: int | None = None) -> BatchPlan:
    """The batch plan of ``--batch-size`` on ``device``: a number as given; ``auto`` on CUDA from the
    free memory (``free_bytes``, from ``torch.cuda.mem_get_info``) and the model's bytes per token,
    on anything else :data:`CPU_AUTO_BATCH` rows."""
    if requested != "auto":
        return BatchPlan(int(requested), None, "fixed (--batch-size)")
    if not device.startswith("cuda") or free_bytes is None or text_config is None:
        return BatchPlan(CPU_AUTO_BATCH, None, f"auto: fixed {CPU_AUTO_BATCH} rows off CUDA")
    per_token = kv_bytes_per_token(text_config, dtype_bytes) + activation_bytes_per_token(text_config, dtype_bytes)
    budget = int(free_bytes * MEMORY_SHARE) // per_token
    return BatchPlan(MAX_AUTO_BATCH, budget,
                     f"auto: {MEMORY_SHARE:.0%} of {free_bytes / 2**30:.1f} GiB free on {device} at "
                     f"{per_token} bytes per token (KV + prefill activations), at most {MAX_AUTO_BATCH} rows")


def batches(lengths: list[int], answer_cap: int, plan: BatchPlan) -> list[list[int]]:
    """Indices into ``lengths`` (prompt tokens) cut into batches: sorted by length (stable, so equal
    lengths keep their order), each batch within ``plan``. A prompt too long for the budget on its
    own still gets a batch of one (the model's context was checked before)."""
    order = sorted(range(len(lengths)), key=lambda i: lengths[i])
    out: list[list[int]] = []
    current: list[int] = []
    for i in order:
        rows = len(current) + 1
        fits = rows <= plan.rows and (plan.token_budget is None
                                      or rows * (lengths[i] + answer_cap) <= plan.token_budget)
        if current and not fits:
            out.append(current)
            current = []
        current.append(i)
    if current:
        out.append(current)
    return out


def pad_left(encodings: list[dict], pad_id: int, multiple: int = 1):
    """One batch from single-prompt encodings (each ``[1, length]`` ids): ids and attention mask padded
    on the left (what the processor's own padding does), per-token tensors of the same length padded
    with 0, everything else (pixel values, image sizes or grids) concatenated in order. The width is
    rounded up to ``multiple`` (a compiled model sees fewer shapes)."""
    import torch

    width = -(-max(e["input_ids"].shape[1] for e in encodings) // multiple) * multiple
    keys = list(dict.fromkeys(key for e in encodings for key in e))
    out: dict = {}
    for key in keys:
        per_token = all(key in e and torch.is_tensor(e[key]) and tuple(e[key].shape) == tuple(e["input_ids"].shape)
                        for e in encodings)
        if per_token:
            fill = pad_id if key == "input_ids" else 0
            out[key] = torch.cat([torch.cat([torch.full((1, width - e[key].shape[1]), fill, dtype=e[key].dtype),
                                             e[key]], dim=1) for e in encodings])
            continue
        values = [e[key] for e in encodings if key in e]  # a prompt without images has no pixel values
        if not all(torch.is_tensor(v) for v in values) or key in ("input_ids", "attention_mask"):
            raise ValueError(f"cannot batch the processor output {key!r} ({type(values[0]).__name__})")
        out[key] = torch.cat(values)
    return out

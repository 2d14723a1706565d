"""``--compile``: a static KV cache and ``torch.compile`` of the decode step (transformers'
``generate`` compiles the model's forward for decoding when the cache is static and a compile
config is set; the prefill runs uncompiled). Off by default.

What ran is always recorded (``{"compiled": true, ...}`` or ``{"compiled": false, "why": ...}``)
and a model or machine that cannot compile is said in one line on stderr, never silently.
"""

from __future__ import annotations

import shutil
import sys

PROMPT_WIDTH_MULTIPLE = 64  # compiled batches pad prompts to a multiple of this: fewer shapes, fewer recompiles


def unsupported(model, device: str) -> str | None:
    """Why this model cannot take the compiled path here, or None when it can."""
    import torch

    if not getattr(model, "_can_compile_fullgraph", False):
        return (f"{type(model).__name__} does not support a static cache under torch.compile (transformers marks it "
                "_can_compile_fullgraph = False)")
    quantizer = getattr(model, "hf_quantizer", None)
    if quantizer is not None and not quantizer.is_compileable:
        return "its quantized weights cannot be compiled"
    if not torch._dynamo.is_dynamo_supported():
        return f"torch {torch.__version__} has no TorchDynamo on this Python"
    if not device.startswith("cuda") and not (shutil.which("c++") or shutil.which("g++") or shutil.which("cc")):
        return "torch.compile on a CPU needs a C++ compiler and none is on PATH"
    return None


def enable(model, device: str) -> dict:
    """Set the model up for the compiled path, or say why not; the dict goes into the backend's stats."""
    why = unsupported(model, device)
    if why is not None:
        return disabled(why)
    from transformers import CompileConfig

    on_cuda = device.startswith("cuda")
    config = CompileConfig(fullgraph=False, dynamic=False, mode="reduce-overhead" if on_cuda else "default")
    if not on_cuda:  # transformers compiles only on accelerators unless told
        config._compile_all_devices = True  # type: ignore[assignment]  # transformers declares this flag as None
    model.generation_config.cache_implementation = "static"
    model.generation_config.compile_config = config
    return {"compiled": True, "cache": "static", "compile_mode": config.mode,
            "prompt_width_multiple": PROMPT_WIDTH_MULTIPLE}


def disable(model, why: str) -> dict:
    """Back to the dynamic cache, uncompiled (the first compiled generate failed)."""
    model.generation_config.cache_implementation = None
    model.generation_config.compile_config = None
    return disabled(why)


def disabled(why: str) -> dict:
    print(f"--compile: running uncompiled: {why}", file=sys.stderr, flush=True)
    return {"compiled": False, "why": why}

"""The ``transformers`` backend: AutoModelForImageTextToText + AutoProcessor chat template.

- Greedy decoding, left padding. By default questions of many dialogues share a generate call:
  pooled, sorted by prompt length and batched (``batching.py``; ``--batch-size N|auto``), each
  prompt encoded once and the batch padded from those encodings.
- ``--prefix-cache on``: a dialogue's questions share its encoded golden history instead
  (``prefix_cache.py``; off by default: it measured slower on a GPU).
- ``stats`` says which path ran, the batch size chosen and why, batches and padding.
- A prompt longer than the context is ``context_overflow`` (never truncated), unless the
  spec's overflow policy is ``truncate-history``.
- Weights load only from safetensors (``model_folder.py``), never with remote code unless asked;
  decoding in ``decoding.py``.
"""

from __future__ import annotations

import importlib.metadata
import io
from typing import Any, Callable, Iterable

from builder.errors import ConfigError, ModelError, require
from builder.eval.backends import BackendSpec, Group, Reply, Request, batching, drop_oldest, static_compile
from builder.eval.backends import decoding, prefix_cache
from builder.eval.backends.model_folder import check_safe_weights, resolve_model_folder
from builder.models import no_loading_bars

__all__ = ["TransformersBackend", "check_safe_weights", "resolve_model_folder"]


class TransformersBackend:
    name = "transformers"
    pools_groups = True  # run() takes a lazy stream of groups and batches questions across them

    def __init__(self, spec: BackendSpec):
        self.spec = spec
        self.folder = resolve_model_folder(spec.model)
        check_safe_weights(self.folder)
        # transformers' Auto* classes: the model and its processor (or tokenizer), set by setup()
        self.model: Any = None
        self.processor: Any = None
        self.multimodal: bool | None = None
        self.device: str | None = None  # resolved by identity() or setup()
        self.context: int | None = None  # set by setup()
        self._identity: dict[str, Any] | None = None
        self.plan: batching.BatchPlan | None = None
        self.width_multiple = 1  # prompts padded to a multiple of this (the compiled path: fewer shapes)
        self.stats: dict[str, Any] = {"path": None, "prefix_rule": None,
                                      "batches": 0, "generated": 0, "rows_max": 0, "prompt_tokens": 0,
                                      "padding_tokens": 0, "prefix_groups": 0, "prefix_unstable": 0, "compiled": False}

    # -- identity -------------------------------------------------------------------------
    def identity(self) -> dict:
        """What decides the answers (the cache key): weights, resolved device kind and dtype, policy."""
        import torch

        from builder.devices import resolve_device
        from builder.io import sha256_json
        from builder.models import folder_fingerprint

        if self._identity is None:
            self.device = self.device or resolve_device(self.spec.device)
            self._identity = {"backend": self.name, "model": self.spec.model,
                              "weights_sha256": sha256_json(folder_fingerprint(self.folder)),
                              "device": self.device.split(":")[0], "dtype": str(self._dtype(torch)).split(".")[-1],
                              "overflow": self.spec.overflow, "context_length": self.spec.context_length,
                              "transformers": importlib.metadata.version("transformers")}
            if self.spec.trust_remote_code:  # the folder's own code decides the answers too
                self._identity["trust_remote_code"] = True
            if self.spec.load_in_4bit:
                self._identity["load_in_4bit"] = "nf4, bfloat16 compute"
        return self._identity

    def fingerprint(self) -> dict:
        from builder.eval.smoke_model import SMOKE_NOTE, is_smoke_model

        info = {**self.identity(), "folder": str(self.folder)}
        if is_smoke_model(self.folder):
            info["smoke_model"] = SMOKE_NOTE
        return info

    # -- loading --------------------------------------------------------------------------
    def setup(self) -> None:
        if self.model is not None:
            return
        require("torch")
        import torch
        import transformers
        from safetensors import SafetensorError
        from transformers.models.auto.modeling_auto import MODEL_FOR_IMAGE_TEXT_TO_TEXT_MAPPING_NAMES

        from builder.devices import resolve_device

        self.device = self.device or resolve_device(self.spec.device)
        remote = self.spec.trust_remote_code
        config = transformers.AutoConfig.from_pretrained(self.folder, trust_remote_code=remote)
        dtype = self._dtype(torch)
        kwargs = dict(dtype=dtype, use_safetensors=True, trust_remote_code=remote, local_files_only=True)
        if self.spec.load_in_4bit:
            kwargs.update(self._four_bit(torch, transformers))
        try:
            with no_loading_bars():
                if config.model_type in MODEL_FOR_IMAGE_TEXT_TO_TEXT_MAPPING_NAMES or remote:
                    image_text = config.model_type in MODEL_FOR_IMAGE_TEXT_TO_TEXT_MAPPING_NAMES
                    auto = transformers.AutoModelForImageTextToText if image_text else transformers.AutoModel
                    self.model = auto.from_pretrained(self.folder, **kwargs)
                    self.processor = transformers.AutoProcessor.from_pretrained(self.folder, local_files_only=True,
                                                                                trust_remote_code=remote)
                    self.multimodal = True
                else:
                    self.model = transformers.AutoModelForCausalLM.from_pretrained(self.folder, **kwargs)
                    self.processor = transformers.AutoTokenizer.from_pretrained(self.folder, local_files_only=True)
                    self.multimodal = False
        except (OSError, ValueError, SafetensorError) as exc:
            first = (str(exc).splitlines() or [type(exc).__name__])[0][:300]
            raise ModelError(f"could not load {self.folder} with transformers ({type(exc).__name__}: {first}); check "
                             "that its weights are complete safetensors files") from None
        if not self.spec.load_in_4bit:  # a quantized model is placed by its device_map
            self.model.to(self.device)
        self.model.eval()
        self.tokenizer.padding_side = "left"
        if self.tokenizer.pad_token_id is None:
            self.tokenizer.pad_token = self.tokenizer.eos_token
        text_config = self.model.config.get_text_config()
        self.context = self.spec.context_length or getattr(text_config, "max_position_embeddings", None)
        if not self.context:
            raise ModelError(f"{self.folder} does not say its context length; pass --context-length N")
        self._configure()

    def _configure(self) -> None:
        """The batch plan (from free memory once the weights are in place) and the compiled path, if asked."""
        import torch

        device = self._device
        free = torch.cuda.mem_get_info(torch.device(device))[0] if device.startswith("cuda") else None
        self.plan = batching.plan_for(self.spec.batch_size, device, self.model.config.get_text_config(),
                                      self.model.dtype.itemsize, free)
        self.stats.update(self.plan.describe())
        if self.spec.compile:
            self.stats.update(static_compile.enable(self.model, device))
            if self.stats["compiled"]:
                self.width_multiple = static_compile.PROMPT_WIDTH_MULTIPLE

    def share_model(self, other: "TransformersBackend") -> None:
        """Run on ``other``'s loaded model (same folder) with this spec's batching and compile settings: a
        bench compares paths without loading the weights twice. The model's generation config is shared."""
        if other.folder != self.folder or other.model is None:
            raise ConfigError("share_model needs a loaded backend of the same model folder")
        self.model, self.processor, self.multimodal = other.model, other.processor, other.multimodal
        self.device, self.context = other.device, other.context
        self._configure()

    def _four_bit(self, torch, transformers) -> dict:
        """4-bit weights (bitsandbytes NF4, bfloat16 compute): CUDA only, an optional extra."""
        if not self._device.startswith("cuda"):
            raise ConfigError("--load-in-4bit needs a CUDA device (bitsandbytes); the CPU cannot load 4-bit weights: "
                              "drop --load-in-4bit or run with --device cuda")
        require("bitsandbytes", "'mmrc-build[quant]' (bitsandbytes, CUDA only)")
        config = transformers.BitsAndBytesConfig(load_in_4bit=True, bnb_4bit_quant_type="nf4",
                                                 bnb_4bit_compute_dtype=torch.bfloat16)
        return {"quantization_config": config, "device_map": {"": self.device}}

    def _dtype(self, torch):
        names = {"float32": torch.float32, "bfloat16": torch.bfloat16, "float16": torch.float16}
        if self.spec.dtype == "auto":
            if self._device.startswith("cuda") and torch.cuda.is_bf16_supported():
                return torch.bfloat16
            return torch.float32
        if self.spec.dtype not in names:
            raise ConfigError(f"unknown dtype {self.spec.dtype!r}; available: auto, {', '.join(names)}")
        return names[self.spec.dtype]

    @property
    def _device(self) -> str:
        assert self.device is not None, "the device is resolved by identity() or setup() first"
        return self.device

    @property
    def tokenizer(self):
        return getattr(self.processor, "tokenizer", self.processor)

    # -- messages -> model inputs ---------------------------------------------------------------
    def _convert(self, messages: list[dict]) -> list[dict]:
        from PIL import Image

        out = []
        for message in messages:
            if not self.multimodal:
                if any(p["type"] == "image" for p in message["content"]):
                    raise ConfigError(f"{self.spec.model} is a text-only model and this request has images; "
                                      "use an image-text-to-text model")
                out.append({"role": message["role"], "content": "".join(p["text"] for p in message["content"])})
                continue
            content = []
            for part in message["content"]:
                if part["type"] == "image":
                    content.append({"type": "image", "image": Image.open(io.BytesIO(part["bytes"])).convert("RGB")})
                else:
                    content.append({"type": "text", "text": part["text"]})
            out.append({"role": message["role"], "content": content})
        return out

    def _encode(self, conversations: list[list[dict]], generation_prompt: bool = True):
        """Token ids (+ pixel values) of one or several conversations, left-padded.

        Control tokens written in dialogue text (a literal ``<image>`` or ``<|im_end|>`` in a chat
        log) are encoded as plain text, so a user turn can neither fake an image nor end a turn.
        """
        batch = [self._convert(c) for c in conversations]
        kwargs = dict(add_generation_prompt=generation_prompt, tokenize=True, return_dict=True,
                      return_tensors="pt", sanitize_control_tokens=True)
        if len(batch) > 1:
            if self.multimodal:
                kwargs["processor_kwargs"] = {"padding": True}
            else:
                kwargs["padding"] = True
        return self.processor.apply_chat_template(batch if len(batch) > 1 else batch[0], **kwargs)

    # -- generation -------------------------------------------------------------------------------
    def _generation_config(self, max_new_tokens: int):
        return decoding.generation_config(self.model, self.tokenizer, self.spec, max_new_tokens)

    def _decode(self, rows, limits: list[int]) -> list[tuple[str, int, str]]:
        return decoding.decode(self.model, self.tokenizer, rows, limits)

    def run(self, groups: Iterable[Group], on_reply: Callable[[Request, Reply], None]) -> None:
        """Questions of many dialogues pooled, sorted by prompt length and batched (the default), or
        with ``--prefix-cache on`` each dialogue's questions on its encoded history."""
        self.setup()
        import torch

        assert self.plan is not None  # setup() made it
        pool: list[tuple] = []
        with torch.inference_mode():
            for group in groups:
                ready = []
                for request in group.requests:
                    try:
                        fitted = self._fit(request)
                    except ConfigError:
                        raise
                    except Exception as exc:  # noqa: BLE001 - a template or image this prompt cannot pass
                        fitted = Reply("prompt_error", error=f"{type(exc).__name__}: {str(exc)[:300]}")
                    if isinstance(fitted, Reply):
                        on_reply(request, fitted)
                    else:
                        ready.append((request, *fitted))
                use_prefix = (self._prefix_on() and group.prefix_len > 0 and len(ready) > 1
                              and all(item[2] == 0 for item in ready))
                if use_prefix and prefix_cache.run_prefixed(self, group, ready, on_reply):
                    continue
                pool.extend(ready)
                if len(pool) >= batching.POOL_BATCHES * self.plan.rows:
                    pool = self._run_batches(pool, on_reply, keep_last=True)
            if pool:
                self._run_batches(pool, on_reply, keep_last=False)

    def _prefix_on(self) -> bool:
        """Per-dialogue prefix reuse: ``on``/``off`` as asked; ``auto`` turns it on where prefill
        dominates (CPU: bench/results/eval.json measured 17.8 q/s with it against 10.5 without, same
        answers) and off on CUDA (the issue's H200 run: 0.33 q/s with it, 0.52 without)."""
        if self.stats["path"] is None:
            mode = self.spec.prefix_cache
            on = mode == "on" or (mode == "auto" and not str(self.device).startswith("cuda"))
            self.stats["path"] = "per-dialogue-prefix" if on else "cross-dialogue"
            self.stats["prefix_rule"] = mode if mode != "auto" else (
                "auto: on off CUDA (prefill-bound)" if on else "auto: off on CUDA (cross-dialogue batches)")
        return self.stats["path"] == "per-dialogue-prefix"

    def _fit(self, request: Request):
        """(messages, dropped, encoding) that fit the context, or a context_overflow reply."""
        messages, dropped = request.messages, 0
        while True:
            enc = self._encode([messages])
            length = enc["input_ids"].shape[1]
            if length + request.max_new_tokens <= self.context:
                return messages, dropped, enc
            if self.spec.overflow != "truncate-history" or (cut := drop_oldest(messages)) is None:
                return Reply("context_overflow", prompt_tokens=int(length),
                             error=f"{length} prompt + {request.max_new_tokens} new tokens > context {self.context}")
            messages, n = cut
            dropped += n

    def _run_batches(self, items, on_reply, keep_last: bool) -> list:
        """Generate the pooled questions in length-sorted batches; with ``keep_last`` the last batch (the
        longest prompts) goes back to the pool to be joined by prompts of its length still to come."""
        lengths = [enc["input_ids"].shape[1] for *_, enc in items]
        cap = max(request.max_new_tokens for request, *_ in items)
        assert self.plan is not None  # setup() made it
        planned = batching.batches(lengths, cap, self.plan)
        kept = planned.pop() if keep_last else []
        for indices in planned:
            self._generate([items[i] for i in indices], on_reply)
        return [items[i] for i in kept]

    def _generate(self, chunk, on_reply) -> None:
        encodings = [enc for *_, enc in chunk]
        batch = batching.pad_left(encodings, self.tokenizer.pad_token_id, multiple=self.width_multiple)
        width = batch["input_ids"].shape[1]
        limits = [request.max_new_tokens for request, *_ in chunk]
        inputs = {k: v.to(self.device) for k, v in batch.items()}
        try:
            out = self.model.generate(**inputs, generation_config=self._generation_config(max(limits)))
        except Exception as exc:  # noqa: BLE001 - only the compiled path falls back, and says so
            if not self.stats["compiled"]:
                raise
            self.stats.update(static_compile.disable(self.model, f"the compiled generate failed ({type(exc).__name__}: "
                                                                 f"{str(exc).splitlines()[0][:200] if str(exc) else ''})"))
            self.width_multiple = 1
            return self._generate(chunk, on_reply)
        if self.stats["compiled"] and not hasattr(self.model, "_compiled_call"):  # generate chose not to compile
            self.stats.update(static_compile.disable(self.model, "transformers' generate did not compile the decode "
                                                                 "step (its auto-compile criteria were not met)"))
            self.width_multiple = 1
        lengths = [e["input_ids"].shape[1] for e in encodings]
        self.stats["batches"] += 1
        self.stats["rows_max"] = max(self.stats["rows_max"], len(chunk))
        self.stats["prompt_tokens"] += sum(lengths)
        self.stats["padding_tokens"] += width * len(chunk) - sum(lengths)
        for (request, _, dropped, _), length, (text, n, finish) in zip(chunk, lengths,
                                                                       self._decode(out[:, width:], limits)):
            self.stats["generated"] += 1
            on_reply(request, Reply("ok", text, int(length), n, finish, truncated_messages=dropped))

    def close(self) -> None:
        self.model = self.processor = None

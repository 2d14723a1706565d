"""The ``transformers`` backend: AutoModelForImageTextToText + AutoProcessor chat template.

- Greedy decoding, left padding. By default questions of many dialogues share a generate call:
  pooled, sorted by prompt length and batched (``batching.py``; ``--batch-size N|auto``), each
  prompt encoded once and the batch padded from those encodings.
- ``--prefix-cache on``: a dialogue's questions share its golden history instead: the history is
  encoded once (one forward pass with its images) and its KV cache is reused for every question of
  the group, batched with the padding between the cached prefix and each question. This is used
  only when the chat template renders the history as an exact token prefix of each full prompt
  (checked per group; otherwise the group joins the cross-dialogue pool, counted in ``stats``).
  It measured slower on a GPU (one dialogue per generate call), hence off by default.
- ``stats`` says which path ran, the batch size chosen and why, batches and padding.
- A prompt longer than the context is ``context_overflow`` (never truncated), unless the
  spec's overflow policy is ``truncate-history``.
- Weights load only from safetensors, never with remote code.
"""

from __future__ import annotations

import copy
import importlib.metadata
import io
from pathlib import Path
from typing import Callable, Iterable

from builder.errors import ConfigError, ModelError, require
from builder.eval.backends import BackendSpec, Group, Reply, Request, batching, clean_text, drop_oldest, static_compile


def resolve_model_folder(name_or_path: str) -> Path:
    """A local folder, or a Hub id already in the local Hugging Face cache (nothing is downloaded)."""
    path = Path(name_or_path).expanduser()
    if path.is_dir():
        return path
    try:
        from huggingface_hub import snapshot_download

        return Path(snapshot_download(name_or_path, local_files_only=True))
    except Exception:  # noqa: BLE001 - any failure means: not available offline
        raise ModelError(f"model {name_or_path!r} is not a folder and not in the local Hugging Face cache; "
                         "download it on a machine with internet (`hf download ID`) or pass its folder") from None


def check_safe_weights(folder: Path) -> None:
    if not any(folder.glob("*.safetensors")):
        found = sorted(p.name for p in folder.iterdir() if p.suffix in (".bin", ".pt", ".pth", ".ckpt"))
        raise ModelError(f"{folder} has no .safetensors weights{' (only ' + ', '.join(found) + ')' if found else ''}; "
                         "pickled weights are never loaded: convert them to safetensors first")


class TransformersBackend:
    name = "transformers"
    pools_groups = True  # run() takes a lazy stream of groups and batches questions across them

    def __init__(self, spec: BackendSpec):
        self.spec = spec
        self.folder = resolve_model_folder(spec.model)
        check_safe_weights(self.folder)
        self.model = self.processor = None
        self.multimodal = None
        self.device = None
        self._identity = None
        self.plan: batching.BatchPlan | None = None
        self.width_multiple = 1  # prompts padded to a multiple of this (the compiled path: fewer shapes)
        self.stats = {"path": "per-dialogue-prefix" if spec.prefix_cache == "on" else "cross-dialogue",
                      "batches": 0, "generated": 0, "rows_max": 0, "prompt_tokens": 0, "padding_tokens": 0,
                      "prefix_groups": 0, "prefix_unstable": 0, "compiled": False}

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
            if config.model_type in MODEL_FOR_IMAGE_TEXT_TO_TEXT_MAPPING_NAMES or remote:
                auto = (transformers.AutoModelForImageTextToText
                        if config.model_type in MODEL_FOR_IMAGE_TEXT_TO_TEXT_MAPPING_NAMES else transformers.AutoModel)
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

        free = torch.cuda.mem_get_info(torch.device(self.device))[0] if self.device.startswith("cuda") else None
        self.plan = batching.plan_for(self.spec.batch_size, self.device, self.model.config.get_text_config(),
                                      self.model.dtype.itemsize, free)
        self.stats.update(self.plan.describe())
        if self.spec.compile:
            self.stats.update(static_compile.enable(self.model, self.device))
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
        if not self.device.startswith("cuda"):
            raise ConfigError("--load-in-4bit needs a CUDA device (bitsandbytes); the CPU cannot load 4-bit weights: "
                              "drop --load-in-4bit or run with --device cuda")
        require("bitsandbytes", "'mmrc-build[quant]' (bitsandbytes, CUDA only)")
        config = transformers.BitsAndBytesConfig(load_in_4bit=True, bnb_4bit_quant_type="nf4",
                                                 bnb_4bit_compute_dtype=torch.bfloat16)
        return {"quantization_config": config, "device_map": {"": self.device}}

    def _dtype(self, torch):
        names = {"float32": torch.float32, "bfloat16": torch.bfloat16, "float16": torch.float16}
        if self.spec.dtype == "auto":
            if self.device.startswith("cuda") and torch.cuda.is_bf16_supported():
                return torch.bfloat16
            return torch.float32
        if self.spec.dtype not in names:
            raise ConfigError(f"unknown dtype {self.spec.dtype!r}; available: auto, {', '.join(names)}")
        return names[self.spec.dtype]

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
        """Greedy (the default), or the model's own generation settings (``--generation
        model-default``, as MMRC ran each model) with --temperature / --top-p overrides; sampling
        is seeded before every generate call."""
        config = copy.deepcopy(self.model.generation_config)
        if self.spec.generation == "greedy":
            config.do_sample = False
            config.temperature = config.top_p = config.top_k = None
            config.num_beams = 1
        else:
            if self.spec.temperature is not None:
                config.temperature = self.spec.temperature
                config.do_sample = self.spec.temperature > 0
            if self.spec.top_p is not None:
                config.top_p = self.spec.top_p
            if config.do_sample:
                import torch

                torch.manual_seed(self.spec.seed)
        config.max_new_tokens = max_new_tokens
        config.pad_token_id = self.tokenizer.pad_token_id
        return config

    def _decode(self, rows, limits: list[int]) -> list[tuple[str, int, str]]:
        """(text, new tokens, finish_reason) per row: cut at the first end-of-sequence token."""
        eos = self.model.generation_config.eos_token_id
        eos = set(eos if isinstance(eos, list) else [eos] if eos is not None else [])
        out = []
        for row, limit in zip(rows, limits):
            ids = row.tolist()[:limit]
            stop = next((i for i, t in enumerate(ids) if t in eos), None)
            if stop is not None:
                ids = ids[:stop]
            text = clean_text(self.tokenizer.decode(ids, skip_special_tokens=True).strip())
            out.append((text, len(ids), "stop" if stop is not None else "length"))
        return out

    def run(self, groups: Iterable[Group], on_reply: Callable[[Request, Reply], None]) -> None:
        """Questions of many dialogues pooled, sorted by prompt length and batched (the default), or
        with ``--prefix-cache on`` each dialogue's questions on its encoded history."""
        self.setup()
        import torch

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
                use_prefix = (self.spec.prefix_cache == "on" and group.prefix_len > 0 and len(ready) > 1
                              and all(item[2] == 0 for item in ready))
                if use_prefix and self._run_prefixed(group, ready, on_reply):
                    continue
                pool.extend(ready)
                if len(pool) >= batching.POOL_BATCHES * self.plan.rows:
                    pool = self._run_batches(pool, on_reply, keep_last=True)
            if pool:
                self._run_batches(pool, on_reply, keep_last=False)

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

    def _run_prefixed(self, group: Group, ready, on_reply) -> bool:
        """Encode the shared history once, then every question on top of its KV cache."""
        import torch
        from transformers import DynamicCache

        prefix = self._encode([ready[0][1][: group.prefix_len]], generation_prompt=False)
        prefix_ids = prefix["input_ids"][0]
        size = prefix_ids.shape[0]
        for _, _, _, enc in ready:
            ids = enc["input_ids"][0]
            if ids.shape[0] <= size or not torch.equal(ids[:size], prefix_ids):
                self.stats["prefix_unstable"] += 1
                return False
        self.stats["prefix_groups"] += 1
        cache = self.model(**prefix.to(self.device), cache=DynamicCache(config=self.model.config.get_text_config()),
                           use_cache=True).cache
        pad = self.tokenizer.pad_token_id
        step = self.plan.rows
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
            out = self.model.generate(input_ids=ids.to(self.device), attention_mask=mask.to(self.device),
                                      cache=batch_cache, generation_config=self._generation_config(max(limits)))
            self.stats["batches"] += 1
            for (request, _, _, full), (text, n, finish) in zip(chunk, self._decode(out[:, ids.shape[1]:], limits)):
                self.stats["generated"] += 1
                on_reply(request, Reply("ok", text, int(full["input_ids"].shape[1]), n, finish))
        return True

    def close(self) -> None:
        self.model = self.processor = None

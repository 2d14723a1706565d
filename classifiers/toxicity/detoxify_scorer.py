"""Detoxify, loaded the way Detoxify loads itself, but offline and without pickle.

Detoxify's own ``load_checkpoint`` calls ``torch.load(weights_only=False)`` and fetches
the Hugging Face config of the base model from the Hub. Here the checkpoint is read
with ``weights_only=True`` (tensors and plain containers only) and handed to Detoxify's
``get_model_and_tokenizer`` with a local config/tokenizer folder, so the real
architecture and label mapping code runs unchanged.

Where the checkpoint comes from, in order: an explicit path; ``$MMRC_MODELS/detoxify/
<variant>.ckpt``; the normal download (only when the Hub is reachable and the user did
not ask for offline mode), cached in the models folder. Otherwise: a ModelError naming
the fixes.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from builder.errors import ConfigError, ModelError, require
from builder.io import sha256_file
from builder.models import folder_fingerprint, models_dir
from classifiers.toxicity.cache import ScoreCache

# Detoxify's own renames, applied to the class names stored in checkpoints.
LABEL_RENAMES = {"toxic": "toxicity", "identity_hate": "identity_attack", "severe_toxic": "severe_toxicity"}


@dataclass(frozen=True)
class DetoxifySource:
    variant: str
    checkpoint: Path
    hf_dir: Path
    how: str  # "explicit" | "models folder" | "downloaded"


def _offline() -> bool:
    return any(os.environ.get(v, "") not in ("", "0", "false") for v in ("HF_HUB_OFFLINE", "MMRC_OFFLINE"))


def _missing_message(variant: str, looked: list[Path]) -> str:
    folder = models_dir() / "detoxify"
    return (
        f"no Detoxify checkpoint for {variant!r} (looked at {', '.join(map(str, looked))}); "
        f"pass --toxicity-checkpoint PATH.ckpt with --toxicity-config DIR (the base model's HF config + tokenizer), "
        f"or put {variant}.ckpt and the config folder under {folder} (see `mmrc-build models`), "
        "or run on a machine with internet without HF_HUB_OFFLINE, "
        "or choose an offline backend explicitly with --toxicity-backend lexicon"
    )


def resolve_source(variant: str, checkpoint: Path | None = None, hf_dir: Path | None = None,
                   allow_download: bool = True) -> DetoxifySource:
    import detoxify.detoxify as dx

    if variant not in dx.MODEL_URLS:
        raise ConfigError(f"unknown Detoxify variant {variant!r}; available: {', '.join(dx.MODEL_URLS)}")
    folder = models_dir() / "detoxify"
    if checkpoint is not None:
        checkpoint = Path(checkpoint).expanduser()
        if not checkpoint.is_file():
            raise ModelError(f"Detoxify checkpoint {checkpoint} does not exist; check --toxicity-checkpoint")
        how = "explicit"
    else:
        checkpoint = folder / f"{variant}.ckpt"
        how = "models folder"
        if not checkpoint.is_file():
            if not allow_download or _offline():
                raise ModelError(_missing_message(variant, [checkpoint]))
            checkpoint = _download(variant, folder)
            how = "downloaded"
    return DetoxifySource(variant, checkpoint, _hf_dir(checkpoint, hf_dir, folder, how == "downloaded"), how)


def _download(variant: str, folder: Path) -> Path:
    """Detoxify's normal download, kept in the models folder (then loaded without pickle)."""
    import torch
    import detoxify.detoxify as dx

    folder.mkdir(parents=True, exist_ok=True)
    target = folder / f"{variant}.ckpt"
    try:
        torch.hub.download_url_to_file(dx.MODEL_URLS[variant], str(target.with_suffix(".part")))
    except Exception as exc:
        raise ModelError(f"{_missing_message(variant, [target])} (download failed: {exc})") from exc
    target.with_suffix(".part").replace(target)
    return target


def _hf_dir(checkpoint: Path, explicit: Path | None, folder: Path, may_download: bool) -> Path:
    base = _arch_args(_read_checkpoint(checkpoint))["model_type"]
    if explicit is not None:
        if not (Path(explicit) / "config.json").is_file():
            raise ModelError(f"{explicit} has no config.json; --toxicity-config must be the base model's "
                             f"Hugging Face folder ({base}: config.json + tokenizer files)")
        return Path(explicit)
    for candidate in (checkpoint.parent / base, folder / base):
        if (candidate / "config.json").is_file():
            return candidate
    if may_download and not _offline():
        import transformers

        target = folder / base
        args = _arch_args(_read_checkpoint(checkpoint))
        getattr(transformers, args["model_name"]).config_class.from_pretrained(base).save_pretrained(target)
        getattr(transformers, args["tokenizer_name"]).from_pretrained(base).save_pretrained(target)
        return target
    raise ModelError(
        f"no Hugging Face config/tokenizer folder for {base!r} beside {checkpoint} or in {folder}; "
        f"pass --toxicity-config DIR (save it once on a machine with internet: "
        f"`AutoConfig/AutoTokenizer.from_pretrained('{base}').save_pretrained(DIR)`)"
    )


_CHECKPOINTS: dict[Path, dict] = {}


def _read_checkpoint(path: Path) -> dict:
    """torch.load with weights_only=True: tensors and plain containers, never arbitrary objects."""
    path = Path(path).resolve()
    if path not in _CHECKPOINTS:
        import pickle

        import torch

        try:
            loaded = torch.load(path, map_location="cpu", weights_only=True)
        except (pickle.UnpicklingError, RuntimeError, EOFError) as exc:
            raise ModelError(f"{path} is not a loadable Detoxify checkpoint with weights_only=True "
                             f"(refusing to unpickle arbitrary objects): {str(exc).splitlines()[0]}") from exc
        if not isinstance(loaded, dict) or "config" not in loaded or "state_dict" not in loaded:
            raise ModelError(f"{path} is not in Detoxify's format (a dict with 'config' and 'state_dict')")
        _CHECKPOINTS.clear()
        _CHECKPOINTS[path] = loaded
    return _CHECKPOINTS[path]


def _arch_args(loaded: dict) -> dict:
    try:
        return dict(loaded["config"]["arch"]["args"])
    except (KeyError, TypeError) as exc:
        raise ModelError("Detoxify checkpoint has no config.arch.args (model_type, model_name, ...)") from exc


class DetoxifyScorer:
    """Batched, length-sorted, chunked (max over windows), cached Detoxify scoring."""

    name = "detoxify"

    def __init__(self, model, tokenizer, labels: list[str], source: DetoxifySource, *, device: str,
                 quantized: bool, batch_size: int, max_length: int, checkpoint_sha256: str):
        self.model, self.tokenizer, self.labels = model, tokenizer, labels
        self.source, self.device, self.quantized = source, device, quantized
        self.batch_size, self.max_length = batch_size, max_length
        self.checkpoint_sha256 = checkpoint_sha256
        self.cache = ScoreCache(f"{checkpoint_sha256}:{quantized}:{max_length}:{device.split(':')[0]}")

    @classmethod
    def load(cls, variant: str = "original", checkpoint: Path | None = None, hf_dir: Path | None = None,
             device: str = "cpu", quantize: bool = False, batch_size: int = 32, max_length: int = 512,
             allow_download: bool = True) -> "DetoxifyScorer":
        require("detoxify", "detoxify")
        from detoxify.detoxify import get_model_and_tokenizer

        if quantize and device != "cpu":
            raise ConfigError("--toxicity-int8 is a CPU optimisation; drop it or use --device cpu")
        source = resolve_source(variant, checkpoint, hf_dir, allow_download)
        loaded = _read_checkpoint(source.checkpoint)
        args = _arch_args(loaded)
        args["model_type"] = str(source.hf_dir)  # the local folder stands in for the Hub name
        try:
            model, tokenizer = get_model_and_tokenizer(
                **args, state_dict=loaded["state_dict"], huggingface_config_path=str(source.hf_dir)
            )
        except (OSError, ValueError, AttributeError) as exc:
            raise ModelError(f"cannot build Detoxify model from {source.checkpoint} + {source.hf_dir}: "
                             f"{str(exc).splitlines()[0]}; check that the config folder matches the checkpoint") from exc
        labels = [LABEL_RENAMES.get(c, c) for c in loaded["config"]["dataset"]["args"]["classes"]]
        _require_all_weights(model, loaded["state_dict"], source.checkpoint)
        _CHECKPOINTS.clear()  # the model holds its own copy of the weights now
        model.eval().to(device)
        if quantize:
            model = _quantize_int8(model)
        return cls(model, tokenizer, labels, source, device=device, quantized=quantize, batch_size=batch_size,
                   max_length=min(max_length, getattr(tokenizer, "model_max_length", max_length) or max_length),
                   checkpoint_sha256=sha256_file(source.checkpoint))

    def describe(self) -> dict:
        return {
            "name": f"detoxify-{self.source.variant}",
            "version": _detoxify_version(),
            "source": self.source.how,
            "int8": self.quantized,
            "max_length": self.max_length,
            "files": {self.source.checkpoint.name: self.checkpoint_sha256,
                      **{f"{self.source.hf_dir.name}/{k}": v for k, v in folder_fingerprint(self.source.hf_dir).items()}},
        }

    # -- scoring -------------------------------------------------------------
    def score(self, texts: list[str]) -> list[dict[str, float]]:
        results: list[dict[str, float] | None] = [self.cache.get(t) for t in texts]
        todo = sorted({t for t, r in zip(texts, results) if r is None})
        fresh = dict(zip(todo, self._score_uncached(todo))) if todo else {}
        for text, scores in fresh.items():
            self.cache.put(text, scores)
        return [r if r is not None else fresh[t] for t, r in zip(texts, results)]

    def _score_uncached(self, texts: list[str]) -> list[dict[str, float]]:
        import torch

        windows, owner = self._windows(texts)
        order = sorted(range(len(windows)), key=lambda i: len(windows[i]))
        best = torch.zeros((len(texts), len(self.labels)))
        pad = self.tokenizer.pad_token_id or 0
        with torch.inference_mode():
            for start in range(0, len(order), self.batch_size):
                batch = order[start:start + self.batch_size]
                width = max(len(windows[i]) for i in batch)
                ids = torch.full((len(batch), width), pad, dtype=torch.long)
                mask = torch.zeros((len(batch), width), dtype=torch.long)
                for row, i in enumerate(batch):
                    ids[row, :len(windows[i])] = torch.tensor(windows[i])
                    mask[row, :len(windows[i])] = 1
                logits = self.model(input_ids=ids.to(self.device), attention_mask=mask.to(self.device))[0]
                probs = torch.sigmoid(logits.float()).cpu()
                for row, i in enumerate(batch):
                    best[owner[i]] = torch.maximum(best[owner[i]], probs[row])
        return [{label: round(float(v), 6) for label, v in zip(self.labels, row)} for row in best.tolist()]

    def _windows(self, texts: list[str]) -> tuple[list[list[int]], list[int]]:
        """Token windows of at most max_length (with special tokens); long texts get several."""
        # Every Detoxify architecture (BERT, RoBERTa, XLM-R, ALBERT) wraps one text as CLS ... SEP.
        cls, sep = self.tokenizer.cls_token_id, self.tokenizer.sep_token_id
        body = self.max_length - 2
        overlap = min(64, body // 4)  # windows overlap so a phrase on a border is seen whole once
        stride = body - overlap
        encoded = self.tokenizer(texts, add_special_tokens=False, truncation=False, verbose=False)["input_ids"]
        windows, owner = [], []
        for index, ids in enumerate(encoded):
            starts = range(0, len(ids) - overlap, stride) if len(ids) > body else [0]
            for s in starts:
                windows.append([cls, *ids[s:s + body], sep])
                owner.append(index)
        return windows, owner


def _require_all_weights(model, state_dict: dict, path: Path) -> None:
    """transformers fills weights a state dict lacks with random ones and only logs it; a
    toxicity head that is silently random would decide nothing. Refuse that instead."""
    missing = sorted(k for k in model.state_dict() if k not in state_dict and not k.endswith("position_ids"))
    if missing:
        raise ModelError(f"{path} has no weights for {len(missing)} model tensors (e.g. {missing[0]}); "
                         "it does not match the architecture in its config: use the matching checkpoint")


def _quantize_int8(model):
    """Dynamic int8 Linear layers (CPU). torch marks torch.ao.quantization deprecated in favour
    of torchao, which is not a dependency here; the eager API still works in this torch."""
    import warnings

    import torch

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        warnings.simplefilter("ignore", UserWarning)
        return torch.ao.quantization.quantize_dynamic(model, {torch.nn.Linear}, dtype=torch.qint8)


def _detoxify_version() -> str:
    from importlib.metadata import version

    return version("detoxify")

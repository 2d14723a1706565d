"""Text-to-image generation (diffusers) behind the image-source interface.

Optional and GPU-minded: needs the ``diffusion`` extra (``pip install -e '.[diffusion]'``) and a
local pipeline folder (``--t2i-model PATH``; nothing is downloaded) whose weights are
safetensors: a component with only pickled weights (``.bin``, ``.pt``, ...) is refused before
anything is loaded. Each image is seeded from the stage seed and the prompt, so a rerun on the
same hardware draws the same picture. Generated images have no retrieval score and are never
thresholded.
"""

from __future__ import annotations

import hashlib
import io
import json
from pathlib import Path
from typing import Any

from builder.errors import ConfigError, ModelError, require
from builder.images import ImageInfo, accept_image
from builder.io import sha256_json
from builder.models import UNSAFE_SUFFIXES, folder_fingerprint
from builder.swap.sources import Match, Query

PROMPT = "a photo of {text}, {sentence}"
PICKLE_SUFFIXES = (".ckpt", *UNSAFE_SUFFIXES)


def check_pipeline_folder(folder: Path) -> None:
    """A diffusers pipeline folder (``model_index.json``) whose components have safetensors weights.

    Pickled weights can run code when loaded: a component folder that holds only those is refused
    here, before diffusers is imported (which also loads with ``use_safetensors=True``).
    """
    index = folder / "model_index.json"
    try:
        components = json.loads(index.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise ModelError(f"--t2i-model {folder} is not a diffusers pipeline folder (no readable model_index.json: "
                         f"{type(exc).__name__}); pass the folder `save_pretrained` wrote") from None
    names = [k for k, v in components.items() if not k.startswith("_") and isinstance(v, list) and v[0]] \
        if isinstance(components, dict) else []
    for name in names:
        part = folder / name
        if not part.is_dir() or any(part.glob("*.safetensors")):
            continue
        pickled = sorted(p.name for p in part.iterdir() if p.suffix in PICKLE_SUFFIXES)
        if pickled:
            raise ModelError(f"--t2i-model {folder}: {name}/ has only pickled weights ({', '.join(pickled)}), which "
                             "are never loaded; convert them to safetensors (save_pretrained(..., "
                             "safe_serialization=True)) or use a pipeline folder that ships them")


class TextToImage:
    name = "diffusion"
    thresholded = False  # generated images have no retrieval score

    def __init__(self, model: Path, *, steps: int, seed: int, size: int, max_pixels: int, max_bytes: int):
        self.model, self.steps, self.seed, self.size = Path(model), steps, seed, size
        self.max_pixels, self.max_bytes = max_pixels, max_bytes
        self.pipe: Any = None  # a diffusers text-to-image pipeline, loaded by setup()
        self.device: str | None = None
        self.made: dict[str, tuple[bytes, ImageInfo]] = {}

    @classmethod
    def from_config(cls, config) -> "TextToImage":
        if not config.t2i_model or not Path(config.t2i_model).is_dir():
            raise ConfigError(
                f"--image-source diffusion needs --t2i-model PATH to a local diffusers pipeline folder "
                f"(got {config.t2i_model!r}); download one on a machine with internet"
            )
        check_pipeline_folder(Path(config.t2i_model))
        return cls(Path(config.t2i_model), steps=config.t2i_steps, seed=config.seed, size=config.t2i_size,
                   max_pixels=config.max_image_pixels, max_bytes=config.max_image_bytes)

    def fingerprint(self) -> str:
        return sha256_json(folder_fingerprint(self.model))

    def setup(self, device: str, embedder) -> None:
        diffusers = require("diffusers", "'mmrc-build[diffusion]'")  # the pinned version
        import torch

        dtype = torch.float16 if device.startswith("cuda") else torch.float32
        try:
            pipe = diffusers.AutoPipelineForText2Image.from_pretrained(
                str(self.model), dtype=dtype, local_files_only=True, use_safetensors=True, trust_remote_code=False)
        except Exception as exc:
            first = (str(exc).strip().splitlines() or [type(exc).__name__])[0]
            raise ModelError(f"cannot load the text-to-image pipeline at {self.model} ({first}); "
                             "pass --t2i-model PATH to a diffusers folder with safetensors weights") from exc
        pipe.set_progress_bar_config(disable=True)
        self.pipe, self.device = pipe.to(device), device

    def find(self, queries: list[Query]) -> list[list[Match]]:
        import torch

        out = []
        for query in queries:
            prompt = PROMPT.format(text=query.text, sentence=query.sentence)
            offset = int(hashlib.sha256(prompt.encode()).hexdigest()[:8], 16)
            generator = torch.Generator(self.device).manual_seed(self.seed + offset)
            image = self.pipe(prompt, num_inference_steps=self.steps, height=self.size, width=self.size,
                              generator=generator).images[0]
            buf = io.BytesIO()
            image.save(buf, format="PNG")
            data, info = accept_image(buf.getvalue(), self.max_pixels, self.max_bytes)
            self.made[info.sha256] = (data, info)
            out.append([Match(info.sha256, None)])
        return out

    def load(self, key: str) -> tuple[bytes, ImageInfo]:
        return self.made[key]

    def describe(self) -> dict:
        return {"name": "text-to-image", "version": self.model.name, "files": folder_fingerprint(self.model)}

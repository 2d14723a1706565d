"""Where the transformers backend finds a model: a local folder or the local Hugging Face cache (nothing is
downloaded), with safetensors weights only (pickled weights are never loaded)."""

from __future__ import annotations

from pathlib import Path

from builder.errors import ModelError


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



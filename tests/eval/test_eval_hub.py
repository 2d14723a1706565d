"""Evaluating a release by its Hub repo id: published to an in-process fake of the Hub, downloaded
at the tag's commit by huggingface_hub's own code, evaluated like the local folder."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from builder.cli import main
from conftest import model_dir

from fake_hub import ENDPOINT, FakeHub

TOKEN = "hf_fake_secret_token_eval"
REPO = "mmrc-org/mmrc-eval"


@pytest.fixture()
def hub(monkeypatch, tmp_path):
    import huggingface_hub.constants as constants

    monkeypatch.setenv("HF_TOKEN", TOKEN)
    monkeypatch.setenv("HF_ENDPOINT", ENDPOINT)
    monkeypatch.setattr(constants, "ENDPOINT", ENDPOINT)
    monkeypatch.setattr(constants, "HF_HUB_CACHE", str(tmp_path / "hf-cache"))
    fake = FakeHub(TOKEN).install()
    yield fake
    fake.uninstall()


def _eval(release, model, out, *extra):
    return CliRunner().invoke(main, ["eval", "run", release, "--revision", "v0.1.0", "--model", str(model),
                                     "--device", "cpu", "--judge", "none", "--max-new-tokens", "8", "--configs",
                                     "default", "-o", str(out), "--quiet", *extra])


def test_hub_release_is_evaluated_at_the_tag_commit(hub, eval_release, smoke_model, tmp_path, monkeypatch):
    published = CliRunner().invoke(main, ["publish", str(eval_release), "--repo-id", REPO])
    assert published.exit_code == 0, published.output
    local = _eval(str(eval_release), smoke_model, tmp_path / "local")
    assert local.exit_code == 0, local.output
    monkeypatch.delenv("HF_HUB_OFFLINE")
    monkeypatch.setattr("huggingface_hub.constants.HF_HUB_OFFLINE", False)
    remote = _eval(REPO, smoke_model, tmp_path / "hub")
    assert remote.exit_code == 0, remote.output
    target = model_dir(tmp_path / "hub")
    doc = json.loads((target / "results.json").read_text())
    assert doc["release"]["kind"] == "hub" and doc["release"]["location"] == REPO
    assert doc["release"]["commit"] == hub.repos[REPO].tags["v0.1.0"]
    local_target = model_dir(tmp_path / "local")
    assert (target / "samples.jsonl").read_bytes() == (local_target / "samples.jsonl").read_bytes()


def test_unknown_hub_revision_is_one_line(hub, smoke_model, tmp_path, monkeypatch):
    monkeypatch.delenv("HF_HUB_OFFLINE")
    monkeypatch.setattr("huggingface_hub.constants.HF_HUB_OFFLINE", False)
    result = _eval("mmrc-org/does-not-exist", smoke_model, tmp_path)
    assert result.exit_code == 3 and len(result.output.strip().splitlines()) == 1, result.output


def test_offline_hub_id_says_how_to_proceed(smoke_model, tmp_path):
    result = _eval("mmrc-org/whatever", smoke_model, tmp_path)
    assert result.exit_code == 3 and ("HF_HUB_OFFLINE" in result.output or "could not download" in result.output)

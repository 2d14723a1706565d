"""`mmrc-build publish` against an in-process fake of the Hub's HTTP endpoints."""

from __future__ import annotations

import hashlib

import pytest
from click.testing import CliRunner

from builder.cli import main
from fake_hub import ENDPOINT, FakeHub
from qr_fixtures import data_folder, questions_file

TOKEN = "hf_fake_secret_token_123"
REPO = "mmrc-org/mmrc"


@pytest.fixture()
def hub(monkeypatch):
    monkeypatch.setenv("HF_TOKEN", TOKEN)
    monkeypatch.setenv("HF_ENDPOINT", ENDPOINT)
    fake = FakeHub(TOKEN).install()
    yield fake
    fake.uninstall()


@pytest.fixture(scope="module")
def releases(tmp_path_factory):
    """v0.1.0 (2 dialogues) and v0.2.0 (3 dialogues) built once for the module."""
    tmp = tmp_path_factory.mktemp("publish")
    for version, n in (("0.1.0", 2), ("0.2.0", 3)):
        folder, rows = data_folder(tmp / f"data{n}", n=n)
        q = questions_file(tmp / f"q{n}.jsonl", rows)
        result = CliRunner().invoke(main, ["release", "--version", version, "--data", str(folder), "--questions",
                                           str(q), "--releases-dir", str(tmp / "rel")])
        assert result.exit_code == 0, result.output
    return tmp / "rel"


def publish(path, *extra):
    return CliRunner().invoke(main, ["publish", str(path), "--repo-id", REPO, *extra])


def local_files(path):
    return {p.relative_to(path).as_posix(): p.read_bytes() for p in path.rglob("*")
            if p.is_file() and ".git" not in p.relative_to(path).parts}


def outside_loading(card: str) -> str:
    return card.split("<!-- loading -->")[0] + card.split("<!-- /loading -->")[1]


def test_dry_run_lists_files_and_contacts_nobody(releases, hub, monkeypatch):
    monkeypatch.delenv("HF_TOKEN")
    result = publish(releases / "mmrc-v0.1.0", "--dry-run", "--private")
    assert result.exit_code == 0, result.output
    assert "would upload data/default/test-00000-of-00001.parquet" in result.output
    assert "would tag v0.1.0 on mmrc-org/mmrc (private): 9 files" in result.output
    assert "card: the loading example now names mmrc-org/mmrc" in result.output
    assert hub.requests == []


def test_publish_pushes_files_and_tag_then_is_idempotent(releases, hub):
    v1 = releases / "mmrc-v0.1.0"
    result = publish(v1, "--private")
    assert result.exit_code == 0, result.output
    assert "published v0.1.0 to mmrc-org/mmrc (9 files" in result.output
    assert TOKEN not in result.output
    assert [r for r, h in zip(hub.requests, hub.headers_seen) if h.get("authorization") != f"Bearer {TOKEN}"] == []
    repo = hub.repos[REPO]
    assert repo.private is True and set(repo.tags) == {"v0.1.0"}
    assert hub.validated == [True]  # the card went through the Hub's YAML check
    remote = hub.files(REPO, "v0.1.0")
    local = local_files(v1)
    rerendered = ("README.md", "SHA256SUMS")  # built for a local folder: publish names the repository
    assert {p: b for p, b in remote.items() if p not in (".gitattributes", *rerendered)} == \
        {p: b for p, b in local.items() if p not in rerendered}
    card = remote["README.md"].decode()
    assert f'ds = load_dataset("{REPO}", "default", revision="v0.1.0", split="test")' in card
    assert "path/to" not in card and "ORG/" not in card and "local folder" not in card
    assert 'load_dataset("path/to/mmrc-v0.1.0", "default", split="test")' in local["README.md"].decode()
    assert "**local folder**" in local["README.md"].decode()
    assert outside_loading(card) == outside_loading(local["README.md"].decode())
    sums = dict(line.split("  ")[::-1] for line in remote["SHA256SUMS"].decode().splitlines())
    assert sums["README.md"] == hashlib.sha256(remote["README.md"]).hexdigest()
    assert sums["manifest.json"] == hashlib.sha256(local["manifest.json"]).hexdigest()
    commits = len(repo.commits)

    again = publish(v1)
    assert again.exit_code == 0, again.output
    assert "already has v0.1.0 with these files; nothing to do" in again.output
    assert len(repo.commits) == commits

    # the next version replaces the files on main; the old tag keeps the old files
    v2 = releases / "mmrc-v0.2.0"
    assert publish(v2).exit_code == 0
    assert set(repo.tags) == {"v0.1.0", "v0.2.0"}
    assert {p: b for p, b in hub.files(REPO, "main").items() if p not in (".gitattributes", "README.md", "SHA256SUMS")} \
        == {p: b for p, b in local_files(v2).items() if p not in ("README.md", "SHA256SUMS")}
    assert hub.files(REPO, "v0.1.0") == remote


def test_existing_tag_with_other_content_is_an_error(releases, hub):
    assert publish(releases / "mmrc-v0.1.0").exit_code == 0
    repo = hub.repos[REPO]
    repo.tags["v0.2.0"] = repo.tags["v0.1.0"]  # someone tagged other files as v0.2.0
    result = publish(releases / "mmrc-v0.2.0")
    assert result.exit_code == 4
    assert "tag v0.2.0 already exists on mmrc-org/mmrc with other content" in result.output
    assert "publish a new version" in result.output


def test_older_version_after_newer_is_refused(releases, hub):
    assert publish(releases / "mmrc-v0.2.0").exit_code == 0
    result = publish(releases / "mmrc-v0.1.0")
    assert result.exit_code == 4 and "already has newer version(s) v0.2.0" in result.output
    assert set(hub.repos[REPO].tags) == {"v0.2.0"}


def test_interrupted_publish_finishes_the_tag_on_rerun(releases, hub, monkeypatch):
    original = hub.tag
    monkeypatch.setattr(hub, "tag", lambda request, repo_id, rev: (500, {"error": "boom"}))
    failed = publish(releases / "mmrc-v0.1.0")
    assert failed.exit_code != 0 and "safe to repeat" in failed.output
    assert hub.repos[REPO].tags == {}
    monkeypatch.setattr(hub, "tag", original)
    commits = len(hub.repos[REPO].commits)
    result = publish(releases / "mmrc-v0.1.0")
    assert result.exit_code == 0, result.output
    assert len(hub.repos[REPO].commits) == commits  # no second upload: unchanged files are skipped
    assert "v0.1.0" in hub.repos[REPO].tags


def test_token_errors_are_clear_and_never_echo_the_token(releases, hub, monkeypatch):
    monkeypatch.delenv("HF_TOKEN")
    missing = publish(releases / "mmrc-v0.1.0")
    assert missing.exit_code == 2 and "HF_TOKEN is not set" in missing.output
    monkeypatch.setenv("HF_TOKEN", "hf_wrong_token_456")
    wrong = publish(releases / "mmrc-v0.1.0")
    assert wrong.exit_code == 2 and "refused HF_TOKEN" in wrong.output
    assert "hf_wrong_token_456" not in wrong.output


def test_edited_release_folder_is_refused(tmp_path, releases, hub):
    import shutil

    copy = tmp_path / "mmrc-v0.1.0"
    shutil.copytree(releases / "mmrc-v0.1.0", copy)
    (copy / "README.md").write_text("edited")
    result = publish(copy)
    assert result.exit_code == 3 and "differs from its tag v0.1.0" in result.output


def test_a_takedown_release_needs_and_does_a_history_rewrite_on_the_hub(tmp_path, hub):
    import polars as pl

    folder, rows = data_folder(tmp_path / "data", n=3)
    q = questions_file(tmp_path / "q.jsonl", rows)
    rel = tmp_path / "rel"
    for version, extra in (("0.1.0", []), ("0.2.0", ["--remove-ids", str(tmp_path / "takedown.txt")])):
        (tmp_path / "takedown.txt").write_text("conv-1\n")
        built = CliRunner().invoke(main, ["release", "--version", version, "--data", str(folder), "--questions",
                                          str(q), "--releases-dir", str(rel), *extra])
        assert built.exit_code == 0, built.output
    assert publish(rel / "mmrc-v0.1.0").exit_code == 0
    refused = publish(rel / "mmrc-v0.2.0")
    assert refused.exit_code == 2 and "--rewrite-history" in refused.output and "v0.1.0" in refused.output
    assert set(hub.repos[REPO].tags) == {"v0.1.0"}  # nothing changed on a refusal

    done = publish(rel / "mmrc-v0.2.0", "--rewrite-history")
    assert done.exit_code == 0, done.output
    assert "deleted v0.1.0" in done.output and set(hub.repos[REPO].tags) == {"v0.2.0"}
    taken = next(r["dialogue_id"] for r in rows if r["source_id"] == "conv-1")
    for files in hub.reachable(REPO):
        for path, data in files.items():
            if path.endswith(".parquet"):
                import io

                ids = pl.read_parquet(io.BytesIO(data)).get_column("dialogue_id", default=None)
                assert ids is None or taken not in ids.to_list(), path


def test_release_built_for_the_repo_is_published_byte_for_byte(tmp_path, hub):
    folder, rows = data_folder(tmp_path / "data", n=2)
    q = questions_file(tmp_path / "q.jsonl", rows)
    args = ["release", "--version", "0.1.0", "--data", str(folder), "--questions", str(q),
            "--releases-dir", str(tmp_path / "rel")]
    bad = CliRunner().invoke(main, [*args, "--repo-id", "not a repo"])
    assert bad.exit_code == 2 and "--repo-id 'not a repo' is not a Hub repository id" in bad.output
    built = CliRunner().invoke(main, [*args, "--repo-id", REPO])
    assert built.exit_code == 0, built.output
    path = tmp_path / "rel" / "mmrc-v0.1.0"
    assert f'load_dataset("{REPO}", "questions", revision="v0.1.0", split="test")' in (path / "README.md").read_text()
    result = publish(path)
    assert result.exit_code == 0, result.output
    assert "card:" not in result.output
    assert {p: b for p, b in hub.files(REPO, "v0.1.0").items() if p != ".gitattributes"} == local_files(path)

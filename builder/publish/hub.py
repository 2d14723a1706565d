"""Push a finished release to the Hub as the same files and the same tag.

Only the files committed at the release's tag are uploaded (never ``.git`` or stray
edits). Re-running is safe: a tag already on the Hub with the same files is success,
with other files an error; a run that stopped between upload and tag finishes the tag.
The token comes from ``HF_TOKEN`` and is never printed.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import tempfile
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from builder.errors import ConfigError, InputError, OutputExistsError, ValidationError
from builder.io import sha256_file
from builder.release import gitrepo, layout, loading

REPO_TYPE = "dataset"
HUB_OWN_FILES = {".gitattributes"}  # the Hub adds it to every new repository


@dataclass(frozen=True)
class PublishConfig:
    repo_id: str
    private: bool = False
    dry_run: bool = False
    endpoint: str | None = None  # None: HF_ENDPOINT or the public Hub
    rewrite_history: bool = False  # a takedown release: squash main and delete the earlier tags

    def __post_init__(self):
        loading.check_repo_id(self.repo_id)  # in --dry-run too: the card preview names it


@dataclass(frozen=True)
class LocalFile:
    path: str
    size: int
    git_oid: str  # sha1 of the git blob: what the Hub reports for a regular file
    sha256: str  # what the Hub reports for an LFS file


def release_files(folder: Path) -> tuple[str, list[LocalFile]]:
    """The release's tag and the files committed at it; refuses a folder edited after release."""
    manifest = layout.read_manifest(folder)
    tag = manifest.get("tag")
    if tag not in gitrepo.tags(folder):
        raise InputError(f"{folder} has no git tag {tag}; rebuild it with `mmrc-build release`")
    if gitrepo.git(folder, "rev-parse", "HEAD") != gitrepo.git(folder, "rev-parse", f"{tag}^{{commit}}") or \
            gitrepo.git(folder, "status", "--porcelain", "--untracked-files=all"):
        raise InputError(f"{folder} differs from its tag {tag} (files were edited after the release); "
                         "restore it with `git checkout -- . && git clean -fd` or build a new version")
    files = []
    for line in gitrepo.git(folder, "ls-tree", "-r", "-l", tag).splitlines():
        meta, path = line.split("\t", 1)
        _, _, oid, size = meta.split()
        files.append(LocalFile(path, int(size), oid, sha256_file(folder / path)))
    return tag, files


def git_oid(data: bytes) -> str:
    return hashlib.sha1(b"blob %d\0" % len(data) + data).hexdigest()


def card_for_repo(folder: Path, files: list[LocalFile], repo_id: str) -> dict[str, bytes]:
    """The card (and SHA256SUMS) with ``repo_id`` in the loading example, when the release was
    built for a local folder or another repository; empty when the files already say ``repo_id``
    (or the card predates the marked loading section)."""
    manifest = layout.read_manifest(folder)
    if manifest.get("repo_id") == repo_id:
        return {}
    card = (folder / layout.CARD).read_text()
    configs = list(manifest.get("configs") or {"default": None})
    text = loading.with_repo_id(card, manifest["name"], manifest["version"], configs, repo_id)
    if text is None:
        return {}
    data = text.encode()
    digest = hashlib.sha256(data).hexdigest()
    sums = (folder / layout.SUMS).read_text().splitlines()
    sums = [f"{digest}  {layout.CARD}" if line.endswith(f"  {layout.CARD}") else line for line in sums]
    return {layout.CARD: data, layout.SUMS: ("\n".join(sums) + "\n").encode()}


def _with_overrides(files: list[LocalFile], overrides: dict[str, bytes]) -> list[LocalFile]:
    return [LocalFile(f.path, len(overrides[f.path]), git_oid(overrides[f.path]),
                      hashlib.sha256(overrides[f.path]).hexdigest()) if f.path in overrides else f for f in files]


def _staged(folder: Path, files: list[LocalFile], overrides: dict[str, bytes], where: Path) -> Path:
    """A folder with the tagged files (hard links where possible) and the overridden ones."""
    for f in files:
        target = where / f.path
        target.parent.mkdir(parents=True, exist_ok=True)
        if f.path in overrides:
            target.write_bytes(overrides[f.path])
            continue
        try:
            os.link(folder / f.path, target)
        except OSError:
            shutil.copyfile(folder / f.path, target)
    return where


def token() -> str:
    value = os.environ.get("HF_TOKEN", "").strip()
    if not value:
        raise ConfigError("HF_TOKEN is not set; export HF_TOKEN=<a write token from "
                          "https://huggingface.co/settings/tokens> (or use --dry-run)")
    return value


def _hub_error(exc: Exception, secret: str, repo_id: str) -> Exception:
    status = getattr(getattr(exc, "response", None), "status_code", None)
    message = str(exc).replace(secret, "***").splitlines()[0] if str(exc) else type(exc).__name__
    if status in (401, 403):
        return ConfigError(f"the Hub refused HF_TOKEN for {repo_id} ({status}); use a token with write access "
                           "to that namespace")
    return InputError(f"the Hub request failed ({message}); check --repo-id and your connection, then rerun "
                      "(publishing is safe to repeat)")


def _same_content(remote: Mapping[str, object], files: list[LocalFile]) -> list[str]:
    """Paths that differ between the remote tag and the local release (empty: identical)."""
    local = {f.path: f for f in files}
    diffs = sorted(p for p in set(remote) - set(local) if p not in HUB_OWN_FILES)
    for path, f in local.items():
        entry = remote.get(path)
        lfs = getattr(entry, "lfs", None)
        remote_sha = (lfs.get("sha256") if isinstance(lfs, dict) else getattr(lfs, "sha256", None)) if lfs else None
        if entry is None or (f.git_oid != getattr(entry, "blob_id", None) and f.sha256 != remote_sha):
            diffs.append(path)
    return diffs


def publish(folder: Path, config: PublishConfig) -> dict:
    """Upload ``folder`` and tag it; returns what was (or, with dry_run, would be) done."""
    from builder.release.card import check_card

    folder = Path(folder)
    tag, files = release_files(folder)
    overrides = card_for_repo(folder, files, config.repo_id)
    files = _with_overrides(files, overrides)
    card_text = overrides[layout.CARD].decode() if layout.CARD in overrides else (folder / layout.CARD).read_text()
    check_card(card_text, [f.path for f in files])
    plan = {"repo_id": config.repo_id, "tag": tag, "private": config.private, "files": files,
            "bytes": sum(f.size for f in files), "card_rerendered": bool(overrides)}
    if config.dry_run:
        return {**plan, "status": "dry-run"}
    token()  # before staging: a missing token is the first thing to hear about
    if overrides:
        with tempfile.TemporaryDirectory(prefix=".publish-", dir=folder.parent) as tmp:
            return _publish(_staged(folder, files, overrides, Path(tmp)), folder, files, tag, plan, config)
    return _publish(folder, folder, files, tag, plan, config)


def _publish(upload: Path, folder: Path, files: list[LocalFile], tag: str, plan: dict, config: PublishConfig) -> dict:
    secret = token()
    from huggingface_hub import HfApi
    from huggingface_hub.errors import HfHubHTTPError

    api = HfApi(endpoint=config.endpoint or os.environ.get("HF_ENDPOINT") or None, token=secret)
    try:
        api.create_repo(config.repo_id, repo_type=REPO_TYPE, private=config.private, exist_ok=True)
        refs = api.list_repo_refs(config.repo_id, repo_type=REPO_TYPE)
        if any(t.name == tag for t in refs.tags):
            remote = {e.path: e for e in api.list_repo_tree(config.repo_id, repo_type=REPO_TYPE, revision=tag,
                                                             recursive=True) if hasattr(e, "blob_id")}
            diffs = _same_content(remote, files)
            if diffs:
                raise OutputExistsError(
                    f"tag {tag} already exists on {config.repo_id} with other content ({len(diffs)} file(s) differ, "
                    f"e.g. {diffs[0]}); a published version is never changed: build and publish a new version")
            return {**plan, "status": "unchanged"}
        takedown = _takedown(folder)
        older = sorted(t.name for t in refs.tags if layout.SEMVER.match(t.name.removeprefix("v"))
                       and layout.Version.parse(t.name) < layout.Version.parse(tag)) if takedown else []
        if older and not config.rewrite_history:
            raise ConfigError(
                f"{tag} is a takedown release ({takedown}) but {config.repo_id} still serves {', '.join(older)}, "
                "which hold the removed dialogues: rerun with --rewrite-history to squash main's history and "
                "delete those tags (the only way the Hub stops serving them)")
        newer = sorted(t.name for t in refs.tags if layout.SEMVER.match(t.name.removeprefix("v"))
                       and layout.Version.parse(t.name) > layout.Version.parse(tag))
        if newer:
            raise OutputExistsError(f"{config.repo_id} already has newer version(s) {', '.join(newer)}; publishing "
                                    f"{tag} now would roll its main branch back: publish versions in order")
        commit = api.upload_folder(folder_path=str(upload), repo_id=config.repo_id, repo_type=REPO_TYPE,
                                   allow_patterns=[f.path for f in files], delete_patterns=["*"],
                                   commit_message=f"Release {tag}")
        revision = commit.oid
        if older:
            api.super_squash_history(config.repo_id, branch="main", repo_type=REPO_TYPE,
                                     commit_message=f"Release {tag}: history rewritten for a takedown")
            for old_tag in older:
                api.delete_tag(config.repo_id, tag=old_tag, repo_type=REPO_TYPE)
            revision = next(b.target_commit for b in api.list_repo_refs(config.repo_id, repo_type=REPO_TYPE).branches
                            if b.name == "main")
        api.create_tag(config.repo_id, tag=tag, tag_message=f"Release {tag}", revision=revision,
                       repo_type=REPO_TYPE)
    except HfHubHTTPError as exc:
        raise _hub_error(exc, secret, config.repo_id) from None
    except ValueError as exc:  # huggingface_hub's answer to a card the Hub rejects, or a body that is not JSON
        if "Invalid metadata in README.md" not in str(exc):
            raise InputError(f"the Hub at {api.endpoint} answered something that is not the Hub API "
                             f"({type(exc).__name__}); check HF_ENDPOINT / --endpoint, then rerun") from None
        reasons = " ".join(str(exc).split("\n")[1:]) or str(exc)
        raise ValidationError(f"the Hub rejected the dataset card of {folder}: {reasons}; fix "
                              "builder/release/card.py and build a new version") from None
    except (OSError, ConnectionError) as exc:
        raise InputError(f"cannot reach the Hub at {api.endpoint} ({type(exc).__name__}); check your connection "
                         "and HF_ENDPOINT, then rerun (publishing is safe to repeat)") from None
    except Exception as exc:  # noqa: BLE001 - the HTTP stack's transport errors are not OSErrors
        if type(exc).__module__.split(".")[0] not in ("httpx", "httpx2", "httpcore", "requests", "urllib3"):
            raise
        raise InputError(f"cannot reach the Hub at {api.endpoint} ({type(exc).__name__}); check your connection "
                         "and HF_ENDPOINT, then rerun (publishing is safe to repeat)") from None
    return {**plan, "status": "published", "commit": revision, "deleted_tags": older}


def _takedown(folder: Path) -> str | None:
    """The reason when ``folder`` is a release that withdrew dialogues an earlier version published."""
    history = layout.read_manifest(folder).get("history") or {}
    return history.get("reason") if history.get("mode") == "fresh" and history.get("reason") != "first version" \
        else None

"""Open a release at a pinned revision, read-only: a local release folder or a Hub repo id.

A local release is a git repository (``mmrc-build release``): ``--revision vX.Y.Z`` is
extracted from its history into the revision cache, so the folder itself is never touched;
without a revision the folder's checked-out commit is extracted the same way, and only when
its work tree is clean (an edited release is not the release any more). A Hub repo id is downloaded at the
revision's resolved commit. Either way the eval records the commit it read.

Dialogues are streamed row group by row group: a release with thousands of embedded images
is never held in memory at once.
"""

from __future__ import annotations

import json
import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterator

from builder.errors import ConfigError, InputError
from builder.release import gitrepo
from builder.records import ABILITIES, QUESTION_FORMATS
from builder.release.layout import DATA_DIR, MANIFEST, SPLIT, SUMS, damaged_files

HUB_ID = re.compile(r"^[A-Za-z0-9][\w.-]*/[\w.-]+$")
CONFIGS = ("default", "modality_swap")
COLUMNS = ["dialogue_id", "topic", "topic_group", "language", "turns", "questions", "variant_of"]


@dataclass(frozen=True)
class ReleaseRef:
    """What was evaluated: enough to find the exact bytes again."""

    location: str  # the local path or the Hub repo id, as given
    kind: str  # "local" | "hub"
    name: str  # dataset name from the release manifest, e.g. "mmrc"
    version: str | None
    revision: str  # the tag or revision asked for (or the tag at HEAD)
    commit: str  # the resolved git commit
    folder: Path = field(compare=False)  # where the files of that commit were read from

    @property
    def slug(self) -> str:
        """``<name>-<tag>`` for the eval output folder."""
        return safe_slug(f"{self.name}-{self.revision}")

    def describe(self) -> dict:
        return {"location": self.location, "kind": self.kind, "name": self.name, "version": self.version,
                "revision": self.revision, "commit": self.commit}


@dataclass
class EvalDialogue:
    dialogue_id: str
    config: str  # default | modality_swap
    variant_of: str | None
    topic: str | None
    topic_group: str | None
    language: str | None
    turns: list[dict]  # {index, role, text, images: [{sha256, mime, bytes}]}
    questions: list[dict]

    @property
    def n_turns(self) -> int:
        return len(self.turns)

    @property
    def n_images(self) -> int:
        return sum(len(t["images"]) for t in self.turns)


def safe_slug(text: str) -> str:
    """A file-name-safe slug: model ids like ``Qwen/Qwen2-VL-7B`` or paths become one name."""
    slug = re.sub(r"[^A-Za-z0-9._+-]+", "_", text.strip()).strip("._")
    return slug[:120] or "unnamed"


def open_release(location: str, revision: str | None = None) -> ReleaseRef:
    path = Path(location).expanduser()
    if path.exists():
        return _open_local(path, revision)
    if HUB_ID.match(location):
        return _open_hub(location, revision)
    raise InputError(f"release {location!r} is neither a folder nor a Hub repo id (ORG/NAME); pass the folder "
                     "built by `mmrc-build release` or the repo id it was published to")


def _open_local(path: Path, revision: str | None) -> ReleaseRef:
    if not (path / ".git").exists() or not (path / MANIFEST).is_file():
        raise InputError(f"{path} is not a release folder (no {MANIFEST} or git history); build one with "
                         "`mmrc-build release`")
    if revision:
        from builder.release.revisions import revision_folder

        try:
            commit = gitrepo.git(path, "rev-parse", "--verify", f"{revision}^{{commit}}")
        except InputError:
            tags = ", ".join(gitrepo.tags(path)) or "none"
            raise InputError(f"revision {revision!r} is not in {path}; its tags: {tags}") from None
        folder = revision_folder(path, revision)
        used = revision
    else:
        if gitrepo.git(path, "status", "--porcelain", "--untracked-files=no"):
            raise InputError(f"{path} has uncommitted changes, so it is not a released version; pass "
                             "--revision vX.Y.Z to evaluate a tag, or restore the folder (git checkout .)")
        from builder.release.revisions import revision_folder

        commit = gitrepo.git(path, "rev-parse", "HEAD")
        tags = gitrepo.git(path, "tag", "--points-at", "HEAD").split()
        used = sorted(tags)[-1] if tags else commit[:12]
        folder = revision_folder(path, commit)  # exactly the committed files: stray untracked shards are not read
    if damaged_files(folder):  # a damaged extraction in the revision cache is made again, once
        from builder.release.gitrepo import materialise

        materialise(path, commit, folder)
    _check_intact(folder, str(path), used)
    manifest = _read_manifest(folder, str(path), used)
    return ReleaseRef(str(path), "local", manifest.get("name", path.name), manifest.get("version"), used,
                      commit, folder)


def _open_hub(repo_id: str, revision: str | None) -> ReleaseRef:
    from huggingface_hub import HfApi, snapshot_download
    from huggingface_hub.errors import OfflineModeIsEnabled, RepositoryNotFoundError

    wanted = revision or "main"
    if os.environ.get("HF_HUB_OFFLINE", "").lower() in ("1", "true", "yes", "on"):
        raise InputError(f"HF_HUB_OFFLINE is set, so {repo_id} cannot be downloaded; unset it, or download the "
                         "release on a machine with internet and pass its folder")
    try:
        info = HfApi().dataset_info(repo_id, revision=wanted)
        assert info.sha is not None  # the Hub resolves every revision it finds to a commit
        commit = info.sha
        folder = Path(snapshot_download(repo_id, repo_type="dataset", revision=commit,
                                        allow_patterns=[f"{DATA_DIR}/*", MANIFEST, "README.md", SUMS]))
    except RepositoryNotFoundError:
        raise InputError(f"dataset {repo_id} at {wanted} was not found on the Hub (or is private: set HF_TOKEN)") \
            from None
    except OfflineModeIsEnabled:
        raise InputError(f"HF_HUB_OFFLINE is set, so {repo_id} cannot be downloaded; unset it, or download the "
                         "release on a machine with internet and pass its folder") from None
    except Exception as exc:  # noqa: BLE001 - network stacks raise many types; all mean "could not download"
        raise InputError(f"could not download {repo_id} at {wanted} from the Hub ({type(exc).__name__}: "
                         f"{str(exc).splitlines()[0][:200]}); check the repo id and revision, or pass a local "
                         "release folder") from None
    _check_intact(folder, repo_id, wanted)
    manifest = _read_manifest(folder, repo_id, wanted) if (folder / MANIFEST).is_file() else {}
    return ReleaseRef(repo_id, "hub", manifest.get("name", repo_id.split("/")[1]), manifest.get("version"),
                      wanted, commit, folder)


def _check_intact(folder: Path, location: str, revision: str) -> None:
    """Every data file of the release as its SHA256SUMS lists it, checked before anything is read."""
    problems = damaged_files(folder)
    if problems:
        more = f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""
        raise InputError(f"release {location} at {revision} is damaged: {problems[0]}{more}; rebuild the release or "
                         "download it again (nothing was evaluated)")


def _read_manifest(folder: Path, location: str, revision: str) -> dict:
    try:
        manifest = json.loads((folder / MANIFEST).read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError, RecursionError) as exc:
        raise InputError(f"release {location} at {revision}: {MANIFEST} is not readable JSON ({type(exc).__name__}); "
                         "rebuild the release or download it again") from None
    if not isinstance(manifest, dict):
        raise InputError(f"release {location} at {revision}: {MANIFEST} is not a JSON object; rebuild the release")
    return manifest


# what a release's question record must hold for the eval to ask it: field -> (check, what it must be)
_text = (lambda v: isinstance(v, str) and v != "", "text")
_opt_text = (lambda v: v is None or isinstance(v, str), "text or null")
_texts = (lambda v: v is None or (isinstance(v, list) and all(isinstance(x, str) for x in v)), "a list of text")
_ints = (lambda v: v is None or (isinstance(v, list) and all(isinstance(x, int) and not isinstance(x, bool)
                                                               for x in v)), "a list of integers")
QUESTION_CHECKS = {
    "question_id": _text, "ability": (lambda v: v in ABILITIES, "one of " + ", ".join(ABILITIES)),
    "format": (lambda v: v in QUESTION_FORMATS, "one of " + ", ".join(QUESTION_FORMATS)),
    "question": (lambda v: isinstance(v, str), "text"), "answer": _opt_text, "choices": _texts,
    "gold_items": _texts, "gold_images": _ints, "gold_turns": _ints,
    "should_refuse": (lambda v: v is None or isinstance(v, bool), "true, false or null"),
}
TURN_CHECKS = {"role": _text, "text": _opt_text,
               "images": (lambda v: v is None or (isinstance(v, list) and all(isinstance(x, dict) for x in v)),
                          "a list of image records")}


def check_index(release: ReleaseRef, configs: tuple[str, ...]) -> None:
    """Every dialogue id and question record of ``configs`` is one the eval can ask, checked before anything
    is asked (the light columns only; turns are checked as they stream)."""
    import pyarrow.parquet as pq

    for config in configs:
        for path in shard_files(release, config):
            for row in pq.read_table(path, columns=["dialogue_id", "questions"]).to_pylist():
                where = _where(release, path, row.get("dialogue_id"))
                if not isinstance(row["dialogue_id"], str) or not row["dialogue_id"]:
                    raise _malformed(release, path, f"a row's dialogue_id is {_shown(row['dialogue_id'])}, not text")
                for i, question in enumerate(row["questions"] or []):
                    _check_record(release, where, f"question {i}", question, QUESTION_CHECKS)


def _check_record(release: ReleaseRef, where: str, what: str, record, checks: dict) -> None:
    if not isinstance(record, dict):
        raise _malformed(release, where, f"{what} is not a {what.split()[0]} record ({_shown(record)})")
    for name, (check, kind) in checks.items():
        if not check(record.get(name)):
            raise _malformed(release, where, f"{what}: {name} is {_shown(record.get(name))}, not {kind}")


def _where(release: ReleaseRef, path: Path, dialogue_id) -> str:
    shard = Path(path).relative_to(release.folder).as_posix()
    return f"{shard} dialogue {dialogue_id[:12]}" if isinstance(dialogue_id, str) else shard


def _malformed(release: ReleaseRef, where, problem: str) -> InputError:
    if isinstance(where, Path):
        where = where.relative_to(release.folder).as_posix()
    return InputError(f"release {release.location} at {release.revision} is malformed: {where}: {problem}; rebuild "
                      "the release with `mmrc-build release` (no results were written)")


def _shown(value) -> str:
    text = json.dumps(value, default=str)
    return text if len(text) <= 40 else text[:40] + "…"


def shard_files(release: ReleaseRef, config: str) -> list[Path]:
    return sorted((release.folder / DATA_DIR / config).glob(f"{SPLIT}-*.parquet"))


def iter_dialogues(release: ReleaseRef, configs: tuple[str, ...] = CONFIGS,
                   only: set[str] | None = None) -> Iterator[EvalDialogue]:
    """Every dialogue of ``configs`` in shard order, images as bytes; ``only`` filters by id."""
    import pyarrow.parquet as pq

    unknown = [c for c in configs if c not in CONFIGS]
    if unknown:
        raise ConfigError(f"unknown release config(s) {', '.join(unknown)}; available: {', '.join(CONFIGS)}")
    if not shard_files(release, "default"):
        raise InputError(f"{release.location} at {release.revision} has no {DATA_DIR}/default shards; is it a "
                         "release built by `mmrc-build release`?")
    for config in configs:
        for path in shard_files(release, config):
            handle = pq.ParquetFile(path)
            missing = [c for c in COLUMNS if c not in handle.schema_arrow.names]
            if missing:
                raise InputError(f"{path} lacks column(s) {', '.join(missing)}; it was not written by a "
                                 "compatible `mmrc-build release`")
            for batch in handle.iter_batches(batch_size=64, columns=COLUMNS):
                for row in batch.to_pylist():
                    if only is not None and row["dialogue_id"] not in only:
                        continue
                    for i, turn in enumerate(row["turns"] or []):
                        _check_record(release, _where(release, path, row["dialogue_id"]), f"turn {i}", turn,
                                      TURN_CHECKS)
                    yield _dialogue(row, config)


def _dialogue(row: dict, config: str) -> EvalDialogue:
    turns = []
    for turn in row["turns"] or []:
        images = []
        for ref in turn["images"] or []:
            blob = (ref.get("image") or {}).get("bytes")
            images.append({"sha256": ref.get("sha256") or f"url:{ref.get('url')}", "mime": ref.get("mime"),
                           "bytes": blob, "url": ref.get("url")})
        turns.append({"index": turn["index"], "role": turn["role"], "text": turn["text"] or "", "images": images})
    return EvalDialogue(row["dialogue_id"], config, row.get("variant_of"), row.get("topic"), row.get("topic_group"),
                        row.get("language"), turns, list(row["questions"] or []))

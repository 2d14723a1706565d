"""Load a local release at any of its versions.

``datasets.load_dataset(folder, revision=...)`` ignores ``revision`` for a local folder
(it reads whatever the folder holds), so an older tag of a local release is first
extracted from the folder's git history into a cache, keyed by its commit id.
"""

from __future__ import annotations

import os
from pathlib import Path

from builder.release import gitrepo
from builder.release.layout import SPLIT


def cache_dir() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "mmrc-build" / "revisions"


def revision_folder(release: Path, revision: str) -> Path:
    """A folder holding exactly the files of ``revision`` of the local release ``release``."""
    commit = gitrepo.git(Path(release), "rev-parse", "--verify", f"{revision}^{{commit}}")
    dest = cache_dir() / commit
    if not dest.exists():
        gitrepo.materialise(Path(release), commit, dest)
    return dest


def load_release(release: Path, config: str = "default", revision: str | None = None, split: str = SPLIT):
    """``datasets.load_dataset`` of a local release; ``revision`` (e.g. "v0.1.0") is honoured."""
    from datasets import load_dataset

    folder = revision_folder(release, revision) if revision else Path(release)
    return load_dataset(str(folder), config, split=split)

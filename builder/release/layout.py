"""Where a release lives, what it is called, and which version came before it."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path

from builder.errors import ConfigError, InputError, OutputExistsError

SEMVER = re.compile(r"^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)$")
SPLIT = "test"  # a benchmark: everything is evaluation data
DATA_DIR = "data"
FIGURES_DIR = "figures"
MANIFEST = "manifest.json"
STATS = "stats.json"
CHANGELOG = "CHANGELOG.md"
CARD = "README.md"
SUMS = "SHA256SUMS"


@dataclass(frozen=True, order=True)
class Version:
    major: int
    minor: int
    patch: int

    @classmethod
    def parse(cls, text: str) -> "Version":
        match = SEMVER.match(text.strip().removeprefix("v"))
        if not match:
            raise ConfigError(f"version {text!r} is not a semantic version; use MAJOR.MINOR.PATCH, e.g. 0.1.0")
        return cls(*map(int, match.groups()))

    def __str__(self) -> str:
        return f"{self.major}.{self.minor}.{self.patch}"

    @property
    def tag(self) -> str:
        return f"v{self}"


NAME = re.compile(r"[a-z0-9](?:[a-z0-9._-]{0,62}[a-z0-9])?")


def check_name(name: str) -> str:
    """A dataset name is one safe path component, like a Hub repo name (``mmrc``, ``mmrc-de``)."""
    if not isinstance(name, str) or not NAME.fullmatch(name) or ".." in name:
        raise ConfigError(f"release name {name!r} is not valid: use 1-64 lower-case letters, digits, '.', '_' "
                          "or '-', starting and ending with a letter or digit (e.g. mmrc)")
    return name


def folder_name(name: str, version: Version) -> str:
    return f"{check_name(name)}-{version.tag}"


def shard_glob(config: str) -> str:
    return f"{DATA_DIR}/{config}/{SPLIT}-*.parquet"


def existing_versions(releases: Path, name: str) -> dict[Version, Path]:
    """Finished releases of ``name`` under ``releases`` (a finished one has its manifest)."""
    found = {}
    pattern = re.compile(rf"^{re.escape(name)}-v(\d+\.\d+\.\d+)$")
    for path in Path(releases).glob(f"{name}-v*"):
        match = pattern.match(path.name)
        if match and (path / MANIFEST).exists():
            found[Version.parse(match.group(1))] = path
    return dict(sorted(found.items()))


def plan(releases: Path, name: str, version: Version) -> tuple[Path, Path | None]:
    """The target folder and the previous release; refuses overwrites and non-increasing versions."""
    target = Path(releases) / folder_name(name, version)
    if target.exists():
        raise OutputExistsError(
            f"{target} already exists; a released version is never overwritten: choose a new version "
            f"(e.g. {Version(version.major, version.minor, version.patch + 1)})"
        )
    versions = existing_versions(releases, name)
    previous = max(versions, default=None)
    if previous is not None and version <= previous:
        raise ConfigError(f"version {version} is not newer than the latest release {previous} in {releases}; "
                          f"use a higher version")
    return target, versions.get(previous) if previous else None


def read_manifest(release: Path) -> dict:
    path = Path(release) / MANIFEST
    if not path.exists():
        raise InputError(f"{release} is not a finished release (no {MANIFEST}); build it with `mmrc-build release`")
    return json.loads(path.read_text())


def damaged_files(folder: Path, under: str = DATA_DIR) -> list[str]:
    """What in ``folder/under`` does not match the release's SHA256SUMS, one phrase per file:
    missing, changed (truncated, rewritten) or not listed. An empty list: the data is intact."""
    from builder.io import sha256_file

    sums_path = Path(folder) / SUMS
    if not sums_path.is_file():
        return [f"{SUMS} is missing"]
    listed = {}
    for line in sums_path.read_text(encoding="utf-8", errors="replace").splitlines():
        digest, _, name = line.partition("  ")
        if name.startswith(f"{under}/"):
            listed[name] = digest
    problems = []
    for name, digest in sorted(listed.items()):
        path = Path(folder) / name
        if not path.is_file():
            problems.append(f"{name} is missing")
        elif sha256_file(path) != digest:
            problems.append(f"{name} does not match its sha256 in {SUMS} (truncated or changed)")
    data = Path(folder) / under
    found = sorted(str(p.relative_to(folder)) for p in data.rglob("*") if p.is_file()) if data.is_dir() else []
    problems += [f"{name} is not listed in {SUMS}" for name in found if name not in listed]
    return problems

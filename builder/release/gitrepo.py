"""The release folder as a git repository with one annotated tag per version.

Each version folder starts as a clone of the previous version's repository, so its
history holds every earlier tag: ``release/mmrc-v0.2.0`` can still produce v0.1.0.
Author, committer and dates are fixed (SOURCE_DATE_EPOCH, or derived from the version),
and user/system git config is ignored, so the same inputs give the same commit id.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tarfile
from pathlib import Path

from builder.errors import DISK_FULL_ERRNOS, DependencyError, InputError

AUTHOR = ("mmrc-build", "mmrc-build@users.noreply.huggingface.co")
BASE_EPOCH = 1_735_689_600  # 2025-01-01T00:00:00Z


def commit_epoch(version) -> int:
    """SOURCE_DATE_EPOCH when set; else a fixed date that grows with the version."""
    env = os.environ.get("SOURCE_DATE_EPOCH")
    if env:
        return int(env)
    return BASE_EPOCH + version.major * 1_000_000 + version.minor * 1_000 + version.patch


def git(cwd: Path, *args: str, epoch: int | None = None, binary: bool = False):
    if shutil.which("git") is None:
        raise DependencyError("git is not installed; install it (apt-get install git) to build releases")
    env = {k: v for k, v in os.environ.items() if not k.startswith("GIT_")}
    env.update(GIT_CONFIG_GLOBAL=os.devnull, GIT_CONFIG_NOSYSTEM="1", LC_ALL="C", TZ="UTC",
               GIT_AUTHOR_NAME=AUTHOR[0], GIT_AUTHOR_EMAIL=AUTHOR[1],
               GIT_COMMITTER_NAME=AUTHOR[0], GIT_COMMITTER_EMAIL=AUTHOR[1])
    if epoch is not None:
        env["GIT_AUTHOR_DATE"] = env["GIT_COMMITTER_DATE"] = f"@{epoch} +0000"
    # Shards hold PNG/JPEG bytes that zlib cannot shrink: storing objects uncompressed makes
    # `git add` several times faster at no cost in size.
    settings = ("core.autocrlf=false", "core.compression=0", "commit.gpgsign=false", "tag.gpgsign=false",
                "init.defaultBranch=main")
    result = subprocess.run(["git", *[arg for s in settings for arg in ("-c", s)], *args],
                            cwd=cwd, env=env, capture_output=True, check=False)
    if result.returncode != 0:
        stderr = result.stderr.decode(errors="replace")
        for code in DISK_FULL_ERRNOS:  # git says so only in its text: the CLI names the folder and the fix
            if os.strerror(code) in stderr:
                raise OSError(code, os.strerror(code), str(cwd))
        detail = " / ".join(line.strip() for line in stderr.splitlines() if line.strip())[:500]  # one line
        raise InputError(f"git {' '.join(args)} failed in {cwd}: {detail}; "
                         "check that the folder is a release built by mmrc-build")
    return result.stdout if binary else result.stdout.decode().strip()


def start(folder: Path, previous: Path | None) -> None:
    """An empty work tree whose history is the previous release's (or a fresh repository)."""
    if previous is None:
        Path(folder).mkdir(parents=True)
        git(folder, "init", "-q")
        return
    git(Path(folder).parent, "clone", "-q", "--no-checkout", str(Path(previous).resolve()), str(folder))
    git(folder, "remote", "remove", "origin")  # no absolute path to another folder stays in the repo
    # HEAD is the previous release's main with an empty index and work tree: the next commit holds
    # exactly the files this build writes, so anything not rewritten is deleted in it.


def commit_and_tag(folder: Path, tag: str, message: str, epoch: int) -> str:
    git(folder, "add", "-A")
    git(folder, "commit", "-q", "--allow-empty", "-m", message, epoch=epoch)
    git(folder, "tag", "-a", tag, "-m", message, epoch=epoch)
    return git(folder, "rev-parse", "HEAD")


def tags(folder: Path) -> list[str]:
    return git(folder, "tag", "--list").split()


def materialise(repo: Path, revision: str, dest: Path) -> Path:
    """The files of ``revision`` (a tag or commit) in ``dest``, streamed out of ``git archive``."""
    commit = git(repo, "rev-parse", "--verify", f"{revision}^{{commit}}")
    tmp = Path(dest).with_name(f".{Path(dest).name}.tmp")
    shutil.rmtree(tmp, ignore_errors=True)
    tmp.mkdir(parents=True)
    proc = subprocess.Popen(["git", "archive", "--format=tar", commit], cwd=repo, stdout=subprocess.PIPE)
    with tarfile.open(fileobj=proc.stdout, mode="r|") as tar:
        tar.extractall(tmp, filter="data")
    if proc.wait() != 0:
        raise InputError(f"git archive {revision} failed in {repo}; check the revision exists (git tag --list)")
    if Path(dest).exists():
        shutil.rmtree(dest)
    tmp.rename(dest)
    return Path(dest)

"""The card's loading example: the Hub repository when there is one, else the local folder.

The section sits between two HTML comments (invisible on the Hub), so ``publish`` can put the
repository id it publishes to into a card that was built for a local folder or for another
repository, without touching the rest of the card.
"""

from __future__ import annotations

import re

from builder.errors import ConfigError
from builder.release.layout import SPLIT, folder_name, Version

START, END = "<!-- loading -->", "<!-- /loading -->"
CONFIG_ORDER = ("default", "questions", "modality_swap")
# The Hub's rules for a repository id (huggingface_hub.utils.validate_repo_id, the Hub's own naming):
# ORG/NAME, each part 1-96 of ASCII letters, digits, '_', '-', '.', starting and ending with a letter,
# digit or '_'; no '--' or '..'; not ending in '.git'.
REPO_PART = re.compile(r"[A-Za-z0-9_](?:[A-Za-z0-9_.-]{0,94}[A-Za-z0-9_])?", re.ASCII)


def repo_id_problem(repo_id: str) -> str | None:
    """Why ``repo_id`` is not a Hub dataset repository id (None: it is one)."""
    parts = repo_id.split("/")
    if len(parts) != 2:
        return "it must be ORG/NAME, with exactly one '/'"
    for part in parts:
        if not part:
            return "the organisation and the name must not be empty"
        if len(part) > 96:
            return f"{part[:20]!r}... is {len(part)} characters (the Hub allows 96)"
        if not REPO_PART.fullmatch(part):
            return (f"{part!r} may hold only ASCII letters, digits, '-', '_' and '.', and must start and end "
                    "with a letter, digit or '_'")
    if "--" in repo_id or ".." in repo_id:
        return "'--' and '..' are not allowed"
    if repo_id.endswith(".git"):
        return "it must not end in .git"
    return None


def check_repo_id(repo_id: str | None) -> None:
    problem = None if repo_id is None else repo_id_problem(repo_id)
    if problem:
        raise ConfigError(f"--repo-id {repo_id!r} is not a Hub repository id: {problem}; use ORG/NAME "
                          "(e.g. my-lab/mmrc)")


def section(name: str, version: str, configs: list[str], repo_id: str | None) -> str:
    ordered = sorted(configs, key=lambda c: CONFIG_ORDER.index(c) if c in CONFIG_ORDER else len(CONFIG_ORDER))
    if repo_id:
        intro = f"From the Hub dataset repository `{repo_id}`, pinned to this version's tag:"
        loads = "\n".join(f'ds = load_dataset("{repo_id}", "{c}", revision="v{version}", split="{SPLIT}")'
                          for c in ordered)
        return f"{START}\n{intro}\n\n```python\nfrom datasets import load_dataset\n{loads}\n```\n{END}"
    folder = f"path/to/{folder_name(name, Version.parse(version))}"
    intro = ("This release is a **local folder**: it was built without a Hub repository id "
             "(`mmrc-build release --repo-id ORG/NAME`, or `mmrc-build publish`, writes one here). "
             "Load it from the folder's path:")
    loads = "\n".join(f'ds = load_dataset("{folder}", "{c}", split="{SPLIT}")' for c in ordered)
    tail = ("`load_dataset` reads a local folder's working tree and ignores `revision`; an older tag of "
            f"this folder's git history loads with `builder.release.revisions.load_release(\"{folder}\", "
            'revision="vX.Y.Z")`.')
    return f"{START}\n{intro}\n\n```python\nfrom datasets import load_dataset\n{loads}\n```\n\n{tail}\n{END}"


def with_repo_id(card: str, name: str, version: str, configs: list[str], repo_id: str) -> str | None:
    """``card`` with its loading section for ``repo_id``; None when the card has no marked section
    (built before this existed)."""
    if START not in card or END not in card:
        return None
    start, end = card.index(START), card.index(END) + len(END)
    return card[:start] + section(name, version, configs, repo_id) + card[end:]

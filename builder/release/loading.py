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
REPO_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,95}/[A-Za-z0-9][A-Za-z0-9._-]{0,95}$")


def check_repo_id(repo_id: str | None) -> None:
    if repo_id is not None and (not REPO_ID.match(repo_id) or ".." in repo_id or "--" in repo_id):
        raise ConfigError(f"--repo-id {repo_id!r} is not a Hub repository id; use ORG/NAME (letters, digits, "
                          "'-', '_', '.'), e.g. my-lab/mmrc")


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
            f"this folder's git history loads with `builder.release.loader.load_release(\"{folder}\", "
            'revision="vX.Y.Z")`.')
    return f"{START}\n{intro}\n\n```python\nfrom datasets import load_dataset\n{loads}\n```\n\n{tail}\n{END}"


def with_repo_id(card: str, name: str, version: str, configs: list[str], repo_id: str) -> str | None:
    """``card`` with its loading section for ``repo_id``; None when the card has no marked section
    (built before this existed)."""
    if START not in card or END not in card:
        return None
    start, end = card.index(START), card.index(END) + len(END)
    return card[:start] + section(name, version, configs, repo_id) + card[end:]

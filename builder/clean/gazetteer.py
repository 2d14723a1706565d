"""Public figures from a list the user gives: a name there is no private person's.

The clean stage ships a short hand list of public names (precision.PUBLIC_FIGURES). A longer
gazetteer cannot ship with the project until its licence allows it (Pantheon 1.0's 11,341
globally famous people, for one: see ../shared/data/SOURCES.md), so ``clean --public-figures
FILE`` reads one: a CSV or TSV with a ``name`` column, or a text file with one name per line.
Only names of two words or more are used: a one-word entry ("Madonna", "Homer") is also a
private person's first name. A name found in a dialogue that is one of them, whole, is public
(precision.is_public); its parts are not ("Daniel" alone stays a name).

The file's SHA-256 goes into the stage's config, so a changed list reruns the stage.
"""

from __future__ import annotations

import csv
import hashlib
import io
from functools import lru_cache
from pathlib import Path

from builder.errors import ConfigError


def normalise(name: str) -> str:
    return " ".join(name.lower().replace("’", "'").split())


def fingerprint(path: str | Path) -> str:
    try:
        return hashlib.sha256(Path(path).read_bytes()).hexdigest()
    except OSError as e:
        raise ConfigError(f"--public-figures {path}: cannot read it ({e.strerror or e})") from None


@lru_cache(maxsize=4)
def load(path: str, sha256: str | None = None) -> frozenset[str]:
    """The normalised names of two words or more in ``path``; ConfigError when it cannot be read,
    holds no ``name`` column (a table) or no name, or its content is not the one ``sha256`` says."""
    try:
        data = Path(path).read_bytes()
    except OSError as e:
        raise ConfigError(f"--public-figures {path}: cannot read it ({e.strerror or e})") from None
    if sha256 and hashlib.sha256(data).hexdigest() != sha256:
        raise ConfigError(f"--public-figures {path}: the file changed since this run started; rerun the stage")
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise ConfigError(f"--public-figures {path}: not UTF-8 text") from None
    first = text.split("\n", 1)[0]
    if "," in first or "\t" in first:
        reader = csv.DictReader(io.StringIO(text), delimiter="\t" if "\t" in first else ",")
        if "name" not in (reader.fieldnames or []):
            raise ConfigError(f"--public-figures {path}: a table needs a 'name' column (found {reader.fieldnames})")
        names = [row.get("name") or "" for row in reader]
    else:
        names = text.splitlines()
    out = frozenset(n for n in map(normalise, names) if " " in n)
    if not out:
        raise ConfigError(f"--public-figures {path}: no name of two words or more in it")
    return out

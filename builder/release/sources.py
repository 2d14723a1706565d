"""The source datasets of a release and their licences.

A dialogue's source dataset is the first folder of its ``source`` path under ingest's raw
folder (``wildchat/part-00.jsonl`` -> ``wildchat``); a log file straight in the raw folder is
its own dataset, named without its suffixes (``oasst_en_100_tree.jsonl`` -> ``oasst_en_100_tree``).
A *folder of exports* is one dataset: files straight in the raw folder that hold one record each
(one dialogue per file, as chat apps and arenas export them) are grouped by the format ingest
detected and named after the raw folder (``arena_exports/chat_19865.json`` read from
``arena_exports`` -> ``arena_exports``; with two such formats, ``arena_exports-openai`` and
``arena_exports-sharegpt``), so 382 exported files are one row of the card and one entry of the
sources file, not 382 "not stated" rows.
Ingest's manifest adds what was read (files, formats, records). The licences come from a
sources file the user fills in (YAML or JSON)::

    - name: wildchat
      url: https://huggingface.co/datasets/allenai/WildChat-1M
      licence: odc-by

With a sources file, every released dataset needs an entry with a licence; a missing one is
an error that names it, never a card that guesses. So does the image source of the swap stage
(its image bank's folder name, or the text-to-image pipeline's folder name): its pictures are
released in the ``modality_swap`` config.

The release's own licence is the one given with ``--license``; without it, the licence that every
listed source shares, else ``other`` (mixed or unstated licences; the card says which).
"""

from __future__ import annotations

import json
from pathlib import Path, PurePosixPath

from builder.errors import InputError, ValidationError
from builder.io import read_user_text

LOG_SUFFIXES = (".gz", ".jsonl", ".ndjson", ".json")


def dataset_of(source: str | None) -> str:
    if not source:
        return "unknown"
    path = PurePosixPath(source.replace("\\", "/"))
    if len(path.parts) > 1:
        return path.parts[0]
    name = path.name
    for suffix in LOG_SUFFIXES:
        name = name.removesuffix(suffix)
    return name or path.name


def namer(ingested: list[dict], raw_name: str | None):
    """``source path -> dataset name`` for this release's lineage (see the module doc): ``dataset_of``,
    except that loose one-record files are grouped as one folder of exports."""
    loose: dict[str, set[str]] = {}  # format -> loose one-record files
    for f in ingested:
        file = str(f.get("file") or "")
        if len(PurePosixPath(file.replace("\\", "/")).parts) == 1 and int(f.get("records") or 0) <= 1:
            loose.setdefault(str(f.get("format") or "unknown"), set()).add(file)
    groups = {fmt: files for fmt, files in loose.items() if len(files) >= 2}
    base = raw_name or "exports"
    names = {file: base if len(groups) == 1 else f"{base}-{fmt}" for fmt, files in groups.items() for file in files}

    def name(source: str | None) -> str:
        return names.get(str(source or "").replace("\\", "/"), None) or dataset_of(source)

    return name


def read_sources(path: Path) -> dict[str, dict]:
    """name -> ``{name, url, licence}`` from a YAML or JSON list (or ``{sources: [...]}``)."""
    text = read_user_text(path, "sources file", "write a YAML list of `name`, `url`, `licence` entries, one per "
                          "source dataset")
    import yaml

    try:
        doc = json.loads(text) if Path(path).suffix.lower() == ".json" else yaml.safe_load(text)
    except (json.JSONDecodeError, yaml.YAMLError) as exc:
        mark = getattr(exc, "problem_mark", None) or getattr(exc, "lineno", None)
        where = f" (line {mark.line + 1 if hasattr(mark, 'line') else mark})" if mark is not None else ""
        raise InputError(f"sources file {path} is not valid YAML or JSON{where}; fix it and rerun") from None
    entries = doc.get("sources") if isinstance(doc, dict) else doc
    if not isinstance(entries, list) or not all(isinstance(e, dict) for e in entries):
        raise InputError(f"sources file {path} must be a list of entries with `name`, `url`, `licence` "
                         "(or a mapping with a `sources:` list)")
    out, no_licence = {}, []
    for number, entry in enumerate(entries, start=1):
        name = str(entry.get("name") or "").strip()
        if not name:
            raise ValidationError(f"sources file {path}: entry {number} has no name; name the dataset as its "
                                  "folder under the raw folder (e.g. wildchat)")
        if name in out:
            raise ValidationError(f"sources file {path}: {name!r} is listed twice; keep one entry")
        licence = str(entry.get("licence") or entry.get("license") or "").strip()
        if not licence:
            no_licence.append(name)
        out[name] = {"name": name, "url": str(entry.get("url") or "").strip() or None, "licence": licence}
    if no_licence:
        raise ValidationError(f"sources file {path}: no licence for {', '.join(repr(n) for n in no_licence)}; "
                              "add `licence: <id>` (e.g. cc-by-4.0, odc-by, or the terms' URL) to each entry")
    return out


def source_table(released: dict[str, int], ingested: list[dict], listed: dict[str, dict] | None,
                 sources_file: str | None = None, name_of=dataset_of) -> list[dict]:
    """One row per released source dataset: dialogues, files/formats/records ingest read, licence, url.
    ``name_of`` is :func:`namer`'s answer for the lineage (plain :func:`dataset_of` by default)."""
    read: dict[str, dict] = {}
    for f in ingested:
        entry = read.setdefault(name_of(f["file"]), {"files": 0, "records": 0, "formats": set()})
        entry["files"] += 1
        entry["records"] += int(f.get("records") or 0)
        if f.get("format") and f["format"] != "unknown":
            entry["formats"].add(f["format"])
    if listed is not None:
        unlisted = sorted(name for name in released if name not in listed)
        if unlisted:
            raise ValidationError(
                f"sources file {sources_file}: no entry for {', '.join(f'{n!r} ({released[n]} dialogues)' for n in unlisted)}; "
                "add `name`, `url` and `licence` for each released source dataset")
    rows = []
    for name, n in sorted(released.items()):
        info, meta = read.get(name), (listed or {}).get(name, {})
        rows.append({"name": name, "dialogues": n,
                     "files": info["files"] if info else None, "records": info["records"] if info else None,
                     "formats": sorted(info["formats"]) if info else [],
                     "licence": meta.get("licence"), "url": meta.get("url")})
    return rows


def image_row(source: dict | None, listed: dict[str, dict] | None, sources_file: str | None,
              variants: int) -> dict | None:
    """The swap stage's picture source as the card lists it (None: no swap stage or no variant released)."""
    if source is None or variants == 0:
        return None
    name = source.get("name")
    meta = (listed or {}).get(name or "", {})
    if listed is not None and name and not meta:
        raise ValidationError(f"sources file {sources_file}: no entry for the swap stage's {source['kind']} {name!r} "
                              f"({variants} variant(s) released with its pictures); add `name: {name}` and its `licence`")
    return {"kind": source.get("kind"), "name": name, "variants": variants,
            "licence": meta.get("licence"), "url": meta.get("url")}


def release_licence(given: str | None, rows: list[dict], images: dict | None, known: tuple[str, ...]) -> dict:
    """``{id, why, licences}``: the card's licence id and how it was chosen."""
    listed = [*rows, images] if images else rows
    licences = sorted({r["licence"] for r in listed if r.get("licence")})
    unstated = any(not r.get("licence") for r in listed)
    if given:
        return {"id": given, "why": "given", "licences": licences}
    if len(licences) == 1 and not unstated and licences[0] in known:
        return {"id": licences[0], "why": "shared", "licences": licences}
    return {"id": "other", "why": "unstated" if unstated or not licences else "mixed", "licences": licences}

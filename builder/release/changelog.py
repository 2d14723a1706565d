"""CHANGELOG.md: what changed since the previous version, newest version on top."""

from __future__ import annotations

from pathlib import Path

from builder.release.layout import CHANGELOG, DATA_DIR

TITLE = "# Changelog\n"


def released_ids(release: Path, config: str, column: str) -> set[str]:
    """One column of a release's shards, read without touching the image bytes."""
    import pyarrow.parquet as pq

    ids: set[str] = set()
    for shard in sorted((Path(release) / DATA_DIR / config).glob("*.parquet")):
        ids.update(pq.read_table(shard, columns=[column]).column(column).to_pylist())
    return ids


def schema_changes(old: dict[str, dict[str, str]], new: dict[str, dict[str, str]]) -> list[str]:
    """``old``/``new``: config -> field -> canonical feature JSON (from stats.json)."""
    lines = []
    for cfg in sorted(set(old) | set(new)):
        if cfg not in old:
            lines.append(f"config `{cfg}` added")
            continue
        if cfg not in new:
            lines.append(f"config `{cfg}` removed")
            continue
        for field in sorted(set(old[cfg]) | set(new[cfg])):
            if field not in old[cfg]:
                lines.append(f"`{cfg}.{field}` added")
            elif field not in new[cfg]:
                lines.append(f"`{cfg}.{field}` removed")
            elif old[cfg][field] != new[cfg][field]:
                lines.append(f"`{cfg}.{field}` changed type")
    return lines


def _ids(title: str, ids: set[str]) -> list[str]:
    return [f"- {title} ({len(ids)}):", *[f"  - `{i}`" for i in sorted(ids)]] if ids else []


def entry(version: str, previous: str | None, ids: set[str], old_ids: set[str], questions: set[str],
          old_questions: set[str], takedown: set[str], schema: list[str]) -> str:
    if previous is None:
        return f"## v{version}\n\n- First release: {len(ids)} dialogues, {len(questions)} questions.\n"
    removed = old_ids - ids
    lines = [f"## v{version}", "", f"Changes since v{previous}: {len(ids)} dialogues "
             f"(+{len(ids - old_ids)} / -{len(removed)}), {len(questions)} questions "
             f"(+{len(questions - old_questions)} / -{len(old_questions - questions)}).", ""]
    lines += _ids("dialogues added", ids - old_ids)
    lines += _ids("dialogues removed on request (takedown)", removed & takedown)
    lines += _ids("dialogues removed (no longer in the input)", removed - takedown)
    lines += [f"- schema: {change}" for change in schema] or ["- schema: unchanged"]
    return "\n".join(lines) + "\n"


def write(folder: Path, new_entry: str, previous: Path | None) -> None:
    old = (Path(previous) / CHANGELOG).read_text() if previous and (Path(previous) / CHANGELOG).exists() else TITLE
    body = old[len(TITLE):].lstrip("\n") if old.startswith(TITLE) else old
    (Path(folder) / CHANGELOG).write_text(f"{TITLE}\n{new_entry}\n{body}".rstrip("\n") + "\n")

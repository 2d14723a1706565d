"""Small output helpers shared by commands."""

from __future__ import annotations

import click


def print_rows(stage: str, manifest: dict) -> None:
    """The end-of-stage summary: in/out and a table of reasons."""
    rows = manifest.get("rows", {})
    click.echo(
        f"{stage}: {rows.get('in', 0)} in -> {rows.get('out', 0)} out "
        f"(kept {rows.get('kept', 0)}, modified {rows.get('modified', 0)}, "
        f"dropped {rows.get('dropped', 0)}, quarantined {rows.get('quarantined', 0)})"
    )
    reasons = rows.get("reasons", {})
    if reasons:
        width = max(len(k) for k in reasons)
        for key, n in sorted(reasons.items(), key=lambda kv: (-kv[1], kv[0])):
            click.echo(f"  {key:<{width}}  {n:>8}")

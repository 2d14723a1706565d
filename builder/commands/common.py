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


def executor_options(fn):
    """--executor/--workers/--address/--cpus-per-worker/--gpus-per-worker and --quiet, for every
    stage that maps parts to parts; the executor is not part of the stage's config hash."""
    options = [
        click.option("--executor", type=click.Choice(["local", "processes", "ray"]), default=None,
                     help="Where shards run: this process, a process pool, or Ray actors "
                          "(default: processes when --workers > 1, else local). Output is identical for any."),
        click.option("--workers", type=int, default=1, show_default=True,
                     help="Worker processes or Ray actors (one setup each)."),
        click.option("--address", default=None,
                     help="Ray cluster to join: auto, or ray://HOST:10001 (default: a local cluster for the run)."),
        click.option("--cpus-per-worker", type=float, default=1.0, show_default=True, help="Ray: CPUs per actor."),
        click.option("--gpus-per-worker", type=float, default=0.0, show_default=True,
                     help="Ray: GPUs per actor (1 gives every actor its own GPU)."),
        click.option("--quiet", is_flag=True, help="No progress output."),
    ]
    for option in reversed(options):
        fn = option(fn)
    return fn


def executor_spec(executor, workers, address, cpus_per_worker, gpus_per_worker):
    from builder.executors import ExecutorSpec

    name = executor or ("processes" if workers > 1 else "local")
    return ExecutorSpec(name, workers, address, cpus_per_worker, gpus_per_worker).validate()

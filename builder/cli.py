"""The `mmrc-build` command line: a thin map from options to stages.

Each command lives in ``builder/commands/<name>.py`` and exposes ``command`` (a click
command or group). Domain errors become one-line messages here, at the boundary.
"""

from __future__ import annotations

import importlib
import os

import click

from builder import __version__
from builder import stages
from builder.errors import DISK_FULL_ERRNOS, ENVIRONMENT_ERRNOS, PATH_ERRNOS, MMRCError

# Order is the order of `mmrc-build --help`: the pipeline order of the stage registry.
COMMAND_MODULES = stages.command_modules()


class MMRCGroup(click.Group):
    """Turns :class:`MMRCError` into ``Error: <message>`` and its exit code, no traceback; a full
    disk, a permission problem or a path the machine cannot use becomes one line naming the path."""

    def invoke(self, ctx):
        try:
            return super().invoke(ctx)
        except MMRCError as exc:
            click.echo(f"Error: {exc}", err=True)
            ctx.exit(exc.exit_code)
        except OSError as exc:
            if exc.errno in PATH_ERRNOS:
                what, fix = PATH_ERRNOS[exc.errno]
                click.echo(f"Error: cannot use {exc.filename or 'a path'}: {what}; {fix}", err=True)
                ctx.exit(3)
            if exc.errno not in ENVIRONMENT_ERRNOS:
                raise
            where = exc.filename or "a file"
            hint = (f"free space there (df -h {os.path.dirname(os.path.abspath(where))}) and rerun the same command"
                    if exc.errno in DISK_FULL_ERRNOS else "fix the permissions and rerun")
            click.echo(f"Error: {ENVIRONMENT_ERRNOS[exc.errno]} writing or reading {where}; {hint}", err=True)
            ctx.exit(3)

    def list_commands(self, ctx):
        return [name for name in COMMAND_MODULES if name in self.commands]  # pipeline order


@click.group(cls=MMRCGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="mmrc-build")
def main():
    """Turn raw multimodal chat logs into a released, versioned MMRC-style benchmark.

    Stages run in order, each reading the previous stage's folder:
    ingest -> clean -> classify -> swap -> (questions import) -> release -> publish; eval evaluates models on a release.
    `run CONFIG` chains them from one TOML file.
    """


for _name in COMMAND_MODULES:
    main.add_command(importlib.import_module(f"builder.commands.{_name}").command)


if __name__ == "__main__":  # pragma: no cover
    main()

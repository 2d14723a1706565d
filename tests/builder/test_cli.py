"""Every command has --help text; the CLI stays light (no heavy imports just for --help)."""

from __future__ import annotations

import subprocess
import sys

import click
import pytest
from click.testing import CliRunner

from builder.cli import COMMAND_MODULES, main


def walk(cmd: click.Command, path=()):
    yield path, cmd
    if isinstance(cmd, click.Group):
        for name, sub in cmd.commands.items():
            yield from walk(sub, path + (name,))


ALL = list(walk(main))


@pytest.mark.parametrize("path,cmd", ALL, ids=[" ".join(p) or "mmrc-build" for p, _ in ALL])
def test_help_text_everywhere(path, cmd):
    result = CliRunner().invoke(main, [*path, "--help"])
    assert result.exit_code == 0, result.output
    assert (cmd.help or "").strip(), f"{' '.join(path)} has no help text"
    for param in cmd.params:
        if isinstance(param, click.Option) and param.name not in ("help", "version"):
            assert (param.help or "").strip(), f"{' '.join(path)} option {param.opts} has no help text"


def test_every_listed_stage_module_is_a_command():
    assert set(main.commands) == set(COMMAND_MODULES)


def test_help_is_light():
    code = ("import sys; from click.testing import CliRunner; from builder.cli import main; "
            "CliRunner().invoke(main, ['--help']); "
            "print(sorted(m for m in ('torch', 'transformers', 'presidio_analyzer', 'detoxify', "
            "'sentence_transformers', 'datasets', 'spacy') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


def test_unknown_command_is_one_line_error():
    result = CliRunner().invoke(main, ["nonsense"])
    assert result.exit_code == 2 and "No such command" in result.output

"""`mmrc-build run --dry-run CONFIG` checks what the run would refuse: a config that is not a regular
file (a pipe would block the read forever), and every option's value against the type the stage's
command declares, which the stage's config dataclass agrees with."""

from __future__ import annotations

import os
import typing

import click
import pytest
from click.testing import CliRunner

from builder import pipeline, stages
from builder.cli import main

pytestmark = pytest.mark.timeout(120)  # a pipe opened by mistake would block: fail instead of hanging


def _dry_run(path):
    return CliRunner().invoke(main, ["run", "--dry-run", str(path)])


def test_a_config_that_is_a_pipe_is_refused_before_it_is_opened(tmp_path):
    os.mkfifo(tmp_path / "p.toml")
    result = _dry_run(tmp_path / "p.toml")
    assert result.exit_code == 2, result.output
    assert result.output.count("\n") == 1 and "is not a regular file" in result.output


@pytest.mark.parametrize("section, message", [
    ('[swap]\ncount = "twenty"', "[swap] count must be an integer (e.g. count = 20), not 'twenty'"),
    ("[swap]\ncount = 2.5", "[swap] count must be an integer (e.g. count = 20), not 2.5"),
    ("[swap]\ncount = true", "[swap] count must be an integer"),
    ("[swap]\ncount = [1, 2]", "[swap] count takes one value, not a list; write count = 20"),
    ('[ingest]\nnear-dup-threshold = "high"', "[ingest] near-dup-threshold must be a number (e.g. near-dup-threshold = 0.5)"),
    ('[clean]\naction = "shred"', "[clean] action: 'shred' is not one of 'placeholder', 'surrogate', 'hash'"),
    ("[clean]\naction = 3", '[clean] action must be a string in quotes (e.g. action = "placeholder"), not 3'),
    ('[release]\nversion = 1', "[release] version must be a string in quotes"),
    ('[release]\nversion = "0.1.0"\nname = {a = "b"}', "[release] name takes one value, not a table"),
])
def test_option_values_of_the_wrong_type_are_one_line_naming_the_key(tmp_path, section, message):
    path = tmp_path / "p.toml"
    path.write_text(f'[pipeline]\nraw = "r"\n{section}\n')
    result = _dry_run(path)
    assert result.exit_code == 2, result.output
    assert result.output.count("\n") == 1 and result.output.startswith("Error: "), result.output
    assert message in result.output


def test_right_types_pass_and_integers_are_numbers(tmp_path):
    path = tmp_path / "p.toml"
    path.write_text('[pipeline]\nraw = "r"\nstages = ["ingest", "swap"]\n[ingest]\nnear-dup-threshold = 1\n'
                    'exclude = ["a/*", "b/*"]\n[swap]\ncount = 3\nthreshold = 0.4\n')
    result = _dry_run(path)
    assert result.exit_code == 0, result.output
    assert "--near-dup-threshold 1 --exclude 'a/*' --exclude 'b/*'" in result.output and "--count 3" in result.output


KINDS = {int: (click.types.IntParamType,), float: (click.types.FloatParamType,), bool: (click.types.BoolParamType,),
         str: (click.types.StringParamType, click.Choice, click.Path)}


def _base(hint):
    """int for ``int | None``, str for ``tuple[str, ...]`` (a comma list or a repeated option)."""
    args = [a for a in typing.get_args(hint) if a is not type(None) and a is not Ellipsis]
    if typing.get_origin(hint) is tuple:
        return str
    return _base(args[0]) if args else hint


@pytest.mark.parametrize("stage", [s.name for s in stages.STAGES if s.config])
def test_every_option_type_agrees_with_the_stage_config_dataclass(stage):
    entry = stages.get(stage)
    hints = typing.get_type_hints(entry.config_class())
    checked = 0
    for param in pipeline.cli_command(entry).params:
        if param.name in hints:
            assert isinstance(param.type, KINDS[_base(hints[param.name])]), (param.name, hints[param.name], param.type)
            checked += 1
    assert checked >= 3


def test_classify_without_a_model_uses_the_default_one_and_swap_the_bundled_bank(tmp_path):
    """A config that names no topic model and no image bank runs with the defaults (issue 22): no
    --model and no --image-bank in the planned commands; naming a model or a seed passes --model."""
    path = tmp_path / "p.toml"
    path.write_text('[pipeline]\nraw = "r"\nstages = ["ingest", "clean", "classify", "swap"]\n')
    result = _dry_run(path)
    assert result.exit_code == 0, result.output
    assert "classify predict" in result.output and "--model" not in result.output
    assert "--image-bank" not in result.output
    path.write_text('[pipeline]\nraw = "r"\nstages = ["ingest", "clean", "classify"]\n[classify]\nseed = "s"\n')
    result = _dry_run(path)
    assert result.exit_code == 0 and "--model" in result.output, result.output

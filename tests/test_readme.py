"""The README's usage matches the CLI and the Makefile."""

from __future__ import annotations

import re
from pathlib import Path

from builder.cli import main

REPO = Path(__file__).resolve().parents[1]
README = (REPO / "README.md").read_text()


def test_quick_start_is_exactly_make_demo_and_make_test():
    block = README.split("## Quick start", 1)[1].split("```bash", 1)[1].split("```", 1)[0]
    commands = [line.split("#")[0].strip() for line in block.strip().splitlines()]
    assert commands == ["make demo", "make test"]
    makefile = (REPO / "Makefile").read_text()
    assert re.search(r"^demo:", makefile, re.M) and re.search(r"^test:", makefile, re.M)


def test_every_command_in_the_readme_exists():
    mentioned = set(re.findall(r"`mmrc-build ([a-z]+)", README))
    assert mentioned, "README mentions no commands"
    assert mentioned <= set(main.commands), mentioned - set(main.commands)


def test_ci_runs_the_readme_test_command():
    assert "make test" in (REPO / ".ci" / "run").read_text()

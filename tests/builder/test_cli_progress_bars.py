"""The CLI keeps third-party progress bars (transformers' "Loading weights") out of a stage's
output unless the user asks for them: the stages report their own progress, or none with --quiet."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PROBE = ("import builder.cli, huggingface_hub.utils as u, transformers.utils.logging as t; "
         "print(u.are_progress_bars_disabled(), t.is_progress_bar_enabled())")


@pytest.mark.parametrize("setting, disabled", [(None, True), ("0", False), ("1", True)])
def test_the_cli_turns_hub_and_transformers_bars_off_unless_asked(setting, disabled):
    env = {k: v for k, v in os.environ.items() if k != "HF_HUB_DISABLE_PROGRESS_BARS"}
    if setting is not None:
        env["HF_HUB_DISABLE_PROGRESS_BARS"] = setting
    out = subprocess.run([sys.executable, "-c", PROBE], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == [str(disabled), str(not disabled)]

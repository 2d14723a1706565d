"""The eval path runs on a GPU machine that has torch and transformers but neither polars nor
datasets (bench/gpu_eval.sh): imported and run in a subprocess where both are unimportable."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

BLOCK = textwrap.dedent("""
    import importlib.abc, sys

    class Blocked(importlib.abc.MetaPathFinder):
        def find_spec(self, name, path=None, target=None):
            if name.split(".")[0] in ("polars", "datasets"):
                raise ImportError(f"{name} is not installed here")

    sys.meta_path.insert(0, Blocked())
""")


def _python(code: str, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", BLOCK + textwrap.dedent(code)], capture_output=True, text=True,
                          cwd=cwd, timeout=120)


def test_the_blocker_blocks(tmp_path):
    result = _python("import polars", tmp_path)
    assert result.returncode == 1 and "polars is not installed here" in result.stderr


def test_eval_runs_without_polars_and_datasets(eval_release, smoke_model, tmp_path):
    root = Path(__file__).resolve().parents[2]
    result = _python(f"""
        import json, sys
        sys.path.insert(0, {str(root)!r})
        from pathlib import Path
        from builder.eval.backends import BackendSpec
        from builder.eval.run import EvalConfig, run_eval
        import builder.eval.backends.hf, builder.eval.smoke_model  # noqa: F401
        spec = BackendSpec("transformers", {str(smoke_model)!r}, device="cpu", batch_size=4, prefix_cache="off")
        doc = run_eval({str(eval_release)!r}, "v0.1.0", spec, Path({str(tmp_path / 'out')!r}),
                       EvalConfig(max_new_tokens=4, limit=1, configs=("default",)), quiet=True)
        stats = json.loads((Path(doc["path"]) / "manifest.json").read_text())["backend_stats"]["model"]
        print(json.dumps({{"stats": stats,
                          "polars": "polars" in sys.modules, "datasets": "datasets" in sys.modules}}))
    """, tmp_path)
    assert result.returncode == 0, result.stderr[-2000:]
    out = json.loads(result.stdout.strip().splitlines()[-1])
    assert out["polars"] is False and out["datasets"] is False
    assert (out["stats"]["path"], out["stats"]["generated"], out["stats"]["batches"]) == ("cross-dialogue", 6, 2)

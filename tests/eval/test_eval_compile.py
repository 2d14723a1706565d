"""``--compile``: static KV cache + torch.compile of the decode step, recorded in the backend's
stats; where it cannot run, one line on stderr and ``"compiled": false`` with the reason."""

from __future__ import annotations

import pytest

from builder.eval.backends import BackendSpec, Group, Request, make_backend, static_compile


def _groups():
    ask = lambda text: [{"role": "user", "content": [{"type": "text", "text": text}]}]  # noqa: E731
    return [Group([Request(f"q{i}", ask(f"Question {i}: what is in the {'garden ' * i}photo?"), 6) for i in range(4)])]


def _run(model, **spec):
    backend = make_backend(BackendSpec("transformers", str(model), device="cpu", dtype="float32", batch_size=2, **spec))
    out = {}
    backend.run(_groups(), lambda request, reply: out.__setitem__(request.key, reply.text))
    return out, backend


def test_compile_without_a_cpu_compiler_says_so_and_runs_uncompiled(smoke_model, monkeypatch, tmp_path, capsys):
    monkeypatch.setenv("PATH", str(tmp_path))  # no c++, g++ or cc: inductor cannot build CPU kernels here
    reference, _ = _run(smoke_model)
    got, backend = _run(smoke_model, compile=True)
    assert got == reference
    assert backend.stats["compiled"] is False
    assert backend.stats["why"] == "torch.compile on a CPU needs a C++ compiler and none is on PATH"
    assert backend.model.generation_config.cache_implementation is None
    lines = [line for line in capsys.readouterr().err.splitlines() if line.startswith("--compile")]
    assert lines == ["--compile: running uncompiled: torch.compile on a CPU needs a C++ compiler and none is on PATH"]


def test_compile_sets_up_the_static_cache(smoke_model):
    backend = make_backend(BackendSpec("transformers", str(smoke_model), device="cpu", compile=True))
    backend.setup()  # no generate: compiling takes ~40 s on 2 CPU cores (the slow test below does it)
    assert {k: backend.stats[k] for k in ("compiled", "cache", "compile_mode", "prompt_width_multiple")} == \
           {"compiled": True, "cache": "static", "compile_mode": "default", "prompt_width_multiple": 64}
    config = backend._generation_config(8)
    assert config.cache_implementation == "static" and config.compile_config._compile_all_devices is True
    assert backend.width_multiple == static_compile.PROMPT_WIDTH_MULTIPLE


def test_compile_is_recorded_off_by_default_and_refused_for_servers(smoke_model):
    from builder.errors import ConfigError

    backend = make_backend(BackendSpec("transformers", str(smoke_model), device="cpu"))
    backend.setup()
    assert backend.stats["compiled"] is False and "why" not in backend.stats
    with pytest.raises(ConfigError, match="--compile load a model in process"):
        BackendSpec("openai", "m", base_url="http://127.0.0.1:1/v1", compile=True).validate()


@pytest.mark.slow
def test_compiled_answers_equal_uncompiled(smoke_model, request):
    if "slow" not in (request.config.getoption("-m") or ""):
        pytest.skip("compiles for ~40 s on a CPU: run with -m slow")
    reference, _ = _run(smoke_model)
    got, backend = _run(smoke_model, compile=True)
    assert backend.stats["compiled"] is True and hasattr(backend.model, "_compiled_call")
    assert got == reference


def test_cli_records_the_path_that_ran(eval_release, smoke_model, tmp_path, monkeypatch):
    import json
    import os
    import shutil

    from click.testing import CliRunner

    from builder.cli import main
    from conftest import model_dir

    tools = tmp_path / "bin"  # git (the release is read at its tag), and no C++ compiler
    tools.mkdir()
    os.symlink(shutil.which("git"), tools / "git")
    monkeypatch.setenv("PATH", str(tools))
    result = CliRunner().invoke(main, ["eval", "run", str(eval_release), "--revision", "v0.1.0", "--model",
                                       str(smoke_model), "--device", "cpu", "--judge", "none", "--max-new-tokens",
                                       "4", "--limit", "1", "--configs", "default", "--batch-size", "4", "--prefix-cache", "off", "--compile",
                                       "-o", str(tmp_path / "out"), "--quiet"])
    assert result.exit_code == 0, result.output
    assert "--compile: running uncompiled: torch.compile on a CPU needs a C++ compiler" in result.output
    stats = json.loads((model_dir(tmp_path / "out") / "manifest.json").read_text())["backend_stats"]["model"]
    assert {k: stats[k] for k in ("path", "batch_size", "batch_size_rule", "batches", "generated", "compiled")} == \
           {"path": "cross-dialogue", "batch_size": 4, "batch_size_rule": "fixed (--batch-size)", "batches": 2,
            "generated": 6, "compiled": False}
    assert stats["why"] == "torch.compile on a CPU needs a C++ compiler and none is on PATH"

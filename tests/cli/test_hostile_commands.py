"""Hostile input to every command: random JSON records (hypothesis), broken configs and annotation
files, unreachable endpoints, a full disk. Each ends in exit 0 with every record in the ledger, or
in one line that says what is wrong: never a traceback."""

from __future__ import annotations

import errno
import json

import polars as pl
import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from builder.cli import main

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=30),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(
        st.sampled_from(["id", "turns", "messages", "role", "text", "content", "images", "user_id", "model",
                         "language", "conversations", "from", "value", "prompt", "replies", "metadata", "x"]),
        children, max_size=5),
    max_leaves=25)


def one_line_error(result, code: int | None = None) -> bool:
    lines = result.output.strip().splitlines()
    return (result.exit_code != 0 and (code is None or result.exit_code == code) and len(lines) == 1
            and lines[0].startswith("Error: ") and not isinstance(result.exception, (AttributeError, KeyError,
                                                                                     TypeError, IndexError)))


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(records=st.lists(json_values, min_size=1, max_size=8))
def test_random_json_records_all_end_in_the_ledger(tmp_path_factory, records):
    tmp = tmp_path_factory.mktemp("fuzz")
    raw = tmp / "raw"
    raw.mkdir()
    (raw / "logs.jsonl").write_text("".join(json.dumps(r) + "\n" for r in records))
    result = CliRunner().invoke(main, ["ingest", str(raw), "-o", str(tmp / "out"), "--quiet"])
    assert result.exit_code == 0, (result.output, repr(result.exception))
    ledger = pl.read_parquet(tmp / "out" / "ledger.parquet")
    manifest = json.loads((tmp / "out" / "manifest.json").read_text())
    assert ledger.height == manifest["rows"]["in"] == sum(f["records"] for f in manifest["files"])
    assert ledger.height >= len(records)  # every line is at least one ledger row (a tree may be several)


@pytest.mark.parametrize("config, message", [
    (None, "is a folder"),
    (b"\xff\xfe[pipeline]\n", "not UTF-8"),
    (b"pipeline = 3\n", "`pipeline` must be a table"),
    (b'[pipeline]\nstages = [1, 2]\n', "must be a list of stage names"),
    (b'[pipeline]\nstagse = ["ingest"]\n', "unknown key(s) stagse in [pipeline]; available: raw, stages, work"),
    (b'[pipeline]\nraw = "r"\n[clen]\nx = 1\n', "unknown section(s) [clen]; available: [pipeline], [ingest]"),
    (b'[pipeline]\nraw = "r"\nstages = ["ingest", "clen"]\n', "unknown stage 'clen'; available: ingest, clean"),
    (b'[pipeline]\nraw = "r"\n[clean]\ntoxicity-backnd = "lexicon"\n', "unknown option 'toxicity-backnd' in [clean]"),
    (b'[pipeline]\nraw = "r"\n[clean]\nno-pii = "yes"\n', "no-pii is a flag"),
    (b'[pipeline]\nraw = [\n', "not valid TOML"),
    (b"[pipeline]\n" + b"x = [" * 2000 + b"\n", "not valid TOML"),
])
def test_broken_run_configs_are_one_line(tmp_path, config, message):
    path = tmp_path / "p.toml"
    if config is None:
        path.mkdir()
    else:
        path.write_bytes(config)
    result = CliRunner().invoke(main, ["run", str(path)])
    assert one_line_error(result, 2), result.output
    assert message in result.output


@pytest.mark.parametrize("content, message", [
    (bytes(range(256)) * 4, "not UTF-8 text"),
    (b"[" * 100_000 + b"]" * 100_000 + b"\n", "nested too deeply"),
    (b'{"source_id": "x", "n": ' + b"9" * 5000 + b"}\n", "cannot be read"),
    (b"not json\n", "not valid JSON"),
])
def test_hostile_annotation_files_are_one_line(tmp_path, content, message):
    from conftest import dialogue, make_stage_folder

    data = make_stage_folder(tmp_path / "data", [dialogue([("user", "hi"), ("assistant", "hello")], source_id="x")])
    path = tmp_path / "q.jsonl"
    path.write_bytes(content)
    result = CliRunner().invoke(main, ["questions", "import", str(path), "--data", str(data), "-o",
                                       str(tmp_path / "q.parquet")])
    assert one_line_error(result), result.output
    assert message in result.output


def test_unreachable_hub_is_one_line(tmp_path, monkeypatch):

    from eval_fixtures import build_release

    release = build_release(tmp_path, n=1)
    monkeypatch.setenv("HF_TOKEN", "hf_secret_value_x")
    monkeypatch.setenv("HF_ENDPOINT", "http://127.0.0.1:9")
    monkeypatch.setattr("huggingface_hub.constants.ENDPOINT", "http://127.0.0.1:9")
    result = CliRunner().invoke(main, ["publish", str(release), "--repo-id", "org/x"])
    assert one_line_error(result, 3), result.output
    assert "cannot reach the Hub" in result.output and "hf_secret_value_x" not in result.output


def test_a_full_disk_is_one_line_naming_the_folder(tmp_path, monkeypatch):
    from builder import io
    from conftest import dialogue, make_stage_folder

    data = make_stage_folder(tmp_path / "in", [dialogue([("user", "hi there"), ("assistant", "hello")])])
    real = io.write_parquet_atomic

    def full(df, path):
        if "part-" in str(path):
            raise OSError(errno.ENOSPC, "No space left on device", str(path))
        return real(df, path)

    monkeypatch.setattr(io, "write_parquet_atomic", full)
    result = CliRunner().invoke(main, ["clean", str(data), "-o", str(tmp_path / "out"), "--toxicity-backend",
                                       "lexicon", "--no-pii", "--quiet"])
    assert one_line_error(result, 3), result.output
    assert "no space left" in result.output and "df -h" in result.output and str(tmp_path) in result.output


@pytest.mark.parametrize("stage", ["ingest", "clean"])
def test_force_never_deletes_what_the_tool_did_not_write(tmp_path, stage):
    from conftest import dialogue, make_stage_folder

    precious = tmp_path / "mine"
    precious.mkdir()
    (precious / "thesis.txt").write_text("years of work")
    if stage == "ingest":
        raw = tmp_path / "raw"
        raw.mkdir()
        (raw / "a.jsonl").write_text(json.dumps({"turns": [{"role": "user", "text": "hi"}]}) + "\n")
        args = ["ingest", str(raw)]
        inputs = raw
    else:
        inputs = make_stage_folder(tmp_path / "in", [dialogue([("user", "hi there"), ("assistant", "hello")])])
        args = ["clean", str(inputs), "--toxicity-backend", "lexicon", "--no-pii"]
    result = CliRunner().invoke(main, [*args, "-o", str(precious), "--force", "--quiet"])
    assert result.exit_code == 4 and "not a folder mmrc-build wrote" in result.output
    assert (precious / "thesis.txt").read_text() == "years of work"
    for target in (inputs, inputs.parent):  # the input itself, or a folder holding it
        result = CliRunner().invoke(main, [*args, "-o", str(target), "--force", "--quiet"])
        assert result.exit_code == 2 and "input" in result.output, result.output
    assert inputs.is_dir() and any(inputs.iterdir())


def _path_case(case, tmp_path, finished_run, eval_release):
    """(args, what the one line names) for an output path the machine cannot make."""
    from qr_fixtures import data_folder

    in_the_way = tmp_path / "a-file"
    in_the_way.write_text("not a folder")
    long_name = tmp_path / ("x" * 300)
    if case == "eval run -o under a file":
        return (["eval", "run", str(eval_release), "--revision", "v0.1.0", "--backend", "openai", "--base-url",
                 "http://127.0.0.1:9/v1", "--model", "m", "--judge", "none", "-o", str(in_the_way / "evals")],
                "a-file")
    if case == "eval run -o with a name over 255 bytes":
        return (["eval", "run", str(eval_release), "--revision", "v0.1.0", "--backend", "openai", "--base-url",
                 "http://127.0.0.1:9/v1", "--model", "m", "--judge", "none", "-o", str(long_name)], "xxxx")
    if case == "review export -o with a name over 255 bytes":
        return ["eval", "review", "export", str(finished_run), "-o", str(long_name) + ".csv"], "xxxx"
    if case == "review export -o under a file":
        return ["eval", "review", "export", str(finished_run), "-o", str(in_the_way / "s.csv")], "a-file"
    if case == "questions export -o under a file":
        data = data_folder(tmp_path / "classified", n=1)[0]
        return ["questions", "export", "--data", str(data), "-o", str(in_the_way / "t.csv")], "a-file"
    if case == "eval report where leaderboard.md is a folder":
        from conftest import copy_run

        run = copy_run(finished_run, tmp_path)
        (run.parent.parent / "leaderboard.md").mkdir()
        return ["eval", "report", str(run.parent.parent)], "leaderboard.md"
    raise AssertionError(case)


@pytest.mark.parametrize("case", ["eval run -o under a file", "eval run -o with a name over 255 bytes",
                                  "review export -o with a name over 255 bytes", "review export -o under a file",
                                  "questions export -o under a file", "eval report where leaderboard.md is a folder"])
def test_an_output_path_the_machine_cannot_make_is_one_line(tmp_path, finished_run, eval_release, case):
    args, named = _path_case(case, tmp_path, finished_run, eval_release)
    result = CliRunner().invoke(main, args)
    assert one_line_error(result, 3), (result.output, repr(result.exception))
    assert named in result.output and "; " in result.output
    assert (tmp_path / "a-file").read_text() == "not a folder"

"""A crash at any point of any parts stage, then a plain rerun, gives the bytes of an uninterrupted
run: at the start (setup), mid-shard, after the last shard's marker, and inside the commit."""

from __future__ import annotations

import hashlib
from pathlib import Path

import polars as pl
import pytest
from click.testing import CliRunner

from builder.cli import main
from conftest import dialogue, make_stage_folder

pytestmark = pytest.mark.timeout(600)
REPO = Path(__file__).resolve().parents[2]
TOPICS = {"Food": ["How long do I boil an egg?", "Give me a recipe for tomato soup with basil.",
                   "What spices go into a curry?", "Is sourdough bread healthy to eat?"],
          "Travel": ["Plan three days in Rome for me.", "Which documents do I need to fly to Japan?",
                     "Cheap hotels near the Eiffel Tower?", "Is the train from Oslo to Bergen scenic?"]}


class Crash(Exception):
    pass


def _rows() -> list[dict]:
    rows = []
    for topic, questions in TOPICS.items():
        for k, q in enumerate(questions):
            rows.append(dialogue([("user", f"{q} I visited the Colosseum last year."),
                                  ("assistant", "Here is what I would suggest for you."),
                                  ("user", "Thanks, and what about a pizza place nearby?"),
                                  ("assistant", "Try a small family place.")], source_id=f"{topic}-{k}", topic=topic))
    return rows


@pytest.fixture(scope="module")
def setup_dirs(tmp_path_factory):
    root = tmp_path_factory.mktemp("kill")
    rows = _rows()
    data = make_stage_folder(root / "in", [{**r, "topic": None} for r in rows], stage="clean", parts=4)
    labels = root / "labels.csv"
    pl.DataFrame({"source_id": [r["source_id"] for r in rows], "topic": [r["topic"] for r in rows]}).write_csv(labels)
    result = CliRunner().invoke(main, ["classify", "train", "--data", str(data), "--labels", str(labels), "-o",
                                       str(root / "model"), "--embedder", "all-MiniLM-L6-v2", "--folds", "2",
                                       "--epochs", "10"])
    assert result.exit_code == 0, result.output
    return root, data


def _args(stage: str, root: Path, data: Path, out: Path) -> list[str]:
    if stage == "clean":
        return ["clean", str(data), "-o", str(out), "--toxicity-backend", "lexicon", "--quiet"]
    if stage == "classify":
        return ["classify", "predict", str(data), "-o", str(out), "--model", str(root / "model"), "--quiet"]
    return ["swap", str(data), "-o", str(out), "--image-bank", str(REPO / "builder" / "swap" / "image_bank"), "--embedder",
            "all-MiniLM-L6-v2", "--count", "3", "--device", "cpu", "--quiet"]


def _sums(folder: Path) -> dict[str, str]:
    files = sorted(folder.glob("part-*.parquet")) + [folder / "ledger.parquet"]
    return {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in files}


def _crash_at(point: str, monkeypatch):
    from builder import engine, io

    if point == "start":
        def setup(self, device):
            raise Crash("killed in setup")
        monkeypatch.setattr(engine.ShardWorker, "setup", setup)
    elif point == "mid-shard":
        real = engine.ShardWorker.__call__
        seen = []

        def call(self, index):
            seen.append(index)
            if len(seen) == 3:
                raise Crash("killed in shard 3")
            return real(self, index)
        monkeypatch.setattr(engine.ShardWorker, "__call__", call)
    elif point == "after-last-shard":
        real_merge = engine.merge_stats
        monkeypatch.setattr(engine, "merge_stats", lambda *a: (_ for _ in ()).throw(Crash("killed after shards")))
        return real_merge
    elif point == "in-commit":
        real = io.write_text_atomic

        def write(path, text):
            if Path(path).name == io.MANIFEST:
                real(path, text)
                raise Crash("killed after the manifest, before the rename")
            return real(path, text)
        monkeypatch.setattr(io, "write_text_atomic", write)


@pytest.mark.parametrize("point", ["start", "mid-shard", "after-last-shard", "in-commit"])
@pytest.mark.parametrize("stage", ["clean", "classify", "swap"])
def test_a_crash_anywhere_then_a_rerun_gives_the_same_bytes(setup_dirs, tmp_path, stage, point):
    root, data = setup_dirs
    reference = CliRunner().invoke(main, _args(stage, root, data, tmp_path / "reference"))
    assert reference.exit_code == 0, reference.output
    out = tmp_path / "crashed"
    with pytest.MonkeyPatch.context() as mp:
        _crash_at(point, mp)
        crashed = CliRunner().invoke(main, _args(stage, root, data, out))
    assert isinstance(crashed.exception, Crash), (crashed.output, crashed.exception)
    assert not (out / "_SUCCESS").exists()
    resumed = CliRunner().invoke(main, _args(stage, root, data, out))
    assert resumed.exit_code == 0, (resumed.output, resumed.exception)
    assert _sums(out) == _sums(tmp_path / "reference")


def _raw(tmp: Path) -> Path:
    import json

    raw = tmp / "raw"
    raw.mkdir()
    for f in range(4):
        lines = [json.dumps({"id": f"f{f}-{k}", "turns": [{"role": "user", "text": f"Question {f}-{k} about Rome?"},
                                                           {"role": "assistant", "text": "Answer."},
                                                           {"role": "user", "text": f"And about Paris {k}?"},
                                                           {"role": "assistant", "text": "Also nice."}]})
                 for k in range(6)]
        (raw / f"log-{f}.jsonl").write_text("\n".join(lines) + "\n")
    return raw


@pytest.mark.parametrize("point", ["reading", "after-reading", "torn-after-reading", "writing-parts", "in-commit"])
def test_ingest_crash_anywhere_then_a_rerun_gives_the_same_bytes(tmp_path, point):
    from builder import io
    from builder.ingest import stage as ingest_stage

    raw = _raw(tmp_path)
    args = lambda out: ["ingest", str(raw), "-o", str(out), "--shard-rows", "5", "--quiet"]  # noqa: E731
    assert CliRunner().invoke(main, args(tmp_path / "reference")).exit_code == 0
    out = tmp_path / "crashed"
    with pytest.MonkeyPatch.context() as mp:
        if point == "reading":
            real = ingest_stage.ingest_file
            mp.setattr(ingest_stage, "ingest_file",
                       lambda idx, *a: real(idx, *a) if idx < 2 else (_ for _ in ()).throw(Crash("file 3")))
        elif point in ("after-reading", "torn-after-reading"):
            mp.setattr(ingest_stage, "decide", lambda *a: (_ for _ in ()).throw(Crash("after phase 1")))
        elif point == "writing-parts":
            real_write = io.write_dialogues
            calls = []

            def write(df, path):
                calls.append(path)
                if len(calls) == 2:
                    raise Crash("part 2")
                return real_write(df, path)
            mp.setattr(io, "write_dialogues", write)
        else:
            real_text = io.write_text_atomic

            def text(path, value):
                real_text(path, value)
                if Path(path).name == io.MANIFEST:
                    raise Crash("in commit")
            mp.setattr(io, "write_text_atomic", text)
        crashed = CliRunner().invoke(main, args(out))
    assert isinstance(crashed.exception, Crash), (crashed.output, crashed.exception)
    if point == "torn-after-reading":  # a chunk changed behind its file's done-marker: that file is read again
        chunk = sorted((out.parent / f".{out.name}.partial" / "_work" / "rows").glob("*.parquet"))[1]
        chunk.write_bytes(b"torn")
    resumed = CliRunner().invoke(main, args(out))
    assert resumed.exit_code == 0, resumed.output
    assert _sums(out) == _sums(tmp_path / "reference") and len(_sums(out)) == 6

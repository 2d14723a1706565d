"""release/README.md's Question schema examples are valid questions for the importer."""

from __future__ import annotations

import json
from pathlib import Path

import polars as pl
from click.testing import CliRunner

from builder.cli import main
from builder.records import ABILITIES
from conftest import dialogue, make_stage_folder
from qr_fixtures import image

README = Path(__file__).resolve().parents[2] / "release" / "README.md"


def examples() -> list[dict]:
    block = README.read_text().split("### One example per ability", 1)[1].split("```jsonl", 1)[1].split("```", 1)[0]
    return [json.loads(line) for line in block.strip().splitlines()]


def test_one_example_per_ability_and_they_import(tmp_path):
    rows = examples()
    assert [r["ability"] for r in rows] == list(ABILITIES)
    kitchen, kd = image((200, 200, 200))
    garden, gd = image((20, 160, 40))
    convo = dialogue([("user", "My kitchen walls are blue."), ("assistant", "Nice."),
                      ("user", "And here is the garden."), ("assistant", "Roses, tulips and a lemon tree."),
                      ("user", "We repainted the kitchen yellow."), ("assistant", "Cheerful!")],
                     images={0: [kitchen], 2: [garden]}, source_id="conv-7")
    make_stage_folder(tmp_path / "data", [convo], images={kitchen["sha256"]: kd, garden["sha256"]: gd}, stage="classify")
    path = tmp_path / "q.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    result = CliRunner().invoke(main, ["questions", "import", str(path), "--data", str(tmp_path / "data"),
                                       "-o", str(tmp_path / "q.parquet")])
    assert result.exit_code == 0, result.output
    imported = pl.read_parquet(tmp_path / "q.parquet")
    assert imported["ability"].to_list() == list(ABILITIES)
    assert imported.filter(pl.col("ability") == "IM")["gold_images"].to_list() == [[1]]

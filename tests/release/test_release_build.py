"""`mmrc-build release`: load_dataset round trip, card, overwrite refusal, determinism."""

from __future__ import annotations

import json
import subprocess

import polars as pl
import pytest
from click.testing import CliRunner

from builder.cli import main
from qr_fixtures import corpus, data_folder, questions_file, six_questions, write_jsonl
from conftest import make_stage_folder


def release(tmp_path, data, questions, version="0.1.0", releases="rel", *extra):
    return CliRunner().invoke(main, ["release", "--version", version, "--data", str(data), "--questions",
                                     str(questions), "--releases-dir", str(tmp_path / releases), *extra])


@pytest.fixture()
def built(tmp_path):
    folder, rows = data_folder(tmp_path / "data", n=3)
    q = questions_file(tmp_path / "q.jsonl", rows)
    result = release(tmp_path, folder, q)
    assert result.exit_code == 0, result.output
    return tmp_path / "rel" / "mmrc-v0.1.0", rows, folder


def test_load_dataset_round_trip_equals_records(built):
    from datasets import load_dataset

    path, rows, data = built
    ds = load_dataset(str(path), split="test")
    assert ds["dialogue_id"] == sorted(r["dialogue_id"] for r in rows)
    table = ds.with_format("arrow")[:]
    by_id = {r["dialogue_id"]: r for r in rows}
    store = data / "images"
    for got in table.to_pylist():
        want = by_id[got["dialogue_id"]]
        assert [t["text"] for t in got["turns"]] == [t["text"] for t in want["turns"]]
        for gt, wt in zip(got["turns"], want["turns"]):
            assert [i["sha256"] for i in gt["images"]] == [i["sha256"] for i in wt["images"]]
            for img in gt["images"]:
                raw = (store / img["sha256"][:2] / f"{img['sha256']}.png").read_bytes()
                assert img["image"]["bytes"] == raw
        assert [q["ability"] for q in got["questions"]] == ["IE", "CR", "IU", "IM", "MR", "AR"]
        assert got["questions"][1]["choices"] == ["kitchen", "garden"]
        assert got["questions"][5]["should_refuse"] is True
    first = ds[0]["turns"][0]["images"][0]["image"]  # decoded as a datasets.Image inside nested turns
    assert first.size == (32, 24)
    questions = load_dataset(str(path), "questions", split="test")
    assert questions.num_rows == 18 and set(questions["ability"]) == {"IE", "CR", "IU", "IM", "MR", "AR"}


def test_card_yaml_validates_and_files_are_listed(built):
    from huggingface_hub import DatasetCard

    from builder.release.card import check_card

    path, rows, _ = built
    card = DatasetCard.load(path / "README.md")
    assert card.data.license == "other" and card.data.size_categories == ["n<1K"]  # no sources file, no --license
    assert [c["config_name"] for c in card.data.configs] == ["default", "questions"]
    check_card((path / "README.md").read_text(), ["data/default/test-00000-of-00001.parquet",
                                                  "data/questions/test-00000-of-00001.parquet"])
    text = card.text
    for section in ("From raw logs", "Statistics", "Licence", "Ethics", "Citation", "figures/topics.png"):
        assert section in text
    assert "| IM (image management) | 3 | 0 | 0 | 3 |" in text
    stats = json.loads((path / "stats.json").read_text())
    assert stats["questions_per_ability"]["AR"] == 3 and stats["avg_images_per_dialogue"] == 1.67
    assert (path / "figures" / "turn_lengths.png").read_bytes()[:4] == b"\x89PNG"
    sums = dict(line.split("  ")[::-1] for line in (path / "SHA256SUMS").read_text().splitlines())
    assert set(sums) == {"CHANGELOG.md", "README.md", "manifest.json", "stats.json", "figures/topics.png",
                         "figures/turn_lengths.png", "data/default/test-00000-of-00001.parquet",
                         "data/questions/test-00000-of-00001.parquet"}


def test_card_check_rejects_bad_yaml():
    from builder.errors import ValidationError
    from builder.release.card import check_card

    with pytest.raises(ValidationError, match="license 'wtfpl-9'"):
        check_card("---\nlicense: wtfpl-9\nconfigs:\n- config_name: default\n  data_files: d/*.parquet\n"
                   "dataset_info:\n  features:\n  - name: a\n    dtype: string\n---\n")


def test_existing_version_is_never_overwritten(tmp_path, built):
    path, _, data = built
    before = (path / "SHA256SUMS").read_bytes()
    q = tmp_path / "q.jsonl"
    again = release(tmp_path, data, q)
    assert again.exit_code == 4 and "never overwritten" in again.output and "0.1.1" in again.output
    older = release(tmp_path, data, q, "0.0.9")
    assert older.exit_code == 2 and "not newer than the latest release 0.1.0" in older.output
    bad = release(tmp_path, data, q, "1.0")
    assert bad.exit_code == 2 and "not a semantic version" in bad.output
    assert (path / "SHA256SUMS").read_bytes() == before


def test_rebuild_is_byte_identical(tmp_path, built):
    path, _, data = built
    assert release(tmp_path, data, tmp_path / "q.jsonl", "0.1.0", "rel2").exit_code == 0
    other = tmp_path / "rel2" / "mmrc-v0.1.0"
    files = sorted(p.relative_to(path) for p in path.rglob("*") if p.is_file() and ".git" not in p.parts)
    assert files and all((path / f).read_bytes() == (other / f).read_bytes() for f in files)
    head = [subprocess.run(["git", "rev-parse", "v0.1.0^{commit}"], cwd=p, capture_output=True, text=True).stdout
            for p in (path, other)]
    assert head[0] == head[1] and len(head[0].strip()) == 40


def test_missing_abilities_fail_unless_allowed(tmp_path):
    folder, rows = data_folder(tmp_path / "data", n=2)
    q = write_jsonl(tmp_path / "q.jsonl", six_questions(rows[0]["source_id"]) + six_questions(rows[1]["source_id"])[:5])
    bad = release(tmp_path, folder, q)
    assert bad.exit_code == 6 and "1 dialogue(s) lack some of the six abilities" in bad.output
    assert "lacks AR" in bad.output
    assert not (tmp_path / "rel" / "mmrc-v0.1.0").exists()
    ok = release(tmp_path, folder, q, "0.1.0", "rel", "--allow-missing-abilities")
    assert ok.exit_code == 0, ok.output


def test_modality_swap_config_carries_original_questions(tmp_path):
    from datasets import load_dataset

    rows, blobs = corpus(2)
    variant = {**rows[0], "dialogue_id": "v" * 32, "variant_of": rows[0]["dialogue_id"],
               "swaps": [{"turn": 2, "original": "garden", "replacement": "<image>", "image_sha256": None,
                          "image_source": "bank", "score": 0.9}]}
    make_stage_folder(tmp_path / "swapped", rows + [variant], images=blobs, stage="swap")
    q = questions_file(tmp_path / "q.jsonl", rows)
    result = release(tmp_path, tmp_path / "swapped", q)
    assert result.exit_code == 0, result.output
    path = tmp_path / "rel" / "mmrc-v0.1.0"
    swapped = load_dataset(str(path), "modality_swap", split="test")
    assert swapped["variant_of"] == [rows[0]["dialogue_id"]]
    assert len(swapped[0]["questions"]) == 6 and swapped[0]["swaps"][0]["original"] == "garden"
    assert load_dataset(str(path), split="test").num_rows == 2
    assert pl.read_parquet(path / "data/default").height == 2


def test_imported_parquet_releases_and_missing_image_is_one_line(tmp_path):
    folder, rows = data_folder(tmp_path / "data", n=2)
    q = questions_file(tmp_path / "q.jsonl", rows)
    runner = CliRunner()
    imported = runner.invoke(main, ["questions", "import", str(q), "--data", str(folder),
                                    "-o", str(tmp_path / "q.parquet")])
    assert imported.exit_code == 0, imported.output
    sha = rows[0]["turns"][0]["images"][0]["sha256"]
    (folder / "images" / sha[:2] / f"{sha}.png").unlink()
    broken = release(tmp_path, folder, tmp_path / "q.parquet")
    assert broken.exit_code == 3 and f"image {sha} of dialogue" in broken.output
    assert not (tmp_path / "rel" / "mmrc-v0.1.0").exists()
    folder2, rows2 = data_folder(tmp_path / "data2", n=2)
    ok = release(tmp_path, folder2, tmp_path / "q.parquet")
    assert ok.exit_code == 0, ok.output
    assert "2 dialogues, 12 questions" in ok.output

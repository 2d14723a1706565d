"""Modality-swap variants in a release: their questions name the same pictures as the original's."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from builder.cli import main
from builder.images import ImageInfo
from builder.release.variants import image_map
from builder.swap.rewrite import Edit, Rewrite
from builder.swap.variant import PlannedSwap, build_variant
from conftest import make_stage_folder
from qr_fixtures import corpus, image, six_questions, write_jsonl


def swap_in_first_turn(row: dict, photo: dict) -> dict:
    """The real variant builder: turn 0's "kitchen" becomes "this room" plus ``photo``."""
    text = row["turns"][0]["text"]
    start = text.index("kitchen")
    rewrite = Rewrite(text[:start] + "this room" + text[start + len("kitchen"):],
                      (Edit(start, start + len("kitchen"), "kitchen", "this room"),))
    info = ImageInfo(photo["sha256"], photo["mime"], photo["width"], photo["height"])
    return build_variant(row, [PlannedSwap(turn=0, candidate=None, rewrite=rewrite, image_key="kitchen",
                                           image=info, source="bank", score=0.9)])


def flat_shas(turns: list[dict]) -> list[str]:
    return [im["sha256"] for t in turns for im in t["images"]]


def test_variant_gold_images_point_at_the_original_pixels(tmp_path):
    from datasets import load_dataset

    rows, blobs = corpus(2)
    original = rows[0]  # images: turn 0 [a], turn 2 [b]
    photo, photo_bytes = image((1, 2, 3), size=(16, 16))
    variant = swap_in_first_turn(original, photo)  # images: turn 0 [a, photo], turn 2 [b]
    assert flat_shas(variant["turns"]) == [flat_shas(original["turns"])[0], photo["sha256"],
                                           flat_shas(original["turns"])[1]]
    make_stage_folder(tmp_path / "swapped", rows + [variant], images={**blobs, photo["sha256"]: photo_bytes},
                      stage="swap")
    questions = [q for r in rows for q in six_questions(r["source_id"])]
    garden = {**questions[3], "question": "Which image shows the garden?", "gold_images": [1], "gold_turns": [2]}
    both = {**questions[3], "question": "Which images did the user send?", "gold_images": [0, 1]}
    q = write_jsonl(tmp_path / "q.jsonl", questions + [garden, both])
    result = CliRunner().invoke(main, ["release", "--version", "0.1.0", "--data", str(tmp_path / "swapped"),
                                       "--questions", str(q), "--releases-dir", str(tmp_path / "rel")])
    assert result.exit_code == 0, result.output
    path = tmp_path / "rel" / "mmrc-v0.1.0"
    released = {r["dialogue_id"]: r for r in load_dataset(str(path), split="test").with_format("arrow")[:].to_pylist()}
    swapped = load_dataset(str(path), "modality_swap", split="test").with_format("arrow")[:].to_pylist()
    assert [v["variant_of"] for v in swapped] == [original["dialogue_id"]]
    got, want = swapped[0], released[original["dialogue_id"]]
    by_question = {(q["ability"], q["question"]): q for q in want["questions"]}
    assert len(got["questions"]) == len(want["questions"]) == 8
    moved = 0
    for vq in got["questions"]:
        oq = by_question[(vq["ability"], vq["question"])]
        assert [flat_shas(got["turns"])[i] for i in vq["gold_images"]] == \
            [flat_shas(want["turns"])[i] for i in oq["gold_images"]]
        assert vq["gold_turns"] == oq["gold_turns"]
        moved += vq["gold_images"] != oq["gold_images"]
    assert moved == 2  # the garden image moved from 1 to 2 in both questions that name it
    garden_q = next(v for v in got["questions"] if v["question"] == "Which image shows the garden?")
    assert garden_q["gold_images"] == [2]
    # the questions config still describes the original dialogues
    qs = load_dataset(str(path), "questions", split="test")
    assert [x for x, text in zip(qs["gold_images"], qs["question"]) if text == "Which image shows the garden?"] \
        == [[1]]


def test_image_map_refuses_a_variant_that_lost_an_image():
    from builder.errors import ValidationError

    rows, _ = corpus(1)
    original = rows[0]
    broken = [{**t, "images": []} if t["index"] == 2 else t for t in original["turns"]]
    with pytest.raises(ValidationError, match="lost image .* of turn 2"):
        image_map(original["turns"], broken, "v1")
    assert image_map(original["turns"], original["turns"], "v1") == {0: 0, 1: 1}

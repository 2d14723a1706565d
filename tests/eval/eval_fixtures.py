"""A small real release (originals + modality-swap variants + six questions each) and the smoke
model, built by the real `release` and `eval smoke-model` code for the eval tests."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from conftest import dialogue, make_stage_folder, png_bytes

TEXTS = [
    ("Here is my kitchen, photo {k}. What colour are the walls?", "The walls look light blue in photo {k}."),
    ("And this is the garden. Which plants are there?", "Roses, tulips and a small lemon tree."),
    ("Actually the walls are green now, we repainted.", "Noted: the walls are green now."),
]


def _image(color, size=(32, 24)) -> tuple[dict, bytes]:
    data = png_bytes(color=color, size=size)
    return {"sha256": hashlib.sha256(data).hexdigest(), "mime": "image/png", "width": size[0], "height": size[1],
            "url": None}, data


def corpus(n: int) -> tuple[list[dict], dict[str, bytes]]:
    """``n`` originals of 4 or 6 turns with 2 images, and a modality-swap variant of every other one."""
    rows, blobs = [], {}
    for k in range(n):
        a, ad = _image((20 * k % 256, 40, 90))
        b, bd = _image((200, 20 * k % 256, 30), size=(20, 28))
        blobs[a["sha256"]], blobs[b["sha256"]] = ad, bd
        turns = []
        for user, assistant in TEXTS[: 2 + k % 2]:
            turns += [("user", user.format(k=k)), ("assistant", assistant.format(k=k))]
        meta = dict(source="logs/eval.jsonl", topic="House" if k % 2 else "Food", topic_group="daily_life",
                    topic_scores=[0.5] * 14, language="en")
        original = dialogue(turns, images={0: [a], 2: [b]}, source_id=f"conv-{k}", **meta)
        rows.append(original)
        if k % 2 == 0:
            c, cd = _image((5, 5, 200 - k), size=(24, 24))
            blobs[c["sha256"]] = cd
            swapped = [(role, text.replace("kitchen", "this room")) for role, text in turns]
            variant = dialogue(swapped, images={0: [c, a], 2: [b]}, source_id=f"conv-{k}", **meta)
            variant["variant_of"] = original["dialogue_id"]
            variant["swaps"] = [{"turn": 0, "original": "kitchen", "replacement": "this room",
                                 "image_sha256": c["sha256"], "image_source": "bank", "score": 0.9}]
            rows.append(variant)
    return rows, blobs


def six_questions(source_id: str) -> list[dict]:
    common = {"source_id": source_id, "annotators": ["ann1"]}
    return [
        {**common, "ability": "IE", "format": "open", "question": "Which plants are in the garden?",
         "answer": "Roses, tulips, lemon tree", "gold_items": ["roses", "tulips", "lemon tree"], "gold_turns": [3]},
        {**common, "ability": "CR", "format": "mcq", "question": "Which room was shown first?",
         "choices": ["garden", "kitchen"], "answer": "kitchen", "gold_turns": [0, 2]},
        {**common, "ability": "IU", "format": "tf", "question": "True or false: the walls are light blue.",
         "answer": "false", "gold_turns": [1]},
        {**common, "ability": "IM", "format": "open", "question": "Which image shows the garden?",
         "answer": "The second image.", "gold_images": [1], "gold_turns": [2]},
        {**common, "ability": "MR", "format": "open", "question": "What colour were the walls at first?",
         "answer": "light blue", "gold_turns": [1]},
        {**common, "ability": "AR", "format": "open", "question": "What is the user's street address?",
         "answer": "The conversation does not say.", "should_refuse": True},
    ]


def build_release(tmp: Path, n: int = 4, version: str = "0.1.0") -> Path:
    """release folder ``tmp/rel/mmrc-v<version>`` built by `mmrc-build release`."""
    from click.testing import CliRunner

    from builder.cli import main

    rows, blobs = corpus(n)
    data = make_stage_folder(tmp / "data", rows, images=blobs, stage="swap")
    questions = tmp / "questions.jsonl"
    questions.write_text("".join(json.dumps(q) + "\n" for k in range(n) for q in six_questions(f"conv-{k}")))
    result = CliRunner().invoke(main, ["release", "--version", version, "--data", str(data), "--questions",
                                       str(questions), "--releases-dir", str(tmp / "rel")])
    assert result.exit_code == 0, result.output
    return tmp / "rel" / f"mmrc-v{version}"


"""Small corpora with images and six-ability questions, for the questions/release/publish tests."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from conftest import dialogue, make_stage_folder, png_bytes


def image(color, size=(32, 24)) -> tuple[dict, bytes]:
    data = png_bytes(color=color, size=size)
    ref = {"sha256": hashlib.sha256(data).hexdigest(), "mime": "image/png", "width": size[0], "height": size[1],
           "url": None}
    return ref, data


def corpus(n: int = 3, offset: int = 0) -> tuple[list[dict], dict[str, bytes]]:
    """``n`` dialogues (4 turns, 1-2 images each), with topics, ids ``conv-<k>``."""
    rows, blobs = [], {}
    for k in range(offset, offset + n):
        a, ad = image((10 * k % 256, 40, 90))
        b, bd = image((200, 10 * k % 256, 30), size=(20, 20))
        imgs = {0: [a]} if k % 2 else {0: [a], 2: [b]}
        blobs[a["sha256"]] = ad
        if not k % 2:
            blobs[b["sha256"]] = bd
        rows.append(dialogue(
            [("user", f"Here is my kitchen photo number {k}. What colour are the walls?"),
             ("assistant", f"The walls look light blue in photo {k}."),
             ("user", "And this one is the garden, which plants are there?"),
             ("assistant", "Roses, tulips and a small lemon tree.")],
            images=imgs, source_id=f"conv-{k}", source="logs/sample.jsonl",
            topic="House" if k % 2 else "Food",
            topic_group="daily_life", topic_scores=[0.5] * 14, language="en",
        ))
    return rows, blobs


def data_folder(path: Path, n: int = 3, offset: int = 0, stage: str = "classify") -> tuple[Path, list[dict]]:
    rows, blobs = corpus(n, offset)
    make_stage_folder(path, rows, images=blobs, stage=stage)
    return path, rows


def six_questions(source_id: str, annotator: str = "ann1") -> list[dict]:
    common = {"source_id": source_id, "annotators": [annotator]}
    return [
        {**common, "ability": "IE", "format": "open", "question": "Which plants are in the garden?",
         "answer": "Roses, tulips, lemon tree", "gold_items": ["roses", "tulips", "lemon tree"], "gold_turns": [3]},
        {**common, "ability": "CR", "format": "mcq", "question": "What was shown first?",
         "choices": ["kitchen", "garden"], "answer": "kitchen", "gold_turns": [0, 2]},
        {**common, "ability": "IU", "format": "tf", "question": "Are the walls light blue?", "answer": "True",
         "gold_turns": [1]},
        {**common, "ability": "IM", "format": "open", "question": "Which image shows the kitchen?",
         "answer": "the first", "gold_images": [0]},
        {**common, "ability": "MR", "format": "open", "question": "What colour were the walls?",
         "answer": "light blue", "gold_turns": [1]},
        {**common, "ability": "AR", "format": "open", "question": "What is the user's address?",
         "answer": "", "should_refuse": True},
    ]


def write_jsonl(path: Path, rows: list[dict]) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    return path


def questions_file(path: Path, rows: list[dict]) -> Path:
    return write_jsonl(path, [q for r in rows for q in six_questions(r["source_id"])])

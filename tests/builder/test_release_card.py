"""The card tells the truth about the data: languages, sources and licences, toxicity backend,
images per dialogue, swap variants, loading example, word counts, annotated-only releases."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from builder.cli import main
from conftest import dialogue, make_stage_folder
from qr_fixtures import image, six_questions, write_jsonl

TEXTS = {
    "en": [("user", "Here is a photo of my kitchen. Which colour would suit the walls in winter?"),
           ("assistant", "A warm light yellow would brighten the room on dark days.")],
    "ru": [("user", "Вот фотография моей кухни. Какой цвет подойдёт для стен зимой?"),
           ("assistant", "Тёплый светло-жёлтый цвет сделает комнату светлее в тёмные дни.")],
    "zh": [("user", "这是我厨房的照片。冬天墙壁刷什么颜色比较合适？我想让房间看起来更温暖一些。"),
           ("assistant", "温暖的浅黄色会让房间在阴暗的日子里显得更明亮。")],
}


def multilingual_rows(recorded: dict[str, str | None] | None = None) -> tuple[list[dict], dict[str, bytes]]:
    """One dialogue per language of TEXTS (source_id = the language); ``recorded`` overrides the
    language field a log claimed (default: the true one)."""
    rows, blobs = [], {}
    for k, (lang, turns) in enumerate(TEXTS.items()):
        ref, data = image((40 * k, 90, 120))
        blobs[ref["sha256"]] = data
        claimed = (recorded or {}).get(lang, lang)
        rows.append(dialogue(turns * 2, images={0: [ref]}, source_id=lang, source=f"{lang}-logs/part.jsonl",
                             language=claimed, topic="House", topic_group="daily_life", topic_scores=[0.5] * 14))
    return rows, blobs


def release(tmp_path, data, questions, *extra, version="0.1.0"):
    return CliRunner().invoke(main, ["release", "--version", version, "--data", str(data), "--questions",
                                     str(questions), "--releases-dir", str(tmp_path / "rel"), *extra])


@pytest.fixture()
def multilingual(tmp_path):
    rows, blobs = multilingual_rows(recorded={"zh": "en", "ru": None})  # a log that claimed English for Chinese
    make_stage_folder(tmp_path / "data", rows, images=blobs, stage="classify")
    q = write_jsonl(tmp_path / "q.jsonl", [q for r in rows for q in six_questions(r["source_id"])])
    return tmp_path / "data", q, rows


def card_of(tmp_path, version="0.1.0"):
    from huggingface_hub import DatasetCard

    path = tmp_path / "rel" / f"mmrc-v{version}"
    return DatasetCard.load(path / "README.md"), json.loads((path / "stats.json").read_text()), path


def test_languages_come_from_the_text(tmp_path, multilingual):
    from datasets import load_dataset

    data, q, _ = multilingual
    result = release(tmp_path, data, q)
    assert result.exit_code == 0, result.output
    card, stats, path = card_of(tmp_path)
    assert card.data.language == ["en", "ru", "zh"] and card.data.multilinguality == "multilingual"
    assert stats["languages"] == {"en": 1, "ru": 1, "zh": 1}
    assert "| languages (dialogues) | en 1, ru 1, zh 1 |" in card.text
    ds = load_dataset(str(path), split="test")
    assert dict(zip(ds["source_id"], ds["language"])) == {"en": "en", "ru": "ru", "zh": "zh"}
    manifest = json.loads((path / "manifest.json").read_text())
    assert manifest["languages"]["detected_differs_from_recorded"] == 1  # zh, recorded as en


def test_languages_filter_counts_the_others_in_the_funnel(tmp_path, multilingual):
    data, q, _ = multilingual
    result = release(tmp_path, data, q, "--languages", "en,zh")
    assert result.exit_code == 0, result.output
    card, stats, path = card_of(tmp_path)
    assert card.data.language == ["en", "zh"] and stats["dialogues"] == 2
    assert stats["funnel"][-1] == {"step": "released", "stage": "release", "dialogues": 2,
                                   "dropped": {"dropped:language_not_selected": 1}}
    assert "| released | 2 | language_not_selected 1 |" in card.text
    manifest = json.loads((path / "manifest.json").read_text())
    assert manifest["rows"]["reasons"] == {"dropped:language_not_selected": 1}
    assert stats["questions"] == 12  # the Russian dialogue's questions left with it


def test_bad_language_code_is_one_line(tmp_path, multilingual):
    data, q, _ = multilingual
    result = release(tmp_path, data, q, "--languages", "english")
    assert result.exit_code == 2 and "--languages 'english' is not an ISO 639-1 code" in result.output
    assert "Traceback" not in result.output

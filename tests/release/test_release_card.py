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
    assert "| languages (detected in the text) | en 1, ru 1, zh 1 |" in card.text
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


def extend_manifest(folder, **fields):
    path = folder / "manifest.json"
    path.write_text(json.dumps({**json.loads(path.read_text()), **fields}))


LEXICON = {"name": "lexicon", "version": "better-profanity==0.7.0+mmrc-lexicon-2", "files": {}}


@pytest.fixture()
def lineage(tmp_path):
    """ingest -> clean (lexicon toxicity) -> swap (two variants), linked by their manifests."""
    rows, blobs = multilingual_rows()
    make_stage_folder(tmp_path / "ingested", rows, images=blobs, stage="ingest")
    extend_manifest(tmp_path / "ingested", input={"path": "raw"}, files=[
        {"file": f"{lang}-logs/part.jsonl", "format": "openai", "records": 5, "quarantined": 1} for lang in TEXTS
    ] + [{"file": "zh-logs/broken.json", "format": "unknown", "records": 1, "quarantined": 1}])
    make_stage_folder(tmp_path / "clean", rows, images=blobs, stage="clean")
    extend_manifest(tmp_path / "clean", input={"path": str(tmp_path / "ingested"), "stage": "ingest"},
                    config={"toxicity": True, "toxicity_backend": "lexicon"}, models=[LEXICON],
                    decided_by={"toxicity": "lexicon", "pii": "presidio"})
    variants = [{**r, "dialogue_id": f"{k}" * 32, "variant_of": r["dialogue_id"], "swaps": []}
                for k, r in enumerate(rows[:2])]  # variants of the en and ru dialogues
    make_stage_folder(tmp_path / "swapped", rows + variants, images=blobs, stage="swap")
    extend_manifest(tmp_path / "swapped", input={"path": str(tmp_path / "clean"), "stage": "clean"})
    q = write_jsonl(tmp_path / "q.jsonl", [q for r in rows for q in six_questions(r["source_id"])])
    return tmp_path / "swapped", q


def test_card_lists_sources_toxicity_backend_images_and_variants(tmp_path, lineage):
    data, q = lineage
    result = release(tmp_path, data, q, "--languages", "en,zh")
    assert result.exit_code == 0, result.output
    card, stats, _ = card_of(tmp_path)
    text = card.text
    assert "> **Toxicity was screened with a word list (the `lexicon` backend, better-profanity==0.7.0" in text
    assert text.index("word list") < text.index("## Loading")  # prominent: before anything else
    assert "Image metadata (EXIF) was stripped; toxic dialogues were dropped by `lexicon`" in text
    assert "| en-logs | 1 | openai | 5 in 1 file(s) | **not stated** | — |" in text
    assert "| zh-logs | 1 | openai | 6 in 2 file(s) | **not stated** | — |" in text
    assert "ru-logs" not in text.split("## Source datasets")[1].split("## Statistics")[0]  # not released
    assert "**The licences of the source datasets were not stated**" in text
    assert stats["toxicity_backend"] == {"name": "lexicon", "version": LEXICON["version"], "lexicon": True}
    assert stats["images_per_dialogue"] == {"min": 1, "median": 1.0, "max": 1, "histogram": {"1": 2}}
    assert "| dialogues by number of images | 1: 2 |" in text
    swap = next(s for s in stats["funnel"] if s["stage"] == "swap")
    assert swap["variants_added"] == 2 and stats["modality_swap_variants"] == 1
    assert "The swap stage added 2 modality-swap variant(s) beside them; 1 (those whose original is released)" in text
    assert "| modality-swap variants (in `modality_swap`) | 1 |" in text
    assert ("The pictures of the 1 modality-swap variant(s) come from a source the swap stage did not record, "
            "licence **not stated**.") in text
    assert stats["no_topic"] == 0 and "no topic" not in text


def test_dialogues_without_a_topic_are_counted():
    from builder.release.card import _no_topic

    assert _no_topic({"topics": {"House": 76}, "no_topic": 7}) == (
        "; no topic: 7 (none of the 14 topics, too unsure, or a language the classifier does not read)")
    assert _no_topic({"topics": {}, "no_topic": 83}) == ""  # "not classified" says it


def test_sources_file_gives_the_licences(tmp_path, lineage):
    data, q = lineage
    sources = tmp_path / "sources.yaml"
    sources.write_text("".join(f"- name: {lang}-logs\n  url: https://example.org/{lang}\n  licence: cc-by-4.0\n"
                               for lang in TEXTS))
    result = release(tmp_path, data, q, "--sources", str(sources))
    assert result.exit_code == 0, result.output
    card, stats, path = card_of(tmp_path)
    assert "| ru-logs | 1 | openai | 5 in 1 file(s) | `cc-by-4.0` | https://example.org/ru |" in card.text
    assert "were not stated" not in card.text
    assert [s["licence"] for s in stats["sources"]] == ["cc-by-4.0"] * 3
    manifest = json.loads((path / "manifest.json").read_text())
    assert manifest["inputs"]["sources"]["file"] == "sources.yaml"


def test_the_release_licence_follows_the_sources(tmp_path, lineage):
    data, q = lineage
    extend_manifest(data, models=[{"name": "image-bank", "version": "bank", "files": {}, "images": 3}])
    sources = tmp_path / "sources.yaml"
    sources.write_text("".join(f"- name: {lang}-logs\n  licence: {'mit' if lang == 'zh' else 'cc-by-4.0'}\n"
                               for lang in TEXTS) + "- name: bank\n  licence: cc-by-4.0\n")
    assert release(tmp_path, data, q, "--sources", str(sources), "--languages", "en,ru").exit_code == 0
    card, _, path = card_of(tmp_path)
    assert card.data.license == "cc-by-4.0"  # the one licence every released source carries
    assert "Released under `cc-by-4.0` (the licence every listed source carries)." in card.text
    assert json.loads((path / "manifest.json").read_text())["licence"]["why"] == "shared"
    assert release(tmp_path, data, q, "--sources", str(sources), version="0.2.0").exit_code == 0
    card, _, _ = card_of(tmp_path, "0.2.0")
    assert card.data.license == "other"
    assert "(`other`: the sources carry different licences, `cc-by-4.0`, `mit`; each applies to its part)" in card.text
    assert release(tmp_path, data, q, "--license", "odc-by", version="0.3.0").exit_code == 0
    card, _, _ = card_of(tmp_path, "0.3.0")
    assert card.data.license == "odc-by" and "(chosen with `--license`" in card.text
    assert release(tmp_path, data, q, version="0.4.0").exit_code == 0  # no sources file: nothing to follow
    card, _, _ = card_of(tmp_path, "0.4.0")
    assert card.data.license == "other" and "**the licences of the sources were not all stated**" in card.text
    assert "public chat-log datasets" not in card.text


def test_the_swap_pictures_source_and_licence_are_on_the_card(tmp_path, lineage):
    data, q = lineage
    extend_manifest(data, models=[{"name": "image-bank", "version": "street_photos", "files": {}, "images": 3}])
    sources = tmp_path / "sources.yaml"
    logs = "".join(f"- name: {lang}-logs\n  licence: cc-by-4.0\n" for lang in TEXTS)
    sources.write_text(logs)
    result = release(tmp_path, data, q, "--sources", str(sources))
    assert result.exit_code == 6 and "no entry for the swap stage's image bank 'street_photos'" in result.output
    assert len(result.output.strip().splitlines()) == 1
    sources.write_text(logs + "- name: street_photos\n  url: https://example.org/photos\n  licence: cc-by-nc-4.0\n")
    assert release(tmp_path, data, q, "--sources", str(sources)).exit_code == 0
    card, _, path = card_of(tmp_path)
    assert ("The pictures of the 2 modality-swap variant(s) come from the image bank `street_photos`, licence "
            "`cc-by-nc-4.0` (https://example.org/photos).") in card.text
    assert card.data.license == "other"  # the photos' licence differs from the logs'
    assert json.loads((path / "manifest.json").read_text())["image_source"]["licence"] == "cc-by-nc-4.0"


def test_sources_file_errors_are_one_line(tmp_path, lineage):
    data, q = lineage
    bad = tmp_path / "sources.json"
    bad.write_text(json.dumps([{"name": "en-logs", "url": "https://example.org", "licence": "mit"},
                               {"name": "ru-logs", "url": "https://example.org/ru"},
                               {"name": "zh-logs", "license": "mit"}]))
    result = release(tmp_path, data, q, "--sources", str(bad))
    assert result.exit_code == 6 and "no licence for 'ru-logs'; add `licence: <id>`" in result.output
    assert len(result.output.strip().splitlines()) == 1
    partial = tmp_path / "sources.yaml"
    partial.write_text("- name: en-logs\n  licence: mit\n")
    result = release(tmp_path, data, q, "--sources", str(partial))
    assert result.exit_code == 6 and "no entry for 'ru-logs' (1 dialogues), 'zh-logs' (1 dialogues)" in result.output
    broken = tmp_path / "broken.yaml"
    broken.write_text("- name: [en\n")
    result = release(tmp_path, data, q, "--sources", str(broken))
    assert result.exit_code == 3 and "is not valid YAML or JSON" in result.output
    assert not (tmp_path / "rel" / "mmrc-v0.1.0").exists()


def test_no_clean_stage_is_said_plainly(tmp_path, multilingual):
    data, q, _ = multilingual
    assert release(tmp_path, data, q).exit_code == 0
    card, stats, _ = card_of(tmp_path)
    assert "> **No toxicity filter is recorded in this data's lineage**" in card.text
    assert "No `clean` stage was found in this data's lineage" in card.text
    assert stats["toxicity_backend"] is None


def han(text: str) -> int:
    return sum("\u4e00" <= ch <= "\u9fff" for ch in text)


def test_chinese_words_are_counted_by_character(tmp_path, multilingual):
    data, q, _ = multilingual
    result = release(tmp_path, data, q, "--languages", "zh")
    assert result.exit_code == 0, result.output
    _, stats, _ = card_of(tmp_path)
    user, assistant = (text for _, text in TEXTS["zh"])
    assert (han(user), han(assistant)) == (34, 22)
    assert stats["avg_words_per_turn"] == {"user": 34.0, "assistant": 22.0}  # not 1 "word" per paragraph
    assert "CJK" in stats["word_rule"]


def test_word_rule_on_mixed_text():
    import polars as pl

    from builder.release.stats import turn_table

    texts = ["我用Python写了 3 个脚本。", "Hello  world, how are you?", "こんにちは、元気ですか", "안녕하세요 반갑습니다",
             "", "don't stop"]
    frame = pl.DataFrame({"dialogue_id": ["d"], "turns": [[{"index": i, "role": "user", "text": t, "images": []}
                                                          for i, t in enumerate(texts)]]})
    assert turn_table(frame)["words"].to_list() == [9, 5, 10, 2, 0, 2]


def test_only_annotated_releases_complete_dialogues_and_counts_the_rest(tmp_path):
    from datasets import load_dataset

    from qr_fixtures import data_folder

    folder, rows = data_folder(tmp_path / "data", n=3)
    q = write_jsonl(tmp_path / "q.jsonl", six_questions(rows[0]["source_id"]) + six_questions(rows[1]["source_id"])
                    + six_questions(rows[2]["source_id"])[:4])  # conv-2 lacks MR and AR
    both = release(tmp_path, folder, q, "--only-annotated", "--allow-missing-abilities")
    assert both.exit_code == 2 and "contradict each other" in both.output
    result = release(tmp_path, folder, q, "--only-annotated")
    assert result.exit_code == 0, result.output
    assert "1 dialogue(s) left out, not all six abilities annotated" in result.output
    card, stats, path = card_of(tmp_path)
    assert sorted(load_dataset(str(path), split="test")["source_id"]) == ["conv-0", "conv-1"]
    assert stats["dialogues"] == 2 and stats["questions"] == 12
    assert stats["funnel"][-1]["dropped"] == {"dropped:not_annotated": 1}
    assert "| released | 2 | not_annotated 1 |" in card.text
    manifest = json.loads((path / "manifest.json").read_text())
    assert manifest["rows"] == {"in": 3, "kept": 2, "dropped": 1, "out": 2, "reasons": {"dropped:not_annotated": 1}}


def test_only_annotated_with_nothing_complete_is_one_line(tmp_path):
    from qr_fixtures import data_folder

    folder, rows = data_folder(tmp_path / "data", n=1)
    q = write_jsonl(tmp_path / "q.jsonl", six_questions(rows[0]["source_id"])[:5])
    result = release(tmp_path, folder, q, "--only-annotated")
    assert result.exit_code == 6 and "none of the 1 dialogue(s) has questions for all six abilities" in result.output

"""A user's own logs, first run (issue 22): a flat folder of per-dialogue exports, text only, no
questions, goes through ingest -> clean -> classify -> swap -> release with no option beyond -o,
--version, --allow-missing-abilities and --toxicity-backend lexicon (offline), and the card says
only what is true of that release.

Uses the default topic model `make models` trains on the bundled real seed and the demo image bank
bundled in the package; skips when the models folder is not assembled (MMRC_TEST_MODELS)."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from builder.cli import main
from builder.clean import limits

DIALOGUES = [
    [("user", "what's a pogonphora"), ("assistant", "Did you mean Pogonophora, a group of tube worms?"),
     ("user", "yes"), ("assistant", "They live on the deep sea floor and have no mouth or gut.")],
    [("user", "My bed squeaks every time I turn over at night. What can I do?"),
     ("assistant", "Tighten the bolts and check the slats."),
     ("user", "I already tightened the bolts on my bed and it still squeaks."),
     ("assistant", "Then put felt pads between the slats and the frame.")],
    [("user", "Can you write a Python function that reverses a linked list?"),
     ("assistant", "Sure: walk the list and flip each next pointer."),
     ("user", "Now make it recursive please."), ("assistant", "Reverse the rest, then point its tail back.")],
    [("user", "How many minutes should I boil an egg for a runny yolk?"),
     ("assistant", "About six minutes from boiling water."),
     ("user", "And for a hard yolk in a salad?"), ("assistant", "Ten minutes, then cool it in cold water.")],
    [("user", "Who won the football World Cup in 2014 and who scored in the final?"),
     ("assistant", "Germany won; Mario Götze scored in extra time."),
     ("user", "Who did they beat in the semi-final?"), ("assistant", "Brazil, 7-1.")],
    [("user", "Explain what inflation is and why central banks raise interest rates."),
     ("assistant", "Inflation is a general rise in prices; higher rates cool demand."),
     ("user", "Does that make mortgages more expensive?"), ("assistant", "Yes, new and variable ones.")],
]


@pytest.fixture(scope="module")
def first_run(tmp_path_factory):
    """Run every stage once, as a new user would; yield the folders and every command's output."""
    import os

    from builder.classify import default_model

    models = os.environ.get("MMRC_TEST_MODELS")
    if not models or not default_model.is_current(__import__("pathlib").Path(models)):
        pytest.skip("the default topic model is not in MMRC_TEST_MODELS; run `make models`")
    tmp = tmp_path_factory.mktemp("first-run")
    raw = tmp / "arena_exports"
    raw.mkdir()
    for k, turns in enumerate(DIALOGUES):  # one file per dialogue, as chat apps and arenas export them
        (raw / f"chatbot_arena_{19860 + k}.json").write_text(json.dumps(
            {"id": f"chatbot_arena_{19860 + k}", "source": "chatbot_arena",
             "messages": [{"role": r, "content": t} for r, t in turns]}))
    mp = pytest.MonkeyPatch()
    mp.setenv("MMRC_USER_SALT", "test-salt")
    mp.setenv("HF_HUB_OFFLINE", "1")
    mp.setenv("XDG_CACHE_HOME", str(tmp / "cache"))
    mp.setenv("MMRC_MODELS", models)
    mp.chdir(tmp)
    out = {}
    for name, args in [
        ("ingest", ["ingest", str(raw), "-o", "work/ingested"]),
        ("clean", ["clean", "work/ingested", "-o", "work/clean", "--toxicity-backend", "lexicon"]),
        ("classify", ["classify", "predict", "work/clean", "-o", "work/classified"]),
        ("swap", ["swap", "work/classified", "-o", "work/swapped"]),
        ("release", ["release", "--version", "0.1.0", "--data", "work/swapped", "--allow-missing-abilities"]),
    ]:
        result = CliRunner().invoke(main, args)
        out[name] = result
        if result.exit_code != 0:
            break
    yield tmp, out
    mp.undo()


def test_every_stage_runs_with_only_the_first_run_options(first_run):
    _, out = first_run
    for name, result in out.items():
        assert result.exit_code == 0, f"{name}: {result.output[-2000:]}"
    assert set(out) == {"ingest", "clean", "classify", "swap", "release"}
    assert "the default topic model" in out["classify"].output
    assert "pictures from the bundled demo image bank 'image_bank'" in out["swap"].output
    # 100 asked, fewer made: one line says why and what would raise it
    assert "of the 100 variants asked" in out["swap"].output and "raises the yield" in out["swap"].output


def test_release_prints_where_the_card_is_and_its_first_screen(first_run):
    tmp, out = first_run
    text = out["release"].output
    assert f"card: {tmp / 'release' / 'mmrc-v0.1.0' / 'README.md'}" in text or "card: release/mmrc-v0.1.0/README.md" in text
    assert "  | licence: other; languages: en; task categories: text-generation" in text
    assert "text only (no images)" in text and "with no questions yet" in text


def card(tmp):
    from huggingface_hub import DatasetCard

    return DatasetCard.load(tmp / "release" / "mmrc-v0.1.0" / "README.md")


def test_the_card_says_only_what_is_true(first_run):
    tmp, _ = first_run
    c = card(tmp)
    body = c.text
    # one folder of exports is one source, named after the folder (not one "not stated" row per file)
    rows = [line for line in body.splitlines() if line.startswith("| arena_exports |")]
    assert len(rows) == 1 and "6 in 6 file(s)" in rows[0], body
    assert "| chatbot_arena_" not in body
    # no images, no questions: not a VQA benchmark, and the text does not claim images or questions
    assert c.data.task_categories == ["text-generation"]
    assert "multimodal" not in c.data.tags and "benchmark" not in c.data.tags
    assert "keeps its" not in body and "comes with questions" not in body
    assert "No questions are attached to this release." in body
    # "what's a pogonphora" is too short to claim a language: English only, no Tswana
    assert c.data.language == ["en"]
    # PII: what was searched, with which backend, and the measured limits with their data set
    assert "presidio-analyzer 2.2.366" in body and "PERSON" in body
    assert "detection with measured misses, not a guarantee" in body
    assert limits.HELD_OUT in body and limits.card_lines()[0] in body
    assert "PII in the text was detected and replaced" not in body
    assert "EXIF" not in body  # no image in this release: nothing to say about image metadata
    # the topic model's k-fold figures on its own labels
    assert "hand-labelled dialogues in `classifiers/topic/seed_real/dialogues.jsonl`" in body
    assert "Other recall" in body


def test_a_sources_file_names_the_folder_of_exports_once(first_run):
    tmp, _ = first_run
    sources = tmp / "sources.yaml"
    sources.write_text("- name: arena_exports\n  url: https://example.org/arena\n  licence: cc-by-4.0\n"
                       "- name: image_bank\n  licence: apache-2.0\n")
    result = CliRunner().invoke(main, ["release", "--version", "0.1.1", "--data", str(tmp / "work" / "swapped"),
                                       "--releases-dir", str(tmp / "release"), "--allow-missing-abilities",
                                       "--sources", str(sources), "--quiet"])
    assert result.exit_code == 0, result.output
    from huggingface_hub import DatasetCard

    body = DatasetCard.load(tmp / "release" / "mmrc-v0.1.1" / "README.md").text
    assert "| arena_exports | 6 |" in body and "`cc-by-4.0`" in body

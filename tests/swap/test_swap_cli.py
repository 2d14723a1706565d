"""`mmrc-build swap` on handcrafted dialogues and the bundled demo image bank (raw/image_bank)."""

from __future__ import annotations

import json
from io import BytesIO
from pathlib import Path

import polars as pl
import pytest
from click.testing import CliRunner

from builder import io
from builder.cli import main
from builder.images import ImageStore, inspect_image
from builder.records import dialogue_id
from builder.swap import split_key
from builder.swap.planner import selection_order
from conftest import dialogue, make_stage_folder, png_bytes

REPO = Path(__file__).resolve().parents[2]
BANK = REPO / "builder" / "swap" / "image_bank"
RED, BLUE = png_bytes((200, 30, 30)), png_bytes((30, 30, 200))


def ref(data: bytes) -> dict:
    return inspect_image(data, 10**8, 10**8).ref()


def im_question(gold_images: list[int]) -> dict:
    return {"question_id": "q-im", "ability": "IM", "format": "open", "question": "Which image shows the pasta?",
            "choices": [], "answer": "the second one", "gold_items": [], "gold_images": gold_images,
            "gold_turns": [2], "should_refuse": False, "annotators": ["a1"], "review": "accepted"}


def corpus() -> tuple[list[dict], dict[str, bytes]]:
    rows = [
        # images in turn 0 and turn 2; the only swappable thing is in turn 2, after the blue image
        dialogue([("user", "Here is my kitchen, photo attached. What should I cook tonight?"),
                  ("assistant", "Something simple, like pasta."),
                  ("user", "I made a margherita pizza instead, second photo is the pasta from yesterday."),
                  ("assistant", "Both look good.")],
                 images={0: [ref(RED)], 2: [ref(BLUE)]}, questions=[im_question([1]), im_question([0, 1])]),
        dialogue([("user", "I visited the Colosseum last week. The Colosseum was packed at noon."),
                  ("assistant", "It is busy in summer."), ("user", "Is early morning better?"),
                  ("assistant", "Yes, go at opening time.")]),
        dialogue([("user", "Our cat keeps scratching the new sofa."), ("assistant", "Try a scratching post."),
                  ("user", "Which one?"), ("assistant", "A tall, heavy one.")]),
        dialogue([("user", "Can you explain how inflation works?"), ("assistant", "Prices rise over time."),
                  ("user", "Why?"), ("assistant", "Many reasons.")]),
        dialogue([("user", "Tips for the Eiffel Tower? We go to Paris in May."), ("assistant", "Book ahead."),
                  ("user", "Thanks!"), ("assistant", "Enjoy.")]),
        # "the tower" would still name it after the rewrite: refused
        dialogue([("user", "The Eiffel Tower is tall. Is the tower open at night?"), ("assistant", "Yes."),
                  ("user", "Great."), ("assistant", "Enjoy.")]),
    ]
    return rows, {ref(RED)["sha256"]: RED, ref(BLUE)["sha256"]: BLUE}


@pytest.fixture
def classified(tmp_path) -> Path:
    rows, images = corpus()
    return make_stage_folder(tmp_path / "classified", rows, images=images, stage="classify")


def swap(src: Path, out: Path, *args: str):
    result = CliRunner().invoke(main, ["swap", str(src), "-o", str(out), "--image-bank", str(BANK),
                                       "--device", "cpu", *args])
    return result


def frame(folder: Path) -> pl.DataFrame:
    return pl.concat([pl.read_parquet(p) for p in io.parts(folder)])


def test_variants_rewrite_attach_and_link(classified, tmp_path):
    out = tmp_path / "swapped"
    result = swap(classified, out)
    assert result.exit_code == 0, result.output
    df = frame(out)
    originals = {r["dialogue_id"]: r for r in frame(classified).to_dicts()}
    variants = df.filter(pl.col("variant_of").is_not_null()).to_dicts()
    assert {v["variant_of"] for v in variants} <= set(originals)
    assert df.height == len(originals) + len(variants)
    by_original = {originals[v["variant_of"]]["turns"][0]["text"][:20]: v for v in variants}
    assert any(k.startswith("I visited the Colos") for k in by_original), by_original.keys()

    colosseum = next(v for v in variants if "Colosseum" in originals[v["variant_of"]]["turns"][0]["text"])
    assert colosseum["turns"][0]["text"] == "I visited this place last week. This place was packed at noon."
    (swap_rec,) = colosseum["swaps"]
    assert swap_rec["turn"] == 0 and swap_rec["original"] == "the Colosseum"
    assert swap_rec["replacement"] == "this place" and swap_rec["image_source"] == "bank"
    assert swap_rec["score"] >= 0.5
    image = colosseum["turns"][0]["images"][-1]
    assert image["sha256"] == swap_rec["image_sha256"]
    stored = ImageStore(out).read(image["sha256"], image["mime"])
    assert stored == (BANK / "images" / "colosseum.png").read_bytes()

    for v in variants:
        original = originals[v["variant_of"]]
        assert v["dialogue_id"] == dialogue_id(v["turns"]) != original["dialogue_id"]
        assert split_key(v) == split_key(original) == original["dialogue_id"]
        for s in v["swaps"]:
            turn = v["turns"][s["turn"]]
            core = s["original"].split(" ", 1)[-1] if s["original"].lower().startswith(("the ", "a ", "our ", "my ")) else s["original"]
            assert core.lower() not in turn["text"].lower()
            assert len(turn["images"]) == len(original["turns"][s["turn"]]["images"]) + 1
        # untouched turns are identical
        changed = {s["turn"] for s in v["swaps"]}
        for i, (a, b) in enumerate(zip(v["turns"], original["turns"])):
            if i not in changed:
                assert a == b

    report = json.loads((out / "swap_report.json").read_text())
    manifest = json.loads((out / "manifest.json").read_text())
    assert report["variants"] == len(variants) == manifest["stats"]["variants"]
    assert report["images_added"] == sum(len(v["swaps"]) for v in variants)
    assert report["reasons"]["no_candidate_span"] >= 1  # the inflation question
    assert report["reasons"]["no_safe_rewrite"] == 1  # "the tower"
    ledger = pl.read_parquet(out / "ledger.parquet").filter(pl.col("stage") == "swap")
    assert sorted(ledger["dialogue_id"]) == sorted(originals)
    assert set(ledger["decision"]) == {"kept"}
    created = ledger.filter(pl.col("reason") == "variant_created")
    assert {json.loads(d)["variant_id"] for d in created["detail"]} == {v["dialogue_id"] for v in variants}
    assert f"{len(variants)} variants" in result.output


def test_questions_carried_over_with_shifted_image_indices(classified, tmp_path):
    out = tmp_path / "swapped"
    assert swap(classified, out).exit_code == 0
    variants = frame(out).filter(pl.col("variant_of").is_not_null()).to_dicts()
    pizza = next(v for v in variants if any(s["original"] == "a margherita pizza" for s in v["swaps"]))
    assert pizza["turns"][2]["text"].startswith("I made this dish instead")
    # images: turn0 red (0), turn2 blue (1), then the inserted pizza image (2)
    assert [im["sha256"] for im in pizza["turns"][2]["images"]][0] == ref(BLUE)["sha256"]
    assert [q["gold_images"] for q in pizza["questions"]] == [[1], [0, 1]]
    assert [q["question_id"] for q in pizza["questions"]] == ["q-im", "q-im"]


def test_inserted_image_before_later_images_shifts_them(tmp_path):
    rows = [dialogue([("user", "My cat is sleeping on the sofa all day."), ("assistant", "Cats sleep a lot."),
                      ("user", "Here is a photo of her bowl."), ("assistant", "Looks clean.")],
                     images={2: [ref(RED)]}, questions=[im_question([0])])]
    src = make_stage_folder(tmp_path / "in", rows, images={ref(RED)["sha256"]: RED}, stage="classify")
    assert swap(src, tmp_path / "out").exit_code == 0
    (variant,) = frame(tmp_path / "out").filter(pl.col("variant_of").is_not_null()).to_dicts()
    assert variant["turns"][0]["text"].startswith("This animal of mine is sleeping")
    assert variant["questions"][0]["gold_images"] == [1]  # the bowl photo is now the second image


def test_selection_is_deterministic_and_counted(classified, tmp_path):
    a, b, c = tmp_path / "a", tmp_path / "b", tmp_path / "c"
    assert swap(classified, a, "--count", "2").exit_code == 0
    assert swap(classified, b, "--count", "2").exit_code == 0
    assert [p.read_bytes() for p in io.parts(a)] == [p.read_bytes() for p in io.parts(b)]
    assert (a / "ledger.parquet").read_bytes() == (b / "ledger.parquet").read_bytes()
    ledger = pl.read_parquet(a / "ledger.parquet").filter(pl.col("stage") == "swap")
    reasons = dict(zip(ledger["dialogue_id"], ledger["reason"]))
    assert list(reasons.values()).count("variant_created") == 2
    # the walk follows sha256(seed:id); everything after the second success is never tried
    order = selection_order(sorted(reasons), 0)
    tried = [i for i in order if reasons[i] != "not_selected"]
    assert order[: len(tried)] == tried and reasons[tried[-1]] == "variant_created"
    assert swap(classified, c, "--count", "2", "--seed", "7").exit_code == 0
    config = json.loads((c / "manifest.json").read_text())["config"]
    assert config["seed"] == 7
    assert (config["embedder_dtype"], config["embedder_batch"]) == ("float32", 64)  # the CPU default (tests: no GPU)


def test_threshold_rejects_with_reason_and_score(classified, tmp_path):
    out = tmp_path / "strict"
    result = swap(classified, out, "--threshold", "0.99")
    assert result.exit_code == 0, result.output
    assert frame(out).filter(pl.col("variant_of").is_not_null()).height == 0
    ledger = pl.read_parquet(out / "ledger.parquet").filter(pl.col("stage") == "swap")
    rejected = ledger.filter(pl.col("reason") == "no_matching_image")
    assert rejected.height >= 3
    for detail in map(json.loads, rejected["detail"]):
        assert detail["threshold"] == 0.99 and detail["best_score"] < 0.99 and detail["best_span"]
    stored = {p.stem for p in (out / "images").rglob("*.*")}
    assert stored == {ref(RED)["sha256"], ref(BLUE)["sha256"]}  # only the carried-over input images


def test_rerun_is_up_to_date(classified, tmp_path):
    out = tmp_path / "swapped"
    assert swap(classified, out, "--count", "1").exit_code == 0
    again = swap(classified, out, "--count", "1")
    assert again.exit_code == 0 and "up to date" in again.output


@pytest.mark.parametrize("args, message", [
    (["--image-source", "magic"], "unknown image source 'magic'; available: bank, diffusion"),
    (["--threshold", "3"], "--threshold is a cosine score"),
])
def test_user_errors_are_one_line(classified, tmp_path, args, message):
    result = swap(classified, tmp_path / "out", *args)
    assert result.exit_code != 0 and message in result.output
    assert result.output.count("\n") == 1 and "Traceback" not in result.output


def test_bank_must_have_captions(classified, tmp_path):
    (tmp_path / "bank").mkdir()
    result = CliRunner().invoke(main, ["swap", str(classified), "-o", str(tmp_path / "o"),
                                       "--image-bank", str(tmp_path / "bank")])
    assert result.exit_code == 3 and "has no captions.csv" in result.output


def test_diffusion_needs_a_local_pipeline(classified, tmp_path):
    result = CliRunner().invoke(main, ["swap", str(classified), "-o", str(tmp_path / "o"),
                                       "--image-source", "diffusion"])
    assert result.exit_code == 2 and "--t2i-model PATH" in result.output


def test_variant_lands_in_its_originals_part(classified, tmp_path):
    # Split the single input part in two: each variant must be written beside its original.
    whole = pl.read_parquet(io.parts(classified)[0])
    whole.head(2).write_parquet(classified / "part-00000.parquet")
    whole.tail(whole.height - 2).write_parquet(classified / "part-00001.parquet")
    out = tmp_path / "swapped"
    assert swap(classified, out).exit_code == 0
    for part in io.parts(out):
        df = pl.read_parquet(part)
        variants = df.filter(pl.col("variant_of").is_not_null())
        assert set(variants["variant_of"]) <= set(df["dialogue_id"])
        assert df["dialogue_id"].to_list() == sorted(df["dialogue_id"].to_list())
    assert len(io.parts(out)) == 2


def test_diffusion_source_end_to_end_with_a_random_weight_pipeline(classified, tiny_t2i_pipeline, tmp_path,
                                                                    monkeypatch):
    """The real diffusers code path on a tiny RANDOM-WEIGHT Stable Diffusion pipeline (its pictures are
    noise; see tests/fixtures/t2i_fixtures.py): AutoPipelineForText2Image loads the safetensors folder,
    draws one 512 x 512 image per variant, unthresholded (score null), from the span and its sentence;
    every image is a clean PNG in the output's store; the manifest names the pipeline and its hashes."""
    import diffusers
    from PIL import Image

    from builder.exif import metadata_found
    from builder.images import accept_image
    from builder.io import sha256_file, sha256_json
    from builder.models import folder_fingerprint

    prompts, real_call = [], diffusers.StableDiffusionPipeline.__call__

    def spy(pipe, prompt, **kwargs):
        prompts.append(prompt)
        return real_call(pipe, prompt, **kwargs)

    monkeypatch.setattr(diffusers.StableDiffusionPipeline, "__call__", spy)
    out = tmp_path / "generated"
    result = CliRunner().invoke(main, ["swap", str(classified), "-o", str(out), "--device", "cpu",
                                       "--image-source", "diffusion", "--t2i-model", str(tiny_t2i_pipeline),
                                       "--t2i-steps", "2", "--threshold", "0.99"])
    assert result.exit_code == 0, result.output
    variants = frame(out).filter(pl.col("variant_of").is_not_null()).to_dicts()
    assert len(variants) == 4 and len(prompts) == 4  # one image per variant, nothing wasted
    assert any(p.startswith("a photo of Colosseum, I visited the Colosseum") for p in prompts)
    seen = set()
    for v in variants:
        (s,) = v["swaps"]
        assert s["image_source"] == "diffusion" and s["score"] is None  # --threshold 0.99 does not apply
        image = v["turns"][s["turn"]]["images"][-1]
        assert (image["mime"], image["width"], image["height"]) == ("image/png", 512, 512)
        store = ImageStore(out)
        assert store.has(image["sha256"], image["mime"])
        data = store.read(image["sha256"], image["mime"])
        assert sha256_file(store.path(image["sha256"], image["mime"])) == image["sha256"]
        with Image.open(BytesIO(data)) as im:
            assert im.format == "PNG" and im.size == (512, 512) and im.mode == "RGB"
            assert max(hi - lo for lo, hi in im.getextrema()) > 0  # a drawn picture, not a blank canvas
        assert metadata_found(data, "image/png") == ()
        assert accept_image(data, 10**8, 10**8)[0] == data  # already clean: accept_image leaves it as is
        seen.add(image["sha256"])
    assert len(seen) == 4  # each prompt seeds its own draw
    manifest = json.loads((out / "manifest.json").read_text())
    files = folder_fingerprint(tiny_t2i_pipeline)
    assert files["unet/diffusion_pytorch_model.safetensors"] == sha256_file(
        tiny_t2i_pipeline / "unet" / "diffusion_pytorch_model.safetensors")
    assert manifest["config"]["image_source"] == "diffusion"
    assert manifest["config"]["t2i_model"] == str(tiny_t2i_pipeline)
    assert manifest["config"]["source_hash"] == sha256_json(files)
    assert {"name": "text-to-image", "version": "tiny-sd", "files": files} in manifest["models"]
    assert manifest["report"]["variants"] == manifest["report"]["images_added"] == 4


def test_diffusion_draws_are_seeded(tiny_t2i_pipeline):
    """Same seed and prompt: the same bytes; another prompt or seed: another picture (random weights)."""
    pytest.importorskip("diffusers")
    from builder.swap.sources import Query
    from builder.swap.sources.diffusion import TextToImage

    def draw(seed, *queries):
        source = TextToImage(tiny_t2i_pipeline, steps=1, seed=seed, size=64, max_pixels=10**8, max_bytes=10**8)
        source.setup("cpu", None)
        return [m[0].key for m in source.find(list(queries))], source

    colosseum, cat = Query("Colosseum", "I visited the Colosseum.", "place"), Query("cat", "Our cat.", "animal")
    (a, b), source = draw(0, colosseum, cat)
    (again,), _ = draw(0, colosseum)
    (other_seed,), _ = draw(1, colosseum)
    assert a == again and len({a, b, other_seed}) == 3
    data, info = source.load(a)
    assert (info.mime, info.width, info.height) == ("image/png", 64, 64)


def _with_pickled_unet(pipeline: Path, dest: Path) -> Path:
    import shutil

    import torch
    from safetensors.torch import load_file

    shutil.copytree(pipeline, dest)
    weights = dest / "unet" / "diffusion_pytorch_model.safetensors"
    torch.save(load_file(weights), dest / "unet" / "diffusion_pytorch_model.bin")
    weights.unlink()
    return dest


def test_diffusion_refuses_pickled_weights(classified, tiny_t2i_pipeline, tmp_path, monkeypatch):
    """A component with only a .bin (pickle) is refused in one line before anything is unpickled."""
    import torch

    model = _with_pickled_unet(tiny_t2i_pipeline, tmp_path / "pickled")

    def no_unpickling(*args, **kwargs):
        raise AssertionError("torch.load called on a refused pipeline")

    monkeypatch.setattr(torch, "load", no_unpickling)
    result = CliRunner().invoke(main, ["swap", str(classified), "-o", str(tmp_path / "o"), "--device", "cpu",
                                       "--image-source", "diffusion", "--t2i-model", str(model)])
    assert result.exit_code == 5, result.output
    assert "unet/ has only pickled weights (diffusion_pytorch_model.bin)" in result.output
    assert "convert them to safetensors" in result.output
    assert result.output.count("\n") == 1 and "Traceback" not in result.output
    assert not (tmp_path / "o").exists()


def test_diffusion_loader_is_safetensors_only_too(tiny_t2i_pipeline, tmp_path):
    """Behind the folder check (the source built directly), diffusers' loader still refuses pickles
    (use_safetensors=True), and its failure is one line, not a diffusers traceback."""
    pytest.importorskip("diffusers")
    from builder.errors import ModelError
    from builder.swap.sources.diffusion import TextToImage

    model = _with_pickled_unet(tiny_t2i_pipeline, tmp_path / "pickled")
    source = TextToImage(model, steps=1, seed=0, size=64, max_pixels=10**8, max_bytes=10**8)
    with pytest.raises(ModelError) as err:
        source.setup("cpu", None)
    message = str(err.value)
    assert "diffusion_pytorch_model.safetensors" in message and "\n" not in message


@pytest.mark.parametrize("content, message", [
    (None, "is not a diffusers pipeline folder (no readable model_index.json"),
    ("not json", "is not a diffusers pipeline folder (no readable model_index.json"),
])
def test_diffusion_needs_a_pipeline_folder(classified, tmp_path, content, message):
    model = tmp_path / "t2i"
    model.mkdir()
    (model / "model.ckpt").write_bytes(b"not loaded")
    if content is not None:
        (model / "model_index.json").write_text(content)
    result = CliRunner().invoke(main, ["swap", str(classified), "-o", str(tmp_path / "o"), "--device", "cpu",
                                       "--image-source", "diffusion", "--t2i-model", str(model)])
    assert result.exit_code == 5 and message in result.output
    assert result.output.count("\n") == 1 and "Traceback" not in result.output


def user_says(*first_turns: str) -> list[dict]:
    """One four-turn dialogue per first user turn."""
    return [dialogue([("user", text), ("assistant", "I see."), ("user", "Any tips?"), ("assistant", "A few.")])
            for text in first_turns]


def swapped_at_any_score(tmp_path, rows: list[dict], bank: Path = BANK) -> tuple[list[str], list[str]]:
    """Run swap with --threshold 0.0: (the swapped spans, every dialogue's ledger reason)."""
    folder = make_stage_folder(tmp_path / "in", rows, stage="classify")
    out = tmp_path / "out"
    result = CliRunner().invoke(main, ["swap", str(folder), "-o", str(out), "--image-bank", str(bank),
                                       "--device", "cpu", "--threshold", "0.0"])
    assert result.exit_code == 0, result.output
    variants = frame(out).filter(pl.col("variant_of").is_not_null())
    ledger = pl.read_parquet(out / "ledger.parquet").filter(pl.col("stage") == "swap")
    return [s["original"] for v in variants.to_dicts() for s in v["swaps"]], sorted(ledger["reason"].to_list())


def test_a_name_needs_a_picture_of_that_named_thing(tmp_path):
    """"Snoop Dog" shares a word with the bank's dog photo, which does not show him, and a hyphenated
    word is one word (no under-dog in a dog photo): no variants. The plain noun still swaps."""
    swapped, reasons = swapped_at_any_score(tmp_path, user_says(
        "Snoop Dog wrote a fight song for his son's team.", "I was pulling for the under-dog in the final.",
        "Our dog keeps running off in the garden."))
    assert swapped == ["Our dog"]
    assert reasons.count("variant_created") == 1 and len(reasons) == 3, reasons


def test_a_name_that_only_describes_another_thing_is_not_shown(tmp_path):
    """Captions that use the name as a modifier ("a Boston terrier", "Florida Marlins hats") are about
    a dog and hats, and "York" in "New York" ends another name: no variants. A caption about the
    named place itself gives one."""
    bank = tmp_path / "bank"
    (bank / "images").mkdir(parents=True)
    for name in ("dog.png", "bangkok.png", "colosseum.png", "tokyo.png"):
        (bank / "images" / name).write_bytes((BANK / "images" / name).read_bytes())
    (bank / "captions.csv").write_text(
        "image,caption\n"
        "dog.png,A Boston terrier is running in the grass .\n"
        "dog.png,A Boston Terrier runs on lush green grass .\n"
        "bangkok.png,Three boys wearing Florida Marlins hats .\n"
        "bangkok.png,Children sporting their Florida Dolphin caps .\n"
        "colosseum.png,Stone arches of the Colosseum in Rome\n"
        "colosseum.png,The Colosseum at dusk\n"
        "tokyo.png,A busy street in New York at night .\n"
        "tokyo.png,Yellow cabs at dusk in New York .\n")
    swapped, _ = swapped_at_any_score(tmp_path, user_says(
        "I live near Boston now and the winters are long.", "I can't wait to get back to Florida this winter.",
        "I am moving to York next month for work.", "I visited the Colosseum last week and loved it."), bank)
    assert swapped == ["the Colosseum"]


def test_a_thing_named_in_another_user_turn_is_not_swapped(tmp_path):
    """One picture cannot stand in for every mention: "my bed" swapped in one turn while another user
    turn still says "my bed" both shows and tells, so the swap is refused (reason other_turn). The
    same dialogue with the bed named once swaps."""
    twice = dialogue([("user", "My bed squeaks every night."), ("assistant", "Check the slats."),
                      ("user", "I tightened the screws on my bed, still squeaky."), ("assistant", "Try oil.")])
    once = dialogue([("user", "My bed squeaks every night."), ("assistant", "Check the slats."),
                     ("user", "I tightened every screw, still squeaky."), ("assistant", "Try oil.")])
    folder = make_stage_folder(tmp_path / "in", [twice, once], stage="classify")
    out = tmp_path / "out"
    result = CliRunner().invoke(main, ["swap", str(folder), "-o", str(out), "--device", "cpu", "--threshold", "0.0"])
    assert result.exit_code == 0, result.output
    ledger = {r["dialogue_id"]: r for r in pl.read_parquet(out / "ledger.parquet").filter(
        pl.col("stage") == "swap").to_dicts()}
    assert ledger[twice["dialogue_id"]]["reason"] == "no_safe_rewrite"
    assert json.loads(ledger[twice["dialogue_id"]]["detail"])["because"] == {"other_turn": 2}  # both mentions
    assert ledger[once["dialogue_id"]]["reason"] == "variant_created"
    # asked for 100, made 1: the line names what stopped the other and what would help
    assert "swap: made 1 of the 100 variants asked, from 2 dialogue(s): 1 named things whose sentence" in result.output

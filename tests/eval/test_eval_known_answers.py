"""Known answers: planned models and a planned judge on a real scripted OpenAI-compatible server
(127.0.0.1), through the real CLI; every expected number below was computed by hand from MMRC
§4.1's formulas (EP = |model ∩ gold| / |model items|; IMP = |hit| / |hit ∪ miss| = identified
gold images / gold images; RP = refused / should-refuse), not by running the code.

The release: 4 dialogues with 2 images each (image 1 in turn 0, image 2 in turn 2), seven
questions each (only the originals are evaluated: --configs default):

  ie_whole  IE   gold ["S&P 500", "salt and pepper", "Smith, John"]
  ie_list   IE   gold ["roses", "tulips", "lemon tree"]
  im_mcq    IM   mcq A "The first image" B "Both images" C "The second image" D "Neither image"; gold [1] (C)
  im_both   IM   open, gold [0, 1]
  ar_refuse AR   should_refuse
  cr_mcq    CR   mcq A "garden" B "kitchen"; answer B
  iu_open   IU   open (the scripted judge botches every IU verdict: no final [[N]])
"""

from __future__ import annotations

import json
import re

import pytest
from click.testing import CliRunner

from builder.cli import main
from scripted_server import ScriptedServer, user_text

pytestmark = pytest.mark.timeout(600)

REFUSAL = "I don't know; the conversation does not mention it."
QUESTIONS = {
    "ie_whole": dict(ability="IE", format="open", question="Which three things did the user list first?",
                     answer="S&P 500; salt and pepper; Smith, John",
                     gold_items=["S&P 500", "salt and pepper", "Smith, John"], gold_turns=[1]),
    "ie_list": dict(ability="IE", format="open", question="Which plants are in the garden?",
                    answer="roses; tulips; lemon tree", gold_items=["roses", "tulips", "lemon tree"], gold_turns=[3]),
    "im_mcq": dict(ability="IM", format="mcq", question="Which image shows the garden?",
                   choices=["The first image", "Both images", "The second image", "Neither image"],
                   answer="The second image", gold_images=[1], gold_turns=[2]),
    "im_both": dict(ability="IM", format="open", question="Which images show a room of the house?",
                    answer="Both images", gold_images=[0, 1], gold_turns=[0, 2]),
    "ar_refuse": dict(ability="AR", format="open", question="What is the user's street address?",
                      answer="The conversation does not say.", should_refuse=True),
    "cr_mcq": dict(ability="CR", format="mcq", question="Which room was shown first?", choices=["garden", "kitchen"],
                   answer="kitchen", gold_turns=[0, 2]),
    "iu_open": dict(ability="IU", format="open", question="What colour are the walls now?", answer="green",
                    gold_turns=[2]),
}
BY_TEXT = {q["question"]: key for key, q in QUESTIONS.items()}

# what each planned model answers, per question
PLANS = {
    "perfect": {"ie_whole": "S&P 500, salt and pepper, Smith, John",  # commas: the gold items stay whole
                "ie_list": "- roses\n- tulips\n- lemon tree", "im_mcq": "C", "im_both": "Both images.",
                "ar_refuse": "The conversation does not mention the user's address.", "cr_mcq": "B",
                "iu_open": "Green."},
    "extra": {"ie_whole": "S&P 500; salt and pepper; Smith, John; the Dow",  # 3 of 4 items right
              "ie_list": "roses, tulips, a lemon tree and daisies",  # 3 of 4
              "im_mcq": "A",  # the first image: no gold image hit
              "im_both": "Image 1, Image 2 and Image 3",  # both gold hit, one extra (costs only under Jaccard)
              "ar_refuse": "The user lives at 42 Willow Lane.", "cr_mcq": "A", "iu_open": "Light blue."},
    "refuser": {key: REFUSAL for key in QUESTIONS},
    "describer": {"ie_whole": "S&P 500, salt and pepper, Smith, John", "ie_list": "roses, tulips and lemon tree",
                  "im_mcq": "The photo with the flower beds.", "im_both": "The kitchen photo and the garden photo.",
                  "ar_refuse": "It was never said.", "cr_mcq": "kitchen", "iu_open": "green"},
}
PLANS["never"] = {**PLANS["perfect"], "ar_refuse": "The user lives at 42 Willow Lane."}
# the judge reads descriptions: for the describer it names the images the description points to
JUDGE_IMAGES = {"The photo with the flower beds.": [2], "The kitchen photo and the garden photo.": [1, 2]}
FENCE = "=====ANSWER====="


def respond(body: dict) -> str:
    text = user_text(body)
    if body["model"] != "judge":
        question = text.split("\n\n")[0]
        return PLANS[body["model"]][BY_TEXT[question]]
    ability = re.search(r"\((IE|CR|IU|IM|MR|AR)\)\nRubric", text).group(1)
    answer = re.search(FENCE + r"\n(.*?)\n" + FENCE, text, re.DOTALL).group(1)
    refused = "does not mention" in answer or "don't know" in answer
    lines = [f"REFUSED: {'yes' if refused else 'no'}"]
    if "ITEMS:" in text:
        lines.append("ITEMS: " + json.dumps([a.strip() for a in answer.split(", ")]))
    if "IMAGES:" in text:
        lines.append("IMAGES: " + json.dumps(JUDGE_IMAGES.get(answer, [])))
    if ability == "IU":
        return "Looks updated.\n" + "\n".join(lines) + "\nScore: four"  # a botched verdict: no [[N]]
    return "Checked against the reference.\n" + "\n".join(lines) + f"\n[[{3 if refused else 4}]]"


@pytest.fixture(scope="module")
def release(tmp_path_factory):
    from conftest import make_stage_folder
    from eval_fixtures import corpus

    tmp = tmp_path_factory.mktemp("known")
    rows, blobs = corpus(4)
    data = make_stage_folder(tmp / "data", rows, images=blobs, stage="swap")
    lines = []
    for k in range(4):
        for key, q in QUESTIONS.items():
            lines.append(json.dumps({"source_id": f"conv-{k}", "question_id": f"conv-{k}-{key}",
                                     "annotators": ["ann1"], **q}))
    (tmp / "questions.jsonl").write_text("\n".join(lines) + "\n")
    result = CliRunner().invoke(main, ["release", "--version", "0.1.0", "--data", str(data), "--questions",
                                       str(tmp / "questions.jsonl"), "--releases-dir", str(tmp / "rel"),
                                       "--allow-missing-abilities"])
    assert result.exit_code == 0, result.output
    return tmp / "rel" / "mmrc-v0.1.0"


@pytest.fixture(scope="module")
def server():
    with ScriptedServer(respond) as srv:
        yield srv


def run(release, server, out, model, *extra):
    result = CliRunner().invoke(main, [
        "eval", "run", str(release), "--revision", "v0.1.0", "--backend", "openai", "--base-url", server.url,
        "--model", model, "--configs", "default", "--name", model, "-o", str(out), "--quiet", *extra])
    assert result.exit_code == 0, result.output
    return json.loads((out / "mmrc-v0.1.0" / model / "results.json").read_text())


def judged(release, server, out, model, *extra):
    return run(release, server, out, model, "--judge-backend", "openai", "--judge-base-url", server.url,
               "--judge-model", "judge", *extra)


def test_perfect_model(release, server, tmp_path):
    doc = judged(release, server, tmp_path, "perfect")
    obj = doc["objective"]
    assert (obj["ep"]["mean"], obj["ep"]["n"]) == (1.0, 8)
    assert (obj["imp"]["mean"], obj["imp"]["n"]) == (1.0, 8)  # "C" -> "The second image" -> image 2
    assert (obj["rp"]["mean"], obj["rp"]["n"], obj["rp"]["refusal_by"]) == (1.0, 4, {"judge": 4})
    assert obj["over_refusal"]["mean"] == 0.0 and obj["imp_jaccard"]["mean"] == 1.0
    assert obj["mcq_accuracy"]["mean"] == 1.0  # 4 CR + 4 IM mcq, all by letter
    # the judge: 4 on every answered question except the refusals (3); IU verdicts botched
    assert doc["abilities"]["IE"]["judge_all"]["mean"] == 4.0 and doc["abilities"]["AR"]["judge_all"]["mean"] == 3.0
    assert doc["abilities"]["IU"]["judge_all"]["mean"] is None
    assert doc["judge_fail_rate"]["failed"] == 4 and doc["judge_fail_rate"]["of"] == 28
    assert doc["judge_fail_rate"]["rate"] == round(4 / 28, 4)
    assert doc["overall"]["mean"] == round((16 * 4 + 4 * 4 + 4 * 3) / 24, 4)  # IE, IM, CR at 4; AR at 3


def test_extra_items_and_extra_images(release, server, tmp_path):
    obj = judged(release, server, tmp_path, "extra")["objective"]
    assert obj["ep"]["mean"] == 0.75  # 3/4 on both IE questions
    assert obj["imp"]["mean"] == 0.5  # im_mcq 0 (image 1 named, gold image 2), im_both 1 (2 of 2 gold hit)
    assert obj["imp_jaccard"]["mean"] == round((0 + 2 / 3) / 2, 4)  # the extra "Image 3" costs only here
    assert obj["rp"]["mean"] == 0.0 and obj["mcq_accuracy"]["mean"] == 0.0


def test_always_refusing_and_never_refusing(release, server, tmp_path):
    refuser = judged(release, server, tmp_path, "refuser")["objective"]
    assert refuser["rp"]["mean"] == 1.0 and refuser["over_refusal"]["mean"] == 1.0
    assert refuser["refusal_agreement"]["mean"] == round(4 / 28, 4)  # only the 4 AR questions agree
    assert refuser["ep"]["mean"] == 0.0 and refuser["imp"]["mean"] == 0.0
    never = judged(release, server, tmp_path, "never")["objective"]
    assert never["rp"]["mean"] == 0.0 and never["over_refusal"]["mean"] == 0.0
    assert never["refusal_agreement"]["mean"] == round(24 / 28, 4)  # what the old "RP" reported (0.86 here)


def test_rp_without_a_judge_comes_from_the_phrase_matcher(release, server, tmp_path):
    refuser = run(release, server, tmp_path, "refuser", "--judge", "none")["objective"]
    assert refuser["rp"]["mean"] == 1.0 and refuser["rp"]["refusal_by"] == {"phrase_matcher": 4}
    never = run(release, server, tmp_path, "never", "--judge", "none")["objective"]
    assert never["rp"]["mean"] == 0.0 and never["rp_judge"] is None


def test_descriptive_image_answers_need_the_judge(release, server, tmp_path):
    parser = judged(release, server, tmp_path / "parser", "describer")["objective"]
    assert parser["imp"]["mean"] == 0.0  # two images in each dialogue: a description names none by rule
    judge = judged(release, server, tmp_path / "judge", "describer", "--extract", "judge")["objective"]
    assert judge["imp"]["mean"] == 1.0  # the judge read the descriptions as images 2 and 1+2
    # EP from the judge's ITEMS (the scripted judge splits at ", "): ie_whole 2/4 ("Smith", "John" match no gold
    # item), ie_list 2/2 ("tulips and lemon tree" names tulips)
    assert judge["ep"]["mean"] == (0.5 + 1.0) / 2


def test_the_judge_reads_the_evidence_turns(release, server, tmp_path):
    judged(release, server, tmp_path, "perfect")
    prompts = [user_text(b) for b in server.requests if b["model"] == "judge"]
    ie_list = next(p for p in prompts if "Which plants are in the garden?" in p)
    assert "Turn 3 (assistant): Roses, tulips and a small lemon tree." in ie_list  # gold_turns [3]
    assert "Rubric (score 0 to 5):\nInformation extraction" in ie_list
    iu = next(p for p in prompts if "(IU)\nRubric" in p)
    assert "2 = failed to update" in iu and "1 = updated wrongly" in iu

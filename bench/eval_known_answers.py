"""Known answers on a real release: planned models on a scripted OpenAI-compatible server (127.0.0.1)
answer every question of the release, and EP/IMP/RP must come out as the paper's formulas say.

- perfect:  each question's gold answer (mcq by the option's letter, as a model answering the
            prompt's "Answer with the letter" would) -> EP 1.0, IMP 1.0, RP 1.0, over-refusal 0.0
- letters:  like perfect, but IE answers list the gold items with ", " and IM open answers name the
            gold images as "Image k" -> EP 1.0, IMP 1.0
- refuser:  "I don't know; the conversation does not mention it." everywhere -> RP 1.0, over-refusal 1.0
- never:    perfect, but every should-refuse question gets an invented answer -> RP 0.0

Runs with --judge none (RP's refusals from the phrase matcher, as `refusal_by` says) and
--extract parser, on the original dialogues (--configs default).
Usage: python bench/eval_known_answers.py [RELEASE] [--revision vX.Y.Z]
Writes bench/results/eval_known_answers.json.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(REPO), str(REPO / "tests" / "fixtures")]

from scripted_server import ScriptedServer  # noqa: E402

REFUSAL = "I don't know; the conversation does not mention it."
INVENTED = "It was the blue one, bought in 2019 for 40 euros."


def plans(release: Path, revision: str) -> dict:
    from builder.eval import prompts, source

    ref = source.open_release(str(release), revision)
    out: dict[str, dict] = {"perfect": {}, "letters": {}, "never": {}}
    for dialogue in source.iter_dialogues(ref, ("default",)):
        first = dialogue.turns[0]["text"][:300]
        for q in dialogue.questions:
            key = json.dumps([first, q["question"]])
            gold = q["answer"]
            if q["format"] == "mcq":
                gold = prompts.option_label(q["choices"].index(q["answer"]))
            letters = gold
            if q["gold_items"]:
                letters = ", ".join(q["gold_items"])
            elif q["ability"] == "IM" and q["gold_images"] and q["format"] == "open":
                letters = " and ".join(f"Image {i + 1}" for i in q["gold_images"])
            out["perfect"][key] = gold
            out["letters"][key] = letters
            out["never"][key] = INVENTED if q["should_refuse"] else gold
    return out


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("release", nargs="?", default=str(REPO / "release" / "mmrc-v0.1.0"))
    parser.add_argument("--revision", default="v0.1.0")
    args = parser.parse_args()
    from click.testing import CliRunner

    from builder.cli import main as cli

    plan = plans(Path(args.release), args.revision)

    def respond(body: dict) -> str:
        if body["model"] == "refuser":
            return REFUSAL
        first = next(m for m in body["messages"] if m["role"] == "user")["content"]
        first_text = "".join(p.get("text", "") for p in first if p.get("type") == "text")
        first_text = first_text.split("\n", 1)[1] if first_text.startswith("[Image") else first_text
        last = body["messages"][-1]["content"]
        question = "".join(p.get("text", "") for p in last if p.get("type") == "text").split("\n\n")[0]
        return plan[body["model"]][json.dumps([_strip_labels(first, first_text)[:300], question])]

    results = {}
    with tempfile.TemporaryDirectory() as tmp, ScriptedServer(respond) as server:
        for model in ("perfect", "letters", "refuser", "never"):
            started = time.perf_counter()
            result = CliRunner().invoke(cli, ["eval", "run", args.release, "--revision", args.revision, "--backend",
                                              "openai", "--base-url", server.url, "--model", model, "--name", model,
                                              "--judge", "none", "--configs", "default", "-o", tmp, "--quiet"])
            if result.exit_code != 0:
                raise SystemExit(f"{model}: {result.output}")
            doc = json.loads((Path(tmp) / f"mmrc-v{args.revision.lstrip('v')}" / model / "results.json").read_text())
            obj = doc["objective"]
            results[model] = {k: {"mean": obj[k]["mean"], "n": obj[k]["n"]}
                              for k in ("ep", "imp", "imp_jaccard", "rp", "over_refusal", "refusal_agreement",
                                        "mcq_accuracy", "tf_accuracy")}
            results[model]["rp_refusal_by"] = obj["rp"]["refusal_by"]
            results[model]["seconds"] = round(time.perf_counter() - started, 2)
            print(f"{model:8} EP {obj['ep']['mean']} (n={obj['ep']['n']})  IMP {obj['imp']['mean']} "
                  f"(n={obj['imp']['n']})  RP {obj['rp']['mean']} (n={obj['rp']['n']}, {obj['rp']['refusal_by']})  "
                  f"over-refusal {obj['over_refusal']['mean']}  mcq {obj['mcq_accuracy']['mean']}")
    out = {"release": args.release, "revision": args.revision, "judge": "none (refusals by the phrase matcher)",
           "extract": "parser", "configs": ["default"], "models": results}
    path = REPO / "bench" / "results" / "eval_known_answers.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(out, indent=2, sort_keys=True) + "\n")
    print(f"wrote {path}")


def _strip_labels(parts: list, text: str) -> str:
    """The first user turn's own text, without the [Image k] label parts the prompt adds."""
    own = [p.get("text", "") for p in parts if p.get("type") == "text" and not p.get("text", "").startswith("[Image")]
    return "".join(own)


if __name__ == "__main__":
    main()

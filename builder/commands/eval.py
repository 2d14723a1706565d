"""`mmrc-build eval run|report|smoke-model`: evaluate models on a release (options -> functions)."""

from __future__ import annotations

from pathlib import Path

import click

from builder.commands.common import executor_options, executor_spec

_dir = click.Path(path_type=Path, file_okay=False)


class _CountOrAuto(click.ParamType):
    """A whole number of at least 1, or ``auto``."""

    name = "N|auto"

    def convert(self, value, param, ctx):
        if value == "auto" or isinstance(value, int):
            return value
        try:
            return int(value)
        except ValueError:
            self.fail(f"{value!r} is neither a whole number nor auto", param, ctx)


_COUNT_OR_AUTO = _CountOrAuto()

ROLES = {
    "": "the evaluated model",
    "judge-": "the judge",
    "notetaker-": "the notetaker (Note-taking, --notes)",
}


def _backend_options(prefix: str, fn):
    """--[prefix]backend, --[prefix]model, ... for one role (model, judge or notetaker)."""
    who = ROLES[prefix]
    opts = [
        click.option(f"--{prefix}backend", f"{prefix.replace('-', '_')}backend", default=None if prefix else
                     "transformers", show_default=not prefix,
                     help=f"Backend of {who}: transformers or openai" + (", or none" if prefix == "judge-" else "")
                     + "."),
        click.option(f"--{prefix}model", f"{prefix.replace('-', '_')}model", default=None,
                     help=f"Model of {who}: a folder or Hub id (transformers, safetensors only) or the served "
                          "model name (openai)."),
        click.option(f"--{prefix}base-url", f"{prefix.replace('-', '_')}base_url", default=None,
                     help=f"OpenAI-compatible base URL of {who}, e.g. http://127.0.0.1:8000/v1."),
        click.option(f"--{prefix}api-key-env", f"{prefix.replace('-', '_')}api_key_env", default=None,
                     help=f"Environment variable holding the API key of {who}, e.g. OPENAI_API_KEY. No key is "
                          "sent unless you name one: a key meant for one server never reaches another."),
    ]
    for opt in reversed(opts):
        fn = opt(fn)
    return fn


def _spec(backend, model, base_url, api_key_env, shared: dict, prefix: str = ""):
    from builder.eval.backends import BackendSpec

    return BackendSpec(backend=backend, model=model, base_url=base_url, api_key_env=api_key_env, options=prefix,
                       **shared)


@click.group("eval")
def command():
    """Evaluate multimodal models on a release: predict, Note-taking, judge, score, report."""


def _run_options(fn):
    for prefix in ("notetaker-", "judge-", ""):
        fn = _backend_options(prefix, fn)
    return fn


def _default(cls: str, name: str):
    """A default read from the config dataclass (one home for every default)."""
    import dataclasses

    from builder.eval.backends import BackendSpec
    from builder.eval.run import EvalConfig

    fields = {f.name: f for f in dataclasses.fields(BackendSpec if cls == "spec" else EvalConfig)}
    return fields[name].default


@command.command("run")
@click.argument("release")
@click.option("--revision", default=None, help="Tag or commit of the release to evaluate (e.g. v0.1.0); default: "
                                               "the checked-out tag of a local folder, main on the Hub.")
@_run_options
@click.option("--judge", "judge_mode", type=click.Choice(["auto", "none"]), default="auto", show_default=True,
              help="none: no judge; judge means are reported as not computed and RP's refusals come from the "
                   "phrase matcher.")
@click.option("--judge-context", type=click.Choice(["evidence", "full"]), default=_default("config", "judge_context"),
              show_default=True, help="What the judge reads of the conversation: the evidence turns the annotator "
                                      "named (gold_turns) or the whole conversation's text.")
@click.option("--judge-concurrency", type=_COUNT_OR_AUTO, default=None,
              help="openai judge: requests in flight (default: --concurrency).")
@click.option("--judge-timeout", type=float, default=None, help="openai judge: seconds per request (default: --timeout).")
@click.option("--notes", is_flag=True, help="Note-taking (MMRC §5): a notetaker keeps JSON notes put before "
                                            "each question.")
@click.option("--device", default=_default("spec", "device"), show_default=True,
              help="transformers: auto, cpu, cuda or cuda:N.")
@click.option("--dtype", default=_default("spec", "dtype"), show_default=True,
              help="transformers: auto, float32, bfloat16, float16.")
@click.option("--batch-size", type=_COUNT_OR_AUTO, default=_default("spec", "batch_size"), show_default=True,
              help="transformers: questions per generate call, from many dialogues, sorted by prompt length; auto: "
                   "sized from free GPU memory on CUDA, a fixed size on CPU (the run's manifest says which).")
@click.option("--prefix-cache", type=click.Choice(["auto", "off", "on"]), default=_default("spec", "prefix_cache"),
              show_default=True, help="transformers: on = one dialogue's questions per generate call on its history "
                                      "encoded once; off = questions of many dialogues per call; auto = on for CPU "
                                      "(prefill-bound: faster there), off on CUDA (slower there).")
@click.option("--compile", "compile_", is_flag=True,
              help="transformers: static KV cache + torch.compile of the decode step where the model supports it; "
                   "where it cannot, one line says why and the run goes on uncompiled (recorded in the manifest).")
@click.option("--trust-remote-code", is_flag=True,
              help="transformers: run the Python code a model folder ships (MiniCPM-V, mPLUG-Owl3 need it). Code "
                   "from the folder runs with your rights: only for folders you trust. Weights still load from "
                   "safetensors only.")
@click.option("--load-in-4bit", is_flag=True,
              help="transformers on CUDA: 4-bit (NF4) weights, needs the optional extra `pip install "
                   "'mmrc-build[quant]'` (bitsandbytes). The CPU cannot: it is refused there.")
@click.option("--concurrency", type=_COUNT_OR_AUTO, default=_default("spec", "concurrency"), show_default=True,
              help="openai: requests in flight; auto ramps 4, 8, 16, ... while throughput rises by more than 10% "
                   "(a batching server such as vLLM; the manifest records the levels tried).")
@click.option("--timeout", default=_default("spec", "timeout_s"), show_default=True, help="openai: seconds per request.")
@click.option("--max-retries", default=_default("spec", "max_retries"), show_default=True,
              help="openai: retries on 429/5xx/timeouts.")
@click.option("--max-new-tokens", default=_default("config", "max_new_tokens"), show_default=True,
              help="Answer length limit (MMRC App. G).")
@click.option("--generation", type=click.Choice(["greedy", "model-default"]), default=_default("spec", "generation"),
              show_default=True, help="greedy decoding, or each model's own generation settings (what MMRC ran; "
                                      "sampled answers are seeded by --seed).")
@click.option("--temperature", type=float, default=None, help="With --generation model-default: the temperature.")
@click.option("--top-p", type=float, default=None, help="With --generation model-default: top-p.")
@click.option("--seed", type=int, default=_default("config", "seed"), show_default=True,
              help="Seed of the --sample draw, of sampled answers and of the bootstrap CIs.")
@click.option("--context-length", type=int, default=None,
              help="Context window of the evaluated model when its config does not say (or to lower it).")
@click.option("--overflow", type=click.Choice(["record", "truncate-history"]), default=_default("spec", "overflow"),
              show_default=True,
              help="A prompt that does not fit: record it as context_overflow, or drop the oldest exchanges.")
@click.option("--extract", type=click.Choice(["parser", "judge"]), default=_default("config", "extract"),
              show_default=True, help="Who reads an answer's items (EP) and images (IMP): the rule parser, or "
                                      "the judge (descriptions of images too).")
@click.option("--configs", default=",".join(_default("config", "configs")), show_default=True,
              help="Release configs to evaluate (comma-separated).")
@click.option("--abilities", default=None, help="Only these abilities' questions, e.g. IE,MR (default: all six).")
@click.option("--limit", type=int, default=None, help="Only the first N original dialogues (by id) and their "
                                                       "variants.")
@click.option("--sample", type=int, default=None, help="N original dialogues drawn at random (--seed), stratified "
                                                        "by topic, and their variants.")
@click.option("--predict-only", is_flag=True, help="Stop after the predict phase (answers cached).")
@click.option("--rejudge", is_flag=True, help="Ask the judge again instead of reusing cached verdicts.")
@click.option("--name", default=None, help="Output folder name for this model (default: from --model); one folder "
                                           "name, never a path.")
@click.option("--cache", "cache_path", type=click.Path(path_type=Path, dir_okay=False), default=None,
              help="Cache file (default: OUT/cache.sqlite), shared by runs and models.")
@click.option("-o", "--output", "out_root", type=_dir, default=Path("evals"), show_default=True,
              help="Root folder: results go to OUT/<release>-<tag>/<model>/.")
@executor_options
def run(release, revision, backend, model, base_url, api_key_env, judge_backend, judge_model, judge_base_url,
        judge_api_key_env, notetaker_backend, notetaker_model, notetaker_base_url, notetaker_api_key_env,
        judge_mode, judge_context, judge_concurrency, judge_timeout, notes, device, dtype, batch_size, prefix_cache,
        compile_,
        trust_remote_code, load_in_4bit, concurrency, timeout, max_retries, max_new_tokens, generation, temperature,
        top_p, seed, context_length, overflow, extract, configs, abilities, limit, sample, predict_only, rejudge,
        name, cache_path, out_root, executor, workers, address, cpus_per_worker, gpus_per_worker, quiet):
    """Evaluate --model on RELEASE (a release folder or a Hub repo id): golden history + question,
    answers, judge, EP/IMP/RP, results.json and samples.jsonl under OUT."""
    from builder.errors import ConfigError
    from builder.eval.run import EvalConfig, run_eval

    if not model:
        raise ConfigError("--model is required: a folder or Hub id (transformers) or a served model name (openai)")
    shared = dict(device=device, dtype=dtype, batch_size=batch_size, prefix_cache=prefix_cache,
                  concurrency=concurrency, timeout_s=timeout, max_retries=max_retries)
    model_spec = _spec(backend, model, base_url, api_key_env,
                       {**shared, "context_length": context_length, "overflow": overflow, "generation": generation,
                        "temperature": temperature, "top_p": top_p, "seed": seed,
                        "trust_remote_code": trust_remote_code, "load_in_4bit": load_in_4bit, "compile": compile_})
    judge_spec = None
    if judge_mode == "none" or judge_backend == "none":
        if judge_model:
            raise ConfigError("--judge none and --judge-model contradict each other; drop one")
    elif not (judge_backend and judge_model):
        raise ConfigError("give the judge with --judge-backend NAME --judge-model MODEL (MMRC used gpt-4o), or "
                          "pass --judge none to compute only what needs no judge")
    else:
        judge_spec = _spec(judge_backend, judge_model, judge_base_url, judge_api_key_env,
                           {**shared, "concurrency": judge_concurrency or concurrency,
                            "timeout_s": judge_timeout or timeout}, "judge-")
    note_spec = None
    if notes:
        if not (notetaker_backend and notetaker_model):
            raise ConfigError("--notes needs --notetaker-backend NAME --notetaker-model MODEL")
        note_spec = _spec(notetaker_backend, notetaker_model, notetaker_base_url, notetaker_api_key_env, shared,
                          "notetaker-")
    if model_spec.validate().trust_remote_code:
        click.echo(f"WARNING: --trust-remote-code runs the Python code shipped in {model} with your rights; use it "
                   "only for model folders you trust", err=True)
    config = EvalConfig(max_new_tokens=max_new_tokens, configs=_names(configs, "--configs"), notes=notes,
                        extract=extract, limit=limit, sample=sample, seed=seed, predict_only=predict_only,
                        rejudge=rejudge, name=name, judge_context=judge_context,
                        abilities=None if abilities is None else _names(abilities, "--abilities"))
    doc = run_eval(release, revision, model_spec, out_root, config, judge=judge_spec, notetaker=note_spec,
                   cache_path=cache_path, quiet=quiet, log=lambda m: click.echo(m, err=True),
                   executor=executor_spec(executor, workers, address, cpus_per_worker, gpus_per_worker))
    _summary(doc)


def _names(text: str, option: str) -> tuple[str, ...]:
    """A comma-separated option as a tuple; an empty one is refused, never read as 'all'."""
    from builder.errors import ConfigError

    names = tuple(n.strip() for n in text.split(",") if n.strip())
    if not names:
        raise ConfigError(f"{option} is empty; name at least one value (or leave the option out for the default)")
    return names


def _summary(doc: dict) -> None:
    from builder.records import ABILITIES

    if doc.get("warning"):
        click.echo(f"WARNING: {doc['warning']}")
    overall = doc["overall"]
    label = "judge score 0-5" if overall["metric"] == "judge_all" else "rule-scored mcq/tf accuracy (no judge)"
    click.echo(f"{doc['path']}: {doc['questions']} questions on {doc['dialogues']} dialogues; "
               f"overall {label}: {_num(overall['mean'])}")
    key = overall["metric"]
    click.echo("  " + "  ".join(f"{a} {_num((doc['abilities'][a][key] or {}).get('mean'))}" for a in ABILITIES))
    obj = doc["objective"]
    by = ", ".join(f"{k} {v}" for k, v in (obj["rp"].get("refusal_by") or {}).items())
    click.echo(f"  EP {_num(obj['ep']['mean'])}  IMP {_num(obj['imp']['mean'])}  RP {_num(obj['rp']['mean'])}"
               f"{f' (refusals by {by})' if by else ''}  over-refusal {_num(obj['over_refusal']['mean'])}  "
               f"mcq {_num(obj['mcq_accuracy']['mean'])}  tf {_num(obj['tf_accuracy']['mean'])}  "
               f"statuses {doc['statuses']['prediction']}")


def _num(value) -> str:
    return "n/a" if value is None else f"{value:.3f}"


@command.command("report")
@click.argument("root", type=_dir, default=Path("evals"))
def report(root):
    """Leaderboard (leaderboard.md: MMRC Table 3 with CIs, CR*/IU*/MR*, Note-taking, modality swap,
    domains) and figures (radar, Fig. 7 length, Fig. 9 updates, Fig. 15 topics, evidence position)
    over every model evaluated under ROOT."""
    from builder.eval.report import write_report

    result = write_report(root)
    click.echo(f"{result['leaderboard']}: " + ", ".join(f"{r} ({n} model(s))" for r, n in result["releases"].items()))


@command.command("compare")
@click.argument("run_a", type=click.Path(path_type=Path, file_okay=False, exists=True))
@click.argument("run_b", type=click.Path(path_type=Path, file_okay=False, exists=True))
@click.option("--bootstrap", type=click.IntRange(0, 100_000), default=1000, show_default=True,
              help="Bootstrap resamples (dialogues) for the CIs (0: no CIs).")
@click.option("--seed", default=0, show_default=True, help="Bootstrap seed.")
@click.option("--json", "as_json", is_flag=True, help="Print the comparison as JSON.")
def compare_runs(run_a, run_b, bootstrap, seed, as_json):
    """B − A on the questions both runs answered: a paired bootstrap over dialogues, overall and per
    ability, on the judge's scale when one judge scored both (else rule-scored mcq/tf accuracy)."""
    import json

    from builder.eval import compare

    doc_a, samples_a = compare.read_run(run_a)
    doc_b, samples_b = compare.read_run(run_b)
    metric, why = compare.comparable_metric(doc_a, doc_b)
    result = compare.paired(samples_a, samples_b, metric, {"resamples": bootstrap, "seed": seed})
    result["why_not_judge"] = why
    result["releases"] = compare.releases(doc_a, doc_b)
    if as_json:
        click.echo(json.dumps(result, indent=2, sort_keys=True))
        return
    click.echo(f"B − A on {result['shared']} shared questions, {metric}" + (f" ({why})" if why else "")
               + f"\n  A: {run_a}\n  B: {run_b}")
    if result["releases"]:
        click.echo("  A and B evaluated different releases (" + ", ".join(
            f"{r.get('name')} {r.get('revision')} @{str(r.get('commit'))[:12]}" for r in result["releases"])
            + f"); {result['differ']} question(s) with the same id differ between them and are not compared")
    for label, d in [("overall", result["overall"]), *result["abilities"].items()]:
        ci = f" [{d['ci'][0]:+.3f}, {d['ci'][1]:+.3f}]" if d["ci"] else ""
        diff = "n/a" if d["difference"] is None else f"{d['difference']:+.3f}{ci}"
        click.echo(f"  {label:8} A {_num(d['a'])}  B {_num(d['b'])}  B−A {diff}  (n={d['n']})")


@command.group("review")
def review_group():
    """Human re-evaluation (MMRC CR*/IU*/MR*): export a sheet, import the filled sheets."""


@review_group.command("export")
@click.argument("run", type=click.Path(path_type=Path, file_okay=False, exists=True))
@click.option("-o", "--output", "out", type=click.Path(path_type=Path, dir_okay=False), default=None,
              help="Sheet to write (default: RUN/review-<abilities>.csv).")
@click.option("--abilities", default="CR,IU,MR", show_default=True, help="Abilities to re-evaluate.")
@click.option("--annotator", default=None, help="Prefill the annotator column.")
@click.option("--force", is_flag=True, help="Overwrite an existing sheet.")
def review_export(run, out, abilities, annotator, force):
    """Write a CSV sheet for RUN: question, golden context (evidence turns), reference answer, the
    model's answer, the judge's score, and empty human_score / annotator columns to fill."""
    from builder.errors import ConfigError
    from builder.eval import review
    from builder.records import ABILITIES

    wanted = _names(abilities, "--abilities")
    unknown = [a for a in wanted if a not in ABILITIES]
    if unknown:
        raise ConfigError(f"unknown ability {', '.join(unknown)} in --abilities; available: {', '.join(ABILITIES)}")
    out, rows = review.export_sheet(run, out, wanted, annotator, force)
    click.echo(f"{out}: {len(rows)} question(s) of {', '.join(wanted)} to score 0-5 (fill human_score and "
               "annotator, then `mmrc-build eval review import RUN SHEET`)")


@review_group.command("import")
@click.argument("run", type=click.Path(path_type=Path, file_okay=False, exists=True))
@click.argument("sheets", nargs=-1, required=True, type=click.Path(path_type=Path))
@click.option("--replace", is_flag=True, help="Take a new score where an annotator scored a question before.")
def review_import(run, sheets, replace):
    """Read filled SHEETS into RUN: every row validated (one line per bad row, nothing imported
    until all are right); results.json gains human scores and judge–human agreement."""
    from builder.eval import review

    result = review.import_sheets(run, list(sheets), replace=replace)
    click.echo(f"{run}: imported {result['imported']} score(s) ({result['unscored']} row(s) left unscored); "
               f"{result['reviews']} review(s) in all")
    for code, entry in (result["human"] or {}).get("abilities", {}).items():
        agree = entry["agreement"]
        click.echo(f"  {code}* {_num(entry['human']['mean'])} (n={entry['human']['n']})  judge "
                   f"{_num(entry['judge_on_reviewed']['mean'])}  agreement exact {_num(agree['exact'])}, ±1 "
                   f"{_num(agree['within_1'])}, weighted kappa {_num(agree['weighted_kappa'])}")


@command.command("smoke-model")
@click.argument("folder", type=_dir)
@click.option("--seed", default=0, show_default=True, help="Weight seed.")
@click.option("--hidden", default=64, show_default=True, help="Text model width (64: ~150k parameters).")
@click.option("--layers", default=2, show_default=True, help="Text model layers.")
def smoke_model(folder, seed, hidden, layers):
    """Build a tiny random-weight LLaVA-style model in FOLDER for smoke runs and tests: real
    transformers code paths, scores that mean nothing."""
    from builder.eval.smoke_model import SMOKE_NOTE, build_smoke_model

    build_smoke_model(folder, seed=seed, hidden=hidden, layers=layers)
    click.echo(f"{folder}: {SMOKE_NOTE}")

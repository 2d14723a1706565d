"""``eval run``: notes (optional) -> predict -> judge -> score, resumable through the cache.

Output: ``OUT/<release>-<tag>/<model-slug>/`` with ``results.json``, ``samples.jsonl``,
``manifest.json`` and ``figures/``, written into a partial folder and renamed into place.
One writer per output folder (a lock); the shared cache (``OUT/cache.sqlite``) keeps every
answer, note and verdict as it arrives, so a killed run loses at most what was in flight
and a rerun gives the same bytes.
"""

from __future__ import annotations

import itertools
import json
import os
import re
import shutil
import time
from dataclasses import asdict, dataclass, replace
from pathlib import Path
from typing import Callable, Iterator

from builder import __version__, io
from builder.errors import ConfigError, IncompleteError, OutputExistsError
from builder.eval import judge as judge_mod
from builder.eval import notes as notes_mod
from builder.eval import prompts, review, run_files, samples as samples_mod, score, source
from builder.eval.backends import BackendSpec, Group, Reply, Request, make_backend
from builder.eval.cache import EvalCache, cache_key
from builder.eval.select import choose_dialogues
from builder.executors import ExecutorSpec
from builder.locks import FolderLock
from builder.progress import Progress
from builder.records import ABILITIES

RESULTS_FORMAT = "mmrc-eval-results/2"  # 2: RP/IMP as the paper defines them, analyses, human
CONFIG_ORDER = {"default": 0, "modality_swap": 1}


@dataclass(frozen=True)
class EvalConfig:
    max_new_tokens: int = 256
    configs: tuple[str, ...] = ("default", "modality_swap")
    notes: bool = False
    notes_max_new_tokens: int = 512
    notes_retries: int = 2
    judge_max_new_tokens: int = 512
    extract: str = "parser"  # parser | judge
    limit: int | None = None  # first N original dialogues (by id) and their variants
    chunk_dialogues: int = 32
    bootstrap: int = 1000
    seed: int = 0
    predict_only: bool = False
    rejudge: bool = False
    name: str | None = None  # output slug instead of one derived from the model
    judge_context: str = "evidence"  # evidence | full: what the judge reads of the conversation
    sample: int | None = None  # N original dialogues drawn at random (seeded), stratified by topic
    abilities: tuple[str, ...] | None = None  # only these abilities' questions

    def validate(self, judged: bool) -> None:
        if self.extract not in ("parser", "judge"):
            raise ConfigError(f"unknown --extract {self.extract!r}; available: parser, judge")
        if self.judge_context not in judge_mod.CONTEXTS:
            raise ConfigError(f"unknown --judge-context {self.judge_context!r}; available: "
                              + ", ".join(judge_mod.CONTEXTS))
        if not self.configs:
            raise ConfigError("--configs is empty; name at least one release config: default, modality_swap")
        if self.sample is not None and self.sample < 1:
            raise ConfigError("--sample must be at least 1")
        if self.sample is not None and self.limit is not None:
            raise ConfigError("--sample and --limit both choose dialogues; pass one of them")
        unknown = sorted(set(self.abilities or ()) - set(ABILITIES))
        if unknown or self.abilities == ():
            raise ConfigError(f"unknown ability {', '.join(unknown) or '(none given)'} in --abilities; available: "
                              + ", ".join(ABILITIES))
        if self.name is not None:
            check_run_name(self.name)
        if self.extract == "judge" and not judged:
            raise ConfigError("--extract judge needs a judge; use --extract parser with --judge none")
        if self.max_new_tokens < 1:
            raise ConfigError("--max-new-tokens must be at least 1")
        if self.limit is not None and self.limit < 1:
            raise ConfigError("--limit must be at least 1")
        if not -2 ** 63 <= self.seed < 2 ** 64:  # what torch and the servers take
            raise ConfigError(f"--seed must be a 64-bit integer (not {self.seed})")


RUN_NAME = re.compile(r"[A-Za-z0-9](?:[A-Za-z0-9._+-]{0,118}[A-Za-z0-9])?")


def check_run_name(name: str) -> str:
    """``--name`` is one folder name under OUT/<release>-<tag>/, never a path."""
    if not RUN_NAME.fullmatch(name) or ".." in name:
        raise ConfigError(f"--name {name!r} is not a valid run name: use 1-120 letters, digits, '.', '_', '+' or "
                          "'-', starting and ending with a letter or digit (it names one folder, never a path)")
    return name


def model_slug(spec: BackendSpec) -> str:
    """A readable name plus a short hash of what the model is, so two checkpoints called
    ``checkpoint-100`` or one Hub id on two backends never share an output folder."""
    path = Path(spec.model).expanduser()
    name = path.name if path.exists() else spec.model
    where = str(path.resolve()) if path.exists() else spec.model
    return f"{source.safe_slug(name)[:80]}-{io.sha256_json([spec.backend, where, spec.base_url])[:8]}"


def run_eval(release: str, revision: str | None, model: BackendSpec, out_root: Path, config: EvalConfig,
             judge: BackendSpec | None = None, notetaker: BackendSpec | None = None,
             cache_path: Path | None = None, quiet: bool = False, log: Callable[[str], None] = lambda m: None,
             backends: dict | None = None, executor: ExecutorSpec | None = None) -> dict:
    """Evaluate ``model`` on ``release``; returns the results document. ``backends`` may hold
    ready backend objects under "model" / "judge" / "notetaker" (tests inject transports).
    ``executor`` (processes or ray) spreads the predict phase over workers that each load the
    model once (transformers backend); the executor is not part of any cache key."""
    if executor is not None and executor.validate().name != "local" and model.backend != "transformers":
        raise ConfigError(f"--executor {executor.name} spreads in-process models over workers; the "
                          f"{model.backend} backend scales with --concurrency instead")
    config.validate(judge is not None or bool(backends and backends.get("judge")))
    io.require_utf8_path(out_root, "-o")
    if cache_path is not None:
        io.require_utf8_path(cache_path, "--cache")
    if config.notes and notetaker is None and not (backends and backends.get("notetaker")):
        raise ConfigError("--notes needs a notetaker: --notetaker-backend NAME --notetaker-model MODEL")
    backends = dict(backends or {})
    started = time.perf_counter()
    ref = source.open_release(release, revision)
    source.check_index(ref, config.configs)  # a malformed release is one line before anything is written or asked
    _refuse_inside_release(ref, {"-o": out_root, "--cache": cache_path})
    slug = config.name or model_slug(model)
    if config.notes:
        slug += "+notes-" + (source.safe_slug(Path(notetaker.model).name) if notetaker else "injected")
    target = Path(out_root) / ref.slug / slug
    _refuse_foreign(target)
    # made before anything is written: a wrong key variable or model folder leaves no trace under -o
    model_backend = backends.get("model") or make_backend(model)
    judge_backend = backends.get("judge") or (make_backend(judge) if judge else None)
    note_backend = None
    if config.notes:
        note_backend = backends.get("notetaker")
        if not note_backend:
            assert notetaker is not None  # checked above: --notes needs a notetaker
            note_backend = make_backend(notetaker)
    with FolderLock(target):
        _recover(target)
        reviews = run_files.read_reviews(target)  # human scores imported into an earlier run are kept
        cache = EvalCache(cache_path or Path(out_root) / "cache.sqlite")
        try:
            conversations: dict[str, list[dict]] = {}  # --judge-context full: each dialogue's text
            rows = _predict(ref, model_backend, note_backend, cache, config, quiet, log, executor, model, conversations)
            if judge_backend is not None and not config.predict_only:
                _judge(rows, judge_backend, cache, config, quiet, log, conversations)
            else:
                for row in rows:
                    row["judge"] = {"status": "not_run"}
            judged = judge_backend is not None and not config.predict_only
            for row in rows:
                row["metrics"] = samples_mod.score_sample(row, config.extract)
            boot = {"resamples": config.bootstrap, "seed": config.seed}
            doc = _results(ref, rows, judged, boot, config, model_backend, judge_backend, note_backend, model)
            manifest = {"stage": "eval", "tool_version": __version__, "release": ref.describe(),
                        "executor": (executor or ExecutorSpec()).describe(),
                        "config": asdict(config), "cache": {"path": str(cache.path), **cache.counts()},
                        "backend_stats": {"model": model_backend.stats,
                                          "judge": judge_backend.stats if judge_backend else None,
                                          "notetaker": note_backend.stats if note_backend else None},
                        "timings": {"total_s": round(time.perf_counter() - started, 3)}}
            complete = not _backend_failures(rows) and not (note_backend and note_backend.stats.get("notes_backend_errors"))
            doc["human"] = review.human_section(rows, reviews, boot)
            _write(target, rows, doc, manifest, judged, complete, reviews)
        finally:
            cache.close()
    log(f"eval: {target}")
    errors, judge_errors = _backend_failures(rows) or (0, 0)
    note_errors = note_backend.stats.get("notes_backend_errors", 0) if note_backend is not None else 0
    if errors or judge_errors or note_errors:
        raise IncompleteError(f"{errors} prediction(s), {judge_errors} judge call(s) and {note_errors} note-taking "
                              f"step(s) failed with backend errors (kept in {target / 'samples.jsonl'}, not cached); "
                              "rerun the same command to retry them")
    return {**doc, "path": str(target)}


# ---------------------------------------------------------------------------------------------
# phases
# ---------------------------------------------------------------------------------------------


def wanted_question(question: dict, config: EvalConfig) -> bool:
    return config.abilities is None or question["ability"] in config.abilities


def _count_questions(ref: source.ReleaseRef, config: EvalConfig, only: set[str] | None) -> int:
    import pyarrow.parquet as pq

    total = 0
    for cfg in config.configs:
        for path in source.shard_files(ref, cfg):
            for row in pq.read_table(path, columns=["dialogue_id", "questions"]).to_pylist():
                if only is None or row["dialogue_id"] in only:
                    total += sum(1 for q in row["questions"] or [] if wanted_question(q, config))
    return total


def _predict(ref, backend, note_backend, cache, config, quiet, log, executor=None, spec=None,
             conversations=None) -> list[dict]:
    only = choose_dialogues(ref, config.limit, config.sample, config.seed)
    if executor is not None and executor.gpus_per_worker and spec.device == "auto" and backend.device is None:
        backend.device = "cuda"  # where the actors run: the answers' cache key says so, whatever this process has
    total = _count_questions(ref, config, only)
    progress = Progress("predict", total, "questions", quiet=quiet)
    notetaker = (notes_mod.NoteTaker(note_backend, cache, config.notes_max_new_tokens, config.notes_retries)
                 if note_backend is not None else None)
    rows: list[dict] = []
    pending: dict[str, list[dict]] = {}
    params = predict_params(config, spec)

    def on_reply(key: str, value: dict) -> None:
        if value["status"] != "backend_error":
            cache.put("predict", key, value)
        for row in pending.pop(key):
            row["prediction"] = value
            progress.update(1)

    def chunks() -> Iterator[list]:
        chunk: list = []
        for dialogue in source.iter_dialogues(ref, config.configs, only):
            chunk.append(dialogue)
            if len(chunk) >= config.chunk_dialogues:
                yield chunk
                chunk = []
        if chunk:
            yield chunk

    def groups_of(chunk) -> list[Group]:
        chunk_rows, groups = _build_chunk(chunk, backend.identity(), notetaker, cache, config, pending, progress,
                                          params, conversations)
        rows.extend(chunk_rows)
        return groups

    if executor is None or executor.name == "local":
        reply = lambda request, answer: on_reply(request.key, answer.to_json())  # noqa: E731
        if getattr(backend, "pools_groups", False):  # one lazy stream: its batches span chunks of dialogues
            stream = (group for chunk in chunks() for group in groups_of(chunk))
            first = next(stream, None)  # a bad release fails, and an all-cached run ends, before a model loads
            if first is not None:
                backend.run(itertools.chain([first], stream), reply)
        else:  # an event-loop backend: a chunk's notes are taken before its groups are sent
            for chunk in chunks():
                if groups := groups_of(chunk):
                    backend.run(groups, reply)
    else:  # shards of many dialogues, each on a worker process or Ray actor with a model of its own
        from builder.eval import parallel
        from builder.executors import run_tasks

        size = parallel.task_questions(total, executor.workers)
        worker_stats = parallel.WorkerStats(size, backend.identity())

        def on_shard(shard, result) -> None:
            worker_stats.add(result)
            for key, value in result["replies"]:
                on_reply(key, value)

        tasks = parallel.shards((group for chunk in chunks() for group in groups_of(chunk)), size)
        run_tasks(executor, parallel.PredictWorker(spec), tasks, on_shard, spec.device)
        backend.stats.update(worker_stats.merged())
    for row in rows:
        row.setdefault("prediction", Reply("backend_error", error="the backend returned no reply").to_json())
    progress.close(f"cache hits {cache.hits['predict']}")
    rows.sort(key=lambda r: (CONFIG_ORDER[r["config"]], r["dialogue_id"], r["question_id"]))
    return rows


def predict_params(config: EvalConfig, spec: BackendSpec | None) -> dict:
    """What besides the prompt decides an answer (part of its cache key): the length cap and the
    decoding (greedy keeps the key it always had, so earlier caches stay valid)."""
    generation = spec.generation_params() if spec is not None else {"mode": "greedy"}
    if generation["mode"] == "greedy":
        return {"max_new_tokens": config.max_new_tokens, "temperature": 0}
    return {"max_new_tokens": config.max_new_tokens, "generation": generation}


def _build_chunk(chunk, ident, notetaker, cache, config, pending, progress, params,
                 conversations) -> tuple[list[dict], list[Group]]:
    """Sample rows of a chunk of dialogues and the request groups for what the cache lacks."""
    wanted = {d.dialogue_id: [q for q in d.questions if wanted_question(q, config)] for d in chunk}
    notes = notetaker.take([d for d in chunk if wanted[d.dialogue_id]]) if notetaker else {}
    rows, groups = [], []
    for dialogue in chunk:
        history = prompts.history_messages(dialogue.turns)
        requests = []
        if config.judge_context == "full" and wanted[dialogue.dialogue_id]:
            conversations[dialogue.dialogue_id] = samples_mod.evidence_turns(dialogue.turns, range(dialogue.n_turns))
        for question in wanted[dialogue.dialogue_id]:
            row = samples_mod.new_sample(dialogue, question)
            taken = notes.get(dialogue.dialogue_id)
            row["notes"] = ({k: taken[k] for k in ("status", "failed_steps", "steps", "errors")} | {"notes": taken["notes"]}
                            if taken else None)
            messages = history + [prompts.question_message(question, taken["notes"] if taken else None)]
            row["prompt_hash"] = prompts.prompt_hash(messages)
            key = cache_key(kind="predict", model=ident, version=prompts.PROMPT_VERSION, prompt=row["prompt_hash"],
                            params=params)
            rows.append(row)
            hit = cache.get("predict", key)
            if hit is not None:
                row["prediction"] = hit
                progress.update(1)
            elif key in pending:
                pending[key].append(row)
            else:
                pending[key] = [row]
                requests.append(Request(key, messages, config.max_new_tokens))
        if requests:
            groups.append(Group(requests, prefix_len=len(history)))
    return rows, groups


def _judge(rows, backend, cache, config, quiet, log, conversations=None) -> None:
    ident = backend.identity()
    todo = [r for r in rows if r["prediction"]["status"] == "ok"]
    progress = Progress("judge", len(todo), "answers", quiet=quiet)
    pending: dict[str, list[dict]] = {}
    groups = []
    for row in rows:
        if row["prediction"]["status"] != "ok":
            row["judge"] = {"status": "skipped", "reason": f"prediction {row['prediction']['status']}"}
            continue
        conversation = (conversations or {}).get(row["dialogue_id"]) if config.judge_context == "full" else None
        messages = judge_mod.judge_messages(row, config.extract, config.judge_context, conversation)
        key = cache_key(kind="judge", judge=ident, version=judge_mod.JUDGE_PROMPT_VERSION, extract=config.extract,
                        max_new_tokens=config.judge_max_new_tokens, prompt=prompts.prompt_hash(messages),
                        ability=row["ability"],
                        question=io.sha256_json([row["format"], row["question"], row["choices"]]),
                        gold=io.sha256_json([row["gold_answer"], row["gold_items"], row["gold_images"],
                                             row["should_refuse"]]),
                        prediction=io.sha256_json(row["prediction"]["text"]))
        hit = None if config.rejudge else cache.get("judge", key)
        if hit is not None:
            row["judge"] = hit
            progress.update(1)
        elif key in pending:
            pending[key].append(row)
        else:
            pending[key] = [row]
            groups.append(Group([Request(key, messages, config.judge_max_new_tokens)]))

    def on_reply(request: Request, reply: Reply) -> None:
        first = pending[request.key][0]
        if reply.status == "ok":
            parsed = judge_mod.parse_reply(reply.text, first["ability"], config.extract)
            verdict = {"status": "scored" if parsed["score"] is not None else "unparseable", **parsed,
                       "reply": reply.text}
        else:
            verdict = {"status": reply.status, "score": None, "refused": None, "items": None, "images": None,
                       "reply": None, "error": reply.error}
        if reply.status != "backend_error":
            cache.put("judge", request.key, verdict)
        for row in pending[request.key]:
            row["judge"] = verdict
            progress.update(1)

    if groups:
        backend.run(groups, on_reply)
    progress.close(f"cache hits {cache.hits['judge']}")


# ---------------------------------------------------------------------------------------------
# outputs
# ---------------------------------------------------------------------------------------------


def _results(ref, rows, judged, boot, config, model_backend, judge_backend, note_backend, spec) -> dict:
    fingerprint = model_backend.fingerprint()
    doc = {
        "format": RESULTS_FORMAT,
        "release": ref.describe(),
        "model": fingerprint,
        "judge": judge_backend.fingerprint() if judged else None,
        "notetaker": note_backend.fingerprint() if note_backend else None,
        "prompt_versions": {"question": prompts.PROMPT_VERSION, "judge": judge_mod.JUDGE_PROMPT_VERSION,
                            "judge_sha256": judge_mod.prompt_sha256() if judged else None,
                            "judge_context": config.judge_context if judged else None,
                            "notes": notes_mod.NOTES_PROMPT_VERSION if note_backend else None},
        "generation": {**spec.generation_params(), "max_new_tokens": config.max_new_tokens,
                       "judge": "greedy" if judged else None,
                       "judge_max_new_tokens": config.judge_max_new_tokens if judged else None,
                       "notes_max_new_tokens": config.notes_max_new_tokens if note_backend else None},
        "definitions": score.DEFINITIONS,
        "extract": config.extract,
        "notes": bool(note_backend),
        "config": {k: v for k, v in asdict(config).items() if k not in ("rejudge",)},
        **score.results(rows, judged, boot),
    }
    if fingerprint.get("smoke_model"):
        doc["warning"] = fingerprint["smoke_model"]
    return doc


def written_by_eval(folder: Path) -> bool:
    """A folder this tool wrote: an eval result folder whose manifest says so."""
    from builder.errors import InputError
    from builder.eval.run_files import read_manifest

    try:
        return read_manifest(folder).get("stage") == "eval"
    except InputError:  # none, a pipe, damaged: not a folder this tool can tell it wrote
        return False


def _refuse_foreign(target: Path) -> None:
    """An existing folder is replaced only when this tool wrote it (a rerun); anything else is left untouched."""
    if (target.exists() or target.is_symlink()) and (target.is_symlink() or not target.is_dir()
                                                     or not written_by_eval(target)):
        raise OutputExistsError(f"{target} exists and was not written by `mmrc-build eval run`; it was left "
                                "untouched: choose another --name or -o")


EXAMPLES = {"-o": "evals/", "--cache": "evals/cache.sqlite"}


def _refuse_inside_release(ref: source.ReleaseRef, outputs: dict[str, Path | None]) -> None:
    """The release is read, never changed: no output of the eval goes inside its folder (or the
    extraction of its revision)."""
    folders = [Path(ref.folder).resolve()] + ([Path(ref.location).resolve()] if ref.kind == "local" else [])
    for option, path in outputs.items():
        if path is not None and any(Path(path).resolve().is_relative_to(folder) for folder in folders):
            raise ConfigError(f"{option} {path} is inside the release folder {ref.location}, which eval reads and never "
                              f"changes; put it elsewhere (e.g. {option} {EXAMPLES[option]})")


def _recover(target: Path) -> None:
    """A run killed between the two renames of :func:`_write` left the previous folder at ``.NAME.old`` and
    none at ``NAME``: it is put back, so its reviews and the user's files in it are not lost."""
    old = target.parent / f".{target.name}.old"
    if not target.exists() and not target.is_symlink() and old.is_dir() and written_by_eval(old):
        os.replace(old, target)


def _carry_over(target: Path, partial: Path) -> None:
    """What a user put in the run folder (a review sheet exported to its default place, notes, links) is
    copied into the new folder; copied, not moved, so a kill before the swap loses nothing. A pipe or a
    device would block a copy: it is left behind."""
    def special(path: Path) -> bool:
        return not (path.is_symlink() or path.is_dir() or path.is_file())

    for entry in sorted(target.iterdir()):
        if entry.name in run_files.OWN_FILES or special(entry):
            continue
        if entry.is_symlink():
            os.symlink(os.readlink(entry), partial / entry.name)
        elif entry.is_dir():
            shutil.copytree(entry, partial / entry.name, symlinks=True,
                            ignore=lambda folder, names: [n for n in names if special(Path(folder) / n)])
        else:
            shutil.copy2(entry, partial / entry.name)


def _backend_failures(rows: list[dict]) -> tuple[int, int] | None:
    """(predictions, judge calls) that ended as backend errors, or None when there are none."""
    errors = sum(r["prediction"]["status"] == "backend_error" for r in rows)
    judge_errors = sum((r.get("judge") or {}).get("status") == "backend_error" for r in rows)
    return (errors, judge_errors) if errors or judge_errors else None


def _write(target: Path, rows: list[dict], doc: dict, manifest: dict, judged: bool, complete: bool,
           reviews: list[dict] | None = None) -> None:
    from builder.eval import figures

    _refuse_foreign(target)  # again under the lock: nothing appeared there since the run began
    partial = target.parent / f".{target.name}.partial"
    _remove(partial)
    (partial / "figures").mkdir(parents=True)
    with open(partial / "samples.jsonl", "w", encoding="utf-8", errors="replace") as fh:
        for row in rows:
            fh.write(json.dumps(row, ensure_ascii=False, sort_keys=True) + "\n")
    io.write_text_atomic(partial / "results.json", json.dumps(doc, indent=2, sort_keys=True, ensure_ascii=False) + "\n")
    names = ["samples.jsonl", "results.json"]
    if reviews:
        io.write_text_atomic(partial / review.REVIEWS_FILE, review.reviews_text(reviews))
        names.append(review.REVIEWS_FILE)
    figures.run_figures(doc, partial / "figures")
    manifest = {**manifest, "files": {name: io.sha256_file(partial / name) for name in names}}
    io.write_text_atomic(partial / "manifest.json", json.dumps(manifest, indent=2, sort_keys=True) + "\n")
    if complete:  # last: a folder without it is not a finished eval (report skips it)
        (partial / io.SUCCESS).write_text("")
    old = target.parent / f".{target.name}.old"
    _remove(old)
    if target.exists():
        _carry_over(target, partial)
        os.replace(target, old)
    os.replace(partial, target)
    _remove(old)


def _remove(path: Path) -> None:
    """Remove a left-over working folder; a link found there (planted in a shared folder) is removed
    itself, never followed: the run's files go into a folder of its own."""
    if path.is_symlink() or path.is_file():
        path.unlink()
    else:
        shutil.rmtree(path, ignore_errors=True)


def with_overrides(spec: BackendSpec, **changes) -> BackendSpec:
    return replace(spec, **{k: v for k, v in changes.items() if v is not None})

"""`mmrc-build run CONFIG`: chain the stages from one TOML file.

Each stage's section holds its CLI options by their long names, so a config is the
Makefile's commands written down once::

    [pipeline]
    raw = "raw/sample"
    work = "work"
    stages = ["ingest", "clean", "classify", "swap", "questions", "release"]

    [clean]
    toxicity-backend = "lexicon"

    [classify]           # `seed` (or `labels`) set: train the model first when it does not exist
    model = "work/topic-model"
    seed = "raw/seed"    # labelled dialogues (inline `topic`), ingested to work/seed

Steps run through the real CLI, so options are validated exactly as on the command line.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from builder.errors import ConfigError

ORDER = ("ingest", "clean", "classify", "swap", "questions", "release", "publish")
# section keys consumed by the planner itself rather than passed through as options
OWN_KEYS = {"classify": {"labels", "seed", "train"}, "questions": {"file"}}


@dataclass
class Step:
    name: str
    argv: list[str]
    done_marker: Path | None = None  # when it exists, the step is skipped


def load(path: Path) -> dict:
    try:
        return tomllib.loads(Path(path).read_text())
    except FileNotFoundError:
        raise ConfigError(f"config file {path} does not exist; see `mmrc-build run --help` for its shape") from None
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"config file {path} is not valid TOML: {exc}") from None


def options(section: dict[str, Any], skip: set[str] = frozenset()) -> list[str]:
    """TOML values -> CLI options: true -> flag, list -> repeated, table -> repeated KEY=VALUE."""
    argv: list[str] = []
    for key, value in section.items():
        if key in skip:
            continue
        flag = f"--{key.replace('_', '-')}"
        if value is True:
            argv.append(flag)
        elif value is False or value is None:
            continue
        elif isinstance(value, list):
            for item in value:
                argv += [flag, str(item)]
        elif isinstance(value, dict):
            for k, v in value.items():
                argv += [flag, f"{k}={v}"]
        else:
            argv += [flag, str(value)]
    return argv


def plan(config: dict) -> list[Step]:
    pipe = config.get("pipeline") or {}
    stages = pipe.get("stages", list(ORDER[:-1]))
    unknown = [s for s in stages if s not in ORDER]
    if unknown:
        raise ConfigError(f"unknown stage(s) {', '.join(unknown)} in [pipeline] stages; available: {', '.join(ORDER)}")
    if "raw" not in pipe and "ingest" in stages:
        raise ConfigError("[pipeline] needs `raw = \"FOLDER\"` (the chat logs to ingest)")
    work = Path(pipe.get("work", "work"))
    folders = {"ingest": work / "ingested", "clean": work / "clean", "classify": work / "classified",
               "swap": work / "swapped"}
    steps: list[Step] = []
    previous: Path | None = None
    for name in stages:
        section = dict(config.get(name) or {})
        opts = options(section, OWN_KEYS.get(name, set()))
        if name == "ingest":
            steps.append(Step(name, ["ingest", str(pipe["raw"]), "-o", str(folders[name]), *opts]))
        elif name in ("clean", "swap"):
            steps.append(Step(name, [name, str(_need(previous, name)), "-o", str(folders[name]), *opts]))
        elif name == "classify":
            model = section.get("model") or str(work / "topic-model")
            train_opts = options(section.get("train") or {})
            if section.get("seed"):  # a raw folder of labelled dialogues (inline `topic`), kept out of the release
                seed_dir = work / "seed"
                steps.append(Step("ingest-seed", ["ingest", str(section["seed"]), "-o", str(seed_dir)]))
                steps.append(Step("classify-train", ["classify", "train", "--data", str(seed_dir), "-o", model,
                                                     *train_opts], Path(model) / "config.json"))
            elif section.get("labels"):
                # the seed labels cover every ingested dialogue, including ones clean drops
                seed = folders["ingest"] if "ingest" in stages else _need(previous, name)
                train = ["classify", "train", "--data", str(seed), "--labels", str(section["labels"]),
                         "-o", model, *train_opts]
                steps.append(Step("classify-train", train, Path(model) / "config.json"))
            opts = options({k: v for k, v in section.items() if k != "model"}, OWN_KEYS["classify"])
            steps.append(Step(name, ["classify", "predict", str(_need(previous, name)), "-o",
                                     str(folders[name]), "--model", model, *opts]))
        elif name == "questions":
            if "file" not in section:
                raise ConfigError("[questions] needs `file = \"questions.jsonl\"` (the annotations to import)")
            out = work / "questions.parquet"
            steps.append(Step(name, ["questions", "import", str(section["file"]), "--data",
                                     str(_need(previous, name)), "-o", str(out), *opts]))
            continue  # questions do not replace the dialogue folder the next stage reads
        elif name == "release":
            version = section.get("version")
            if not version:
                raise ConfigError("[release] needs `version = \"X.Y.Z\"`")
            releases = Path(section.get("releases-dir", "release"))
            name_prefix = section.get("name", "mmrc")
            q = ["--questions", str(work / "questions.parquet")] if "questions" in stages else []
            steps.append(Step(name, ["release", "--data", str(_need(previous, name)), *q, *opts],
                              releases / f"{name_prefix}-v{version}" / "manifest.json"))
            continue
        elif name == "publish":
            releases = Path((config.get("release") or {}).get("releases-dir", "release"))
            version = (config.get("release") or {}).get("version")
            prefix = (config.get("release") or {}).get("name", "mmrc")
            steps.append(Step(name, ["publish", str(releases / f"{prefix}-v{version}"), *opts]))
            continue
        previous = folders[name]
    return steps


def _need(previous: Path | None, name: str) -> Path:
    if previous is None:
        raise ConfigError(f"stage {name} needs an earlier stage in [pipeline] stages (e.g. ingest)")
    return previous

"""`mmrc-build run CONFIG`: chain the stages of the registry (:mod:`builder.stages`) from one TOML file.

Each stage's section holds that command's options by their long names, so a config is the
Makefile's commands written down once::

    [pipeline]
    raw = "raw/sample"
    work = "work"
    stages = ["ingest", "clean", "classify", "swap", "questions", "release"]

    [clean]
    toxicity-backend = "lexicon"

    [classify]           # nothing: the default topic model (`mmrc-build models`); `seed` (or `labels`)
    model = "work/topic-model"   # set: train this model first when it does not exist
    seed = "raw/seed"    # labelled dialogues (inline `topic`), ingested to work/seed

The config is checked before anything runs: unknown sections, keys and stage names are
errors that list the valid ones (an option is valid when the stage's command has it), and
values must have the right shape. Steps then run through the real CLI commands.
"""

from __future__ import annotations

import importlib
import tomllib
from dataclasses import dataclass
from pathlib import Path
from collections.abc import Set
from typing import Any

import click

from builder import io
from builder import stages as registry
from builder.errors import ConfigError

PIPELINE_KEYS = {"raw", "work", "stages"}
DEFAULT_STAGES = list(registry.DEFAULT_RUN)
# keys a section holds for the planner itself (not options of the stage's command)
OWN_KEYS = {"classify": {"labels", "seed", "train", "model"}, "questions": {"file"}, "eval": {"release"}}


@dataclass
class Step:
    name: str
    argv: list[str]  # the full command line after `mmrc-build`
    done_marker: Path | None = None  # when it exists, the step is skipped


def load(path: Path) -> dict:
    text = io.read_user_text(path, "config file", "pass the pipeline TOML file (e.g. raw/sample/pipeline.toml)",
                             ConfigError)
    try:
        return tomllib.loads(text)
    except (tomllib.TOMLDecodeError, RecursionError) as exc:
        raise ConfigError(f"config file {path} is not valid TOML: {str(exc)[:200]}") from None


def cli_command(stage: registry.Stage) -> click.Command:
    """The click command of a stage (no import of builder.cli: no cycle)."""
    command = importlib.import_module(f"builder.commands.{stage.command[0]}").command
    for name in stage.command[1:]:
        command = command.commands[name]
    return command


def _long_options(command: click.Command) -> dict[str, click.Parameter]:
    out = {}
    for param in command.params:
        for opt in getattr(param, "opts", []):
            if opt.startswith("--"):
                out[opt[2:]] = param
    return out


def validate(config: dict) -> list[str]:
    """Check the whole config's shape; returns the stage names to run."""
    if not isinstance(config, dict):
        raise ConfigError("the config must be a TOML table")
    unknown = sorted(set(config) - {"pipeline", *registry.ORDER})
    if unknown:
        raise ConfigError(f"unknown section(s) {', '.join(f'[{u}]' for u in unknown)}; available: [pipeline], "
                          + ", ".join(f"[{s}]" for s in registry.ORDER))
    pipe = config.get("pipeline", {})
    if not isinstance(pipe, dict):
        raise ConfigError("`pipeline` must be a table ([pipeline] with raw, work, stages)")
    bad = sorted(set(pipe) - PIPELINE_KEYS)
    if bad:
        raise ConfigError(f"unknown key(s) {', '.join(bad)} in [pipeline]; available: {', '.join(sorted(PIPELINE_KEYS))}")
    names = pipe.get("stages", DEFAULT_STAGES)
    if not isinstance(names, list) or not all(isinstance(s, str) for s in names):
        raise ConfigError('[pipeline] stages must be a list of stage names, e.g. ["ingest", "clean"]')
    for key in ("raw", "work"):
        if key in pipe and not isinstance(pipe[key], str):
            raise ConfigError(f'[pipeline] {key} must be a folder path in quotes, e.g. {key} = "work"')
    for name in names:
        registry.get(name)
    for name in registry.ORDER:
        if name in config:
            _validate_section(name, config[name])
    return names


def _validate_section(name: str, section: Any) -> None:
    if not isinstance(section, dict):
        raise ConfigError(f"[{name}] must be a table of {name}'s options")
    valid = _long_options(cli_command(registry.get(name)))
    own = OWN_KEYS.get(name, set())
    for key, value in section.items():
        if key in own:
            continue
        option = key.replace("_", "-")
        if option not in valid:
            raise ConfigError(f"unknown option {key!r} in [{name}]; available: "
                              f"{', '.join(sorted(set(valid) | own - {'help'}))}")
        param = valid[option]
        if getattr(param, "is_flag", False):
            if not isinstance(value, bool):
                raise ConfigError(f"[{name}] {key} is a flag: write {key} = true or false")
        elif isinstance(value, (list, dict)) and not param.multiple:
            raise ConfigError(f"[{name}] {key} takes one value, not a {'list' if isinstance(value, list) else 'table'}"
                              f"; write {key} = {_example(param)}")
        elif isinstance(value, dict):  # a repeatable KEY=VALUE option
            if not all(_scalar(v) for v in value.values()):
                raise ConfigError(f"[{name}] {key} must be a table of strings or numbers")
        else:
            for item in value if isinstance(value, list) else [value]:
                _check_value(name, key, param, item)


def _scalar(value: Any) -> bool:
    return isinstance(value, (str, int, float)) and not isinstance(value, bool)


def _wants(param: click.Parameter) -> tuple[type | tuple[type, ...], str]:
    """The TOML type an option's value must have, and its name in a message."""
    if isinstance(param.type, click.types.IntParamType):
        return int, "an integer"
    if isinstance(param.type, click.types.FloatParamType):
        return (int, float), "a number"
    return str, "a string in quotes"


def _example(param: click.Parameter) -> str:
    if isinstance(param.type, click.Choice):
        return f'"{param.type.choices[0]}"'
    examples: dict[type | tuple[type, ...], str] = {int: "20", str: '"..."'}
    return examples.get(_wants(param)[0], "0.5")


def _check_value(section: str, key: str, param: click.Parameter, value: Any) -> None:
    """The value has the option's type (as the command's own option declares it) and passes the
    option's own check (a range, a choice), so `run --dry-run` catches what the run would refuse."""
    kind, what = _wants(param)
    if isinstance(value, bool) or not isinstance(value, kind):
        raise ConfigError(f"[{section}] {key} must be {what} (e.g. {key} = {_example(param)}), not {value!r}")
    if isinstance(param.type, (click.types.IntParamType, click.types.FloatParamType, click.Choice)):
        try:
            param.type.convert(value, param, None)
        except click.BadParameter as exc:
            raise ConfigError(f"[{section}] {key}: {exc.message}") from None


def options(section: dict[str, Any], skip: Set[str] = frozenset()) -> list[str]:
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
    names = validate(config)
    pipe = config.get("pipeline") or {}
    if "raw" not in pipe and "ingest" in names:
        raise ConfigError('[pipeline] needs `raw = "FOLDER"` (the chat logs to ingest)')
    work = Path(pipe.get("work", "work"))
    steps: list[Step] = []
    previous: Path | None = None  # the last parts folder written
    for name in names:
        stage = registry.get(name)
        section = dict(config.get(name) or {})
        opts = options(section, OWN_KEYS.get(name, set()))
        if name in _SPECIAL:
            steps += _SPECIAL[name](config, names, work, previous, section, opts)
            continue
        source = str(pipe["raw"]) if name == "ingest" else str(_need(previous, name))
        if name == "classify":
            steps += _classify_training(names, work, previous, section)
            if section.get("model") or section.get("seed") or section.get("labels"):
                opts += ["--model", section.get("model") or str(work / "topic-model")]
        assert stage.folder is not None  # the stages without a parts folder are the _SPECIAL ones above
        out = work / stage.folder
        steps.append(Step(name, [*stage.command, source, "-o", str(out), *opts]))
        previous = out
    return steps


# -- the stages whose input or output is not a parts folder ----------------------------------------


def _classify_training(names, work, previous, section) -> list[Step]:
    model = section.get("model") or str(work / "topic-model")
    train_opts = options(section.get("train") or {})
    if section.get("seed"):  # a raw folder of labelled dialogues (inline `topic`), kept out of the release
        seed_dir = work / "seed"
        return [Step("ingest-seed", ["ingest", str(section["seed"]), "-o", str(seed_dir)]),
                Step("classify-train", ["classify", "train", "--data", str(seed_dir), "-o", model, *train_opts],
                     Path(model) / "config.json")]
    if section.get("labels"):  # the seed labels cover every ingested dialogue, including ones clean drops
        seed = work / "ingested" if "ingest" in names else _need(previous, "classify")
        return [Step("classify-train", ["classify", "train", "--data", str(seed), "--labels", str(section["labels"]),
                                        "-o", model, *train_opts], Path(model) / "config.json")]
    return []


def _questions(config, names, work, previous, section, opts) -> list[Step]:
    if "file" not in section:
        raise ConfigError('[questions] needs `file = "questions.jsonl"` (the annotations to import)')
    return [Step("questions", ["questions", "import", str(section["file"]), "--data", str(_need(previous, "questions")),
                               "-o", str(work / "questions.parquet"), *opts])]


def _release_folder(config) -> tuple[Path, str]:
    release = config.get("release") or {}
    version = release.get("version")
    if not version:
        raise ConfigError('[release] needs `version = "X.Y.Z"`')
    return Path(release.get("releases-dir", "release")) / f"{release.get('name', 'mmrc')}-v{version}", str(version)


def _release(config, names, work, previous, section, opts) -> list[Step]:
    folder, _ = _release_folder(config)
    q = ["--questions", str(work / "questions.parquet")] if "questions" in names else []
    return [Step("release", ["release", "--data", str(_need(previous, "release")), *q, *opts],
                 folder / "manifest.json")]


def _publish(config, names, work, previous, section, opts) -> list[Step]:
    folder, _ = _release_folder(config)
    return [Step("publish", ["publish", str(folder), *opts])]


def _eval(config, names, work, previous, section, opts) -> list[Step]:
    folder, version = _release_folder(config)
    release = section.get("release") or str(folder)
    return [Step("eval", ["eval", "run", release, "--revision", f"v{version}", *opts])]


_SPECIAL = {"questions": _questions, "release": _release, "publish": _publish, "eval": _eval}


def _need(previous: Path | None, name: str) -> Path:
    if previous is None:
        raise ConfigError(f"stage {name} needs an earlier stage in [pipeline] stages (e.g. ingest)")
    return previous

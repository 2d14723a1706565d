"""The one registry of stages: name, pipeline order, CLI command, default folder, config class,
and the columns each stage reads and writes.

The CLI lists its commands in this order, ``mmrc-build run`` plans from it (building each
command's arguments from the registry and validating a config section against the command's
own options), and the Makefile/README describe the same chain. Unknown names list the valid ones.
"""

from __future__ import annotations

from dataclasses import dataclass

from builder.errors import ConfigError
from builder.records import DIALOGUE_SCHEMA

ALL = tuple(DIALOGUE_SCHEMA.names())


def _load(path: str):
    import importlib

    module, _, name = path.partition(":")
    return getattr(importlib.import_module(module), name)


@dataclass(frozen=True)
class Stage:
    name: str
    command: tuple[str, ...]  # the CLI path, e.g. ("classify", "predict")
    summary: str
    folder: str | None  # default output folder under the work folder (parts -> parts stages)
    config: str | None  # "module:Class" of the frozen config dataclass (recorded in the manifest)
    impl: str | None  # "module:Class" of the stage object whose reads/writes are the truth, if any
    columns: tuple[tuple[str, ...], tuple[str, ...]] = ((), ())  # reads, writes of stages without impl

    def config_class(self):
        return _load(self.config) if self.config else None

    @property
    def reads(self) -> tuple[str, ...]:
        return tuple(_load(self.impl).reads) if self.impl else self.columns[0]

    @property
    def writes(self) -> tuple[str, ...]:
        return tuple(_load(self.impl).writes) if self.impl else self.columns[1]


STAGES: tuple[Stage, ...] = (
    Stage("ingest", ("ingest",), "raw chat logs -> canonical dialogue parts, quarantine, dedup", "ingested",
          "builder.ingest.config:IngestConfig", None, ((), ALL)),
    Stage("clean", ("clean",), "PII scrubbing, toxic-dialogue removal, image metadata stripping", "clean",
          "builder.clean.config:CleanConfig", "builder.clean.stage:CleanStage"),
    Stage("classify", ("classify", "predict"), "14-topic label and scores", "classified",
          "builder.classify.stage:ClassifyConfig", "builder.classify.stage:ClassifyStage"),
    Stage("swap", ("swap",), "text-to-image modality-swap variants", "swapped", "builder.swap.config:SwapConfig",
          "builder.swap.stage:SwapStage"),
    Stage("questions", ("questions", "import"), "six-ability questions from annotation files", None, None, None,
          (("dialogue_id", "source", "source_id", "turns"), ("questions",))),
    Stage("release", ("release",), "versioned Hugging Face dataset folder, card, figures, tag", None,
          "builder.release.build:ReleaseConfig", None, (ALL, ())),
    Stage("publish", ("publish",), "push a release and its tag to the Hugging Face Hub", None, None, None),
    Stage("eval", ("eval", "run"), "evaluate a model on a release (predict, judge, score)", None,
          "builder.eval.run:EvalConfig", None, (("turns", "questions", "topic", "topic_group", "variant_of"), ())),
)
BY_NAME = {stage.name: stage for stage in STAGES}
ORDER = tuple(stage.name for stage in STAGES)
PARTS_STAGES = tuple(stage.name for stage in STAGES if stage.folder)  # parts -> parts: the release funnel's steps
DEFAULT_RUN = ORDER[:ORDER.index("release") + 1]  # what `mmrc-build run` runs when [pipeline] names no stages


def get(name: str) -> Stage:
    if name not in BY_NAME:
        raise ConfigError(f"unknown stage {name!r}; available: {', '.join(ORDER)}")
    return BY_NAME[name]


def command_modules() -> list[str]:
    """CLI modules in pipeline order (commands that are not stages around them)."""
    seen: list[str] = []
    for stage in STAGES:
        if stage.command[0] not in seen:
            seen.append(stage.command[0])
    return ["models", *seen, "run"]


def make_lines() -> list[str]:
    """The chain as Make targets (documentation; the Makefile's demo follows it)."""
    lines, previous = [], "raw/mylogs"
    for stage in STAGES:
        if stage.folder is None:
            continue
        cmd = " ".join(stage.command)
        lines += [f"work/{stage.folder}/_SUCCESS: {previous if stage.name == 'ingest' else previous + '/_SUCCESS'}",
                  f"\tmmrc-build {cmd} {previous} -o work/{stage.folder} --force"]
        previous = f"work/{stage.folder}"
    return lines

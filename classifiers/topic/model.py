"""A trained topic classifier on disk: ``config.json`` + ``labels.json`` + ``model.safetensors``.

``config.json`` names the embedder and the content hash of its folder; a contrastive
(``setfit``) model also carries its fine-tuned embedder in ``embedder/``. Loading never
unpickles anything and checks every tensor's name and shape against the config, so a
mismatched or truncated head is an error, not a random one.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field, fields
from pathlib import Path
from typing import Any

import numpy as np

from builder.errors import ModelError
from builder.records import OTHER, TOPICS
from classifiers.topic.mlp import MLPConfig, build_net, predict_proba
from builder.traits import NAMES as TRAIT_NAMES
from classifiers.topic.text import TextConfig

FORMAT = "mmrc-topic-classifier"
FORMAT_VERSION = 3  # 3: task traits beside the vector; 2: the linear head and the topic descriptions; 1, 2 still load
READS_VERSIONS = (1, 2, 3)
BUNDLED_EMBEDDER = "embedder"


@dataclass
class TopicModel:
    labels: list[str]
    net: Any  # a torch.nn.Sequential (its layers' own attributes, e.g. ``vectors``, are read too)
    embedder: dict  # {"name", "hash", "files"?}
    text: TextConfig = TextConfig()
    mlp: MLPConfig = MLPConfig()
    method: str = "mlp"
    extra: dict = field(default_factory=dict)  # training summary, contrastive config, ...
    traits: tuple[str, ...] = ()  # the task traits read after the vector (classifiers/topic/task_traits.py)

    # -- inference -----------------------------------------------------------
    def inputs(self, vectors: np.ndarray, dialogues: list[list[dict]], traits: list | None = None) -> np.ndarray:
        """What the head reads for these dialogues: their vectors, then their task traits (``traits``:
        each dialogue's ``traits`` column value, tagged afresh where ``None`` or not given)."""
        if not self.traits:
            return vectors
        from classifiers.topic.task_traits import feature_matrix

        return np.hstack([vectors, feature_matrix(dialogues, self.traits, traits)])

    def predict_proba(self, x: np.ndarray) -> np.ndarray:
        """Probabilities per label for :meth:`inputs` rows."""
        return predict_proba(self.net, x)

    def topic_scores(self, probs: np.ndarray) -> np.ndarray:
        """Probabilities laid out over all 14 topics (records.TOPICS order); untrained topics get 0.
        A model that learned OTHER keeps that share out of the 14 (see :meth:`other_scores`)."""
        out = np.zeros((len(probs), len(TOPICS)), dtype=np.float32)
        for j, label in enumerate(self.labels):
            if label != OTHER:
                out[:, TOPICS.index(label)] = probs[:, j]
        return out

    def other_scores(self, probs: np.ndarray) -> np.ndarray:
        """Each dialogue's probability of being none of the 14 (0 for a model without OTHER)."""
        if OTHER not in self.labels:
            return np.zeros(len(probs), dtype=np.float32)
        return np.asarray(probs[:, self.labels.index(OTHER)], dtype=np.float32)

    def prototypes(self) -> int:
        """How many description vectors the head carries (0: none, a model without them)."""
        first = self.net[0]
        return int(first.vectors.shape[0]) if hasattr(first, "vectors") else 0

    def describe(self) -> str:
        """The head in words, for reports and the release card."""
        head = (f"a two-layer MLP ({self.mlp.hidden} hidden units)" if self.mlp.hidden
                else "a linear head (logistic regression)")
        if self.prototypes():
            head += f" over the vector and its similarity to {self.prototypes()} topic descriptions"
        if self.traits:
            head += f"{' and' if self.prototypes() else ' over the vector and'} {len(self.traits)} task traits"
        return head

    # -- disk ----------------------------------------------------------------
    def config(self) -> dict:
        net_in = self.net[0].in_features
        return {
            "format": FORMAT,
            "format_version": FORMAT_VERSION,
            "method": self.method,
            "embedder": {k: v for k, v in self.embedder.items() if k in ("name", "hash", "files", "bundled")},
            "text": asdict(self.text),
            "head": {"in_dim": net_in, "hidden": self.mlp.hidden, "dropout": self.mlp.dropout,
                     "n_classes": len(self.labels), "prototypes": self.prototypes(),
                     "prototype_weight": self.mlp.prototype_weight if self.prototypes() else 0.0,
                     "traits": list(self.traits)},
            "train": asdict(self.mlp),
            **self.extra,
        }

    def save(self, folder: Path) -> None:
        from safetensors.torch import save_file

        folder = Path(folder)
        folder.mkdir(parents=True, exist_ok=True)
        (folder / "config.json").write_text(json.dumps(self.config(), indent=2, sort_keys=True) + "\n")
        (folder / "labels.json").write_text(json.dumps(self.labels, indent=2) + "\n")
        state = {k: v.detach().contiguous() for k, v in self.net.state_dict().items()}
        save_file(state, str(folder / "model.safetensors"), metadata={"format": FORMAT})

    @classmethod
    def load(cls, folder: Path) -> "TopicModel":
        from safetensors import SafetensorError
        from safetensors.torch import load_file

        folder = Path(folder)
        need = [n for n in ("config.json", "labels.json", "model.safetensors") if not (folder / n).is_file()]
        if need:
            raise ModelError(
                f"{folder} is not a trained topic model (missing {', '.join(need)}); "
                "train one with `mmrc-build classify train` and pass its folder to --model"
            )
        config = json.loads((folder / "config.json").read_text())
        labels = json.loads((folder / "labels.json").read_text())
        if config.get("format") != FORMAT or config.get("format_version") not in READS_VERSIONS:
            raise ModelError(f"{folder}/config.json is not a {FORMAT} config of a version this mmrc-build reads "
                             f"({', '.join(f'v{v}' for v in READS_VERSIONS)}); retrain the model")
        unknown = [t for t in labels if t not in TOPICS and t != OTHER]
        if unknown or len(labels) != config["head"]["n_classes"]:
            raise ModelError(f"{folder}/labels.json does not match the config or holds unknown topics "
                             f"{unknown}; retrain the model")
        head = config["head"]
        unknown_settings = set(config["train"]) - {f.name for f in fields(MLPConfig)}
        if unknown_settings:
            raise ModelError(f"{folder}/config.json has training settings this mmrc-build does not know "
                             f"({', '.join(sorted(unknown_settings))}); retrain the model")
        # A model saved before the linear head and the prototypes: its config has neither key.
        mlp = MLPConfig(**{"prototype_weight": 0.0, **config["train"]})
        traits = tuple(head.get("traits") or ())
        unknown_traits = [t for t in traits if t not in TRAIT_NAMES]
        if unknown_traits:
            raise ModelError(f"{folder}/config.json reads traits this mmrc-build does not tag "
                             f"({', '.join(unknown_traits)}); retrain the model")
        net = build_net(head["in_dim"], head["n_classes"], head["hidden"], head["dropout"],
                        int(head.get("prototypes", 0)), float(head.get("prototype_weight", 0.0)), len(traits))
        try:
            state = load_file(str(folder / "model.safetensors"))
        except (SafetensorError, OSError) as exc:
            raise ModelError(f"{folder}/model.safetensors cannot be read ({exc}); retrain the model") from exc
        expected = {k: tuple(v.shape) for k, v in net.state_dict().items()}
        found = {k: tuple(v.shape) for k, v in state.items()}
        if expected != found:
            raise ModelError(f"{folder}/model.safetensors holds {found}, the config expects {expected}; "
                             "retrain the model")
        net.load_state_dict(state)
        net.eval()
        extra = {k: v for k, v in config.items()
                 if k not in ("format", "format_version", "method", "embedder", "text", "head", "train")}
        return cls(labels, net, config["embedder"], TextConfig.from_config(config["text"]), mlp, config["method"], extra,
                   traits)

    def embedder_location(self, folder: Path) -> str:
        """Where predict looks for the embedder unless --embedder overrides it."""
        if self.embedder.get("bundled"):
            return str(Path(folder) / BUNDLED_EMBEDDER)
        return self.embedder["name"]

"""Toxicity: score every turn (tag), keep the per-label maxima, then decide with thresholds."""

from __future__ import annotations

from pathlib import Path

from builder.errors import ConfigError


class ToxicityStep:
    """Wraps a scorer from ``classifiers.toxicity``; the thresholds live in the config."""

    def __init__(self, config):
        self.config = config
        self.scorer = None

    def setup(self, device: str) -> None:
        if self.scorer is not None:
            return
        from classifiers.toxicity import load_backend

        if self.config.toxicity_backend == "detoxify":
            self.scorer = load_backend(
                "detoxify", variant=self.config.toxicity_model,
                checkpoint=Path(self.config.toxicity_checkpoint) if self.config.toxicity_checkpoint else None,
                hf_dir=Path(self.config.toxicity_config) if self.config.toxicity_config else None,
                device=device, quantize=self.config.toxicity_int8,
                batch_size=self.config.toxicity_batch_size or (8 if device == "cpu" else 64),
                max_length=self.config.toxicity_max_length,
            )
        else:
            if self.config.toxicity_checkpoint or self.config.toxicity_int8:
                raise ConfigError(f"--toxicity-checkpoint/--toxicity-int8 only apply to the detoxify backend, "
                                  f"not {self.config.toxicity_backend!r}")
            self.scorer = load_backend(self.config.toxicity_backend)

    def describe(self) -> dict:
        return self.scorer.describe()

    def score_dialogues(self, dialogues: list[list[str]], languages: list[list[str | None]] | None = None) -> list[dict]:
        """Per dialogue: ``{"model", "labels": [{label, score, turn}]}`` (max over its turns).
        A scorer with per-language word lists (``uses_language``) gets each turn's language."""
        keep = [(text, lang) for d, turns in enumerate(dialogues) for t, text in enumerate(turns)
                for lang in [languages[d][t] if languages else None] if text and text.strip()]
        flat = [text for text, _ in keep]
        if getattr(self.scorer, "uses_language", False):
            scores = iter(self.scorer.score(flat, [lang for _, lang in keep])) if flat else iter(())
        else:
            scores = iter(self.scorer.score(flat)) if flat else iter(())
        name = self.scorer.describe()["name"]
        out = []
        for turns in dialogues:
            best: dict[str, tuple[float, int]] = {}
            for index, text in enumerate(turns):
                if not (text and text.strip()):
                    continue
                for label, value in next(scores).items():
                    if label not in best or value > best[label][0]:
                        best[label] = (value, index)
            labels = [{"label": lab, "score": float(v), "turn": t} for lab, (v, t) in sorted(best.items())]
            out.append({"model": name, "labels": labels})
        return out

    def decide(self, toxicity: dict) -> tuple[str | None, dict]:
        """``(reason, detail)``: ``toxic:<label>`` for the label furthest over its threshold (a specific
        label such as insult or threat is named in preference to the generic toxicity)."""
        limits = dict(self.config.toxicity_thresholds)
        over = [(row["score"] - limits[row["label"]], row["label"], row) for row in toxicity["labels"]
                if row["label"] in limits and row["score"] >= limits[row["label"]]]
        if not over:
            return None, {}
        specific = [o for o in over if o[1] != "toxicity"] or over  # name the kind of harm when known
        _, label, row = max(specific, key=lambda x: (x[0], x[1]))
        return f"toxic:{label}", {"label": label, "score": round(row["score"], 4), "turn": row["turn"],
                                  "threshold": limits[label], "over": sorted(o[1] for o in over)}

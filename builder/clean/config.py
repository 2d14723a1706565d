"""The clean stage's settings: one frozen dataclass, recorded in the manifest."""

from __future__ import annotations

from dataclasses import dataclass

from builder.clean.entities import ALL_ENTITIES, DEFAULT_ENTITIES, DEFAULT_THRESHOLDS
from builder.errors import ConfigError

# Entities, their defaults and thresholds: one table (entities.py). LOCATION from NER (cities,
# countries) is *not* personal data on its own; STREET_ADDRESS (a pattern recognizer of ours) is.
DEFAULT_THRESHOLD = 0.5

ACTIONS = ("placeholder", "surrogate", "hash")
COHERENCE_POLICIES = ("drop", "delete_exchange")

# Detoxify-style per-label drop thresholds (a dialogue is dropped when any turn exceeds one).
# Labels a model emits that are not listed here are tagged but never decide.
DEFAULT_TOXICITY_THRESHOLDS = (
    ("toxicity", 0.8), ("severe_toxicity", 0.5), ("obscene", 0.8), ("threat", 0.5),
    ("insult", 0.8), ("identity_attack", 0.5), ("sexual_explicit", 0.5),
)


@dataclass(frozen=True)
class CleanConfig:
    # PII
    pii: bool = True
    entities: tuple[str, ...] = DEFAULT_ENTITIES
    thresholds: tuple[tuple[str, float], ...] = DEFAULT_THRESHOLDS
    action: str = "placeholder"
    entity_actions: tuple[tuple[str, str], ...] = ()
    model_names_public: bool = True  # a PERSON or value only a model turn mentions is public or its example
    person_context: bool = True  # the learned person-context model (classifiers/person_context): second side's names, unfound words
    number_context: bool = True  # the learned number-context model (classifiers/number_context): numbers no finder found
    street_context: bool = True  # the learned street-context model (classifiers/street_context): where streets end
    lower_case_names: bool = True  # the learned lower-case-name model (classifiers/lower_case_name): names typed in lower case
    max_redacted_share: float = 0.5
    coherence_min_spans: int = 3  # and at least this many replacements in the turn (redact.replaced_share)
    coherence: str = "drop"
    max_deleted_turn_share: float = 0.34
    chunk_chars: int = 4000
    turn_timeout_s: float = 10.0
    pii_batch_size: int = 64
    hash_salt_env: str = "MMRC_PII_SALT"
    public_figures: str | None = None  # a list of public figures' names (gazetteer.py)
    public_figures_sha256: str | None = None  # its content, so a changed list reruns the stage
    # languages: ISO 639-1 codes to keep ("und": unknown); empty keeps every language
    languages: tuple[str, ...] = ()
    # images
    strip_exif: bool = True
    # toxicity
    toxicity: bool = True
    toxicity_backend: str = "detoxify"
    toxicity_model: str = "original"
    toxicity_checkpoint: str | None = None
    toxicity_config: str | None = None
    toxicity_thresholds: tuple[tuple[str, float], ...] = DEFAULT_TOXICITY_THRESHOLDS
    toxicity_int8: bool = False
    toxicity_batch_size: int | None = None  # None: 8 on CPU, 64 on CUDA (measured best on CPU: 8)
    toxicity_max_length: int = 512

    def __post_init__(self):
        unknown = sorted(set(self.entities) - set(ALL_ENTITIES))
        if unknown:
            raise ConfigError(f"unknown PII entity {unknown[0]!r}; available: {', '.join(ALL_ENTITIES)}")
        for _, action in ((None, self.action), *self.entity_actions):
            if action not in ACTIONS:
                raise ConfigError(f"unknown PII action {action!r}; available: {', '.join(ACTIONS)}")
        if self.coherence not in COHERENCE_POLICIES:
            raise ConfigError(f"unknown coherence policy {self.coherence!r}; available: {', '.join(COHERENCE_POLICIES)}")
        if not 0 < self.max_redacted_share <= 1:
            raise ConfigError("--max-redacted-share must be in (0, 1]")
        if self.chunk_chars < 200:
            raise ConfigError("--chunk-chars must be at least 200")
        bad = [code for code in self.languages if not (len(code) == 2 and code.isalpha() and code.islower())
               and code != "und"]
        if bad:
            raise ConfigError(f"--languages {bad[0]!r} is not an ISO 639-1 code (two lower-case letters, e.g. en,de) "
                              "or 'und' (undetermined)")

    @property
    def judges_person_context(self) -> bool:
        """The person-context model runs: PII on, PERSON among the entities, not turned off."""
        return self.pii and self.person_context and "PERSON" in self.entities

    @property
    def judges_number_context(self) -> bool:
        """The number-context model runs: PII on, one of its kinds among the entities, not turned off."""
        from builder.clean.context_numbers import ENTITY

        return self.pii and self.number_context and any(e in self.entities for e in ENTITY.values())

    @property
    def judges_street_context(self) -> bool:
        """The street-context model runs: PII on, STREET_ADDRESS among the entities, not turned off."""
        return self.pii and self.street_context and "STREET_ADDRESS" in self.entities

    @property
    def judges_lower_case_names(self) -> bool:
        """The lower-case-name model runs: PII on, PERSON among the entities, not turned off."""
        return self.pii and self.lower_case_names and "PERSON" in self.entities

    def threshold(self, entity: str) -> float:
        return dict(self.thresholds).get(entity, DEFAULT_THRESHOLD)

    def action_for(self, entity: str) -> str:
        return dict(self.entity_actions).get(entity, self.action)


def parse_pairs(values: tuple[str, ...], what: str, cast=str) -> tuple[tuple[str, object], ...]:
    """``("PERSON=0.9", ...)`` -> ``(("PERSON", 0.9), ...)`` with a clear error on bad input."""
    out = []
    for value in values:
        key, sep, raw = value.partition("=")
        if not sep or not key:
            raise ConfigError(f"{what} expects NAME=VALUE, got {value!r}")
        try:
            out.append((key.strip(), cast(raw.strip())))
        except ValueError as exc:
            raise ConfigError(f"{what} {value!r}: {raw!r} is not a valid value") from exc
    return tuple(out)

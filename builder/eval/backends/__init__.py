"""Model backends behind one registry: ``transformers`` (in process) and ``openai`` (any
OpenAI-compatible server: vLLM, SGLang, llama.cpp, TGI, hosted APIs).

A backend takes *groups* of requests: the requests of a group share their first
``prefix_len`` messages (a dialogue's golden history), so a backend can encode that prefix
once (transformers) or send the group so that the server's prefix cache is warm (openai).
Replies go to a callback as they arrive, so a killed run keeps every finished answer.

Heavy libraries are imported only when a backend is made.
"""

from __future__ import annotations

import importlib
import math
import os
import re
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable, Protocol, overload

from builder.errors import ConfigError

BACKENDS = {
    "transformers": "builder.eval.backends.hf:TransformersBackend",
    "openai": "builder.eval.backends.openai_api:OpenAIBackend",
}
OVERFLOW_POLICIES = ("record", "truncate-history")
GENERATION_MODES = ("greedy", "model-default")
PREFIX_CACHE = ("auto", "off", "on")
# ok; context_overflow (prompt longer than the context); prompt_error (the chat template or an image
# cannot take this prompt); request_rejected (the server refuses this request for good: a 4xx that is
# not about length); backend_error (transient, after retries: not cached, a rerun retries it)
STATUSES = ("ok", "context_overflow", "prompt_error", "request_rejected", "backend_error")


@dataclass(frozen=True)
class BackendSpec:
    """Everything that picks and drives one model; what changes answers goes in the fingerprint."""

    backend: str
    model: str
    device: str = "auto"
    dtype: str = "auto"
    batch_size: int | str = "auto"  # transformers: rows per generate call, or auto (from free memory on CUDA)
    prefix_cache: str = "auto"  # auto | on | off (transformers): one dialogue's questions on its encoded history
    compile: bool = False  # transformers: static KV cache + torch.compile of the decode step
    base_url: str | None = None
    api_key_env: str | None = None  # no key is sent unless the user names the variable holding it
    concurrency: int = 8
    timeout_s: float = 120.0
    max_retries: int = 5
    context_length: int | None = None
    overflow: str = "record"
    generation: str = "greedy"  # greedy | model-default (the model's own sampling settings, as MMRC ran them)
    temperature: float | None = None  # model-default only: override the model's temperature
    top_p: float | None = None  # model-default only: override the model's top-p
    seed: int = 0  # sampling seed (model-default)
    trust_remote_code: bool = False  # transformers: run the model folder's own Python code (explicit opt-in)
    load_in_4bit: bool = False  # transformers on CUDA: 4-bit weights (bitsandbytes)
    options: str = ""  # the prefix of this role's CLI options ("judge-", "notetaker-"): what a message names

    def option(self, name: str) -> str:
        """The CLI option that sets ``name`` for this role, e.g. ``--judge-base-url`` (``--timeout`` for the
        notetaker, which shares the model's)."""
        own = {"backend", "model", "base-url", "api-key-env"} | ({"timeout", "concurrency"}
                                                                  if self.options == "judge-" else set())
        return f"--{self.options if name in own else ''}{name}"

    def generation_params(self) -> dict:
        """How answers are decoded, as results.json records it and the cache keys it."""
        if self.generation == "greedy":
            return {"mode": "greedy"}
        return {"mode": "model-default", "temperature": self.temperature, "top_p": self.top_p, "seed": self.seed}

    def validate(self) -> "BackendSpec":
        if self.backend not in BACKENDS:
            raise ConfigError(f"unknown backend {self.backend!r}; available: {', '.join(sorted(BACKENDS))}")
        if self.overflow not in OVERFLOW_POLICIES:
            raise ConfigError(f"unknown overflow policy {self.overflow!r}; available: {', '.join(OVERFLOW_POLICIES)}")
        if self.backend == "openai" and not self.base_url:
            raise ConfigError(f"the openai backend needs {self.option('base-url')} (e.g. http://127.0.0.1:8000/v1)")
        if not self.model:
            raise ConfigError(f"the {self.backend} backend needs a model ({self.option('model')} NAME_OR_PATH)")
        for option, value in ((self.option("model"), self.model), (self.option("base-url"), self.base_url)):
            if value is not None and not _utf8(value):
                shown = os.fsencode(value).decode("utf-8", "backslashreplace")
                raise ConfigError(f"{option} {shown} is not valid UTF-8 text; rename the folder or give the name "
                                  "in UTF-8")
        if self.api_key_env is not None and not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]{0,127}", self.api_key_env):
            raise ConfigError(f"{self.option('api-key-env')} takes the NAME of an environment variable (e.g. "
                              "OPENAI_API_KEY), not the key itself")
        for name in ("batch_size", "concurrency"):
            value = getattr(self, name)
            if value != "auto" and not (isinstance(value, int) and value >= 1):
                raise ConfigError(f"{self.option(name.replace('_', '-'))} must be a whole number of at least 1 or "
                                  f"auto (not {value!r})")
        if self.prefix_cache not in PREFIX_CACHE:
            raise ConfigError(f"unknown --prefix-cache {self.prefix_cache!r}; available: {', '.join(PREFIX_CACHE)}")
        if not (isinstance(self.timeout_s, (int, float)) and math.isfinite(self.timeout_s) and self.timeout_s > 0):
            raise ConfigError(f"{self.option('timeout')} must be a number of seconds above 0 (not {self.timeout_s}): "
                              "it bounds every request")
        if not 0 <= self.max_retries <= 100:
            raise ConfigError(f"--max-retries must be 0 to 100 (not {self.max_retries})")
        if self.context_length is not None and self.context_length < 1:
            raise ConfigError("--context-length must be at least 1 (tokens)")
        if self.generation not in GENERATION_MODES:
            raise ConfigError(f"unknown --generation {self.generation!r}; available: {', '.join(GENERATION_MODES)}")
        if self.generation == "greedy" and (self.temperature is not None or self.top_p is not None):
            raise ConfigError("--temperature and --top-p apply to sampling: add --generation model-default (greedy "
                              "decoding has neither)")
        if self.temperature is not None and not 0 <= self.temperature <= 5:
            raise ConfigError("--temperature must be between 0 and 5")
        if self.top_p is not None and not 0 < self.top_p <= 1:
            raise ConfigError("--top-p must be in (0, 1]")
        if self.backend != "transformers" and (self.trust_remote_code or self.load_in_4bit or self.compile):
            raise ConfigError("--trust-remote-code, --load-in-4bit and --compile load a model in process: they apply "
                              "to the transformers backend only")
        return self


@dataclass
class Request:
    key: str  # what the caller files the reply under (a cache key)
    messages: list[dict]
    max_new_tokens: int


@dataclass
class Group:
    requests: list[Request]
    prefix_len: int = 0  # leading messages every request of the group shares


@dataclass
class Reply:
    status: str  # ok | context_overflow | backend_error
    text: str | None = None
    prompt_tokens: int | None = None
    completion_tokens: int | None = None
    finish_reason: str | None = None
    error: str | None = None
    truncated_messages: int = 0
    extra: dict = field(default_factory=dict)

    def to_json(self) -> dict:
        out = {"status": self.status, "text": self.text, "prompt_tokens": self.prompt_tokens,
               "completion_tokens": self.completion_tokens, "finish_reason": self.finish_reason,
               "error": self.error, "truncated_messages": self.truncated_messages}
        if self.extra.get("truncated_chars"):  # the server sent more text than the cap: what was cut
            out["truncated_chars"] = self.extra["truncated_chars"]
        return out

    @classmethod
    def from_json(cls, data: dict) -> "Reply":
        fields: dict[str, Any] = {k: data.get(k) for k in ("status", "text", "prompt_tokens", "completion_tokens",
                                                           "finish_reason", "error")}
        return cls(**fields, truncated_messages=data.get("truncated_messages") or 0)


class Backend(Protocol):
    name: str
    stats: dict

    def identity(self) -> dict: ...  # what decides the answers: part of every cache key

    def fingerprint(self) -> dict: ...

    def run(self, groups: Iterable[Group], on_reply: Callable[[Request, Reply], None]) -> None: ...

    def close(self) -> None: ...


def _utf8(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:  # undecodable bytes of a command line arrive as lone surrogates
        return False
    return True


@overload
def clean_text(text: str) -> str: ...
@overload
def clean_text(text: None) -> None: ...
def clean_text(text: str | None) -> str | None:
    """Lone surrogates (a JSON reply may carry ``"\\ud800"``) become U+FFFD, so every later hash and
    file write is valid UTF-8."""
    if text is None:
        return None
    return text.encode("utf-16", "surrogatepass").decode("utf-16", "replace")


def make_backend(spec: BackendSpec, **kwargs) -> Backend:
    spec.validate()
    module, _, cls = BACKENDS[spec.backend].partition(":")
    return getattr(importlib.import_module(module), cls)(spec, **kwargs)


def drop_oldest(messages: list[dict], keep_tail: int = 1) -> tuple[list[dict], int] | None:
    """The ``truncate-history`` policy: drop the oldest user/assistant exchange (system turns stay).

    Returns the shorter message list and how many messages went, or None when nothing but
    the question is left to drop.
    """
    head = [m for m in messages[:-keep_tail] if m["role"] == "system"]
    body = [m for m in messages[:-keep_tail] if m["role"] != "system"]
    if not body:
        return None
    cut = 1
    while cut < len(body) and body[cut]["role"] != "user":  # up to the next user turn
        cut += 1
    return head + body[cut:] + messages[-keep_tail:], cut

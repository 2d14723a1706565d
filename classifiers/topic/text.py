"""How a multi-turn dialogue becomes text for the topic embedder.

The rule (documented in the model's config.json as ``text``):

1. **User turns first, then assistant turns**, each in its original order, joined by a
   blank line. The user's requests carry the topic ("plan a 3-day trip to Kyoto"); the
   assistant's answers are long and generic, so putting them last means they never crowd
   the user's words out of the first chunk. ``order="chronological"`` keeps turn order.
2. System turns and images are not embedded (the classifier is text-only, as in MMRC).
3. **One window by default; more on request.** The text is tokenised once with the
   embedder's own tokenizer and cut into windows of ``window`` tokens (at most the model's
   ``max_seq_length - 2``, room for [CLS]/[SEP]). The default is MMRC's cost: one forward
   pass per dialogue over its first 256 tokens (``max_chunks=1``: the user's words, which
   come first). With ``max_chunks > 1`` each window is embedded on its own and the dialogue
   vector is the token-count-weighted mean of the window vectors, L2-normalised (the
   multi-window mode). Tokens beyond the windows used are reported (``truncated_tokens``),
   never silently lost. bench/classify.py reports the accuracy and speed of both modes.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from builder.errors import ConfigError

ORDERS = ("user_first", "chronological")


@dataclass(frozen=True)
class TextConfig:
    order: str = "user_first"
    include_assistant: bool = True
    max_chunks: int = 1
    window: int | None = 256  # tokens per window; None: the embedder's max_seq_length - 2

    def __post_init__(self):
        if self.order not in ORDERS:
            raise ConfigError(f"unknown text order {self.order!r}; available: {', '.join(ORDERS)}")
        if self.max_chunks < 1:
            raise ConfigError(f"max_chunks must be >= 1 (got {self.max_chunks})")
        if self.window is not None and self.window < 8:
            raise ConfigError(f"window must be >= 8 tokens (got {self.window})")

    @classmethod
    def from_config(cls, text: dict) -> "TextConfig":
        """A saved model's text rule; models saved before ``window`` existed used 16 full windows."""
        return cls(**{"max_chunks": 16, "window": None, **text})


@dataclass(frozen=True)
class Chunked:
    """One dialogue's windows: their texts and token counts, plus what did not fit."""

    chunks: tuple[str, ...]
    tokens: tuple[int, ...]
    truncated_tokens: int = 0


def dialogue_text(turns: list[dict[str, Any]] | None, config: TextConfig = TextConfig()) -> str:
    """The text a dialogue is embedded as (see the module docstring for the rule)."""
    turns = [t for t in (turns or []) if (t.get("text") or "").strip()]
    user = [t["text"].strip() for t in turns if t.get("role") == "user"]
    assistant = [t["text"].strip() for t in turns if t.get("role") == "assistant"] if config.include_assistant else []
    if config.order == "user_first":
        parts = user + assistant
    else:
        keep = ("user", "assistant") if config.include_assistant else ("user",)
        parts = [t["text"].strip() for t in turns if t.get("role") in keep]
    return "\n\n".join(parts)


def chunk_text(text: str, tokenizer, window: int, max_chunks: int) -> Chunked:
    """Cut ``text`` into windows of at most ``window`` tokens, at token boundaries.

    Windows are taken from character offsets of the tokenizer's own tokens, so each
    chunk re-tokenises to (at most) the same tokens and nothing is truncated inside the
    embedder.
    """
    if not text:
        return Chunked(("",), (0,))
    enc = tokenizer(text, add_special_tokens=False, return_offsets_mapping=True, truncation=False, verbose=False)
    offsets = enc["offset_mapping"]
    if not offsets:
        return Chunked((text,), (0,))
    chunks, tokens = [], []
    for start in range(0, len(offsets), window):
        piece = offsets[start:start + window]
        chunks.append(text[piece[0][0]:piece[-1][1]])
        tokens.append(len(piece))
    kept = min(len(chunks), max_chunks)
    return Chunked(tuple(chunks[:kept]), tuple(tokens[:kept]), sum(tokens[kept:]))

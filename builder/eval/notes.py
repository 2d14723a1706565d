"""Note-taking (MMRC §5, Alg. 1): a notetaker model keeps JSON notes turn by turn.

The dialogue is cut into exchanges (a user turn and the replies up to the next user turn).
For each exchange the notetaker gets its current notes and the exchange (images in place,
labelled ``[Image k]``) and returns the complete updated notes. A reply is validated against
``SCHEMA``; an invalid one is retried with the validation error, and after the last retry
the exchange is recorded as failed (the previous notes are kept, the failure is counted and
shown in samples.jsonl), never silently replaced by empty notes. Every step is cached by
(notetaker identity, prompt version, hash of the dialogue up to that exchange, previous
notes), so variants that share a history, and reruns, reuse it.

Exchanges run step-synchronously over a chunk of dialogues, so step k of many dialogues is
one batch for the backend.
"""

from __future__ import annotations

import json
import re
from typing import Any, Callable

from builder.eval import prompts
from builder.eval.backends import Group, Reply, Request
from builder.eval.cache import EvalCache, cache_key
from builder.io import sha256_json

NOTES_PROMPT_VERSION = "mmrc-notes/1"
MAX_NOTES_CHARS = 6000
MAX_ENTRY_CHARS = 400
EMPTY: dict[str, list] = {"facts": [], "preferences": [], "updates": [], "images": []}

SYSTEM = (
    "You keep concise notes of a conversation between a user and an AI assistant, so that questions about it "
    "can be answered later. You receive your current notes and the next part of the conversation, and you "
    "return the complete updated notes as ONE JSON object with exactly these keys:\n"
    '  "facts": list of short strings, facts stated in the conversation (names, numbers, places, items);\n'
    '  "preferences": list of short strings, what the user likes, wants or plans;\n'
    '  "updates": list of {"what": str, "old": str, "new": str, "turn": int} when a value was changed or '
    "corrected (keep only the newest value in facts);\n"
    '  "images": list of {"image": int, "turn": int, "description": str}, one entry per image, "image" being '
    "its number k from the label [Image k] and turn the turn it was shown in.\n"
    "Keep every entry short. Write only the JSON object, nothing else."
)


def exchanges(turns: list[dict]) -> list[list[int]]:
    """Turn indices per exchange: each starts at a user turn (turns before the first user turn
    join the first exchange)."""
    out: list[list[int]] = []
    for i, turn in enumerate(turns):
        if turn["role"] == "user" and out and any(turns[j]["role"] == "user" for j in out[-1]):
            out.append([i])
        elif out:
            out[-1].append(i)
        else:
            out.append([i])
    return out


def step_messages(turns: list[dict], exchange: list[int], notes: dict) -> list[dict]:
    first_image = sum(len(t["images"]) for t in turns[: exchange[0]])
    content: list[dict] = [{"type": "text", "text": "Current notes:\n" + json.dumps(notes, ensure_ascii=False,
                                                                                    sort_keys=True)
                            + f"\n\nNext part of the conversation (turns {exchange[0]}-{exchange[-1]}):\n"}]
    for i in exchange:
        turn = turns[i]
        content.append({"type": "text", "text": f"\n{turn['role'].capitalize()} (turn {i}):\n"})
        parts = prompts.turn_parts(turn, first_image)
        if turn["role"] != "user":  # images shown by the assistant are described, not re-sent
            parts = [p if p["type"] == "text" else {"type": "text", "text": "(image)"} for p in parts]
        content.extend(parts)
        first_image += len(turn["images"])
    content.append({"type": "text", "text": "\n\nReturn the complete updated notes as one JSON object."})
    return [{"role": "system", "content": [{"type": "text", "text": SYSTEM}]}, {"role": "user", "content": content}]


def validate(reply: str | None, n_images: int, last_turn: int) -> tuple[dict | None, str | None]:
    """(notes, None) when ``reply`` holds valid notes, else (None, what is wrong)."""
    text = (reply or "").strip()
    fenced = re.search(r"```(?:json)?\s*(\{.*\})\s*```", text, flags=re.DOTALL)
    if fenced:
        text = fenced.group(1)
    start, end = text.find("{"), text.rfind("}")
    if start < 0 or end < start:
        return None, "no JSON object in the reply"
    try:
        notes = json.loads(text[start:end + 1])
    except (json.JSONDecodeError, RecursionError, ValueError) as exc:
        return None, f"not valid JSON ({type(exc).__name__})"
    if isinstance(notes, dict):  # an escaped lone surrogate ("\\ud800") must not reach a hash or a tokenizer
        from builder.ingest.readers import repair_surrogates

        notes, _ = repair_surrogates(notes)
    if not isinstance(notes, dict) or set(notes) != set(EMPTY):
        return None, f"the object must have exactly the keys {sorted(EMPTY)}"
    for key in ("facts", "preferences"):
        if not isinstance(notes[key], list) or not all(isinstance(v, str) for v in notes[key]):
            return None, f'"{key}" must be a list of strings'
    for entry in notes["updates"] if isinstance(notes["updates"], list) else [None]:
        if not (isinstance(entry, dict) and set(entry) == {"what", "old", "new", "turn"}
                and all(isinstance(entry[k], str) for k in ("what", "old", "new"))
                and _int(entry["turn"]) and 0 <= entry["turn"] <= last_turn):
            return None, f'"updates" entries must be {{"what", "old", "new", "turn"}} with turn in 0..{last_turn}'
    for entry in notes["images"] if isinstance(notes["images"], list) else [None]:
        if not (isinstance(entry, dict) and set(entry) == {"image", "turn", "description"}
                and _int(entry["image"]) and 1 <= entry["image"] <= n_images
                and _int(entry["turn"]) and 0 <= entry["turn"] <= last_turn
                and isinstance(entry["description"], str)):
            return None, (f'"images" entries must be {{"image", "turn", "description"}} with image in 1..{n_images} '
                          f"and turn in 0..{last_turn}")
    strings = [*notes["facts"], *notes["preferences"], *(e["description"] for e in notes["images"]),
               *(e[k] for e in notes["updates"] for k in ("what", "old", "new"))]
    if any(len(s) > MAX_ENTRY_CHARS for s in strings):
        return None, f"an entry is longer than {MAX_ENTRY_CHARS} characters; keep entries short"
    if len(json.dumps(notes, ensure_ascii=False)) > MAX_NOTES_CHARS:
        return None, f"the notes are longer than {MAX_NOTES_CHARS} characters; summarise them"
    return notes, None


def _int(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


class NoteTaker:
    def __init__(self, backend, cache: EvalCache, max_new_tokens: int = 512, retries: int = 2):
        self.backend, self.cache = backend, cache
        self.max_new_tokens, self.retries = max_new_tokens, retries
        self.stats = {"steps": 0, "valid": 0, "retried": 0, "failed": 0, "backend_errors": 0}

    def identity(self) -> dict:
        return self.backend.identity()

    def take(self, dialogues: list, progress: Callable[[int], None] = lambda n: None) -> dict[str, dict]:
        """``{dialogue_id: {"notes", "status", "failed_steps", "steps"}}`` for a chunk of dialogues."""
        state: dict[str, dict[str, Any]] = {
            d.dialogue_id: {"notes": dict(EMPTY), "failed_steps": [], "steps": 0, "errors": []} for d in dialogues}
        plans = {d.dialogue_id: exchanges(d.turns) for d in dialogues}
        ident = self.identity()
        for step in range(max((len(p) for p in plans.values()), default=0)):
            todo = []  # (dialogue, exchange, key, messages)
            for d in dialogues:
                if step >= len(plans[d.dialogue_id]):
                    continue
                exchange = plans[d.dialogue_id][step]
                notes = state[d.dialogue_id]["notes"]
                history = prompts.hashable(prompts.history_messages(d.turns, exchange[-1] + 1))
                key = cache_key(kind="notes", notetaker=ident, version=NOTES_PROMPT_VERSION,
                                prefix=sha256_json(history), notes=sha256_json(notes),
                                max_new_tokens=self.max_new_tokens, retries=self.retries)
                hit = self.cache.get("notes", key)
                state[d.dialogue_id]["steps"] += 1
                self.stats["steps"] += 1
                if hit is not None:
                    self._apply(state[d.dialogue_id], step, hit)
                else:
                    todo.append((d, exchange, key, step_messages(d.turns, exchange, notes)))
            self._run_step(todo, state, step)
            progress(len(todo))
        out = {}
        for did, s in state.items():
            failed = len(s["failed_steps"])
            status = "ok" if not failed else ("failed" if failed == s["steps"] else "partial")
            out[did] = {"notes": s["notes"], "status": status, "failed_steps": s["failed_steps"], "steps": s["steps"],
                        "errors": s["errors"][:3]}
        return out

    def _apply(self, state: dict, step: int, result: dict) -> None:
        if result["status"] == "ok":
            state["notes"] = result["notes"]
            self.stats["valid"] += 1
        else:
            state["failed_steps"].append(step)
            state["errors"].append(f"exchange {step}: {result.get('error')}")
            self.stats["failed"] += 1

    def _run_step(self, todo: list, state: dict, step: int) -> None:
        attempts = {key: 0 for _, _, key, _ in todo}
        pending = {key: (d, exchange, messages) for d, exchange, key, messages in todo}
        while pending:
            replies: dict[str, Reply] = {}
            groups = [Group([Request(key, messages, self.max_new_tokens)]) for key, (_, _, messages) in pending.items()]
            self.backend.run(groups, lambda request, reply: replies.__setitem__(request.key, reply))
            retry = {}
            for key, (d, exchange, messages) in pending.items():
                reply = replies.get(key, Reply("backend_error", error="no reply"))
                attempts[key] += 1
                result: dict[str, Any]
                if reply.status != "ok":
                    result = {"status": "failed", "error": f"{reply.status}: {reply.error}"}
                    if reply.status == "backend_error":  # transient: not cached, the run exits 8, a rerun retries
                        self.stats["backend_errors"] += 1
                        self.backend.stats["notes_backend_errors"] = self.backend.stats.get("notes_backend_errors", 0) + 1
                    else:  # context_overflow, prompt_error, request_rejected: the same next time
                        self.cache.put("notes", key, result)
                    self._apply(state[d.dialogue_id], step, result)
                    continue
                n_images = sum(len(t["images"]) for t in d.turns[: exchange[-1] + 1])
                notes, error = validate(reply.text, n_images, exchange[-1])
                if notes is not None:
                    result = {"status": "ok", "notes": notes, "attempts": attempts[key]}
                elif attempts[key] <= self.retries:
                    self.stats["retried"] += 1
                    retry[key] = (d, exchange, messages + [
                        {"role": "assistant", "content": [{"type": "text", "text": reply.text or ""}]},
                        {"role": "user", "content": [{"type": "text", "text":
                                                      f"That is not valid: {error}. Return only the corrected JSON "
                                                      "object."}]}])
                    continue
                else:
                    result = {"status": "failed", "error": error, "raw": (reply.text or "")[:2000],
                              "attempts": attempts[key]}
                self.cache.put("notes", key, result)
                self._apply(state[d.dialogue_id], step, result)
            pending = retry

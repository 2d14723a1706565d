"""How a question is asked (MMRC §3.1, §4): the golden history, then the question.

Messages are backend-neutral: ``{"role", "content": [parts]}`` where a part is
``{"type": "text", "text"}`` or ``{"type": "image", "index", "sha256", "mime", "bytes"}``.
Backends turn image parts into what they take (PIL images, data URLs).

Every image is preceded by a label ``[Image k]`` (k counts the dialogue's images from 1, in
order), so an answer can name an image and image-management precision can be computed;
``gold_images`` are the same images counted from 0. The label is part of the prompt version.
"""

from __future__ import annotations

import hashlib
import json
import string

PROMPT_VERSION = "mmrc-eval-prompt/1"
LETTERS = string.ascii_uppercase


def image_label(index: int) -> str:
    return f"[Image {index + 1}]"


def turn_parts(turn: dict, first_image: int) -> list[dict]:
    """A turn's text with its images in place (before the text, as chat logs show them), labelled."""
    parts: list[dict] = []
    for offset, image in enumerate(turn["images"]):
        index = first_image + offset
        if image.get("bytes") is None:  # a remote url nobody fetched: say so, never pretend
            parts.append({"type": "text", "text": f"{image_label(index)} (image not available)\n"})
            continue
        parts.append({"type": "text", "text": f"{image_label(index)}\n"})
        parts.append({"type": "image", "index": index, "sha256": image["sha256"], "mime": image["mime"],
                      "bytes": image["bytes"]})
    if turn["text"] or not parts:
        parts.append({"type": "text", "text": turn["text"]})
    return parts


def history_messages(turns: list[dict], upto: int | None = None) -> list[dict]:
    """The golden history: every turn as it was (user turns with images, original assistant turns)."""
    messages, image_count = [], 0
    for turn in turns[: len(turns) if upto is None else upto]:
        messages.append({"role": turn["role"], "content": turn_parts(turn, image_count)})
        image_count += len(turn["images"])
    return messages


def option_label(index: int) -> str:
    return LETTERS[index] if index < len(LETTERS) else str(index + 1)


def render_question(question: dict) -> str:
    """The question text with its format's instructions (mcq letters, tf)."""
    text = question["question"].strip()
    if question["format"] == "mcq":
        options = "\n".join(f"{option_label(i)}. {choice}" for i, choice in enumerate(question["choices"] or []))
        return f"{text}\n\nOptions:\n{options}\n\nAnswer with the letter of the correct option."
    if question["format"] == "tf":
        return f"{text}\n\nAnswer with True or False."
    return text


def notes_block(notes: dict) -> str:
    return ("Notes taken during this conversation (JSON):\n"
            + json.dumps(notes, ensure_ascii=False, indent=1, sort_keys=True) + "\n\n")


def question_message(question: dict, notes: dict | None = None) -> dict:
    prefix = notes_block(notes) + "Question: " if notes is not None else ""
    return {"role": "user", "content": [{"type": "text", "text": prefix + render_question(question)}]}


def messages_for(turns: list[dict], question: dict, notes: dict | None = None) -> list[dict]:
    return history_messages(turns) + [question_message(question, notes)]


def hashable(messages: list[dict]) -> list:
    """Messages with image bytes replaced by their sha256 (what a prompt hash is computed over)."""
    out = []
    for message in messages:
        content = [{k: v for k, v in part.items() if k != "bytes"} for part in message["content"]]
        out.append({"role": message["role"], "content": content})
    return out


def prompt_hash(messages: list[dict]) -> str:
    payload = json.dumps(hashable(messages), ensure_ascii=False, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(payload.encode("utf-8", "surrogatepass")).hexdigest()


def text_of(message: dict) -> str:
    return "".join(p["text"] for p in message["content"] if p["type"] == "text")

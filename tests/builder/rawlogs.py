"""Builds small raw log folders in every accepted format, with planted bad records."""

from __future__ import annotations

import base64
import json
import os
from pathlib import Path

from conftest import png_bytes


def turns4(topic: str, n: int = 4) -> list[tuple[str, str]]:
    out = []
    for i in range(n):
        role = "user" if i % 2 == 0 else "assistant"
        out.append((role, f"{topic} message {i} with some distinct words about {topic} number {i}"))
    return out


def native_line(sid: str, topic: str, images: dict[int, list] | None = None, **extra) -> str:
    turns = [{"role": r, "text": t, "images": (images or {}).get(i, [])} for i, (r, t) in enumerate(turns4(topic))]
    return json.dumps({"source_id": sid, "turns": turns, "language": "en-US", "user_id": "alice",
                       "created_at": "2025-03-01T12:00:00Z", "topic": "Travel", **extra})


def openai_line(did: str, topic: str, content_images: list[str] = ()) -> str:
    msgs = []
    for i, (role, text) in enumerate(turns4(topic)):
        if i == 0 and content_images:
            parts = [{"type": "text", "text": text}] + [
                {"type": "image_url", "image_url": {"url": u}} for u in content_images]
            msgs.append({"role": role, "content": parts})
        else:
            msgs.append({"role": role, "content": text})
    return json.dumps({"id": did, "messages": msgs, "model": "gpt-x", "created_at": 1740830400})


def build(root: Path) -> Path:
    """A raw folder exercising every format and every quarantine reason; returns root."""
    img = root / "images"
    img.mkdir(parents=True)
    (img / "red.png").write_bytes(png_bytes((255, 0, 0)))
    (img / "blue.png").write_bytes(png_bytes((0, 0, 255)))
    (img / "broken.jpg").write_bytes(png_bytes((0, 255, 0), fmt="JPEG")[:60])
    os.symlink("/etc/hostname", img / "escape.png")
    data_url = "data:image/png;base64," + base64.b64encode(png_bytes((9, 9, 9))).decode()

    (root / "native").mkdir()
    lines = [
        native_line("n-ok-1", "paris", {0: ["../images/red.png"]}),
        native_line("n-ok-2", "jazz", {2: [{"path": "../images/blue.png"}]}),
        '{"source_id": "n-bad-json", "turns": [',
        native_line("n-role", "x").replace('"role": "assistant"', '"role": "narrator"', 1),
        json.dumps({"source_id": "n-empty", "turns": []}),
        native_line("n-missing", "y", {0: ["../images/nope.png"]}),
        native_line("n-traversal", "z", {0: ["../../../../etc/passwd"]}),
        native_line("n-absolute", "w", {0: ["/etc/hostname"]}),
        native_line("n-symlink", "v", {0: ["../images/escape.png"]}),
        native_line("n-corrupt", "u", {0: ["../images/broken.jpg"]}),
        native_line("n-oversized", "t").replace("message 1 with", "message 1 " + "x" * 40_000 + " with"),
        native_line("n-remote", "sailing", {0: ["https://example.com/cat.png"]}),
        native_line("n-short", "q").replace(', {"role": "user", "text": "q message 2', ', {"role": "xuser", "text": "q message 2'),
        json.dumps({"source_id": "n-invalid", "turns": "not a list"}),
    ]
    # n-short: make a genuinely short dialogue instead of the replace trick above
    lines[12] = json.dumps({"source_id": "n-short", "turns": [{"role": "user", "text": "hi"},
                                                              {"role": "assistant", "text": "hello"}]})
    body = ("\n".join(lines) + "\n").encode()
    body += b'{"source_id": "n-utf8", "turns": [{"role": "user", "text": "caf\xe9"}]}\n'
    (root / "native" / "logs.jsonl").write_bytes(body)

    (root / "openai").mkdir()
    (root / "openai" / "chats.jsonl").write_text("\n".join([
        openai_line("o-1", "football", ["../images/red.png", data_url]),
        openai_line("o-3", "cooking"),
        openai_line("o-2", "chess"),
    ]) + "\n")

    (root / "sharegpt").mkdir()
    share = [
        {"id": "s-1", "image": "../images/blue.png", "conversations": [
            {"from": "human", "value": "<image>\nWhat colour is this square in the photo I sent?"},
            {"from": "gpt", "value": "It is blue."},
            {"from": "human", "value": "Could it be used as a flag for a sailing club?"},
            {"from": "gpt", "value": "Yes, a plain blue flag is common."}]},
        {"id": "s-2", "images": ["../images/red.png", "../images/blue.png"], "conversations": [
            {"from": "human", "value": "Compare <image> and <image> for a kitchen wall colour."},
            {"from": "gpt", "value": "Red is warm; blue is calm."},
            {"from": "human", "value": "Which one goes with oak cabinets in a small kitchen?"},
            {"from": "gpt", "value": "Blue tends to balance warm oak."}]},
        {"id": "s-bad", "images": ["../images/red.png"], "conversations": [
            {"from": "human", "value": "<image> <image> two?"}, {"from": "gpt", "value": "no"}]},
    ]
    (root / "sharegpt" / "share.json").write_text(json.dumps(share))

    (root / "chat_export").mkdir()
    for i, topic in enumerate(["economy", "biology"]):
        msgs = [{"role": r, "content": t} for r, t in turns4(topic, 6)]
        (root / "chat_export" / f"conv-{i}.json").write_text(json.dumps(
            {"id": f"c-{i}", "messages": msgs,
             "metadata": {"model": "vicuna-13b", "timestamp": "2024-05-01T08:00:00+02:00",
                          "user_id": "bob", "language": "English"}}))
    return root


EXPECTED_QUARANTINE = {
    "malformed_json": 1, "unknown_role": 1, "empty_dialogue": 1, "missing_image": 1,
    "unsafe_image_path": 3, "unreadable_image": 1, "oversized_message": 1, "invalid_record": 2,
    "invalid_utf8": 1,
}
EXPECTED_KEPT_SOURCE_IDS = {"n-ok-1", "n-ok-2", "n-remote", "o-1", "o-3", "o-2", "s-1", "s-2", "c-0", "c-1"}
EXPECTED_DROPPED = {"turn_count_out_of_range": 1}

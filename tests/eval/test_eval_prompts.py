"""How a question is asked: golden history with images in place and labelled, then the question."""

from __future__ import annotations

from builder.eval import prompts


def _turns():
    img = lambda sha: {"sha256": sha, "mime": "image/png", "bytes": b"x" + sha.encode(), "url": None}  # noqa: E731
    return [
        {"index": 0, "role": "user", "text": "Look", "images": [img("a"), img("b")]},
        {"index": 1, "role": "assistant", "text": "Nice.", "images": []},
        {"index": 2, "role": "user", "text": "And this", "images": [img("c")]},
        {"index": 3, "role": "assistant", "text": "A garden.", "images": []},
    ]


def test_history_keeps_every_turn_with_images_in_place_and_labelled():
    messages = prompts.history_messages(_turns())
    assert [m["role"] for m in messages] == ["user", "assistant", "user", "assistant"]
    parts = messages[2]["content"]
    assert parts[0] == {"type": "text", "text": "[Image 3]\n"}
    assert parts[1]["type"] == "image" and parts[1]["index"] == 2 and parts[1]["sha256"] == "c"
    assert parts[-1]["text"] == "And this"
    assert prompts.text_of(messages[1]) == "Nice."


def test_unavailable_remote_image_is_said_not_hidden():
    turns = _turns()
    turns[0]["images"][1] = {"sha256": "url:http://x", "mime": None, "bytes": None, "url": "http://x"}
    parts = prompts.history_messages(turns)[0]["content"]
    assert {"type": "text", "text": "[Image 2] (image not available)\n"} in parts
    assert sum(p["type"] == "image" for p in parts) == 1


def test_question_formats():
    mcq = prompts.render_question({"question": "Which?", "format": "mcq", "choices": ["x", "y"]})
    assert "A. x\nB. y" in mcq and mcq.endswith("letter of the correct option.")
    assert prompts.render_question({"question": "Is it?", "format": "tf", "choices": []}).endswith("True or False.")
    assert prompts.render_question({"question": " Why? ", "format": "open", "choices": []}) == "Why?"


def test_notes_go_before_the_question():
    message = prompts.question_message({"question": "Q?", "format": "open", "choices": []}, {"facts": ["f"]})
    text = prompts.text_of(message)
    assert text.startswith("Notes taken during this conversation (JSON):") and text.endswith("Question: Q?")


def test_prompt_hash_ignores_bytes_but_not_content():
    q = {"question": "Q?", "format": "open", "choices": []}
    a = prompts.messages_for(_turns(), q)
    b = prompts.messages_for(_turns(), q)
    b[0]["content"][1]["bytes"] = b"other bytes, same sha"
    assert prompts.prompt_hash(a) == prompts.prompt_hash(b)
    c = prompts.messages_for(_turns(), {**q, "question": "Q2?"})
    assert prompts.prompt_hash(a) != prompts.prompt_hash(c)

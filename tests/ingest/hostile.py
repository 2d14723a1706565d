"""A generated corpus of hostile log records and files: what real logs and attackers send."""

from __future__ import annotations

import json
import os
from pathlib import Path

GOOD_TURNS = [{"role": "user", "text": "Hello there, can you help me plan a trip to Rome?"},
              {"role": "assistant", "text": "Of course. When do you want to go?"},
              {"role": "user", "text": "In May, for a week, with my sister."},
              {"role": "assistant", "text": "May is lovely: mild weather and fewer crowds."}]


def native(i: int, **over) -> dict:
    return {"id": f"h-{i}", "turns": [dict(t, text=f"{t['text']} ({i})") for t in GOOD_TURNS], **over}


EXPECTED = {  # label -> the ledger reason its line must end with
    "good": "ingested", "deep nesting in a field": "json_too_deep", "deep nesting as the record": "json_too_deep",
    "5000-digit id": "malformed_json", "5000-digit number in a turn": "malformed_json",
    "lone surrogate in text": "ingested", "lone surrogate in id": "ingested", "lone surrogate in role": "unknown_role",
    "language is a number": "ingested", "language is a name": "ingested", "model is a list": "ingested",
    "created_at is an object": "ingested", "user_id is an object": "ingested", "turns is a string": "invalid_record",
    "turn text is a number": "invalid_record", "image path 5000 chars": "unsafe_image_path",
    "image path 3000 folders deep": "unsafe_image_path", "image path traversal": "unsafe_image_path",
    "image path NUL byte": "unsafe_image_path", "a JSON string record": "invalid_record",
    "null record": "invalid_record", "huge float": "ingested", "NaN": "ingested", "control characters": "ingested",
    "bidi override": "ingested", "same-role turns": "ingested", "no assistant turn": "no_assistant_turn",
    "not UTF-8 bytes": "invalid_utf8",
}


def records() -> list[tuple[str, str]]:
    """(label, one JSONL line) pairs; every line must end as one ledger row (kept or quarantined)."""
    deep = "[" * 50_000 + "]" * 50_000
    out = [
        ("good", json.dumps(native(0))),
        ("deep nesting in a field", json.dumps(native(1))[:-1] + ', "extra": ' + deep + "}"),
        ("deep nesting as the record", deep),
        ("5000-digit id", json.dumps(native(2))[:-1] + ', "user_id": ' + "9" * 5000 + "}"),
        ("5000-digit number in a turn", '{"id": "h-3", "turns": [{"role": "user", "text": "x", "n": '
         + "1" * 5000 + '}]}'),
        ("lone surrogate in text", json.dumps(native(4)).replace("Rome", "Ro\\ud800me", 1)),
        ("lone surrogate in id", json.dumps(native(5, id="bad\ud800id"))),
        ("lone surrogate in role", json.dumps(native(6)).replace('"user"', '"us\\udfffer"', 1)),
        ("language is a number", json.dumps(native(7, language=42))),
        ("language is a name", json.dumps(native(8, language="English"))),
        ("model is a list", json.dumps(native(9, model=["gpt"]))),
        ("created_at is an object", json.dumps(native(10, created_at={"y": 2024}))),
        ("user_id is an object", json.dumps(native(11, user_id={"email": "alice@example.com"}))),
        ("turns is a string", json.dumps({"id": "h-12", "turns": "hello"})),
        ("turn text is a number", json.dumps({"id": "h-13", "turns": [{"role": "user", "text": 5}] + GOOD_TURNS[1:]})),
        ("image path 5000 chars", json.dumps(native(14, turns=[dict(GOOD_TURNS[0], images=["a" * 5000 + ".png"])]
                                                + GOOD_TURNS[1:]))),
        ("image path 3000 folders deep", json.dumps(native(15, turns=[dict(GOOD_TURNS[0],
                                                                          images=["d/" * 3000 + "x.png"])]
                                                   + GOOD_TURNS[1:]))),
        ("image path traversal", json.dumps(native(16, turns=[dict(GOOD_TURNS[0], images=["../../etc/passwd"])]
                                                   + GOOD_TURNS[1:]))),
        ("image path NUL byte", json.dumps(native(17, turns=[dict(GOOD_TURNS[0], images=["a\u0000b.png"])]
                                                  + GOOD_TURNS[1:]))),
        ("a JSON string record", json.dumps("just a string")),
        ("null record", "null"),
        ("huge float", json.dumps(native(18))[:-1] + ', "created_at": 1e400}'),
        ("NaN", json.dumps(native(19))[:-1] + ', "created_at": NaN}'),
        ("control characters", json.dumps(native(20)).replace("Rome", "Ro\\u0000\\u001b[31mme", 1)),
        ("bidi override", json.dumps(native(21)).replace("Rome", "Ro\u202eme", 1)),
        ("same-role turns", json.dumps({"id": "h-22", "turns": [GOOD_TURNS[0], GOOD_TURNS[0], GOOD_TURNS[1],
                                                                 GOOD_TURNS[2], GOOD_TURNS[3]]})),
        ("no assistant turn", json.dumps({"id": "h-23", "turns": [GOOD_TURNS[0], GOOD_TURNS[2], dict(GOOD_TURNS[0]),
                                                                   dict(GOOD_TURNS[2], text="again?")]})),
        ("not UTF-8 bytes", None),
    ]
    return out


def write_corpus(raw: Path) -> int:
    """The corpus as files (plus hostile file names and layouts); returns the number of records."""
    raw.mkdir(parents=True, exist_ok=True)
    lines = []
    for label, line in records():
        lines.append(b'{"id": "h-bytes", "turns": "\xff\xfe"}' if line is None else line.encode("utf-8", "surrogatepass"))
    (raw / "hostile.jsonl").write_bytes(b"\n".join(lines) + b"\n")
    return len(lines)


def write_odd_files(raw: Path) -> dict[str, str]:
    """Files a reader might not take; each must be read or listed with a reason. Returns name -> kind."""
    line = json.dumps(native(100)) + "\n"
    files = {"UPPER.JSONL": line, "data.ndjson": line, ".hidden.jsonl": line, "notes.txt": "hello\n",
             "sub/.git/x.jsonl": line}
    for name, text in files.items():
        (raw / name).parent.mkdir(parents=True, exist_ok=True)
        (raw / name).write_text(text)
    import gzip

    (raw / "packed.jsonl.gz").write_bytes(gzip.compress(line.encode()))
    outside = raw.parent / "outside.jsonl"
    outside.write_text(line)
    (raw / "link.jsonl").symlink_to(outside)
    bad = os.fsencode(str(raw)) + b"/bad-\xff-name.jsonl"
    with open(bad, "wb") as fh:
        fh.write(line.encode())
    # where each must show up: read ("files"), listed with a reason ("skipped"), or counted ("other")
    return {"UPPER.JSONL": "files", "data.ndjson": "files", "packed.jsonl.gz": "files",
            ".hidden.jsonl": "skipped", "sub/.git": "skipped", "link.jsonl": "skipped",
            "bad-\\xff-name.jsonl": "skipped", ".txt": "other"}

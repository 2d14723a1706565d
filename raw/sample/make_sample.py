#!/usr/bin/env python3
"""Generate the bundled demo corpus raw/sample/ (run: .venv/bin/python raw/sample/make_sample.py).

Everything under raw/sample/ except this script and _gen/ is written by this script and
rewritten byte-identically on every run: the chat logs in four formats (native, openai,
sharegpt, chat_export), the images (drawn with Pillow), labels/topics.csv, expected.json
and README.md (whose tables are the answer key the tests use).

The dialogue texts live in _gen/daily.py, _gen/professional.py and _gen/special.py; the
pictures are drawn by _gen/draw.py.
"""

from __future__ import annotations

import base64
import csv
import io
import json
import os
import re
import shutil
import sys
from collections import Counter
from datetime import datetime, timedelta, timezone
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from _gen import daily, draw, professional, special  # noqa: E402

FORMATS = ["native", "openai", "sharegpt", "chat_export"]
MODELS = ["gpt-4o-2024-08-06", "claude-3-5-sonnet-20241022", "gemini-1.5-pro-002", "llava-v1.6-34b", "qwen2-vl-72b-instruct"]
BASE_TIME = datetime(2025, 1, 6, 9, 0, 0, tzinfo=timezone.utc)
GROUPS = {"daily_life": daily.TOPICS, "professional_knowledge": professional.TOPICS}
ALL_TOPICS = {**daily.TOPICS, **professional.TOPICS}

# Outputs this script owns (deleted and rewritten on every run).
GENERATED = ["native", "openai", "sharegpt", "chat_export", "images", "labels", "expected.json", "README.md", ".mmrcignore"]

# Images sent inline as data:image/png;base64 URLs (openai format) instead of files.
DATA_URL_IMAGES = {("economy-01", 0), ("society-02", 0), ("shopping-03", 0)}

# Camera EXIF (make, model, body serial, GPS) planted in three JPEGs; clean must strip it.
EXIF = {
    "paris": ("Canon", "Canon EOS R6", "032021004518", (48.0, 51.0, 29.6), "N", (2.0, 17.0, 40.2), "E", "2024:06:14 20:41:07"),
    "cusco": ("SONY", "ILCE-7M3", "3871245", (13.0, 9.0, 47.0), "S", (72.0, 32.0, 41.0), "W", "2024:08:02 06:12:55"),
    "tokyo": ("FUJIFILM", "X-T4", "9AB12345", (35.0, 39.0, 54.0), "N", (139.0, 46.0, 12.0), "E", "2024:11:20 12:30:18"),
}

# Paths planted by the broken cases (see special.BROKEN).
SPECIAL_PATHS = {
    "ABS": "/etc/hostname",
    "TRAVERSAL": "../../../../../../../../etc/passwd",
    "SYMLINK": "images/holiday-snapshot.jpg",
    "MISSING": "images/does-not-exist.jpg",
    "CORRUPT": "images/corrupt-truncated.jpg",
    "TIFF": "images/leaf-scan.tif",
    "HUGE": "images/sales-chart-huge.png",
}
SYMLINK_TARGET = "/etc/passwd"


# Files ingest must not read as chat logs (it reads every *.json / *.jsonl under the folder).
MMRCIGNORE = "# not chat logs: the answer key of this demo corpus\nexpected.json\nquestions.jsonl\n"


def log_relative(rel: str) -> str:
    """Image paths in the logs are relative to the log file; every log file sits one folder
    below raw/sample/, so ``images/x.jpg`` is written ``../images/x.jpg``."""
    return "../" + rel if rel.startswith("images/") else rel


# ---------------------------------------------------------------------------------------
# building blocks
# ---------------------------------------------------------------------------------------


class Corpus:
    def __init__(self, root: Path):
        self.root = root
        self.n = 0  # running record number: drives user ids, models and timestamps
        self.images: dict[str, bytes] = {}  # relative path -> bytes
        self.image_kinds: Counter = Counter()

    def meta(self) -> dict:
        i = self.n
        self.n += 1
        created = BASE_TIME + timedelta(hours=7 * i, minutes=(13 * i) % 60, seconds=(29 * i) % 60)
        return {
            "user_id": f"user-{(i * 7) % 43 + 1}",
            "model": MODELS[i % len(MODELS)],
            "created_at": created.strftime("%Y-%m-%dT%H:%M:%SZ"),
            "language": "en",
        }

    def image(self, did: str, k: int, spec: str, exif_key: str | None, inline: bool) -> dict:
        """Return an image reference: {"path": rel} / {"url": data-or-http}."""
        if spec.startswith(("http://", "https://")):
            return {"url": spec}
        if spec in SPECIAL_PATHS:
            return {"path": log_relative(SPECIAL_PATHS[spec])}
        seed = f"{did}-{k + 1}"
        img = draw.draw(spec, seed)
        self.image_kinds[draw.parse_spec(spec)[0]] += 1
        if inline:
            data = draw.encode(img, "png")
            return {"url": "data:image/png;base64," + base64.b64encode(data).decode("ascii")}
        ext = draw.extension(spec)
        exif = draw.gps_exif(*EXIF[exif_key][:3], *EXIF[exif_key][3:7], EXIF[exif_key][7]) if exif_key else None
        rel = f"images/{seed}.{ext}"
        self.images[rel] = draw.encode(img, ext, exif=exif)
        return {"path": log_relative(rel)}


def resolve_turns(corpus: Corpus, d: dict) -> list[dict]:
    """Dialogue data -> [{"role", "text", "images": [ref, ...]}]."""
    out = []
    k = 0
    for i, t in enumerate(d["turns"]):
        role = "user" if i % 2 == 0 else "assistant"
        text, specs = (t if isinstance(t, tuple) else (t, []))
        refs = []
        for spec in specs:
            exif_key = (d.get("exif") or {}).get(k)
            refs.append(corpus.image(d["id"], k, spec, exif_key, (d["id"], k) in DATA_URL_IMAGES))
            k += 1
        out.append({"role": role, "text": text, "images": refs})
    return out


def count_images(turns: list[dict]) -> int:
    return sum(len(t["images"]) for t in turns)


# ---------------------------------------------------------------------------------------
# format writers: each returns the record as a JSON-able object
# ---------------------------------------------------------------------------------------


def to_native(rid: str, topic: str | None, meta: dict, turns: list[dict], style: int) -> dict:
    def ref(r):
        if "url" in r:
            return {"url": r["url"]}
        return r["path"] if style % 2 == 0 else {"path": r["path"]}

    rec = {"source_id": rid, **meta}
    if topic:
        rec["topic"] = topic
    rec["turns"] = [{"role": t["role"], "text": t["text"], "images": [ref(r) for r in t["images"]]} for t in turns]
    return rec


def _content(t: dict, j: int):
    if not t["images"]:
        # some assistant turns use the list-of-parts form with a single text part
        if t["role"] == "assistant" and j % 3 == 1:
            return [{"type": "text", "text": t["text"]}]
        return t["text"]
    parts = [{"type": "text", "text": t["text"]}]
    for r in t["images"]:
        parts.append({"type": "image_url", "image_url": {"url": r.get("url") or r["path"]}})
    return parts


def to_openai(rid: str, meta: dict, turns: list[dict]) -> dict:
    return {
        "id": rid,
        "model": meta["model"],
        "user": meta["user_id"],
        "created_at": meta["created_at"],
        "messages": [{"role": t["role"], "content": _content(t, j)} for j, t in enumerate(turns)],
    }


def to_chat_export(rid: str, meta: dict, turns: list[dict]) -> dict:
    return {
        "id": rid,
        "messages": [{"role": t["role"], "content": _content(t, j)} for j, t in enumerate(turns)],
        "metadata": {"model": meta["model"], "timestamp": meta["created_at"], "user_id": meta["user_id"],
                     "language": meta["language"], "client": "demo-web", "turn_count": len(turns)},
    }


def to_sharegpt(rid: str, turns: list[dict], style: int) -> dict:
    paths = [r["path"] for t in turns for r in t["images"]]
    for t in turns:
        if any("path" not in r for r in t["images"]):
            raise ValueError(f"{rid}: sharegpt records take only file images")
    only_first = all(not t["images"] for t in turns[1:])
    # Images that all belong to the first human turn are written without <image>
    # placeholders on every other such record (they attach to the first human turn).
    placeholders = not (only_first and style % 2 == 1)
    conv = []
    for t in turns:
        value = t["text"]
        if placeholders and t["images"]:
            value = "<image>\n" * len(t["images"]) + value
        conv.append({"from": "human" if t["role"] == "user" else "gpt", "value": value})
    rec = {"id": rid, "conversations": conv}
    if len(paths) == 1:
        rec["image"] = paths[0]
    elif paths:
        rec["images"] = paths
    return rec


def dumps_line(obj) -> str:
    return json.dumps(obj, ensure_ascii=False) + "\n"


def dumps_file(obj) -> str:
    return json.dumps(obj, ensure_ascii=False, indent=2) + "\n"


# ---------------------------------------------------------------------------------------
# main
# ---------------------------------------------------------------------------------------


def interleave(good: list, bad: list) -> list:
    """Spread ``bad`` evenly through ``good`` (deterministic)."""
    out = list(good)
    m = len(bad)
    for j, b in enumerate(bad):
        pos = (j + 1) * len(good) // (m + 1) + j
        out.insert(pos, b)
    return out


def build(root: Path) -> None:
    for name in GENERATED:
        p = root / name
        if p.is_symlink() or p.is_file():
            p.unlink()
        elif p.is_dir():
            shutil.rmtree(p)

    corpus = Corpus(root)
    # records per output file: list of (kind, id, payload); payload is an object or raw bytes
    files: dict[str, list] = {"native/part-a.jsonl": [], "native/part-b.jsonl": [], "openai/chats.jsonl": [],
                              "sharegpt/conversations.json": []}
    chat_files: dict[str, object] = {}
    labels: list[tuple[str, str]] = []
    info: list[dict] = []  # one row per good dialogue, for README stats
    resolved_by_id: dict[str, list[dict]] = {}
    style = Counter()

    def emit(fmt: str, rid: str, topic: str | None, turns: list[dict], group: str | None, meta=None):
        meta = meta or corpus.meta()
        style[fmt] += 1
        if fmt == "native":
            name = "native/part-a.jsonl" if group == "daily_life" else "native/part-b.jsonl"
            files[name].append(to_native(rid, topic, meta, turns, style[fmt]))
            return name
        if fmt == "openai":
            files["openai/chats.jsonl"].append(to_openai(rid, meta, turns))
            return "openai/chats.jsonl"
        if fmt == "sharegpt":
            files["sharegpt/conversations.json"].append(to_sharegpt(rid, turns, style[fmt]))
            return "sharegpt/conversations.json"
        name = f"chat_export/{rid}.json"
        chat_files[name] = to_chat_export(rid, meta, turns)
        return name

    group_of = {t: g for g, ts in GROUPS.items() for t in ts}

    # 1. the well-formed topic dialogues (6 per topic)
    for ti, (topic, dialogues) in enumerate(ALL_TOPICS.items()):
        for i, d in enumerate(dialogues):
            fmt = d.get("fmt") or FORMATS[(ti + i) % len(FORMATS)]
            turns = resolve_turns(corpus, d)
            resolved_by_id[d["id"]] = turns
            name = emit(fmt, d["id"], topic, turns, group_of[topic])
            labels.append((d["id"], topic))
            info.append({"id": d["id"], "topic": topic, "fmt": fmt, "file": name, "turns": len(turns),
                         "images": count_images(turns), "dominant": d.get("pii_dominant_turn"),
                         "exif": sorted((d.get("exif") or {}).items())})

    # 2. remote-image dialogue (kept) and offensive dialogues (kept by ingest, dropped by clean)
    extra = []
    for d in [special.REMOTE_IMAGE, *special.OFFENSIVE]:
        turns = resolve_turns(corpus, d)
        name = emit(d["fmt"], d["id"], d["topic"], turns, group_of[d["topic"]])
        labels.append((d["id"], d["topic"]))
        extra.append({"id": d["id"], "topic": d["topic"], "fmt": d["fmt"], "file": name, "turns": len(turns),
                      "images": count_images(turns)})

    # 3. broken / filtered records, spread through the files
    broken_by_file: dict[str, list] = {k: [] for k in files}
    for b in special.BROKEN:
        rid, plant = b["id"], b["plant"]
        meta = corpus.meta()
        if b["turns"] == "NEAR_DUP":
            src = next(d for d in professional.HISTORY if d["id"] == "history-05")
            users = [t for t in src["turns"][0::2]]
            users[0] = users[0].replace("history essay", "history report", 1)
            tlist = []
            for u, a in zip(users, special.NEAR_DUP_ASSISTANT):
                tlist += [u, a]
            turns = resolve_turns(corpus, {"id": rid, "turns": tlist})
        elif b["turns"] == "EXACT_DUP":
            turns = resolved_by_id["food-01"]
        elif b["turns"] == "LONG_QUIZ":
            turns = resolve_turns(corpus, {"id": rid, "turns": special._long_quiz_turns()})
        else:
            turns = resolve_turns(corpus, b)
        if plant.startswith("role:"):
            _, idx, role = plant.split(":")
            turns = [dict(t) for t in turns]
            turns[int(idx)]["role"] = role

        fmt = b["fmt"]
        if fmt == "native":
            rec = to_native(rid, b.get("topic"), meta, turns, 0)
        elif fmt == "openai":
            rec = to_openai(rid, meta, turns)
            if plant == "messages_is_string":
                rec["messages"] = "hi, can you recommend three jazz albums for a beginner? thanks"
        elif fmt == "sharegpt":
            rec = to_sharegpt(rid, turns, 0)
        else:
            rec = to_chat_export(rid, meta, turns)

        if fmt == "chat_export":
            if plant == "malformed_file":
                text = dumps_file(rec).rstrip()
                chat_files[b["file"]] = (text[:-1].rstrip() + ",\n").encode("utf-8")
            else:
                chat_files[b["file"]] = rec
            continue
        payload: object = rec
        if plant == "malformed_line":
            line = dumps_line(rec)
            cut = line.index('"text": "Alfama')
            payload = line[:cut].encode("utf-8") + b"\n"
        elif plant == "invalid_utf8":
            raw = dumps_line(rec).encode("utf-8")
            bad = raw.replace("Caf\u00e9".encode("utf-8"), b"Caf\xe9")
            assert bad != raw
            payload = bad
        broken_by_file[b["file"]].append(payload)

    # 4. special image files
    base = draw.draw("photo:Leaf scan", "leaf-scan")
    corpus.images["images/leaf-scan.tif"] = draw.encode(base, "tiff")
    from PIL import Image
    huge = Image.new("1", (8000, 6000), 1)
    buf = io.BytesIO()
    huge.save(buf, "PNG", optimize=True)
    corpus.images["images/sales-chart-huge.png"] = buf.getvalue()
    lasagne = draw.encode(draw.draw("food:Lasagne", "lasagne"), "jpg")
    corpus.images["images/corrupt-truncated.jpg"] = lasagne[: len(lasagne) * 2 // 5]

    # 5. write everything
    for rel, data in sorted(corpus.images.items()):
        p = root / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_bytes(data)
    os.symlink(SYMLINK_TARGET, root / SPECIAL_PATHS["SYMLINK"])

    for name, recs in files.items():
        allrecs = interleave(recs, broken_by_file[name])
        p = root / name
        p.parent.mkdir(parents=True, exist_ok=True)
        if name.endswith(".jsonl"):
            with open(p, "wb") as f:
                for r in allrecs:
                    f.write(r if isinstance(r, bytes) else dumps_line(r).encode("utf-8"))
        else:
            p.write_text(dumps_file(allrecs), encoding="utf-8")
    for name, rec in sorted(chat_files.items()):
        p = root / name
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_bytes(rec if isinstance(rec, bytes) else dumps_file(rec).encode("utf-8"))

    (root / "labels").mkdir()
    with open(root / "labels" / "topics.csv", "w", encoding="utf-8", newline="") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(["source_id", "topic"])
        w.writerows(labels)

    quarantined = Counter(b["expect"][1] for b in special.BROKEN if b["expect"][0] == "quarantined")
    dropped = Counter(b["expect"][1] for b in special.BROKEN if b["expect"][0] == "dropped")
    kept = len(info) + len(extra)
    expected = {
        "records_total": kept + len(special.BROKEN),
        "expected_quarantined": dict(sorted(quarantined.items())),
        "expected_dropped": dict(sorted(dropped.items())),
        "expected_kept": kept,
    }
    (root / ".mmrcignore").write_text(MMRCIGNORE, encoding="utf-8")
    (root / "expected.json").write_text(json.dumps(expected, indent=2) + "\n", encoding="utf-8")

    write_answer_key(root, resolved_by_id)

    from _gen import readme
    (root / "README.md").write_text(readme.render(info, extra, special.BROKEN, expected, corpus, EXIF,
                                                  DATA_URL_IMAGES, SPECIAL_PATHS, SYMLINK_TARGET), encoding="utf-8")


def _occurs(needle: str, text: str) -> list[tuple[int, int]]:
    pat = (r"\b" if needle[0].isalnum() else "") + re.escape(needle) + (r"\b" if needle[-1].isalnum() else "")
    return [m.span() for m in re.finditer(pat, text)]


def write_answer_key(root: Path, resolved_by_id: dict[str, list[dict]]) -> None:
    """labels/pii.csv and labels/public_entities.csv from _gen/answers.py (checked here)."""
    from _gen import answers

    with open(root / "labels" / "pii.csv", "w", encoding="utf-8", newline="") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(["source_id", "turn", "role", "entity", "text"])
        for did, items in answers.PII.items():
            turns = resolved_by_id[did]
            found = set()
            for ti, t in enumerate(turns):
                spans = {s: _occurs(s, t["text"]) for _, s in items}
                for entity, s in items:
                    own = [sp for sp in spans[s]
                           if not any(o != s and len(o) > len(s) and any(a <= sp[0] and sp[1] <= b for a, b in spans[o])
                                      for _, o in items)]
                    if own:
                        found.add(s)
                        w.writerow([did, ti, t["role"], entity, s])
            missing = {s for _, s in items} - found
            if missing:
                raise SystemExit(f"answers.PII[{did!r}]: not found in the dialogue: {sorted(missing)}")
    with open(root / "labels" / "public_entities.csv", "w", encoding="utf-8", newline="") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(["source_id", "turn", "text"])
        for did, names in answers.PUBLIC.items():
            turns = resolved_by_id[did]
            for s in names:
                hits = [ti for ti, t in enumerate(turns) if _occurs(s, t["text"])]
                if not hits:
                    raise SystemExit(f"answers.PUBLIC[{did!r}]: {s!r} not found in the dialogue")
                for ti in hits:
                    w.writerow([did, ti, s])


def main() -> None:
    build(HERE)
    print(f"wrote demo corpus to {HERE}")


if __name__ == "__main__":
    main()

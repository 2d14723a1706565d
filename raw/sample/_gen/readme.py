"""Renders raw/sample/README.md (the answer key) from the generator's own data."""

from __future__ import annotations

import json
from collections import Counter

FORMAT_ORDER = ["native", "openai", "sharegpt", "chat_export"]


def _table(header: list[str], rows: list[list]) -> str:
    out = ["| " + " | ".join(header) + " |", "|" + "|".join("---" for _ in header) + "|"]
    out += ["| " + " | ".join(str(c) for c in r) + " |" for r in rows]
    return "\n".join(out)


def render(info, extra, broken, expected, corpus, exif, data_urls, special_paths, symlink_target) -> str:
    topics = list(dict.fromkeys(r["topic"] for r in info))
    per = Counter((r["topic"], r["fmt"]) for r in info)
    topic_rows = [[t] + [per[(t, f)] for f in FORMAT_ORDER] + [sum(per[(t, f)] for f in FORMAT_ORDER)] for t in topics]
    topic_rows.append(["**total**"] + [sum(per[(t, f)] for t in topics) for f in FORMAT_ORDER] + [len(info)])

    n_img = [r["images"] for r in info]
    with_img = sum(1 for n in n_img if n)
    turn_hist = Counter(r["turns"] for r in info)
    img_hist = Counter(n_img)

    files = Counter()
    for r in info + extra:
        files[r["file"] if not r["file"].startswith("chat_export/") else "chat_export/*.json"] += 1
    bfiles = Counter(b["file"] if not b["file"].startswith("chat_export/") else "chat_export/*.json" for b in broken)
    file_rows = [[f"`{f}`", files[f], bfiles[f], files[f] + bfiles[f]] for f in sorted(set(files) | set(bfiles))]

    from _gen import answers

    pii_rows = [[f"`{r['file']}`", f"`{r['id']}`", r["topic"],
                 ", ".join(dict.fromkeys(e for e, _ in answers.PII[r["id"]])),
                 "-" if r["dominant"] is None else f"turn {r['dominant']} is mostly contact/payment details"]
                for r in info if r["id"] in answers.PII]
    exif_rows = []
    for r in info:
        for k, key in r["exif"]:
            make, model, serial, lat, lat_ref, lon, lon_ref, when = exif[key]
            exif_rows.append([f"`images/{r['id']}-{k + 1}.jpg`", f"`{r['id']}`", f"{make} {model}", serial,
                              f"{lat[0]:g}°{lat[1]:g}'{lat[2]:g}\"{lat_ref} {lon[0]:g}°{lon[1]:g}'{lon[2]:g}\"{lon_ref}", when])
    extra_rows = [[f"`{r['file']}`", f"`{r['id']}`", r["topic"], r["turns"], r["images"],
                   "kept; one image is an `http://` URL, recorded unresolved (never fetched)" if r["id"] == "travel-07"
                   else "kept by ingest; abusive/threatening user turns, must be dropped by `clean` (toxicity)"]
                  for r in extra]
    key_rows = [[f"`{b['file']}`", f"`{b['id']}`", b["what"], b["expect"][0], f"`{b['expect'][1]}`"] for b in broken]
    data_rows = ", ".join(f"`{d}` image {k + 1}" for d, k in sorted(data_urls))

    return f"""# raw/sample — the bundled demo corpus

**Generated — do not edit by hand.** Every file here except `make_sample.py` and `_gen/` is
written by

```
.venv/bin/python raw/sample/make_sample.py
```

which rewrites them byte-identically on every run (dialogue texts in `_gen/daily.py`,
`_gen/professional.py`, `_gen/special.py`; pictures drawn by `_gen/draw.py`; this README
by `_gen/readme.py`). All texts and pictures were written for this corpus.

It imitates MMRC (real user-assistant chats with images, 14 topics): {len(info)} well-formed
topic dialogues (6 per topic), plus {len(extra)} extra kept dialogues (one with a remote image,
four offensive ones), plus {len(broken)} deliberately broken or filtered records. `make demo`
runs every stage on it; the tests use the tables below as the answer key.

## Layout

```
native/part-a.jsonl          native format, daily-life topics (inline "topic")
native/part-b.jsonl          native format, professional-knowledge topics
openai/chats.jsonl           OpenAI chat format (string and list-of-parts content)
sharegpt/conversations.json  ShareGPT (a JSON list; <image> placeholders, "image"/"images")
chat_export/*.json           one dialogue per file: {{id, messages, metadata{{model, timestamp, user_id, language}}}}
images/                      the referenced pictures (160x120 PNG/JPEG, caption painted on)
labels/topics.csv            source_id,topic for every dialogue ingest keeps ({expected['expected_kept']} rows)
labels/pii.csv               every planted PII string and the turns it occurs in (answer key for clean)
labels/public_entities.csv   public names/places next to the PII that must survive clean
expected.json                what `mmrc-build ingest raw/sample` must report
.mmrcignore                  keeps expected.json from being read as a chat log
```

**Image paths are relative to the log file** that references them (raw/README.md); every
log file sits one folder below `raw/sample/`, so they read `../images/travel-01-1.jpg` and
resolve inside the raw folder. Three images are inline `data:image/png;base64,` URLs in
`openai/chats.jsonl` ({data_rows}); one is an `http://` URL (`travel-07`).
In the native files every other record writes images as `{{"path": ...}}` objects instead of
plain strings; in `sharegpt/conversations.json` every other record whose images all belong to
the first human turn omits the `<image>` placeholders (they attach to the first human turn).

## Records per file

{_table(["file", "kept dialogues", "broken / filtered", "records"], file_rows)}

`records_total` = {expected['records_total']} (a malformed line or file counts as one record).

## Well-formed topic dialogues per topic and format

{_table(["topic", *FORMAT_ORDER, "total"], topic_rows)}

Turns per dialogue (messages, user first, alternating): {", ".join(f"{k}: {v}" for k, v in sorted(turn_hist.items()))}.
Images per dialogue: {", ".join(f"{k}: {v}" for k, v in sorted(img_hist.items()))} — {with_img} of {len(info)}
({100 * with_img // len(info)}%) carry images, {sum(n_img)} images in all (mean {sum(n_img) / len(info):.2f}).
User turns name concrete entities a modality swap can replace (the Colosseum, the Eiffel Tower,
a margherita pizza, a Norwegian Forest cat, a Fender Stratocaster, the Great Wall, a monarch butterfly, ...).

## Planted PII (the `clean` stage must redact it)

Private people, emails, phone numbers, addresses, card/IBAN/SSN numbers, IPs and personal URLs,
in user *and* assistant turns. Test numbers only: card `4111 1111 1111 1111`, IBANs
`DE89 3704 0044 0532 0130 00` / `GB29 NWBK 6016 1331 9268 19`, SSNs `078-05-1120` / `219-09-9999`,
IPs from the documentation ranges (`203.0.113.0/24`, `198.51.100.0/24`) and private `192.168.x.x`.

{_table(["file", "record id", "topic", "planted entities", "dominant turn"], pii_rows)}

Every planted string, with the turns it occurs in, is listed in `labels/pii.csv`
(`source_id,turn,role,entity,text`; Presidio entity names). Public figures and places that must
be left intact are listed in `labels/public_entities.csv` (`source_id,turn,text`), e.g. Abraham Lincoln, Edward Everett and Martin
Luther King Jr. (`history-01`), Paris / the Eiffel Tower (`travel-02`), Roger Federer
(`sport-03`), Michael Jordan (`sport-06`), Lionel Messi (`sport-02`), General Wladyslaw Anders and
Monte Cassino (`history-03`, next to the private names Henryk Zielinski and Zofia Zielinska),
Jonathan Haidt (`society-06`). In `shopping-02` (turn 2) and `job-career-01` (turn 0) a turn is
almost entirely contact/payment details, so redaction guts it.

## EXIF to strip

{_table(["image", "dialogue", "camera (0x010F/0x0110)", "BodySerialNumber (0xA431)", "GPS (0x8825)", "DateTime"], exif_rows)}

## Extra kept dialogues

{_table(["file", "record id", "topic", "turns", "images", "why"], extra_rows)}

## Answer key: broken and filtered records

Each is otherwise well formed; the rest of its file must still ingest.

{_table(["file", "record id", "what is planted", "decision", "reason"], key_rows)}

Notes:
- `native-broken-json` and `openai-bad-utf8` cannot be parsed, so their id is only visible in
  the raw bytes; the ledger may key them by file and line instead.
- `{special_paths['SYMLINK']}` is a symlink to `{symlink_target}` created by the script (git
  stores it as a symlink); `{special_paths['ABS']}` and `{special_paths['TRAVERSAL']}` are
  written literally in the records.
- Duplicates: `openai-dup-food-01` has exactly the turns and images of `food-01`, and
  `sharegpt-near-history-05` the user turns of `history-05` with one word changed. Ingest keeps
  the first exact duplicate in (file path, line) order and, of a near-duplicate pair, the one
  with the smaller dialogue_id; the copies are placed (and `history-05` worded) so that under
  both rules the copy is the one dropped and `food-01` / `history-05` are kept.

## expected.json

```json
{json.dumps(expected, indent=2)}
```

## questions.jsonl (evaluation questions)

**Hand-written, not generated**: `make_sample.py` does not write or delete `questions.jsonl` or
`check_questions.py` (but it does rewrite this README and `.mmrcignore`, see below).

`questions.jsonl` holds the MMRC-style evaluation questions for the demo corpus: exactly six per
dialogue, one per ability (IE information extraction, CR cross-turn reasoning, IU information
update, IM image management, MR memory recall, AR answer refusal), for the 85 of the 89 dialogues
ingest keeps that are not offensive (`offensive-01`..`04` get none; `clean` removes them) — 510 questions.
One JSON object per line, fields as in the Questions section of DESIGN.md:

`source_id, question_id` (`<source_id>-<ability>`), `ability, format` (open | mcq | tf),
`question, choices` (mcq only; the answer is one of them verbatim), `answer` (tf: `true` / `false`;
AR: what a good model should say, e.g. "The conversation does not say ..."), `gold_items` (IE only),
`gold_images` (0-based indices into the dialogue's images in order of appearance, turn by turn),
`gold_turns` (turn `index` values holding the evidence, including the turn of every gold image;
empty only for AR), `should_refuse` (true for AR only), `annotators` (`["mmrc-build-team"]`),
`review` (`accepted`, or `no-image-dialogue`).

- Formats: 311 open, 122 mcq, 77 tf (61 / 24 / 15 %); IE and AR are all open.
- The 14 dialogues without images (`biology-05, computer-05, economy-05, film-05, food-05, game-06,
  history-05, house-05, job-career-05, music-05, shopping-04, society-04, sport-04, travel-05`)
  cannot have a real IM question: their IM line has `gold_images: []` and `review:
  "no-image-dialogue"` and is a placeholder awaiting a decision.
- Questions and answers never quote the planted PII of `labels/pii.csv` (they say "the user's
  flatmate", "the advisor", ...), so they stay answerable after `clean` redacts it.
- Indices are those of `mmrc-build ingest raw/sample` (turns as ingested; images flattened in turn
  order, the unresolved `http://` image of `travel-07` included as image 0).

Check it with

```
.venv/bin/python raw/sample/check_questions.py            # ingests raw/sample to a temp folder first
.venv/bin/python raw/sample/check_questions.py --data DIR # or use an existing ingest output
```

which checks the six abilities per dialogue, index ranges, mcq/tf answers, should_refuse, unique
ids, and also runs the builder's own importer checks (`builder.questions.validate`, strict
abilities). `.mmrcignore` lists `questions.jsonl` so ingest does not read it as a chat log (ingest
still reports 107 records in, 89 kept).
"""

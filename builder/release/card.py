"""The dataset card: a YAML header the Hub accepts, and a readable body.

The header is built with huggingface_hub's ``DatasetCardData`` and datasets' own
``MetadataConfigs`` / ``DatasetInfosDict`` writers, so ``load_dataset`` reads the
configs and features back exactly as written. :func:`check_card` re-reads a card the
way the Hub and ``datasets`` do and fails on anything they would reject.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field

from builder.errors import ValidationError
from builder.records import ABILITIES, QUESTION_FORMATS
from builder.release import loading
from builder.release.layout import SPLIT, shard_glob

TASK_CATEGORIES = ("visual-question-answering", "question-answering", "image-text-to-text", "text-generation")
SIZE_CATEGORIES = ((1_000, "n<1K"), (10_000, "1K<n<10K"), (100_000, "10K<n<100K"), (1_000_000, "100K<n<1M"),
                   (10_000_000, "1M<n<10M"))
# Licence ids the Hub knows that fit a dataset of user chat logs; extend when needed.
LICENSES = ("odc-by", "cc-by-4.0", "cc-by-nc-4.0", "cc-by-sa-4.0", "cc-by-nc-sa-4.0", "apache-2.0", "mit", "other")
CITATION = """@article{xue2025mmrc,
  title   = {MMRC: A Large-Scale Benchmark for Understanding Multimodal Large Language Model in
             Real-World Conversation},
  author  = {Xue, Haochen and Tang, Feilong and Hu, Ming and others},
  journal = {arXiv preprint arXiv:2502.11903},
  year    = {2025}
}"""


@dataclass(frozen=True)
class Facts:
    """What the card says about where the data came from and how it was filtered."""

    sources: list[dict] = field(default_factory=list)  # sources.source_table rows
    sources_file: bool = False  # were licences given (--sources)?
    toxicity: dict | None = None  # provenance.toxicity_backend
    cleaned: bool = False  # is a clean stage in the lineage?
    images: dict | None = None  # sources.image_row: where the modality-swap pictures came from
    pii: dict | None = None  # provenance.pii: backend, entities, action (None: no clean stage)
    topic_model: dict | None = None  # provenance.topic_model: the classifier's k-fold figures


def size_category(n: int) -> str:
    return next((label for limit, label in SIZE_CATEGORIES if n < limit), "n>10M")


def task_categories(images: int, questions: int) -> list[str]:
    """Only what the release holds: questions about images, questions, conversations with images, text."""
    if questions:
        return ["visual-question-answering", "question-answering"] if images else ["question-answering"]
    return ["image-text-to-text"] if images else ["text-generation"]


def card_data(name: str, version: str, license_id: str, languages: list[str], configs: dict,
              images: int = 1, questions: int = 1):
    """``configs`` maps config name -> (features, num_examples, download_size); ``images`` and
    ``questions`` (counts) decide the task categories and tags, so the header claims nothing absent."""
    from datasets import DatasetInfo, SplitDict, SplitInfo
    from datasets.info import DatasetInfosDict
    from datasets.utils.metadata import MetadataConfigs
    from huggingface_hub import DatasetCardData

    data = DatasetCardData(
        license=license_id, language=languages or None, pretty_name=f"{name} {version}",
        multilinguality=("multilingual" if len(languages) > 1 else "monolingual") if languages else None,
        task_categories=task_categories(images, questions), size_categories=[size_category(configs["default"][1])],
        tags=[*(["multimodal"] if images else []), "dialogue", *(["memory", "benchmark"] if questions else []), "mmrc"],
    )
    MetadataConfigs({
        cfg: {"data_files": [{"split": SPLIT, "path": shard_glob(cfg)}],
              **({"default": True} if cfg == "default" else {})}
        for cfg in configs
    }).to_dataset_card_data(data)
    infos = {}
    for cfg, (features, n, download) in configs.items():
        splits = SplitDict()
        splits.add(SplitInfo(name=SPLIT, num_examples=n, num_bytes=download))
        infos[cfg] = DatasetInfo(features=features, splits=splits, download_size=download, dataset_size=download)
    DatasetInfosDict(infos).to_dataset_card_data(data)
    return data


def check_card(text: str, files: list[str] | None = None) -> None:
    """Parse ``text`` as the Hub and ``datasets`` would; raise :class:`ValidationError` if it fails."""
    import fnmatch

    from datasets.info import DatasetInfosDict
    from datasets.utils.metadata import MetadataConfigs
    from huggingface_hub import DatasetCard, DatasetCardData

    try:
        card = DatasetCard(text)
        configs = MetadataConfigs.from_dataset_card_data(card.data)
        infos = DatasetInfosDict.from_dataset_card_data(card.data)
    except Exception as exc:  # the parsers raise many types
        raise ValidationError(f"dataset card YAML does not parse ({exc}); fix builder/release/card.py") from exc
    assert isinstance(card.data, DatasetCardData)  # what a DatasetCard's YAML is read into
    problems = []
    if card.data.license not in LICENSES:
        problems.append(f"license {card.data.license!r} is not one of {', '.join(LICENSES)}")
    problems += [f"unknown task category {t!r}" for t in card.data.task_categories or [] if t not in TASK_CATEGORIES]
    known_sizes = {label for _, label in SIZE_CATEGORIES} | {"n>10M"}
    problems += [f"unknown size category {s!r}" for s in card.data.size_categories or [] if s not in known_sizes]
    if configs.get_default_config_name() != "default":
        problems.append("no default config")
    for cfg, meta in configs.items():
        if cfg not in infos or infos[cfg].features is None:
            problems.append(f"config {cfg} has no dataset_info features")
        for entry in meta.get("data_files", []):
            if files is not None and not any(fnmatch.fnmatch(f, entry["path"]) for f in files):
                problems.append(f"config {cfg}: no file matches {entry['path']}")
    if problems:
        raise ValidationError("dataset card is invalid: " + "; ".join(problems))


def first_screen(text: str, width: int = 100) -> list[str]:
    """What `release` prints of the card it wrote: the header fields a Hub page shows first (licence,
    languages, task categories) and the body up to its first section (title, what it is, warnings)."""
    import textwrap

    import yaml

    _, header, body = text.split("---\n", 2)
    meta = yaml.safe_load(header) or {}
    lines = [f"licence: {meta.get('license')}; languages: {', '.join(meta.get('language') or []) or 'none claimed'}; "
             f"task categories: {', '.join(meta.get('task_categories') or [])}"]
    top = body.split("\n## ", 1)[0].strip()
    for para in top.split("\n\n"):
        lines += textwrap.wrap(" ".join(para.split()), width) + [""]
    return lines[:-1]


def _table(header: list[str], rows: list[list]) -> str:
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(str(c) for c in row) + " |" for row in rows]
    return "\n".join(lines)


def _funnel(steps: list[dict]) -> str:
    rows = []
    for step in steps:
        drops = ", ".join(f"{reason.split(':', 1)[1]} {n}" for reason, n in sorted(step["dropped"].items()))
        rows.append([step["step"], step["dialogues"], drops or "—"])
    return _table(["step", "dialogues", "removed (reason n)"], rows)


def _languages(counts: dict[str, int]) -> str:
    """Most frequent first; ``und``: too short or mixed to tell."""
    ranked = sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))
    return ", ".join(f"{code} {n}" for code, n in ranked) or "—"


def _variants_note(swap_step: dict | None, stats: dict) -> str:
    if swap_step is None:
        return ""
    return (f" The swap stage added {swap_step['variants_added']} modality-swap variant(s) beside them; "
            f"{stats['modality_swap_variants']} (those whose original is released) are in the `modality_swap` config.")


def _sources(facts: Facts) -> str:
    rows = [[r["name"], r["dialogues"], ", ".join(r["formats"]) or "—",
             "—" if r["records"] is None else f"{r['records']} in {r['files']} file(s)",
             f"`{r['licence']}`" if r["licence"] else "**not stated**", r["url"] or "—"] for r in facts.sources]
    table = _table(["source dataset", "dialogues released", "format", "records ingested", "licence", "url"], rows)
    img = facts.images
    if img is not None:
        where = f"the {img['kind']} `{img['name']}`" if img["name"] else "a source the swap stage did not record"
        licence = f"`{img['licence']}`" if img["licence"] else "**not stated**"
        url = f" ({img['url']})" if img["url"] else ""
        table += (f"\n\nThe pictures of the {img['variants']} modality-swap variant(s) come from {where}, "
                  f"licence {licence}{url}.")
    if facts.sources_file:
        return table
    return (table + "\n\n**The licences of the source datasets were not stated** when this release was built "
            "(`mmrc-build release --sources FILE`); check each source's terms before using the data.")


def _topic_model(facts: Facts) -> str:
    """How good the topics are, as measured: k-fold accuracy with its CI, F1 per class, Other recall."""
    q = facts.topic_model
    if not q or q.get("accuracy") is None:
        return ""
    lo, hi = q.get("accuracy_ci95") or [None, None]
    trained = f"`{q['trained_on']}` (shipped with mmrc-build)" if q.get("trained_on") else "the user's labels"
    f1 = ", ".join(f"{k} {v:.2f}" for k, v in (q.get("f1") or {}).items() if v is not None)
    text = (f"\n\nThe topics come from a classifier ({q.get('embedder')} embeddings, "
            f"{q.get('head') or 'a two-layer MLP'}) trained on "
            f"{q['n']} hand-labelled dialogues in {trained}. On those labels, {q['folds']}-fold cross-validation gives "
            f"accuracy {q['accuracy']:.3f} (95% CI {lo:.3f}–{hi:.3f}) and macro-F1 {q['macro_f1']:.3f}; F1 per "
            f"class: {f1}.")
    if q.get("coverage") is not None and q.get("accuracy_kept") is not None:
        text += (f" It leaves a dialogue without a topic below a calibrated score of {q['threshold']}: out of fold "
                 f"that keeps {q['coverage']:.0%} of the labelled dialogues at {q['accuracy_kept']:.1%} accuracy")
        if q.get("other_recall") is not None:
            text += (f", and {q['other_recall']:.0%} of the dialogues that fit none of the 14 topics get none "
                     "(Other recall)")
        text += ". These figures are measured on the classifier's own training sources; on other chat they are lower."
    return text


def _no_topic(stats: dict) -> str:
    n = stats.get("no_topic", 0)
    if not n or not stats["topics"]:
        return ""
    return f"; no topic: {n} (none of the 14 topics, too unsure, or a language the classifier does not read)"


def _licence(licence: dict) -> str:
    named = ", ".join(f"`{x}`" for x in licence["licences"])
    why = {"given": "(chosen with `--license` when the release was built).",
           "shared": "(the licence every listed source carries).",
           "mixed": f"(`other`: the sources carry different licences, {named}; each applies to its part).",
           "unstated": "(`other`: **the licences of the sources were not all stated**; check each source's "
                       "terms before using the data)."}[licence["why"]]
    return f"Released under `{licence['id']}` {why}"


def _toxicity_notice(facts: Facts) -> str:
    tox = facts.toxicity
    if tox is None:
        return "> **No toxicity filter is recorded in this data's lineage**: toxic conversations may be present.\n\n"
    if tox["lexicon"]:
        return (f"> **Toxicity was screened with a word list (the `lexicon` backend, {tox['version']}), not a "
                "trained classifier.** It drops dialogues that contain listed words and misses toxicity "
                "phrased without them; review the data before showing it to people.\n\n")
    return ""


def _pii(facts: Facts) -> str:
    """What the PII step did, with which backend, and its measured limits (builder/clean/limits.py)."""
    from builder.clean import limits

    pii = facts.pii
    if pii is None or not pii["on"]:
        return "**PII redaction did not run** on this data (`clean --no-pii`): personal data may be present."
    how = {"placeholder": "replaced by a placeholder naming its kind (`<PERSON>`)",
           "surrogate": "replaced by a made-up value of the same kind",
           "hash": "replaced by a salted hash"}.get(pii["action"], f"handled with `{pii['action']}`")
    kinds = ", ".join(pii["entities"]) or "the default kinds"
    return (f"Personal data in the text was searched for automatically ({kinds}) with "
            f"{pii['backend'] or 'the clean stage'} (named-entity recognition on English turns, pattern finders "
            f"on every turn) and what was found was {how}. **This is detection with measured misses, not a "
            "guarantee.** On data the rules were not tuned on (" + limits.HELD_OUT + "; tuned on "
            + limits.TUNED_ON + "):\n\n" + "\n".join(limits.card_lines()) + "\n\n"
            "Review the data before showing it to people.")


def _ethics(facts: Facts, images: int = 1) -> str:
    tox = facts.toxicity
    if not facts.cleaned:
        done = ("No `clean` stage was found in this data's lineage, so PII redaction, EXIF stripping and "
                "toxicity filtering cannot be confirmed for this release.")
    else:
        how = "no toxicity filter ran"
        if tox:
            how = f"toxic dialogues were dropped by `{tox['name']}` {tox['version'] or ''}".rstrip()
            how += " (a word list: see the note at the top)" if tox["lexicon"] else ""
        exif = "Image metadata (EXIF) was stripped; " if images else ""
        done = f"{_pii(facts)}\n\n{exif}{how if exif else how[0].upper() + how[1:]}."
    return (f"{done} User ids are salted hashes (the salt is never released). If a conversation of yours is in "
            "this dataset and you want it removed, open an issue with its `dialogue_id` or original conversation "
            "id: it is removed in the next version (`--remove-ids`), and stays removed in every later one. Older "
            "tags still contain it; they can be withdrawn on request.")


def _pipeline(stages: list[dict]) -> str:
    if not stages:
        return "No stage manifests were found beside the data folder."
    out = []
    for stage in stages:
        models = ", ".join(f"`{m.get('name')}` {m.get('version') or ''}".strip() for m in stage["models"]) or "none"
        config = json.dumps(stage["config"], sort_keys=True)
        out.append(f"- **{stage['stage']}** — models: {models}; config: `{config}`")
    return "\n".join(out)


def _questions_table(rows: list[list]) -> str:
    return "Questions per ability and format (MMRC Table 2):\n\n" + _table(["ability", *QUESTION_FORMATS, "total"], rows)


def _intro(stats: dict) -> str:
    """What this release is, said only as far as it is true (images? questions?)."""
    abilities = ", ".join(f"{k} ({v})" for k, v in ABILITIES.items())
    n, images, questions = stats["dialogues"], stats["images"], stats["questions"]
    if images and questions:
        return (f"An MMRC-style benchmark of {n} real multimodal user–assistant conversations (Xue et al., 2025): "
                f"each dialogue keeps its {images} images between them and comes with questions ({questions} in "
                f"all) that probe the abilities of a model that has to remember a long conversation — {abilities}.")
    what = f"{n} real user–assistant conversations"
    variants = stats.get("modality_swap_variants", 0)
    has = ("with their images" if images else "**text only (no images)**"
           + (f" (the `modality_swap` config adds {variants} variant(s) with a picture in place of a named thing)"
              if variants else ""))
    lacks = (f"with {questions} questions, not yet one for every ability" if questions else
             "**with no questions yet**: it is not yet a benchmark; the MMRC abilities "
             f"({abilities}) are asked by questions written later and attached with `mmrc-build questions import`")
    return f"{what}, {has}, prepared with the MMRC pipeline (Xue et al., 2025), {lacks}."


def render(name: str, version: str, header_yaml: str, stats: dict, steps: list[dict], stages: list[dict],
           configs: list[str], licence: dict, previous: str | None, facts: Facts | None = None,
           repo_id: str | None = None) -> str:
    """The whole README.md. ``licence`` is :func:`.sources.release_licence`'s answer."""
    facts = facts or Facts()
    images = stats["images_per_dialogue"]
    spread = ", ".join(f"{k}: {v}" for k, v in sorted(images["histogram"].items(), key=lambda kv: int(kv[0])))
    swap_step = next((s for s in steps if "variants_added" in s), None)
    abilities = stats["questions_per_ability_format"]
    q_rows = [[f"{a} ({ABILITIES[a]})", *[abilities[a][f] for f in QUESTION_FORMATS], stats["questions_per_ability"][a]]
              for a in ABILITIES]
    q_rows.append(["**total**", *[stats["questions_per_format"][f] for f in QUESTION_FORMATS], stats["questions"]])
    summary = _table(["", "value"], [
        ["dialogues", stats["dialogues"]], ["questions", stats["questions"]],
        ["avg. turns per dialogue", stats["avg_turns_per_dialogue"]],
        ["avg. images per dialogue", stats["avg_images_per_dialogue"]],
        ["images per dialogue: min / median / max", f"{images['min']} / {images['median']:g} / {images['max']}"],
        ["dialogues by number of images", spread or "—"],
        ["images (unique)", f"{stats['images']} ({stats['unique_images']})"],
        ["avg. words per user / assistant turn (a CJK character counts as a word)",
         f"{stats['avg_words_per_turn']['user']} / {stats['avg_words_per_turn']['assistant']}"],
        ["modality-swap variants (in `modality_swap`)", stats["modality_swap_variants"]],
        ["languages (detected in the text)", _languages(stats["languages"])],
    ])
    return f"""---
{header_yaml.strip()}
---

# {name} v{version}

{_intro(stats)}
Built with `mmrc-build`{f"; previous version: v{previous} (see CHANGELOG.md)" if previous else ""}.

{_toxicity_notice(facts)}## Loading

{loading.section(name, version, configs, repo_id)}

Configs: `default` — one row per dialogue, its turns (with embedded `datasets.Image` images where a turn has
them) and its questions nested; `questions` — one row per question; `modality_swap` (when present) — text-to-image swap
variants of released dialogues (`variant_of` names the original), carrying the original's questions.
A local copy is a git repository: every version is an annotated tag `vX.Y.Z`.

## From raw logs to this release

{_funnel(steps)}

The steps count original dialogues.{_variants_note(swap_step, stats)}

## Source datasets

{_sources(facts)}

## Statistics

{summary}

{_questions_table(q_rows) if stats["questions"] else "No questions are attached to this release."}

![turn lengths](figures/turn_lengths.png)
![topics](figures/topics.png)

Topics: {", ".join(f"{t} {n}" for t, n in stats["topics"].items()) or "not classified"}{_no_topic(stats)}.{_topic_model(facts)}

## Pipeline: models and thresholds

{_pipeline(stages)}

## Licence

{_licence(licence)} The dialogues come from the source datasets listed above{" (and the pictures of swap variants from the image source named there)" if facts.images else ""}; their terms, and the terms of the models that
wrote the assistant turns, still apply to the text{" and images" if stats["images"] else ""}. Use for research and evaluation; do
not use it to identify or contact people.

## Ethics and takedown

{_ethics(facts, stats["images"] + stats.get("modality_swap_variants", 0))}

## Citation

```bibtex
{CITATION}
```
"""

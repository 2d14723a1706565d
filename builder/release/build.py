"""Build ``release/<name>-vX.Y.Z/``: shards, card, figures, stats, changelog, checksums, tag.

Everything is written into ``.<name>-vX.Y.Z.partial`` (a clone of the previous version's
repository), committed and tagged there, and renamed into place only when complete.
"""

from __future__ import annotations

import json
import shutil
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Callable

import polars as pl

from builder import io
from builder.errors import ConfigError, ValidationError
from builder.images import ImageStore
from builder.locks import FolderLock
from builder.progress import Progress
from builder.questions.importer import load_questions
from builder.questions.schema import QUESTION_FIELDS, QUESTIONS_SCHEMA
from builder.questions.validate import DialogueIndex
from builder.records import ABILITIES, QUESTION, conform, hf_features
from builder.release import (card, changelog, figures, gitrepo, layout, loading, provenance, select, sources,
                             stats)
from builder.release.variants import repoint_questions
from builder.release.shards import ShardConfig, batches, question_features, write_shards


@dataclass(frozen=True)
class ReleaseConfig:
    version: str
    name: str = "mmrc"
    license: str | None = None  # None: the licence all listed sources share, else "other"
    allow_missing_abilities: bool = False
    only_annotated: bool = False  # release only dialogues with questions for all six abilities
    languages: tuple[str, ...] = ()  # ISO 639-1 codes to release ("und": unknown); empty: all
    sources: str | None = None  # the sources file (name, url, licence per source dataset)
    repo_id: str | None = None  # the Hub repository the card's loading example names (None: a local folder)
    shards: ShardConfig = field(default_factory=ShardConfig)

    def __post_init__(self):
        select.check_language_codes(self.languages)
        loading.check_repo_id(self.repo_id)
        if self.only_annotated and self.allow_missing_abilities:
            raise ConfigError("--only-annotated and --allow-missing-abilities contradict each other; pass one")


def read_removals(path: Path | None) -> list[str]:
    """Ids asking for removal, one per line (dialogue_id or the source's conversation id)."""
    if path is None:
        return []
    text = io.read_user_text(path, "removal list", "pass a UTF-8 text file with one id per line")
    lines = (line.split("#", 1)[0].strip() for line in text.splitlines())
    return sorted({line.split(",")[0].strip() for line in lines if line})


def resolve_removals(requests: list[str], index: DialogueIndex) -> tuple[set[str], list[str]]:
    removed, unmatched = set(), []
    for entry in requests:
        if entry in index.by_id:
            removed.add(entry)
        elif entry in index.by_source_id:
            removed.update(d.dialogue_id for d in index.by_source_id[entry])
        else:
            unmatched.append(entry)
    return removed, unmatched


def _nest(dialogues: pl.DataFrame, questions: pl.DataFrame, on: str) -> pl.DataFrame:
    grouped = questions.group_by("dialogue_id", maintain_order=True).agg(
        pl.struct(list(QUESTION_FIELDS)).cast(QUESTION).alias("questions"))
    out = dialogues.drop("questions").join(grouped, left_on=on, right_on="dialogue_id", how="left",
                                           maintain_order="left", suffix="_q")
    return conform(out.with_columns(pl.col("questions").fill_null([])))


def _missing_abilities(frame: pl.DataFrame) -> list[str]:
    have = frame.select("dialogue_id", "source_id",
                        pl.col("questions").list.eval(pl.element().struct.field("ability")))
    out = []
    for did, source_id, abilities in have.iter_rows():
        missing = [a for a in ABILITIES if a not in set(abilities or [])]
        if missing:
            out.append(f"{did} (source_id {source_id}) lacks {','.join(missing)}")
    return out


def _field_types(features) -> dict[str, str]:
    return {name: repr(feature) for name, feature in features.items()}


def _choose(originals: pl.DataFrame, removed: set[str], qdf: pl.DataFrame, config: ReleaseConfig,
            log: Callable[[str], None]) -> tuple[pl.DataFrame, dict[str, int], int]:
    """The released originals (questions nested), what each filter left out, and how many
    recorded languages the text contradicted."""
    pool, relabelled = select.detect_languages(
        originals.filter(~pl.col("dialogue_id").is_in(sorted(removed))).sort("dialogue_id"))
    pool, off_language = select.by_language(pool, config.languages)
    kept = _nest(pool, qdf, "dialogue_id")
    drops = {"dropped:takedown": originals.height - pool.height - len(off_language),
             "dropped:language_not_selected": len(off_language)}
    if config.only_annotated:
        kept, lacking = select.fully_annotated(kept)
        drops["dropped:not_annotated"] = len(lacking)
        if lacking:
            log(f"release: {len(lacking)} dialogue(s) left out, not all six abilities annotated "
                f"(e.g. {', '.join(lacking[:3])})")
        if not kept.height:
            raise ValidationError(f"none of the {len(lacking)} dialogue(s) has questions for all six abilities; "
                                  "add questions or release without --only-annotated")
    return kept, {reason: n for reason, n in drops.items() if n}, relabelled


def build_release(data: Path, questions: Path | None, releases: Path, config: ReleaseConfig,
                  remove_ids: Path | None = None, log: Callable[[str], None] = lambda m: None,
                  quiet: bool = True) -> dict:
    version = layout.Version.parse(config.version)
    layout.check_name(config.name)
    # Absolute paths from here on: git runs inside the releases folder (a relative target would
    # land in releases/releases/...), and the log names folders a user can find.
    data, releases = Path(data).absolute(), Path(releases).absolute()
    questions = Path(questions).absolute() if questions is not None else None
    io.require_utf8_path(releases, "releases folder")  # before anything is made in it
    Path(releases).mkdir(parents=True, exist_ok=True)
    with FolderLock(releases / f"{config.name}-releases"):  # one release build per name at a time
        return _build(data, questions, releases, config, version, remove_ids, log, quiet)


def _build(data: Path, questions: Path | None, releases: Path, config: ReleaseConfig, version,
           remove_ids: Path | None, log: Callable[[str], None], quiet: bool = True) -> dict:
    target, previous = layout.plan(releases, config.name, version)
    data_manifest = io.require_finished(data, "data")
    listed = sources.read_sources(Path(config.sources)) if config.sources else None
    index = DialogueIndex.from_folder(data)
    prev_manifest = layout.read_manifest(previous) if previous else {}
    requests = sorted(set(prev_manifest.get("removal_requests", [])) | set(read_removals(remove_ids)))
    removed, unmatched = resolve_removals(requests, index)
    for entry in unmatched:
        log(f"warning: removal request {entry!r} matches no dialogue in {data} (kept on the list)")

    if questions is not None:
        qdf, report = load_questions(questions, index)
        q_info = {"file": Path(questions).name, "sha256": io.sha256_file(Path(questions))}
    else:
        qdf, q_info = pl.DataFrame(schema=QUESTIONS_SCHEMA), None
    qdf = qdf.filter(~pl.col("dialogue_id").is_in(sorted(removed)))
    scan = io.scan_dialogues(data)
    originals = scan.filter(pl.col("variant_of").is_null()).collect()
    kept, drops, relabelled = _choose(originals, removed, qdf, config, log)
    missing = _missing_abilities(kept)
    if missing and not config.allow_missing_abilities:
        raise ValidationError(
            f"{len(missing)} dialogue(s) lack some of the six abilities (e.g. {'; '.join(missing[:3])}); "
            "add their questions or pass --allow-missing-abilities")
    variants = repoint_questions(_nest(scan.filter(pl.col("variant_of").is_in(kept["dialogue_id"].implode()))
                                       .collect().sort("dialogue_id"), qdf, "variant_of"), kept)
    variants = variants.drop("language").join(kept.select(pl.col("dialogue_id").alias("variant_of"), "language"),
                                              on="variant_of", how="left", maintain_order="left").select(variants.columns)
    qrows = qdf.join(kept.select("dialogue_id", "topic", "topic_group"), on="dialogue_id", how="inner",
                     maintain_order="left").select("dialogue_id", "topic", "topic_group", *QUESTION_FIELDS)
    chain = provenance.manifests(data)
    name_of = sources.namer(provenance.ingest_files(chain), provenance.raw_folder_name(chain))
    released_from = dict(kept.group_by(pl.col("source").map_elements(name_of, return_dtype=pl.String))
                         .len().iter_rows())
    source_rows = sources.source_table(released_from, provenance.ingest_files(chain), listed, config.sources,
                                       name_of)
    toxicity = provenance.toxicity_backend(chain)
    images_row = sources.image_row(provenance.image_source(chain), listed, config.sources, variants.height)
    licence = sources.release_licence(config.license, source_rows, images_row, card.LICENSES)
    cleaned = any(m.get("stage") == "clean" for m in chain)
    created = scan.filter(pl.col("variant_of").is_not_null()).select(pl.len()).collect().item()

    if previous:
        old_ids = changelog.released_ids(previous, "default", "dialogue_id")
        old_q = changelog.released_ids(previous, "questions", "question_id")
        old_schema = json.loads((previous / layout.STATS).read_text()).get("schema", {})
    else:
        old_ids, old_q, old_schema = set(), set(), {}
    # A takedown of something released before must not stay reachable through the git history
    # (the previous tags live in the clone): such a version starts a fresh repository.
    history = _history(previous, prev_manifest, removed & old_ids, releases, config.name, log)

    partial = Path(releases) / f".{target.name}.partial"
    shutil.rmtree(partial, ignore_errors=True)
    gitrepo.start(partial, previous if history["mode"] == "continued" else None)
    store, shard_cfg = ImageStore(data), config.shards
    features = {"default": hf_features(), "questions": question_features()}
    if variants.height:
        features["modality_swap"] = hf_features()
    frames = {"default": kept, "questions": qrows, "modality_swap": variants}
    configs, shard_files = {}, {}
    for cfg, feats in features.items():
        rows = _counted(batches(frames[cfg], store if cfg != "questions" else None, shard_cfg),
                        Progress(f"release {cfg}", frames[cfg].height, "rows", quiet=quiet))
        paths = write_shards(rows, feats, partial, cfg, shard_cfg)
        shard_files[cfg] = [p.relative_to(partial).as_posix() for p in paths]
        configs[cfg] = (feats, frames[cfg].height, sum(p.stat().st_size for p in paths))
        log(f"release: {cfg}: {frames[cfg].height} rows in {len(paths)} shard(s)")

    table = stats.table2(kept, qrows, variants.height)
    if table["needs_review"]:
        log(f"warning: {table['needs_review']} question(s) are marked needs_review (annotators disagree)")
    steps = stats.funnel(data, originals.height, drops, kept.height, created)
    (partial / layout.FIGURES_DIR).mkdir()
    figures.turn_length_histogram(stats.turn_table(kept), partial / layout.FIGURES_DIR / "turn_lengths.png")
    figures.topic_donut(table["topics"], partial / layout.FIGURES_DIR / "topics.png")
    schema = {cfg: _field_types(f) for cfg, f in features.items()}
    stats_doc = {"version": str(version), **table, "funnel": steps, "schema": schema, "sources": source_rows,
                 "toxicity_backend": toxicity}
    io.write_text_atomic(partial / layout.STATS, json.dumps(stats_doc, indent=2, sort_keys=True) + "\n")

    prev_version = prev_manifest.get("version")
    entry = changelog.entry(str(version), prev_version, set(kept["dialogue_id"]), old_ids,
                            set(qrows["question_id"]), old_q, removed, changelog.schema_changes(old_schema, schema))
    if history["mode"] == "fresh" and previous:
        entry += (f"- history: a fresh git history ({history['reason']}): no earlier version is reachable from "
                  "this one; earlier versions were withdrawn\n")
    changelog.write(partial, entry, previous)

    languages = sorted(code for code in table["languages"] if code != select.UNDETERMINED)
    header = card.card_data(config.name, str(version), licence["id"], languages, configs,
                            images=table["images"] + variants.height, questions=table["questions"]).to_yaml()
    text = card.render(config.name, str(version), header, table, steps, provenance.stage_chain(data),
                       list(configs), licence, prev_version,
                       card.Facts(sources=source_rows, sources_file=listed is not None, toxicity=toxicity,
                                  cleaned=cleaned, images=images_row, pii=provenance.pii(chain),
                                  topic_model=provenance.topic_model(chain)),
                       repo_id=config.repo_id)
    files = [f for fs in shard_files.values() for f in fs]
    card.check_card(text, files)
    (partial / layout.CARD).write_text(text)

    epoch = gitrepo.commit_epoch(version)
    manifest = {
        "stage": "release", "name": config.name, "version": str(version), "tag": version.tag,
        "previous": prev_version, "config": asdict(config), "repo_id": config.repo_id,
        "inputs": {"data": {"stage": data_manifest.get("stage"), "content_hash": data_manifest.get("output_hash")},
                   "questions": q_info,
                   "sources": ({"file": Path(config.sources).name, "sha256": io.sha256_file(Path(config.sources))}
                               if config.sources else None)},
        "removal_requests": requests, "removed_ids": sorted(removed & set(originals["dialogue_id"])),
        "rows": {"in": originals.height, "kept": kept.height, "dropped": originals.height - kept.height,
                 "out": kept.height, "reasons": drops},
        "languages": {"selected": list(config.languages), "detected_differs_from_recorded": relabelled},
        "sources": source_rows, "image_source": images_row, "licence": licence, "toxicity_backend": toxicity,
        "configs": {cfg: {"rows": n, "shards": shard_files[cfg]} for cfg, (_, n, _) in configs.items()},
        "missing_abilities": len(missing), "commit_epoch": epoch, "history": history,
    }
    io.write_text_atomic(partial / layout.MANIFEST, json.dumps(manifest, indent=2, sort_keys=True) + "\n")
    write_sums(partial)
    commit = gitrepo.commit_and_tag(partial, version.tag, f"Release {version.tag}: {kept.height} dialogues, "
                                    f"{qrows.height} questions", epoch)
    partial.rename(target)
    log(f"release: {target} tagged {version.tag} ({commit[:12]})")
    return {**manifest, "path": str(target), "commit": commit}


def _history(previous: Path | None, prev_manifest: dict, newly_removed: set, releases: Path, name: str,
             log: Callable[[str], None]) -> dict:
    """``continued`` (a clone of the previous release's repository) or ``fresh`` (a takedown of
    dialogues that an earlier version published: no earlier tag is reachable from this one)."""
    if previous is None:
        return {"mode": "fresh", "reason": "first version"}
    if not newly_removed:
        return {"mode": "continued", "reason": None}
    older = sorted(p.name for p in layout.existing_versions(releases, name).values())
    log(f"warning: takedown of {len(newly_removed)} dialogue(s) published before: this version starts a fresh "
        f"git history; earlier release folders still hold them — delete {', '.join(older)} in {releases} (and "
        "publish with "
        "--rewrite-history so the Hub drops the earlier tags)")
    return {"mode": "fresh", "reason": f"takedown of {len(newly_removed)} dialogue(s) released in "
            f"{prev_manifest.get('version')} or before", "earlier_versions_hold_them": older}


def _counted(batches, progress):
    """Pass the batches through, counting their rows on ``progress`` (a bar or periodic lines)."""
    for batch in batches:
        progress.update(len(batch))
        yield batch
    progress.close()


def write_sums(folder: Path) -> None:
    files = sorted(p for p in folder.rglob("*") if p.is_file() and ".git" not in p.relative_to(folder).parts
                   and p.name != layout.SUMS)
    lines = [f"{io.sha256_file(p)}  {p.relative_to(folder).as_posix()}" for p in files]
    (folder / layout.SUMS).write_text("\n".join(lines) + "\n")

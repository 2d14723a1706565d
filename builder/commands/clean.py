"""`mmrc-build clean`: PII scrubbing (Presidio), toxic-dialogue removal (Detoxify), EXIF stripping."""

from __future__ import annotations

from pathlib import Path

import click

from builder.commands.common import executor_options, executor_spec
from builder.clean.config import (ACTIONS, ALL_ENTITIES, COHERENCE_POLICIES, DEFAULT_ENTITIES,
                                  DEFAULT_TOXICITY_THRESHOLDS, CleanConfig, parse_pairs)
from builder.errors import ConfigError
from classifiers.toxicity import BACKENDS

THRESHOLD_HELP = ", ".join(f"{k}={v}" for k, v in DEFAULT_TOXICITY_THRESHOLDS)


@click.command("clean")
@click.argument("input_dir", required=False, type=click.Path(path_type=Path, file_okay=False))
@click.option("-o", "--output", "output_dir", type=click.Path(path_type=Path, file_okay=False),
              help="Output folder (a finished stage folder is written here atomically).")
@click.option("--entities", default=",".join(DEFAULT_ENTITIES), show_default=True,
              help=f"Comma-separated PII entities to scrub; available: {', '.join(ALL_ENTITIES)}.")
@click.option("--pii-threshold", "pii_thresholds", multiple=True, metavar="ENTITY=SCORE",
              help="Minimum Presidio score for an entity (repeatable), e.g. PERSON=0.9.")
@click.option("--action", type=click.Choice(ACTIONS), default="placeholder", show_default=True,
              help="What a PII span becomes: <ENTITY> placeholder, consistent fake value, or salted hash "
                   "($MMRC_PII_SALT).")
@click.option("--entity-action", "entity_actions", multiple=True, metavar="ENTITY=ACTION",
              help="Per-entity action override (repeatable), e.g. PERSON=surrogate.")
@click.option("--max-redacted-share", type=float, default=CleanConfig.max_redacted_share, show_default=True,
              help="A turn whose replacements are a larger share of its units after replacement (each replaced "
                   "value one unit, each other word one) is unreadable and must be deleted.")
@click.option("--coherence-min-spans", type=int, default=CleanConfig.coherence_min_spans, show_default=True,
              help="...and only when it holds at least this many replacements (one replaced name is no "
                   "incoherence).")
@click.option("--languages", default="", metavar="CODES",
              help="Keep only dialogues in these languages (ISO 639-1, comma-separated, 'und' for unknown), "
                   "e.g. en,de; others are dropped as language_not_selected. Default: every language.")
@click.option("--coherence", type=click.Choice(COHERENCE_POLICIES), default="drop", show_default=True,
              help="When a turn must be deleted: drop the dialogue, or delete the exchange and keep the rest.")
@click.option("--turn-timeout", type=float, default=10.0, show_default=True,
              help="Seconds of PII analysis per turn before the dialogue is dropped as pii_timeout.")
@click.option("--chunk-chars", type=int, default=4000, show_default=True,
              help="Long turns are analysed in chunks of this many characters.")
@click.option("--redact-model-names", is_flag=True,
              help="Also redact person names, e-mails, IPs and phone or id numbers that only assistant turns "
                   "mention (by default they count as public knowledge or the model's own examples: a chat model "
                   "cannot know the user's private contacts).")
@click.option("--no-person-context", is_flag=True,
              help="Turn off the learned person-context model (classifiers/person_context). By default it redacts "
                   "the names on the second side of a person-to-person chat and the words no finder found in turns "
                   "a person typed (\"picking up lucas\") that it reads as a private person's.")
@click.option("--no-number-context", is_flag=True,
              help="Turn off the learned number-context model (classifiers/number_context). By default it redacts "
                   "the numbers no finder found in turns a person typed (\"they told me my case is 88-20431\") that "
                   "it reads as someone's postcode, card, id or phone number.")
@click.option("--no-street-context", is_flag=True,
              help="Turn off the learned street-context model (classifiers/street_context). By default it widens "
                   "each street found over the words next to it that it reads as the same address (\"Calle 5 de "
                   "Mayo #214\") and redacts the addresses no street form found in turns a person typed.")
@click.option("--no-lower-case-names", is_flag=True,
              help="Turn off the learned lower-case-name model (classifiers/lower_case_name). By default it redacts "
                   "the words no finder found in turns a person typed that it reads as a name typed in lower case "
                   "(\"went to the mall with jake\", \"me and dean kowalski\").")
@click.option("--public-figures", type=click.Path(path_type=Path, dir_okay=False),
              help="A list of public figures (CSV/TSV with a 'name' column, or one name per line): a found name "
                   "that is one of them, whole, stays (e.g. Pantheon 1.0; names of two words or more).")
@click.option("--no-pii", is_flag=True, help="Skip PII scrubbing.")
@click.option("--no-exif", is_flag=True, help="Keep image metadata (EXIF/XMP) as it is.")
@click.option("--no-toxicity", is_flag=True, help="Skip toxicity scoring and dropping.")
@click.option("--toxicity-backend", type=click.Choice(list(BACKENDS)), default="detoxify",
              show_default=True, help="Toxicity scorer. 'lexicon' is an offline word-list backend, used only "
                                      "when chosen here; the manifest records which one decided.")
@click.option("--toxicity-model", default="original", show_default=True,
              help="Detoxify variant: original, unbiased, multilingual, original-small, unbiased-small.")
@click.option("--toxicity-checkpoint", type=click.Path(path_type=Path, dir_okay=False),
              help="Local Detoxify checkpoint (.ckpt); default $MMRC_MODELS/detoxify/<variant>.ckpt.")
@click.option("--toxicity-config", type=click.Path(path_type=Path, file_okay=False),
              help="Local Hugging Face config + tokenizer folder of the checkpoint's base model.")
@click.option("--toxicity-threshold", "toxicity_thresholds", multiple=True, metavar="LABEL=SCORE",
              help=f"Drop threshold per label (repeatable, overrides the default). Defaults: {THRESHOLD_HELP}.")
@click.option("--toxicity-int8", is_flag=True, help="Int8 dynamic quantization of the Detoxify model (CPU only).")
@click.option("--toxicity-batch-size", type=int, default=None,
              help="Texts per model forward (default 8 on CPU, where it measured fastest; 64 on CUDA).")
@click.option("--device", default="auto", show_default=True, help="auto, cpu, cuda or cuda:N.")
@click.option("--force", is_flag=True, help="Rebuild the output even if it holds a finished run.")
@click.option("--report", is_flag=True, help="Print the funnel of the output folder and, per entity, the number of "
                                            "redacted spans with a few examples in context (after running, or alone).")
@click.option("--report-examples", type=int, default=5, show_default=True,
              help="Examples per entity in --report (each shows the redacted value, read back from the input).")
@executor_options
def command(input_dir, output_dir, entities, pii_thresholds, action, entity_actions, max_redacted_share,
            coherence_min_spans, languages, coherence, turn_timeout, chunk_chars, redact_model_names, no_person_context,
            no_number_context, no_street_context, no_lower_case_names, public_figures, no_pii,
            no_exif, no_toxicity,
            toxicity_backend,
            toxicity_model, toxicity_checkpoint, toxicity_config, toxicity_thresholds, toxicity_int8,
            toxicity_batch_size, device, force, report, report_examples, executor, workers, address,
            cpus_per_worker, gpus_per_worker, quiet):
    """Scrub PII, drop toxic dialogues and strip image metadata: INPUT_DIR -> --output.

    With --report and no INPUT_DIR, only print the funnel of an existing --output folder.
    """
    from builder.clean.report import example_lines, funnel_lines

    if output_dir is None:
        raise ConfigError("missing --output/-o: the folder to write (or to report on with --report)")
    if input_dir is None:
        if not report:
            raise ConfigError("missing INPUT_DIR: the ingest output to clean (or pass --report to only print a funnel)")
        click.echo("\n".join(funnel_lines(output_dir) + example_lines(output_dir, report_examples)))
        return
    from builder.clean.config import DEFAULT_TOXICITY_THRESHOLDS as defaults
    from builder.clean.gazetteer import fingerprint
    from builder.clean.stage import CleanStage
    from builder.engine import run_stage

    tox = dict(defaults)
    tox.update(dict(parse_pairs(toxicity_thresholds, "--toxicity-threshold", float)))
    config = CleanConfig(
        pii=not no_pii, entities=tuple(e.strip() for e in entities.split(",") if e.strip()),
        thresholds=tuple(sorted({**dict(CleanConfig().thresholds),
                                 **dict(parse_pairs(pii_thresholds, "--pii-threshold", float))}.items())),
        action=action, entity_actions=tuple(sorted(parse_pairs(entity_actions, "--entity-action"))),
        max_redacted_share=max_redacted_share, coherence_min_spans=coherence_min_spans,
        languages=tuple(sorted({c.strip().lower() for c in languages.split(",") if c.strip()})),
        coherence=coherence, model_names_public=not redact_model_names, person_context=not no_person_context,
        number_context=not no_number_context, street_context=not no_street_context, lower_case_names=not no_lower_case_names,
        public_figures=str(public_figures.resolve()) if public_figures else None,
        public_figures_sha256=fingerprint(public_figures) if public_figures else None,
        turn_timeout_s=turn_timeout,
        chunk_chars=chunk_chars, strip_exif=not no_exif, toxicity=not no_toxicity,
        toxicity_backend=toxicity_backend, toxicity_model=toxicity_model,
        toxicity_checkpoint=str(toxicity_checkpoint) if toxicity_checkpoint else None,
        toxicity_config=str(toxicity_config) if toxicity_config else None,
        toxicity_thresholds=tuple(sorted(tox.items())), toxicity_int8=toxicity_int8,
        toxicity_batch_size=toxicity_batch_size,
    )
    manifest = run_stage(CleanStage(config), input_dir, output_dir, force=force, device=device,
                         log=lambda m: click.echo(m, err=True), quiet=quiet,
                         executor=executor_spec(executor, workers, address, cpus_per_worker, gpus_per_worker))
    rows = manifest["rows"]
    click.echo(f"clean: {rows['in']} in, {rows['out']} out ({rows['dropped']} dropped, "
               f"{rows['modified']} modified) -> {output_dir}")
    if report:
        click.echo("\n".join(funnel_lines(output_dir) + example_lines(output_dir, report_examples)))

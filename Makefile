# mmrc-build: every target uses the project virtual environment in .venv/.
#   make demo   set up, then run every stage on raw/sample (ends with release/mmrc-v$(VERSION))
#   make test   set up, then lint (ruff) and run the test suite
#   make bench  set up, then run the benchmarks (JSON under bench/results/)
#   make topic-model-real  a topic model on the real labelled seed + raw/seed (needs ../shared/data)
# Stage targets are files (each stage folder's _SUCCESS), so a second `make demo` does nothing.

SHELL := /bin/bash
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
MMRC := $(VENV)/bin/mmrc-build

RAW ?= raw/sample
WORK ?= work
VERSION ?= 0.1.0
# the licences of the sources (release --sources); with another RAW, point SOURCES at its own file
SOURCES ?= $(if $(filter raw/sample,$(RAW)),raw/sample-sources.yaml)
MODELS ?= $(HOME)/.cache/mmrc-build/models
export MMRC_MODELS := $(abspath $(MODELS))
export HF_HUB_OFFLINE := 1
export TRANSFORMERS_OFFLINE := 1
# The demo corpus has user ids; a real deployment sets its own secret salt.
export MMRC_USER_SALT ?= demo-salt-not-secret

.PHONY: setup models demo test lint bench clean-work help topic-model-real

help:
	@grep -E '^#   make' Makefile | sed 's/^#   //'

setup: $(VENV)/.installed models

$(VENV)/.installed: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(VENV)/bin/pip install -q --upgrade pip
	$(VENV)/bin/pip install -q -e '.[dev]'
	touch $@

models: $(MODELS)/.assembled

$(MODELS)/.assembled: $(VENV)/.installed
	$(MMRC) models --dir $(MODELS)
	touch $@

# ---- the pipeline on the bundled sample -------------------------------------------------
RAW_FILES := $(shell find $(RAW) -type f -o -type l 2>/dev/null)

$(WORK)/ingested/_SUCCESS: $(RAW_FILES) | setup
	$(MMRC) ingest $(RAW) -o $(WORK)/ingested --force

# Detoxify weights cannot be downloaded on these machines: the demo chooses the lexicon
# backend explicitly (recorded in the manifest). With a checkpoint, use
# `--toxicity-checkpoint PATH --toxicity-config DIR` instead.
$(WORK)/clean/_SUCCESS: $(WORK)/ingested/_SUCCESS
	$(MMRC) clean $(WORK)/ingested -o $(WORK)/clean --toxicity-backend lexicon --force

# The demo's topic model is trained on raw/seed (210 labelled dialogues, kept out of the
# release); raw/sample's own labels then serve as a held-out check (see the classify manifest).
$(WORK)/seed/_SUCCESS: $(wildcard raw/seed/*.jsonl) | setup
	$(MMRC) ingest raw/seed -o $(WORK)/seed --force

$(WORK)/topic-model/config.json: $(WORK)/seed/_SUCCESS
	$(MMRC) classify train --data $(WORK)/seed -o $(WORK)/topic-model --force

$(WORK)/classified/_SUCCESS: $(WORK)/clean/_SUCCESS $(WORK)/topic-model/config.json
	$(MMRC) classify predict $(WORK)/clean -o $(WORK)/classified --model $(WORK)/topic-model --force

$(WORK)/swapped/_SUCCESS: $(WORK)/classified/_SUCCESS
	$(MMRC) swap $(WORK)/classified -o $(WORK)/swapped --count 20 --force

$(WORK)/questions.parquet: $(RAW)/questions.jsonl $(WORK)/swapped/_SUCCESS
	$(MMRC) questions import $(RAW)/questions.jsonl --data $(WORK)/swapped -o $@

# A release version is never overwritten: bump it with `make demo VERSION=0.1.1`.
release/mmrc-v$(VERSION)/manifest.json: $(WORK)/questions.parquet $(WORK)/swapped/_SUCCESS $(SOURCES)
	$(MMRC) release --version $(VERSION) --data $(WORK)/swapped --questions $(WORK)/questions.parquet --releases-dir release \
	  $(if $(SOURCES),--sources $(SOURCES))

# The demo ends with an eval of the release by the smoke model: a tiny random-weight model built on
# the spot, whose scores mean nothing (it proves the eval path end to end). No judge model is
# reachable offline, so --judge none: judge means and RP are reported as not computed.
$(WORK)/smoke-model/config.json: | setup
	$(MMRC) eval smoke-model $(WORK)/smoke-model

$(WORK)/evals/leaderboard.md: release/mmrc-v$(VERSION)/manifest.json $(WORK)/smoke-model/config.json
	$(MMRC) eval run release/mmrc-v$(VERSION) --revision v$(VERSION) --backend transformers \
		--model $(WORK)/smoke-model --device cpu --judge none --max-new-tokens 32 -o $(WORK)/evals
	$(MMRC) eval report $(WORK)/evals

demo: setup release/mmrc-v$(VERSION)/manifest.json $(WORK)/evals/leaderboard.md
	@echo "demo finished: stage folders in $(WORK)/, dataset in release/mmrc-v$(VERSION)/, smoke eval in $(WORK)/evals/"

# A topic model on real dialogues: the hand-labelled real seed (classifiers/topic/seed_real, rebuilt
# from ../shared/data/logs by ingest) together with the hand-written raw/seed, which covers the topics
# real chat rarely has (House, Shopping, Travel). Needs ../shared/data; not part of the demo.
SHARED_DATA ?= ../shared/data
topic-model-real: $(WORK)/seed/_SUCCESS
	@test -d $(SHARED_DATA)/logs || { echo "topic-model-real needs $(SHARED_DATA)/logs (see classifiers/topic/seed_real/README.md)"; exit 2; }
	$(MMRC) ingest $(SHARED_DATA)/logs -o $(WORK)/real-logs --min-turns 2 --force --quiet
	$(MMRC) classify train --data $(WORK)/real-logs --labels classifiers/topic/seed_real/labels.csv \
		--also $(WORK)/seed -o $(WORK)/topic-model-real --force

clean-work:
	rm -rf $(WORK) .work.partial $(WORK)/.*.partial

# ---- tests and benchmarks --------------------------------------------------------------
lint: setup
	$(PY) -m ruff check .

test: setup lint
	MMRC_TEST_MODELS=$(MMRC_MODELS) $(VENV)/bin/pytest

bench: setup
	$(PY) bench/ingest.py
	$(PY) bench/clean.py
	$(PY) bench/classify.py
	$(PY) bench/classify_real.py
	$(PY) bench/swap.py
	$(PY) bench/swap_real.py
	$(PY) bench/release.py
	$(PY) bench/pipeline.py
	$(MAKE) demo
	$(PY) bench/eval.py
	$(PY) bench/eval_known_answers.py

# mmrc-build: every target uses the project virtual environment in .venv/.
#   make demo   set up, then run every stage on raw/sample (ends with release/mmrc-v$(VERSION))
#   make test   set up, then lint (ruff, mypy) and run the test suite
#   make bench  set up, then run the benchmarks (JSON under bench/results/)
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

.PHONY: setup models demo test lint bench clean-work help

help:
	@grep -E '^#   make' Makefile | sed 's/^#   //'

setup: $(VENV)/.installed models

$(VENV)/.installed: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(VENV)/bin/pip install -q --upgrade pip
	$(VENV)/bin/pip install -q -e '.[dev]'
	touch $@

models: $(MODELS)/.assembled

# `mmrc-build models` also trains the default topic model (mmrc-topics) on the real labelled seed
# shipped in classifiers/topic/seed_real/ (offline, from the repo); a changed seed retrains it.
$(MODELS)/.assembled: $(VENV)/.installed classifiers/topic/seed_real/dialogues.jsonl
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

# No --model: the default topic model `make models` trained on the real seed.
$(WORK)/classified/_SUCCESS: $(WORK)/clean/_SUCCESS $(MODELS)/.assembled
	$(MMRC) classify predict $(WORK)/clean -o $(WORK)/classified --force

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

clean-work:
	rm -rf $(WORK) .work.partial $(WORK)/.*.partial

# ---- tests and benchmarks --------------------------------------------------------------
lint: setup
	$(PY) -m ruff check .
	$(PY) -m mypy

test: setup lint
	MMRC_TEST_MODELS=$(MMRC_MODELS) $(VENV)/bin/pytest

bench: setup
	$(PY) bench/ingest.py
	$(PY) bench/clean.py
	$(PY) bench/classify.py
	$(PY) bench/classify_seed.py
	$(PY) bench/swap.py
	$(PY) bench/swap_real.py
	$(PY) bench/release.py
	$(PY) bench/pipeline.py
	$(MAKE) demo
	$(PY) bench/eval.py
	$(PY) bench/eval_known_answers.py

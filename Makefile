# mmrc-build: every target uses the project virtual environment in .venv/.
#   make demo   set up, then run every stage on raw/sample (ends with release/mmrc-v$(VERSION))
#   make test   set up, then run the test suite
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
MODELS ?= $(HOME)/.cache/mmrc-build/models
export MMRC_MODELS := $(abspath $(MODELS))
export HF_HUB_OFFLINE := 1
export TRANSFORMERS_OFFLINE := 1
# The demo corpus has user ids; a real deployment sets its own secret salt.
export MMRC_USER_SALT ?= demo-salt-not-secret

.PHONY: setup models demo test bench clean-work help

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

demo: setup $(WORK)/ingested/_SUCCESS
	@echo "demo finished: see $(WORK)/"

clean-work:
	rm -rf $(WORK) $(WORK)/.*.partial

# ---- tests and benchmarks --------------------------------------------------------------
test: setup
	MMRC_TEST_MODELS=$(MMRC_MODELS) $(VENV)/bin/pytest

bench: setup
	$(PY) bench/ingest.py

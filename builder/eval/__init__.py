"""`mmrc-build eval`: evaluate multimodal models on a release (MMRC §3.1, §4, §5).

Phases, each a cache that a rerun reuses::

    notes (optional) -> predict -> judge -> score -> results.json / samples.jsonl / figures

``source`` opens a release at a pinned revision (never changing it), ``prompts`` builds the
golden-context messages, ``backends`` talk to models, ``notes`` is MMRC's Note-taking,
``judge`` and ``metrics`` score, ``score`` aggregates, ``report`` compares models.
"""

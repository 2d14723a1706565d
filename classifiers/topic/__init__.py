"""The 14-topic dialogue classifier (MMRC §3): all-mpnet-base-v2 embeddings + a head
(linear over the vector and topic descriptions by default; MMRC's two-layer MLP with hidden > 0).

Modules: ``text`` (dialogue -> text, chunking), ``embed`` + ``cache`` (embedder with an
embedding cache keyed by (model hash, text hash)), ``mlp`` (the head), ``model`` (save /
load), ``evaluate`` (stratified k-fold, intervals), ``contrastive`` (SetFit-style tuning),
``train`` (fit and cross-validate), ``labels`` (annotator label files), ``sampling``
(what to label next), ``topical_chat`` (a real labelled test set). Heavy libraries are
imported inside functions.
"""

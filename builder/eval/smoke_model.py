"""A tiny random-weight LLaVA-style model for smoke runs and tests (its scores mean nothing).

It is a real ``LlavaForConditionalGeneration`` (a Llama text model of ~150k parameters, a
CLIP vision tower, a BPE tokenizer trained on the spot, a chat template that places images
where they occur in a turn), so ``AutoModelForImageTextToText`` + ``apply_chat_template``
and ``transformers serve`` run their real code paths with several images over several turns.
Weights are drawn N(0, 0.15) with a fixed seed, not the usual 0.02: a near-zero random model
repeats one token whatever the input, which would make batching and parity tests blind.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

SMOKE_MARKER = "mmrc_smoke_model.json"
SMOKE_NOTE = "smoke model (random weights built by `mmrc-build eval smoke-model`): its scores mean nothing"

CHAT_TEMPLATE = (
    "{% for message in messages %}{{ '<|' + message['role'] + '|>\\n' }}"
    "{% if message['content'] is string %}{{ message['content'] }}"
    "{% else %}{% for item in message['content'] %}"
    "{% if item['type'] == 'image' %}{{ '<image>' }}{% elif item['type'] == 'text' %}{{ item['text'] }}{% endif %}"
    "{% endfor %}{% endif %}{{ '</s>\\n' }}{% endfor %}"
    "{% if add_generation_prompt %}{{ '<|assistant|>\\n' }}{% endif %}"
)

_CORPUS = (
    "The user asked which image shows the butterfly in the garden. True or false: the assistant said the "
    "photo was taken in Texas. Answer with the letter of the correct option: A, B, C or D. I visited this "
    "place last summer and ate this dish. The second picture shows a cat on a sofa; the first one a bridge. "
    "The conversation does not say when the photos were taken. 0 1 2 3 4 5 6 7 8 9 Image [ ] ( ) , . ; : ? !"
)


MAX_HIDDEN, MAX_LAYERS = 1024, 32  # a smoke model stays small: 1024 x 32 is ~400M parameters


def is_smoke_model(folder: Path) -> bool:
    return (Path(folder) / SMOKE_MARKER).is_file()


def check_build(folder: Path, seed: int, hidden: int, layers: int) -> None:
    """What the build needs, checked before torch is imported: sizes it can build, and a folder that is
    new, empty or an earlier smoke model (a model folder of the user's is never written into)."""
    from builder.errors import ConfigError, OutputExistsError
    from builder.io import require_utf8_path

    require_utf8_path(Path(folder), "smoke model folder")
    if not (8 <= hidden <= MAX_HIDDEN and hidden % 8 == 0):
        raise ConfigError(f"--hidden {hidden} cannot be built: use a multiple of 8 from 8 to {MAX_HIDDEN} (4 heads "
                          "of an even width)")
    if not 1 <= layers <= MAX_LAYERS:
        raise ConfigError(f"--layers {layers} cannot be built: use 1 to {MAX_LAYERS}")
    if not 0 <= seed < 2 ** 63:
        raise ConfigError(f"--seed {seed} is out of range: use 0 to 2**63-1")
    folder = Path(folder)
    if (folder.exists() or folder.is_symlink()) and not (folder.is_dir() and not folder.is_symlink() and
                                                         (is_smoke_model(folder) or not any(folder.iterdir()))):
        raise OutputExistsError(f"{folder} exists and is not a smoke model this command built; it was left untouched: "
                                "choose a new folder")


def build_smoke_model(folder: Path, *, seed: int = 0, hidden: int = 64, layers: int = 2,
                      context: int = 4096, image_size: int = 32, weight_std: float = 0.15) -> Path:
    """Write the model, processor and chat template to ``folder`` (safetensors), built beside it and
    renamed into place; returns it."""
    import shutil

    check_build(folder, seed, hidden, layers)
    folder = Path(folder)
    partial = folder.parent / f".{folder.name}.partial"
    shutil.rmtree(partial, ignore_errors=True)
    _build(partial, seed=seed, hidden=hidden, layers=layers, context=context, image_size=image_size,
           weight_std=weight_std)
    old = folder.parent / f".{folder.name}.old"
    shutil.rmtree(old, ignore_errors=True)
    if folder.exists():
        os.replace(folder, old)
    os.replace(partial, folder)
    shutil.rmtree(old, ignore_errors=True)
    return folder


def _build(folder: Path, *, seed: int, hidden: int, layers: int, context: int, image_size: int,
           weight_std: float) -> None:
    import torch
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers, trainers
    from transformers import (CLIPImageProcessor, CLIPVisionConfig, GenerationConfig, LlamaConfig, LlavaConfig,
                              LlavaForConditionalGeneration, LlavaProcessor, PreTrainedTokenizerFast)

    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    specials = ["<pad>", "<s>", "</s>", "<unk>", "<image>"]
    bpe = Tokenizer(models.BPE(unk_token="<unk>"))
    # Characters, not bytes: every token decodes to readable text, unknown characters to <unk>.
    bpe.pre_tokenizer = pre_tokenizers.Metaspace()
    bpe.decoder = decoders.Metaspace()
    letters = [chr(c) for c in range(32, 127)]
    trainer = trainers.BpeTrainer(vocab_size=400, special_tokens=specials, initial_alphabet=letters,
                                  show_progress=False)
    bpe.train_from_iterator([_CORPUS] * 4, trainer)
    tokenizer = PreTrainedTokenizerFast(tokenizer_object=bpe, bos_token="<s>", eos_token="</s>",
                                        pad_token="<pad>", unk_token="<unk>",
                                        extra_special_tokens={"image_token": "<image>"})
    patch = image_size // 4
    vision = CLIPVisionConfig(hidden_size=32, intermediate_size=64, num_hidden_layers=2, num_attention_heads=2,
                              image_size=image_size, patch_size=patch, projection_dim=32)
    text = LlamaConfig(vocab_size=len(tokenizer), hidden_size=hidden, intermediate_size=2 * hidden,
                       num_hidden_layers=layers, num_attention_heads=4, num_key_value_heads=2,
                       max_position_embeddings=context, pad_token_id=tokenizer.pad_token_id,
                       bos_token_id=tokenizer.bos_token_id, eos_token_id=tokenizer.eos_token_id)
    image_token = tokenizer.convert_tokens_to_ids("<image>")
    assert isinstance(image_token, int)  # one token in, one id out
    config = LlavaConfig(vision_config=vision, text_config=text, image_token_index=image_token,
                         vision_feature_select_strategy="default", vision_feature_layer=-1)
    torch.manual_seed(seed)
    model = LlavaForConditionalGeneration(config).eval()
    with torch.no_grad():
        for param in model.parameters():
            if param.dim() == 2:
                param.normal_(0.0, weight_std)
    model.generation_config = GenerationConfig(do_sample=False, max_new_tokens=256,
                                               eos_token_id=tokenizer.eos_token_id,
                                               pad_token_id=tokenizer.pad_token_id,
                                               bos_token_id=tokenizer.bos_token_id)
    processor = LlavaProcessor(
        image_processor=CLIPImageProcessor(size={"shortest_edge": image_size},
                                           crop_size={"height": image_size, "width": image_size}),
        tokenizer=tokenizer, patch_size=patch, vision_feature_select_strategy="default",
        num_additional_image_tokens=1, chat_template=CHAT_TEMPLATE)
    model.save_pretrained(folder, safe_serialization=True)
    processor.save_pretrained(folder)
    params = sum(p.numel() for p in model.parameters())
    (folder / SMOKE_MARKER).write_text(json.dumps(
        {"note": SMOKE_NOTE, "seed": seed, "parameters": params, "weight_std": weight_std}, indent=2) + "\n")

#!/usr/bin/env bash
# Eval on one GPU: a LLaVA-1.5-7B-shaped random model (Llama-2-7B text, CLIP ViT-L/14-336 vision) built
# on the device in bf16 (no download) through the transformers backend at batch 1, per-dialogue prefix,
# cross-dialogue (--batch-size auto) and compiled, plus plain HF generate at the same batch as the
# ceiling; q/s, ms per decode step, the answer cap and the projection for 28,720 questions.
#
#   bench/gpu_eval.sh [RELEASE]        (under 6 minutes on an H200; RELEASE default release/mmrc-v0.1.0)
#
# Needs torch and transformers (+ tokenizers, safetensors, pyarrow, pillow, click); not polars, not
# datasets: the eval path imports without them (tests/eval/test_eval_imports.py proves it).
# Writes bench/results/gpu_eval.json on CUDA (and $OUT/gpu_eval.json when $OUT is set).
# CPU self-check, tiny shapes, result in $RESULT (default: a temp file, never bench/results):
#   DEVICE=cpu HIDDEN=64 LAYERS=2 HEADS=4 INTER=128 VISION=tiny MAX_NEW=8 DIALOGUES=8 bench/gpu_eval.sh
set -euo pipefail
cd "$(dirname "$0")/.."
RELEASE=${1:-release/mmrc-v0.1.0}
DEVICE=${DEVICE:-cuda}
PY=${PY:-$( [ -x .venv/bin/python ] && echo .venv/bin/python || echo python3 )}
export DEVICE PYTHONUNBUFFERED=1 HF_HUB_OFFLINE=1 TRANSFORMERS_OFFLINE=1 TOKENIZERS_PARALLELISM=false
export BUDGET_S=${BUDGET_S:-320}       # the driver stops starting runs by then; the whole script by 6 minutes
WORK=$(mktemp -d /tmp/mmrc-gpu-eval.XXXX)
export WORK
trap 'rm -rf "$WORK"' EXIT            # the ~13 GB model folder goes too
[ -f "$RELEASE/manifest.json" ] || { echo "gpu_eval: $RELEASE is not a release; run make demo or pass one" >&2; exit 3; }
if [ "$DEVICE" != cpu ]; then
    "$PY" -c "import torch, sys; sys.exit(0 if torch.cuda.is_available() else 1)" \
        || { echo "gpu_eval: no CUDA device visible to torch (DEVICE=cpu checks the script)" >&2; exit 7; }
fi
if [ -z "${REVISION:-}" ] && command -v git >/dev/null; then
    REVISION=$(git -C "$RELEASE" describe --tags --exact-match HEAD 2>/dev/null || true)
    export REVISION
fi
RESULT=${RESULT:-$( [ "$DEVICE" = cpu ] && echo "${TMPDIR:-/tmp}/gpu_eval.cpu.json" || echo bench/results/gpu_eval.json )}
export RESULT
status=0
timeout -k 10 "${LIMIT_S:-350}" "$PY" bench/gpu_eval.py "$RELEASE" || status=$?
if [ -n "${OUT:-}" ] && [ -f "$RESULT" ]; then cp "$RESULT" "$OUT/gpu_eval.json"; fi
exit "$status"

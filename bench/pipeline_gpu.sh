#!/usr/bin/env bash
# The curation pipeline on one GPU machine (16 cores + 1 GPU): ingest -> clean --workers $(nproc) ->
# classify on the GPU, on a folder of chat logs repeated (new files, ids and user-turn markers) to >= N
# dialogues; per-stage seconds and dialogues/s and the projection for MMRC's 87,912 dialogues (target < 1 h).
#
#   bench/pipeline_gpu.sh [DATA]     DATA: a folder of chat logs, e.g. ../shared/data/logs/wildchat
#                                    (the GPU machine gets the repository only: carry or copy it there);
#                                    no DATA: the repository's raw/sample, said so in the result
#
# Needs the project's environment (polars, presidio, spaCy en_core_web_md, sentence-transformers, torch)
# and a models folder with the default topic model and its embedder ($MMRC_MODELS, `mmrc-build models`).
# Writes bench/results/pipeline_gpu.json on CUDA (and $OUT/pipeline_gpu.json when $OUT is set).
# CPU self-check, small, result in $RESULT (default: a temp file, never bench/results):
#   DEVICE=cpu N=300 bench/pipeline_gpu.sh ../shared/data/logs/wildchat
set -euo pipefail
cd "$(dirname "$0")/.."
DEVICE=${DEVICE:-cuda}
N=${N:-20000}
WORKERS=${WORKERS:-$(nproc)}
PY=${PY:-$( [ -x .venv/bin/python ] && echo .venv/bin/python || echo python3 )}
if [ $# -ge 1 ]; then
    DATA=$1
    [ -d "$DATA" ] || { echo "pipeline_gpu: data folder $DATA is missing; pass a folder of chat logs (e.g. ../shared/data/logs/wildchat copied to this machine) or no argument for raw/sample" >&2; exit 3; }
else
    DATA=raw/sample
    echo "pipeline_gpu: no data folder given: using the repository's raw/sample (synthetic demo logs, not WildChat)" >&2
fi
export MMRC_MODELS=${MMRC_MODELS:-$HOME/.cache/mmrc-build/models}
[ -d "$MMRC_MODELS/mmrc-topics" ] || { echo "pipeline_gpu: no default topic model in $MMRC_MODELS (mmrc-topics); run \`mmrc-build models\` (or set MMRC_MODELS to a models folder that has it)" >&2; exit 5; }
"$PY" - <<'PYCHECK' || exit 7
import importlib.util, sys
missing = [m for m in ("polars", "presidio_analyzer", "spacy", "sentence_transformers", "torch")
           if importlib.util.find_spec(m) is None]
if missing:
    sys.exit(f"pipeline_gpu: missing Python packages {', '.join(missing)}; install the project (pip install -e .) first")
PYCHECK
if [ "$DEVICE" != cpu ]; then
    "$PY" -c "import torch, sys; sys.exit(0 if torch.cuda.is_available() else 1)" \
        || { echo "pipeline_gpu: no CUDA device visible to torch (DEVICE=cpu checks the script)" >&2; exit 7; }
fi
RESULT=${RESULT:-$( [ "$DEVICE" = cpu ] && echo "${TMPDIR:-/tmp}/pipeline_gpu.cpu.json" || echo bench/results/pipeline_gpu.json )}
export DATA N DEVICE WORKERS RESULT PYTHONUNBUFFERED=1 TOKENIZERS_PARALLELISM=false
status=0
timeout -k 10 "${LIMIT_S:-3000}" "$PY" bench/pipeline_gpu.py || status=$?
if [ -n "${OUT:-}" ] && [ -f "$RESULT" ]; then cp "$RESULT" "$OUT/pipeline_gpu.json"; fi
exit "$status"

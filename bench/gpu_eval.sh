#!/usr/bin/env bash
# Eval on a CUDA GPU: the transformers backend in bf16 at batch 1 and batch 8 on the same
# questions; records questions/s and the answer mismatch rate between the two (bf16 kernels
# differ by batch shape, so a few greedy answers may differ: that rate is what this measures).
#
#   bench/gpu_eval.sh [RELEASE] [MODEL]      (about 2-4 minutes)
#
# RELEASE: a release folder (default release/mmrc-v0.1.0, `make demo` builds it).
# MODEL:   an image-text-to-text model folder with safetensors weights; default: a random-weight
#          LLaVA-style model built here (hidden 1024, 8 layers, ~110M parameters) -- its answers are
#          noise, its cost is real. Needs the project environment (`make setup`) on the GPU machine.
# Writes bench/results/gpu_eval.json (and $OUT/gpu_eval.json when $OUT is set).
set -euo pipefail
cd "$(dirname "$0")/.."
RELEASE=${1:-release/mmrc-v0.1.0}
MODEL=${2:-}
LIMIT=${LIMIT:-40}
DEVICE=${DEVICE:-cuda}     # DEVICE=cpu DTYPE=float32 HIDDEN=64 checks the script itself on a CPU machine
DTYPE=${DTYPE:-bfloat16}
HIDDEN=${HIDDEN:-1024}
PY=${PY:-.venv/bin/python}
MMRC=("$PY" -m builder.cli)
WORK=$(mktemp -d /tmp/mmrc-gpu-eval.XXXX)
export HF_HUB_OFFLINE=1 TRANSFORMERS_OFFLINE=1
[ -f "$RELEASE/manifest.json" ] || { echo "gpu_eval: $RELEASE is not a release; run make demo or pass one" >&2; exit 3; }
if [ "$DEVICE" != cpu ]; then
    "$PY" -c "import torch, sys; sys.exit(0 if torch.cuda.is_available() else 1)" \
        || { echo "gpu_eval: no CUDA device visible to torch" >&2; exit 7; }
fi
if [ -z "$MODEL" ]; then
    MODEL=$WORK/model
    "${MMRC[@]}" eval smoke-model "$MODEL" --hidden "$HIDDEN" --layers 8 >/dev/null
fi
REV=$(git -C "$RELEASE" describe --tags --exact-match HEAD 2>/dev/null || true)
for B in 1 8; do
    "${MMRC[@]}" eval run "$RELEASE" ${REV:+--revision "$REV"} --backend transformers --model "$MODEL" \
        --device "$DEVICE" --dtype "$DTYPE" --batch-size "$B" --judge none --limit "$LIMIT" --configs default \
        --name "b$B" --cache "$WORK/cache-b$B.sqlite" -o "$WORK/evals" --quiet >/dev/null
done
"$PY" - "$WORK/evals" "$MODEL" "$DTYPE" <<'PYEOF'
import json, os, sys
from pathlib import Path
root, model, dtype = Path(sys.argv[1]), sys.argv[2], sys.argv[3]
release = next(p for p in root.iterdir() if p.is_dir())
runs = {}
for b in ("b1", "b8"):
    rows = [json.loads(l) for l in (release / b / "samples.jsonl").read_text().splitlines()]
    manifest = json.loads((release / b / "manifest.json").read_text())
    runs[b] = ({r["sample_id"]: r["prediction"]["text"] for r in rows}, manifest["timings"]["total_s"])
n = len(runs["b1"][0])
mismatch = sum(runs["b1"][0][k] != runs["b8"][0].get(k) for k in runs["b1"][0])
import torch
device = torch.cuda.get_device_name(0) if torch.cuda.is_available() else "cpu"
out = {"device": device, "dtype": dtype, "model": model, "questions": n,
       "batch1_qps": round(n / runs["b1"][1], 2), "batch8_qps": round(n / runs["b8"][1], 2),
       "speedup_8_over_1": round(runs["b1"][1] / runs["b8"][1], 2), "answer_mismatch_rate": round(mismatch / n, 4),
       "note": "end-to-end seconds per run include model loading"}
print(json.dumps(out, indent=2))
Path("bench/results").mkdir(exist_ok=True)
Path("bench/results/gpu_eval.json").write_text(json.dumps(out, indent=2) + "\n")
if os.environ.get("OUT"):
    Path(os.environ["OUT"], "gpu_eval.json").write_text(json.dumps(out, indent=2) + "\n")
PYEOF

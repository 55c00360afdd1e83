#!/usr/bin/env bash
# Installs what the training pipeline needs on a Debian machine (offline step; not needed by the app or npm test):
# Debian's PyTorch 1.13 and NumPy, OpenBLAS (≈15x faster than the reference BLAS torch links by default here)
# and tcmalloc (large allocations were ≈5x slower with glibc malloc).
set -euo pipefail
if ! /usr/bin/python3 -c 'import torch, numpy' 2>/dev/null || [ ! -e /usr/lib/x86_64-linux-gnu/libtcmalloc_minimal.so.4 ] \
   || [ ! -e /usr/lib/x86_64-linux-gnu/openblas-pthread/libblas.so.3 ]; then
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3-torch python3-numpy libopenblas0-pthread libtcmalloc-minimal4
fi
/usr/bin/python3 -c 'import torch; print("torch", torch.__version__)'

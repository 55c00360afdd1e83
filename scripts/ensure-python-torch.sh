#!/usr/bin/env bash
# CI only (not part of `npm test`): installs Debian's python3-torch and python3-numpy when missing, so that
# the test of tools/export_attention.py against the engine runs instead of skipping. Debian's registry only.
set -euo pipefail
if /usr/bin/python3 -c 'import torch, numpy' >/dev/null 2>&1; then exit 0; fi
if [ "$(id -u)" = 0 ]; then SUDO=""; elif command -v sudo >/dev/null 2>&1; then SUDO="sudo"; else
  echo "kvscope: cannot install python3-torch (not root, no sudo); the exporter test will be skipped" >&2
  exit 0
fi
echo "kvscope: installing Debian's python3-torch for the attention-exporter test…" >&2
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends python3-torch python3-numpy >/dev/null

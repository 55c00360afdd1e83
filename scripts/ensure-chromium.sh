#!/usr/bin/env bash
# Makes sure Debian's Chromium (the browser the end-to-end tests drive) is installed; installs it from
# Debian's registry when missing. Never downloads a browser from anywhere else.
set -euo pipefail
if command -v chromium >/dev/null 2>&1 || [ -n "${KVSCOPE_CHROMIUM:-}" ]; then exit 0; fi
if [ "$(id -u)" = 0 ]; then SUDO=""; elif command -v sudo >/dev/null 2>&1; then SUDO="sudo"; else
  echo "kvscope: the browser tests need Debian's chromium; install it with: apt-get install chromium" >&2
  exit 1
fi
echo "kvscope: installing Debian's chromium for the browser tests…" >&2
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq chromium >/dev/null

#!/usr/bin/env bash
# Makes sure Debian's Chromium (the browser the end-to-end tests drive) and Debian's CJK fonts (so the
# 简体中文 screenshots show real glyphs, not boxes) are installed; installs what is missing from Debian's
# registry. Never downloads a browser or a font from anywhere else.
set -euo pipefail
need=()
if ! command -v chromium >/dev/null 2>&1 && [ -z "${KVSCOPE_CHROMIUM:-}" ]; then need+=(chromium); fi
if ! dpkg -s fonts-noto-cjk >/dev/null 2>&1; then need+=(fonts-noto-cjk); fi
if [ ${#need[@]} -eq 0 ]; then exit 0; fi
if [ "$(id -u)" = 0 ]; then SUDO=""; elif command -v sudo >/dev/null 2>&1; then SUDO="sudo"; else
  echo "kvscope: the browser tests need Debian's ${need[*]}; install with: apt-get install ${need[*]}" >&2
  exit 1
fi
echo "kvscope: installing Debian's ${need[*]} for the browser tests…" >&2
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${need[@]}" >/dev/null

#!/usr/bin/env bash
# `npm bench`: reading speed on the largest real trace (HeartRateMonitor, 28 MiB), native
# CLI and wasm in Node; median of 5 runs each. Builds first if needed.
set -euo pipefail
cd "$(dirname "$0")/.."
export LC_ALL=C TZ=UTC
export NODE_PATH=/usr/share/nodejs # Debian's emscripten finds acorn there (wasm link step)
quiet() {
  local log
  log=$(mktemp)
  "$@" >"$log" 2>&1 || { cat "$log"; rm -f "$log"; return 1; }
  rm -f "$log"
}
if [ -x build/native/nettrace ] && [ -f build/wasm/wasm/nettrace_wasm.wasm ]; then
  quiet cmake --build build/native
  quiet cmake --build build/wasm
else
  bash scripts/setup.sh
  bash scripts/build.sh
fi
exec node scripts/bench.mjs "${1:-build/native/testdata/HeartRateMonitor.10068.nettrace}"

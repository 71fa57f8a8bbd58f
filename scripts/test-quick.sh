#!/usr/bin/env bash
# The quick loop (`npm run test:quick`), after one build (`npm run build`): the Catch2 unit,
# golden and corpus tests, then the Node tests that take a few seconds each (the JS API
# against the wasm build, the goldens, the schema, the layers), both cores busy. What it
# leaves to `npm test`: the Node suites that run every query on every trace through both
# builds, the browser, fuzz, sanitizer, TraceEvent and packaging suites (docs/testing.md).
#   scripts/test-quick.sh            everything above
#   scripts/test-quick.sh --catch2   the Catch2 part only
#   scripts/test-quick.sh --node     the Node part only
set -euo pipefail
cd "$(dirname "$0")/.."
export LC_ALL=C TZ=UTC

part=${1:-all}
case $part in all | --catch2 | --node) ;; *) echo "test-quick.sh: unknown argument '$part' (--catch2, --node)" >&2; exit 2 ;; esac
for f in build/native/tests/nettrace_tests build/native/nettrace build/wasm/wasm/nettrace_wasm.wasm dist/index.js; do
  [ -e "$f" ] || { echo "test:quick: $f is missing: run 'npm run build' first" >&2; exit 2; }
done

# Each a few seconds of CPU on 2 cores (measured: docs/testing.md); the others run in npm test.
NODE_QUICK=(
  api blob_stream diag_fake_runtime diff event_views_oracle exports_golden gc_jit golden heap_ready
  include_layers leak_url live_bound live_identity live_page netperf_legacy read_outcome sandwich
  search_stack speedscope summary summary_type timeline_axis view_state views_golden wasm_build
  web_import_cycles
  worker_protocol
  query_dispatch
)

started=$(date +%s)
failed=()
# Two processes at a time, one per core: the Catch2 corpus tests (the heavier half) in the
# background, the other Catch2 tests and then the Node tests in front of them.
log=$(mktemp)
trap 'rm -f "$log"' EXIT
if [ "$part" != --node ]; then
  build/native/tests/nettrace_tests "[corpus]" >"$log" 2>&1 &
  corpus=$!
  build/native/tests/nettrace_tests "~[corpus]" || failed+=("Catch2 ~[corpus]")
fi
if [ "$part" != --catch2 ]; then
  files=()
  for n in "${NODE_QUICK[@]}"; do files+=("tests/node/$n.test.mjs"); done
  node --test "${files[@]}" || failed+=("node tests")
fi
if [ "$part" != --node ]; then
  if wait "$corpus"; then tail -n 2 "$log"; else cat "$log"; failed+=("Catch2 [corpus]"); fi
fi
elapsed=$(($(date +%s) - started))
if ((${#failed[@]})); then
  echo "test:quick: FAILED: ${failed[*]} (${elapsed} s)"
  exit 1
fi
echo "test:quick: passed (${elapsed} s)"

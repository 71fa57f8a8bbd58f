#!/usr/bin/env bash
# CI's extended run (`npm run test:extended`; .ci/run runs it after `npm test`): the checks
# that repeat, under sanitizers or at random, what `npm test` already covers, kept out of its
# 25 minutes on 2 cores (docs/testing.md has each suite's time):
#   1. fuzz.sh --ci       the regression replay again, then a time-boxed random fuzz run
#                         (FUZZ_CI_SECONDS, default 120 s) from a fresh corpus; it also builds
#                         the reading path's Catch2 tests over the fuzz tree's library
#   2. reading-path tests the Catch2 tests of the reading path (corpus truncation and corruption,
#                         fuzz regressions, chunk sizes, decoders, v6, conversion, IPC, sorter,
#                         store) under ASan + UBSan: what npm test's Catch2 suite asserts, and
#                         any out-of-bounds read or undefined behaviour on the way fails it
# It reuses build/fuzz when `npm test` made it (only what is missing is built).
set -euo pipefail
cd "$(dirname "$0")/.."
export LC_ALL=C TZ=UTC
. scripts/lib.sh

started=$(date +%s)
failed=()
step "fuzz regressions and short fuzz run" timeout -k 10 "${SUITE_TIMEOUT:-1800}" bash scripts/fuzz.sh --ci || failed+=("fuzz run")
step "reading-path tests (ASan+UBSan)" timeout -k 10 "${SUITE_TIMEOUT:-1800}" env ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
  bash scripts/catch2_halves.sh build/fuzz/tests/fuzz/nettrace_sanitized_tests "~[memory]" || failed+=("reading-path tests (ASan+UBSan)")
elapsed=$(($(date +%s) - started))
if ((${#failed[@]})); then
  echo "test:extended: FAILED: ${failed[*]} (${elapsed} s)"
  exit 1
fi
echo "test:extended: ALL PASSED (${elapsed} s)"

#!/usr/bin/env bash
# `npm test`: set-up, build, then every test suite (.ci/run runs it, then CI's extended run,
# scripts/test-extended.sh: the random fuzz run and the sanitized reading-path tests).
#   1. scripts/setup.sh   apt packages and npm ci, only when missing
#   2. scripts/build.sh   native + wasm + TypeScript + site + package
#   3. Catch2             unit and end-to-end tests on the real corpus (with
#                         NETTRACE_SANITIZE=1, again under ASan + UBSan)
#   4. oracle.sh --check  TraceEvent's baselines (tests/data/oracle) regenerated and compared
#      heap-oracle.sh --check  PerfView's graph code on the heap snapshots (tests/data/heap/oracle)
#      node --test        wasm vs native byte-for-byte, the JS API, and our reader vs TraceEvent
#      fuzz.sh --replay   every fuzz regression input and seed through the four harnesses
#                         (ASan + UBSan); the mutation study subset; the shape study
#   5. browser            the site in headless Chromium (tests/browser/run.mjs), the
#                         <nettrace-analyzer> element on a strict-CSP page (embed_check.mjs),
#                         our speedscope export opened by the real speedscope app,
#                         and the page's layout at 1024/1400/1920 px, units and messages (layout_check.mjs)
#   6. npm pack           the package installed into an empty project and used; a built
#                         checkout moved, configured again and packed (the same files)
#   7. CLR event table    regenerated from docs/reference/ClrEtwAll.man.gz and compared
# A build failure stops at once; test suites all run, and the last line says which failed.
set -euo pipefail
cd "$(dirname "$0")/.."
export LC_ALL=C TZ=UTC
. scripts/lib.sh

started=$(date +%s)
step "setup" bash scripts/setup.sh
step "build" bash scripts/build.sh

passed=()
failed=()
# Each suite has SUITE_TIMEOUT seconds (default 1800; the longest takes ~7 min on 2 cores):
# a hang fails its suite and the rest still run, rather than eating the whole CI budget.
suite() {
  local name=$1 rc=0
  shift
  step "$name" timeout -k 10 "${SUITE_TIMEOUT:-1800}" "$@" || rc=$?
  ((rc != 124)) || echo "npm test: $name did not finish within ${SUITE_TIMEOUT:-1800} s (SUITE_TIMEOUT)"
  if ((rc == 0)); then passed+=("$name"); else failed+=("$name"); fi
}

# A suite started now beside the next ones, its output and result taken by join_beside.
beside_names=() beside_pids=() beside_logs=()
beside() {
  local name=$1 log
  shift
  log=$(mktemp)
  step "$name" timeout -k 10 "${SUITE_TIMEOUT:-1800}" "$@" >"$log" 2>&1 &
  beside_names+=("$name") beside_pids+=($!) beside_logs+=("$log")
}
join_beside() {
  local i rc
  for i in "${!beside_pids[@]}"; do
    rc=0
    wait "${beside_pids[$i]}" || rc=$?
    cat "${beside_logs[$i]}"
    rm -f "${beside_logs[$i]}"
    if ((rc == 0)); then passed+=("${beside_names[$i]}"); else failed+=("${beside_names[$i]}"); fi
  done
  beside_names=() beside_pids=() beside_logs=()
}

# The whole Catch2 suite in two processes, one per core (scripts/catch2_halves.sh): ctest's
# process per TEST_CASE costs three times that. `ctest --test-dir build/native` still runs
# them one by one.
suite "Catch2 tests" bash scripts/catch2_halves.sh build/native/tests/nettrace_tests
# The whole Catch2 suite under AddressSanitizer + UndefinedBehaviorSanitizer (g++, Debug):
# locally with NETTRACE_SANITIZE=1 (about half an hour on 2 cores; [memory] tests measure
# resident bytes, which ASan distorts). CI runs the reading path's tests under the same
# sanitizers below, with the fuzz build.
if [ "${NETTRACE_SANITIZE:-}" = 1 ]; then
  suite "ctest (ASan+UBSan)" bash -c '. scripts/lib.sh && fresh_cmake_tree build/asan && cmake -S . -B build/asan -G Ninja -DCMAKE_BUILD_TYPE=Debug -DNETTRACE_SANITIZE=ON >/dev/null &&
    cmake --build build/asan && ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 build/asan/tests/nettrace_tests "~[memory]"'
fi
# TraceEvent's view of every committed trace, regenerated where dotnet exists (one line and
# skipped where it does not): the baselines the differential tests use must still be TraceEvent's.
suite "TraceEvent baselines" bash scripts/oracle.sh --check
# PerfView's graph code (as dotnet-gcdump ships it) on the committed heap snapshots and on
# generated 1,000,000-object graphs, regenerated where dotnet exists (one line and skipped where
# it does not): the heap baselines the Catch2 tests compare with must still be its reading.
suite "heap reference (PerfView's graph code)" bash scripts/heap-oracle.sh --check
# nettrace ps / collect against live .NET 10 processes (skipped, one line, without dotnet).
suite "live sessions" bash scripts/live-test.sh
# Two test files at a time, one per core (node's default on 2 cores is one): each file
# makes its own temporary directories and servers on port 0, so none shares a path or a port.
suite "node tests" node --test --test-concurrency=2 tests/node/
# Hostile input: every fuzz regression input and every generated seed through all four
# libFuzzer harnesses (clang 14, ASan + UBSan; tests/fuzz/README.md), and the mutation
# study's fixed subset (tests/robustness/README.md): no crash, no hang, an error with an
# offset, bounded memory. The time-boxed random fuzz run and the reading path's Catch2 tests
# under the same sanitizers are CI's extended run (scripts/test-extended.sh, after this one).
suite "fuzz regressions (ASan+UBSan)" bash scripts/fuzz.sh --replay
# The mutation study runs one process at a time: beside the browser suites, which leave a
# core mostly idle while pages load and wait (its result is taken after them).
beside "mutation study" build/native/tests/robustness/nettrace_mutation_study build/native/testdata
# Valid traces of extreme shape (tests/shapes), every CLI command at two sizes: the same memory
# bound, and work linear in the shape (tests/robustness/README.md).
suite "shape study" build/native/tests/robustness/nettrace_shape_study
suite "browser test" node tests/browser/run.mjs
suite "embedded component (strict CSP)" node tests/browser/embed_check.mjs
suite "flame graph and sandwich views" node tests/browser/flame_check.mjs
suite "speedscope import" node tests/browser/speedscope_check.mjs
suite "diagnostics views (exceptions, contention, activities, counters)" node tests/browser/event_views_check.mjs
suite "page layout at 1024/1400/1920 px, units and messages" node tests/browser/layout_check.mjs
join_beside
suite "npm pack consumer" bash scripts/pack_check.sh
suite "moved checkout (build and npm pack)" bash scripts/moved_checkout_check.sh
suite "CLR event table check" python3 scripts/gen_clr_events.py --check

elapsed=$(($(date +%s) - started))
if ((${#failed[@]})); then
  echo "npm test: FAILED: ${failed[*]} (passed: ${passed[*]:-none}; ${elapsed} s)"
  exit 1
fi
echo "npm test: ALL PASSED: ${passed[*]} (${elapsed} s)"

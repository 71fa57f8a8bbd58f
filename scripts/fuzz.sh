#!/usr/bin/env bash
# The libFuzzer harnesses (tests/fuzz/): build, seed, run.
#
#   npm run fuzz -- [--seconds N] [--jobs J] [read|convert|decoder|heap ...]
#       Fuzzes for N seconds in all (default 60), split evenly over the harnesses named
#       (default: all four, one after the other), each with J parallel workers (default
#       1; libFuzzer's fork mode). The corpus grows under build/fuzz/corpus/<harness>/,
#       findings go to build/fuzz/crashes/<harness>/ (crash-*, timeout-*, oom-*, leak-*).
#       A finding does not stop the run; the exit status is 1 if there was any. Ends with
#       executions, exec/s, coverage (cov: edges, ft: features) and CPU time per harness.
#   npm run fuzz -- --replay
#       What npm test runs: builds the four harnesses only, then every input under
#       tests/fuzz/regressions/ and every generated seed through all four (deterministic,
#       seconds); fails on any crash, timeout, out-of-memory or leak.
#   npm run fuzz -- --ci
#       What CI's extended run adds (scripts/test-extended.sh): the same replay, then a
#       time-boxed run (FUZZ_CI_SECONDS, default 120 s wall: 30 s per harness, 2 workers) from
#       a fresh corpus; builds everything, the sanitized reading-path tests included.
#
# Build: clang++-14 with -fsanitize=fuzzer,address,undefined (scripts/setup.sh installs
# clang-14 and libclang-rt-14-dev), a separate CMake configure (-DNETTRACE_FUZZ=ON) into
# build/fuzz/ that leaves the g++ build alone. It also builds the reading path's Catch2
# tests over the same instrumented library (nettrace_sanitized_tests: scripts/test.sh).
# Seeds are generated at build time from the real traces (tests/data) and the v6 writer
# (tests/fuzz/seed_generator.cc).
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lib.sh

FUZZ=build/fuzz
ALL=(read convert decoder heap)
seconds=60
jobs=1
ci=0
replay_only=0
harnesses=()
while (($#)); do
  case $1 in
    --seconds) seconds=$2; shift 2 ;;
    --jobs) jobs=$2; shift 2 ;;
    --ci) ci=1; shift ;;
    --replay) ci=1; replay_only=1; shift ;;
    -h | --help) awk 'NR > 1 && !/^#/ { exit } NR > 1' "$0"; exit 0 ;;
    read | convert | decoder | heap) harnesses+=("$1"); shift ;;
    read_fuzzer | convert_fuzzer | decoder_fuzzer | heap_fuzzer) harnesses+=("${1%_fuzzer}"); shift ;;
    *) echo "fuzz.sh: unknown argument '$1' (see --help)" >&2; exit 2 ;;
  esac
done
((${#harnesses[@]})) || harnesses=("${ALL[@]}")
[[ $seconds =~ ^[0-9]+$ && $jobs =~ ^[1-9][0-9]*$ ]] || { echo "fuzz.sh: --seconds and --jobs take numbers" >&2; exit 2; }

build() {
  if ! command -v clang++-14 >/dev/null; then
    echo "fuzz.sh: clang++-14 is missing (apt-get install clang-14 libclang-rt-14-dev, or scripts/setup.sh)" >&2
    return 1
  fi
  fresh_cmake_tree "$FUZZ" corpus crashes  # what fuzzing found stays
  # -O1 -g with assertions on: libFuzzer's usual trade of speed for readable reports.
  CXX=clang++-14 cmake -S . -B "$FUZZ" -G Ninja -DNETTRACE_FUZZ=ON -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -g" >/dev/null
  if ((replay_only)); then
    cmake --build "$FUZZ" -j 2 --target read_fuzzer convert_fuzzer decoder_fuzzer heap_fuzzer seed_generator nettrace_testdata
  else
    cmake --build "$FUZZ" -j 2
  fi
  # The build also unpacked the corpus into $FUZZ/testdata (cmake/test_data.cmake): the
  # seed corpus comes from its real traces.
  rm -rf "$FUZZ/seeds"
  "$FUZZ/tests/fuzz/seed_generator" "$FUZZ/testdata" "$FUZZ/seeds"
}

seed_dir() { case $1 in decoder | heap) echo "$FUZZ/seeds/$1" ;; *) echo "$FUZZ/seeds/trace" ;; esac; }

# Every regression input and every seed, once, through harness $1 (libFuzzer runs file
# arguments as single inputs and exits non-zero on the first failure).
replay() {
  local h=$1 files=()
  mapfile -t files < <(find tests/fuzz/regressions "$(seed_dir "$h")" -type f ! -name '*.md' | sort)
  "$FUZZ/tests/fuzz/${h}_fuzzer" -rss_limit_mb=2048 -timeout=30 "${files[@]}" >"$FUZZ/logs/replay-$h.log" 2>&1 || {
    tail -40 "$FUZZ/logs/replay-$h.log"
    echo "fuzz.sh: $h: a regression input or seed fails (log: $FUZZ/logs/replay-$h.log)"
    return 1
  }
  echo "$h: ${#files[@]} regression inputs and seeds pass"
}

# Fuzzes harness $1 for $2 seconds with $3 workers into corpus dir $4; prints a summary
# line and returns 1 if it left any finding.
run() {
  local h=$1 secs=$2 workers=$3 corpus=$4 crashes=$FUZZ/crashes/$1 log=$FUZZ/logs/$1.log
  mkdir -p "$corpus" "$crashes"
  local before after maxlen=65538  # traces up to 64 KiB + the 2-byte chunk header
  [ "$h" = decoder ] && maxlen=16384
  before=$(find "$crashes" -type f | wc -l)
  local t0 cpu rc=0
  t0=$(date +%s)
  # Fork mode: the workers share the corpus, and a finding is saved and skipped rather
  # than ending the run (timeouts and out-of-memory inputs are findings too).
  (
    status=0
    "$FUZZ/tests/fuzz/${h}_fuzzer" -fork="$workers" -ignore_crashes=1 -ignore_timeouts=1 -ignore_ooms=1 \
      -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 -malloc_limit_mb=1024 -max_len="$maxlen" \
      -dict=tests/fuzz/nettrace.dict -artifact_prefix="$crashes/" "$corpus" "$(seed_dir "$h")" tests/fuzz/regressions \
      >"$log" 2>&1 || status=$?
    times >"$log.cpu"  # second line: the fuzzer's (children's) user and system CPU time
    exit $status
  ) || rc=$?
  after=$(find "$crashes" -type f | wc -l)
  cpu=$(awk 'NR == 2 { split($1, u, /[ms]/); split($2, s, /[ms]/); printf "%.0f", u[1] * 60 + u[2] + s[1] * 60 + s[2] }' "$log.cpu" 2>/dev/null || echo "?")
  # Fork mode's progress lines: "#EXECS: cov: C ft: F corp: N exec/s E oom/timeout/crash: o/t/c time: Ts ..."
  grep -E '^#[0-9]+: cov:' "$log" | tail -1 | awk -v h="$h" -v w="$workers" -v cpu="$cpu" -v wall=$(($(date +%s) - t0)) '{
    sub(/^#/, "", $1); sub(/:$/, "", $1)
    printf "%-8s %12s executions %8.0f exec/s  cov: %-6s ft: %-7s corpus: %-6s crash/timeout/oom: %s  wall %ss, CPU %ss, %s worker(s)\n",
      h, $1, $1 / (wall > 0 ? wall : 1), $3, $5, $7, $11, wall, cpu, w }'
  if ((after > before)); then
    echo "$h: $((after - before)) new finding(s) in $crashes/ (log: $log):"
    find "$crashes" -type f -newer "$log.start" 2>/dev/null | sed 's/^/  /'
    return 1
  fi
  ((rc == 0)) || { tail -20 "$log"; echo "$h: the fuzzer exited with status $rc (log: $log)"; return 1; }
}

step "fuzz build ($FUZZ)" build
mkdir -p "$FUZZ/logs"
failed=()
if ((ci)); then
  for h in "${ALL[@]}"; do replay "$h" || failed+=("replay $h"); done
  # Random fuzzing in CI: all four from a fresh corpus (FUZZ_CI_HARNESSES narrows it).
  ci_harnesses=()
  ((replay_only)) || ci_harnesses=(${FUZZ_CI_HARNESSES:-${ALL[@]}})
  per=$(((${FUZZ_CI_SECONDS:-120} + 1) / (${#ci_harnesses[@]} ? ${#ci_harnesses[@]} : 1)))
  for h in "${ci_harnesses[@]}"; do
    rm -rf "$FUZZ/ci-corpus/$h"
    touch "$FUZZ/logs/$h.log.start"
    run "$h" "$per" 2 "$FUZZ/ci-corpus/$h" || failed+=("fuzz $h")
  done
else
  per=$((seconds / ${#harnesses[@]}))
  for h in "${harnesses[@]}"; do
    touch "$FUZZ/logs/$h.log.start"
    run "$h" "$per" "$jobs" "$FUZZ/corpus/$h" || failed+=("$h")
  done
fi
if ((${#failed[@]})); then
  echo "fuzz: FAILED: ${failed[*]}"
  exit 1
fi
echo "fuzz: no findings"

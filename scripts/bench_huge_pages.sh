#!/usr/bin/env bash
# The native CLI's heap policy measured (core/cli/huge_page_heap.h): reads of generated traces
# of ~100 MB, ~700 MB and ~1 GB, each with the heap readied as the CLI readies it (reserve
# advised for transparent huge pages) and with glibc's plain heap (`nettrace_bench read
# --plain-heap`), in interleaved rounds (the order of the two flips every round), niced: CPU
# seconds (user + system, what the read cost where wall time also counts waiting on a shared
# machine), wall seconds and peak RSS, each a median over the rounds.
#
#   bash scripts/bench_huge_pages.sh [ROUNDS [FILE...]]   (default 3; needs build/native)
#
# The traces are by default HeartRateMonitor written 4, 25 and 36 times back to back
# (`nettrace_bench repeat`, build/bench/hrm-xN.nettrace, kept between runs): a rundown-heavy
# shape whose method announcements repeat with every copy. Others are named after ROUNDS, e.g.
# the written bursts of `nettrace_bench generate OUT --size-mb N` (small events, the store most
# of the memory).
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=${1:-3}
bench=build/native/tests/nettrace_bench
[ -x "$bench" ] || { echo "bench_huge_pages.sh: no $bench (run scripts/build.sh)" >&2; exit 2; }
mkdir -p build/bench
files=("${@:2}")
((${#files[@]})) || for n in 4 25 36; do
  f=build/bench/hrm-x$n.nettrace
  [ -f "$f" ] || "$bench" repeat build/native/testdata/HeartRateMonitor.10068.nettrace "$f" "$n" >/dev/null
  files+=("$f")
done
log=$(mktemp)
trap 'rm -f "$log"' EXIT
for ((r = 0; r < rounds; r++)); do
  for f in "${files[@]}"; do
    if ((r % 2)); then modes=(plain huge); else modes=(huge plain); fi
    for m in "${modes[@]}"; do
      flag=
      [ "$m" = plain ] && flag=--plain-heap
      echo "$m $(nice -n 10 "$bench" read "$f" --runs 1 $flag)" >>"$log"
    done
  done
done
# One line per trace and heap: medians over the rounds.
node -e '
const lines = require("fs").readFileSync(process.argv[1], "utf8").trim().split("\n");
const runs = {};
for (const l of lines) {
  const [mode, json] = [l.slice(0, l.indexOf(" ")), JSON.parse(l.slice(l.indexOf(" ") + 1))];
  (runs[json.file + " " + mode] ??= []).push(json);
}
const median = (xs) => { const s = [...xs].sort((a, b) => a - b); return s[Math.floor(s.length / 2)]; };
console.log("trace | MB | events | heap | CPU s | wall s | peak RSS MiB | peak bytes/event | rounds");
for (const [key, rs] of Object.entries(runs)) {
  const [file, mode] = key.split(" ");
  const peak = median(rs.map((r) => r.peakRssMb));
  console.log([file.replace(/.*\//, ""), (rs[0].bytes / 1e6).toFixed(0), rs[0].events, mode,
    median(rs.map((r) => r.medianCpuSeconds)).toFixed(3), median(rs.map((r) => r.medianSeconds)).toFixed(3),
    peak.toFixed(1), (peak * 1048576 / rs[0].events).toFixed(1), rs.length].join(" | "));
}' "$log"

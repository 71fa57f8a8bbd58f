#!/usr/bin/env bash
# Checksums of what every `nettrace` command writes, with its common options, on every
# committed trace (and on each trace converted to NetTrace v6): one line per run, "trace
# command…  exit  sha256(stdout)  sha256(written file)  sha256(stderr)". A refactor that
# must not change behaviour is checked by comparing the lists before and after it:
#
#   bash scripts/output_checksums.sh >before.txt      # on the commit you start from
#   bash scripts/output_checksums.sh >after.txt       # after the change
#   diff before.txt after.txt                         # empty: byte-identical outputs
#
# Needs build/native (scripts/build.sh). Takes a few minutes on one core.
#   --tool PATH   another build's nettrace (default build/native/nettrace)
#   --only NAME   only traces whose file name contains NAME
set -euo pipefail
cd "$(dirname "$0")/.."
export LC_ALL=C TZ=UTC

tool=build/native/nettrace
only=
while (($#)); do
  case $1 in
    --tool) tool=$2; shift 2 ;;
    --only) only=$2; shift 2 ;;
    *) echo "output_checksums.sh: unknown argument '$1' (--tool PATH, --only NAME)" >&2; exit 2 ;;
  esac
done
[ -x "$tool" ] || { echo "output_checksums.sh: no $tool (run scripts/build.sh)" >&2; exit 2; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

hash() { sha256sum "$1" | cut -c1-16; }

# One run: its label, then the command line (the file it writes, if any, is $work/out).
run() {
  local label=$1 rc=0
  shift
  rm -f "$work/out"
  "$tool" "$@" >"$work/stdout" 2>"$work/stderr" || rc=$?
  # Paths of this machine out of what is compared.
  sed -i "s#$work#OUT#g; s#$(pwd)#REPO#g" "$work/stderr"
  local written=-
  [ -f "$work/out" ] && written=$(hash "$work/out")
  printf '%s\t%s\t%s\t%s\t%s\n' "$label" "$rc" "$(hash "$work/stdout")" "$written" "$(hash "$work/stderr")"
}

# Every command with its common options on one trace file.
commands() {
  local name=$1 t=$2
  run "$name summary" summary "$t"
  run "$name counts" counts "$t"
  run "$name events" events "$t"
  run "$name events all" events "$t" --limit 100000000
  run "$name events page" events "$t" --offset 500 --limit 50
  run "$name events frames" events "$t" --frames --limit 200
  run "$name events name" events "$t" --name GC/Start --limit 1000
  run "$name events provider" events "$t" --provider Microsoft-Windows-DotNETRuntime --limit 300
  run "$name events window" events "$t" --from 100 --to 900 --limit 300
  run "$name events text" events "$t" --text gc --limit 300
  run "$name events text payload" events "$t" --text System --limit 300
  run "$name stack 0" stack "$t" 0
  run "$name stack 1000" stack "$t" 1000
  local w
  for w in auto count thread-time managed-thread-time traceevent-thread-time; do
    run "$name flame $w" flame "$t" --weight "$w"
  done
  run "$name flame wait-time" flame "$t" --event Contention/Start --weight wait-time
  run "$name flame bytes" flame "$t" --event GC/AllocationTick
  run "$name flame exceptions" flame "$t" --event Exception/Start
  run "$name flame folded" flame "$t" --format folded
  run "$name flame speedscope" flame "$t" --format speedscope
  run "$name flame inverted" flame "$t" --inverted
  run "$name flame by-thread" flame "$t" --by-thread --by-process
  run "$name flame stitched" flame "$t" --weight traceevent-thread-time --stitch-async
  run "$name flame modules" flame "$t" --group-by-module
  run "$name flame jmc" flame "$t" --just-my-code --drop-time-leaves
  run "$name flame pats" flame "$t" --group-pats 'System.*->SYS' --fold-pats '*!Dispatch*' --exclude-pats '*Idle*'
  run "$name flame window" flame "$t" --from 100 --to 900
  run "$name top" top "$t"
  run "$name top 5 inverted" top "$t" -n 5 --inverted
  # The heaviest function by exclusive weight after the time leaves, whatever the trace holds.
  local fn
  fn=$("$tool" top "$t" -n 1 --drop-time-leaves 2>/dev/null | sed -n 's/.*"functions":\[{"name":"\([^"]*\)".*/\1/p' || true)
  run "$name sandwich" sandwich "$t" "${fn:-UNMANAGED_CODE_TIME}"
  run "$name export speedscope" export "$t" --format speedscope -o "$work/out"
  run "$name export speedscope time" export "$t" --format speedscope --weight thread-time -o "$work/out"
  run "$name export speedscope sampled" export "$t" --format speedscope --weight thread-time --speedscope sampled -o "$work/out"
  run "$name export chrome" export "$t" --format chrome -o "$work/out"
  run "$name export csv" export "$t" --format csv -o "$work/out"
  run "$name export csv stack-text" export "$t" --format csv --stack-text -o "$work/out"
  run "$name export stacks-csv" export "$t" --format stacks-csv -o "$work/out"
  local e
  for e in GC/Start Thread/Sample Method/LoadVerbose GC/AllocationTick Exception/Start; do
    run "$name export csv payload $e" export "$t" --format csv --event "$e" -o "$work/out"
  done
  run "$name diff" diff "$t" "$t" --a-to 1000 --b-from 1000
  run "$name diff folded" diff "$t" "$t" --format folded --inverted
  local c f
  for c in gc jit exceptions contention activities counters threadpool; do
    for f in json csv; do run "$name $c $f" "$c" "$t" --format "$f"; done
  done
  run "$name convert" convert "$t" "$work/out"
  run "$name convert window" convert "$t" "$work/out" --from 100 --to 900
}

traces=()
for gz in $(git ls-files 'tests/data/*.nettrace.gz' 'tests/data/*.netperf.gz' 'tests/netperf_legacy/data/*.gz'); do
  [ -z "$only" ] || [[ $gz == *"$only"* ]] || continue
  traces+=("$gz")
done
for gz in "${traces[@]}"; do
  name=$(basename "$gz" .gz)
  gzip -dc "$gz" >"$work/$name"
  commands "$name" "$work/$name"
  # The same trace as NetTrace v6 (convert's output), the reading path of v6 files.
  if "$tool" convert "$work/$name" "$work/v6.nettrace" >/dev/null 2>&1; then
    commands "$name(v6)" "$work/v6.nettrace"
  fi
  rm -f "$work/$name" "$work/v6.nettrace"
done
# Damaged and hostile files (fuzz regressions): what is read before the fault, and the errors.
for f in $(git ls-files 'tests/fuzz/regressions/*.nettrace'); do
  [ -z "$only" ] || [[ $f == *"$only"* ]] || continue
  commands "$(basename "$f")" "$f"
done
run "schema" schema --json
run "write-sample-universal" write-sample-universal "$work/out"
"$tool" write-sample-universal "$work/universal.nettrace" >/dev/null 2>&1
commands "sample-universal" "$work/universal.nettrace"

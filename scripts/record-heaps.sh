#!/usr/bin/env bash
# Takes the heap snapshots of tests/data/heap/ from tests/apps/HeapGraphs (object graphs of
# known shape; tests/data/heap/MANIFEST.md lists them and the program's measured sizes).
#
#   scripts/record-heaps.sh [OUT]            build the program, snapshot it into OUT
#                                            (default build/recorded-heaps/)
#   scripts/record-heaps.sh --commit [OUT]   ... then gzip them (gzip -9n) into tests/data/heap/
#
# Two ways of taking a snapshot, as .NET users do: `dotnet-gcdump collect -p PID` (a .gcdump),
# and `dotnet-trace collect` with the runtime's heap-dump keywords (a .nettrace holding the
# GCBulk* events: the runtime walks the heap in an induced gen-2 GC when a session enables
# GCHeapCollect). Each snapshot is taken of a fresh run of the program: `small` holds the
# shapes only, `big` adds a seeded random graph of 30,000 BigNode objects.
# Without `dotnet` the script prints one line and exits 0.
set -euo pipefail
cd "$(dirname "$0")/.."
export LC_ALL=C TZ=UTC DOTNET_CLI_TELEMETRY_OPTOUT=1 DOTNET_NOLOGO=1 DOTNET_SKIP_FIRST_TIME_EXPERIENCE=1

TOOLS_VERSION=10.0.750501
TOOLS=build/dotnet-tools
DATA=tests/data/heap
# The program runs from a fixed folder outside the checkout: module paths are recorded in the
# snapshots and must not name where the checkout lives.
STAGE=/tmp/nettrace-heap-apps
# GC 0x1 | Type 0x80000 | GCHeapDump 0x100000 | GCHeapCollect 0x800000 | GCHeapAndTypeNames
# 0x1000000: TraceEvent's ClrTraceEventParser.Keywords.GCHeapSnapshot, what dotnet-gcdump asks for.
HEAP_KEYWORDS=0x1980001

commit=0
out=build/recorded-heaps
for arg in "$@"; do
  case "$arg" in
    --commit) commit=1 ;;
    -h | --help) sed -n '2,15p' "$0"; exit 0 ;;
    -*) echo "usage: scripts/record-heaps.sh [--commit] [OUT]" >&2; exit 2 ;;
    *) out=$arg ;;
  esac
done

if ! command -v dotnet >/dev/null 2>&1; then
  echo "record-heaps: skipped: dotnet not found"
  exit 0
fi

for tool in dotnet-gcdump dotnet-trace; do
  if [ ! -x "$TOOLS/$tool" ]; then
    dotnet tool install "$tool" --version "$TOOLS_VERSION" --tool-path "$TOOLS" >/dev/null
  fi
done
dotnet build tests/apps/HeapGraphs -c Release -v quiet -nologo >/dev/null
rm -rf "$STAGE" && mkdir -p "$STAGE" "$out"
cp -r build/apps/bin/HeapGraphs/Release/net10.0/. "$STAGE/"

# start_program ARGS...: runs the program with stdin on a FIFO, waits for "ready PID".
start_program() {
  rm -f "$STAGE/in" "$STAGE/out" && mkfifo "$STAGE/in"
  (cd "$STAGE" && exec dotnet HeapGraphs.dll "$@" <"$STAGE/in" >"$STAGE/out" 2>&1) &
  exec 7>"$STAGE/in"
  for _ in $(seq 600); do
    if grep -q '^ready ' "$STAGE/out" 2>/dev/null; then break; fi
    sleep 0.1
  done
  pid=$(awk '/^ready /{print $2}' "$STAGE/out")
  [ -n "$pid" ] || { echo "record-heaps: the program did not start" >&2; cat "$STAGE/out" >&2; exit 1; }
  head -1 "$STAGE/out" >"$out/$name.facts.json"
}
stop_program() { echo exit >&7; exec 7>&-; wait; }

for shape in small big; do
  big_args=()
  [ "$shape" = big ] && big_args=(--big 30000)
  name=heapgraphs-$shape
  start_program "${big_args[@]}"
  "$TOOLS/dotnet-gcdump" collect -p "$pid" -o "$out/$name.gcdump" >/dev/null
  "$TOOLS/dotnet-gcdump" report "$out/$name.gcdump" >"$out/$name.gcdump.report.txt"
  stop_program
  start_program "${big_args[@]}"
  "$TOOLS/dotnet-trace" collect -p "$pid" --providers "Microsoft-Windows-DotNETRuntime:$HEAP_KEYWORDS:5" \
    --duration 00:00:00:08 -o "$out/$name.nettrace" >/dev/null
  stop_program
  echo "record-heaps: $out/$name.{gcdump,nettrace}"
done

if [ "$commit" = 1 ]; then
  mkdir -p "$DATA"
  for f in "$out"/*.gcdump "$out"/*.nettrace "$out"/*.facts.json "$out"/*.report.txt; do
    gzip -9nc "$f" >"$DATA/$(basename "$f").gz"
  done
  echo "record-heaps: committed into $DATA; now scripts/heap-oracle.sh --update (and check MANIFEST.md)"
fi

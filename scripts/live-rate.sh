#!/usr/bin/env bash
# Measures the events/s a live `nettrace collect` session sustains without dropped events:
# tests/apps/EventFlood writes small EventSource events (RATE/s, 0 = as fast as one thread
# can) for SECONDS; collect prints its live lines and the final count; the file's
# NetTrace-Flood/Tick count must equal what the program wrote. Not part of npm test.
#   scripts/live-rate.sh [RATE=0] [SECONDS=5]
set -euo pipefail
cd "$(dirname "$0")/.."
NT=${NETTRACE_TOOL:-build/native/nettrace}
APP=build/apps/bin/EventFlood/Release/net10.0/EventFlood.dll
[ -f "$APP" ] || dotnet build tests/apps/EventFlood -c Release -nologo -v q >/dev/null
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
dotnet "$APP" "${1:-0}" "${2:-5}" >"$out/written.txt" &
pid=$!
for _ in $(seq 1 100); do ls "${TMPDIR:-/tmp}"/dotnet-diagnostic-$pid-*-socket >/dev/null 2>&1 && break; sleep 0.05; done
/usr/bin/time -f "client: %e s wall, %U s user, %S s sys, %M KB max RSS" \
  "$NT" collect --pid $pid --providers NetTrace-Flood -o "$out/flood.nettrace"
wait $pid
echo "program: $(cat "$out/written.txt"); file: $("$NT" counts "$out/flood.nettrace" | grep 'NetTrace-Flood/Tick')"

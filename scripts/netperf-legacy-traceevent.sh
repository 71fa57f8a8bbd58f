#!/usr/bin/env bash
# Has TraceEvent 2.0.56 (tests/netperf_legacy/LegacyReader.csproj) read the NetPerf version 1
# and 2 files of tests/netperf_legacy/data and checks that its per-type counts (TraceLog's,
# the form of the baselines) equal `nettrace counts` of the same files. Needs dotnet and a
# NuGet feed that serves TraceEvent 2.0.56; without dotnet it says so and exits 0.
set -euo pipefail
cd "$(dirname "$0")/.."
if ! command -v dotnet >/dev/null 2>&1; then
  echo "netperf-legacy: skipped: dotnet not found"
  exit 0
fi
TOOL=${NETTRACE_TOOL:-build/native/nettrace}
nice -n 10 dotnet build tests/netperf_legacy/LegacyReader.csproj -c Release -o build/netperf-legacy/bin -nologo \
  --disable-build-servers -p:UseSharedCompilation=false >build/netperf-legacy/build.log 2>&1 ||
  { echo "netperf-legacy: the reader did not build (build/netperf-legacy/build.log)"; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
status=0
for gz in tests/netperf_legacy/data/*.netperf.gz; do
  f="$tmp/$(basename "${gz%.gz}")"
  gzip -dc "$gz" >"$f"
  dotnet build/netperf-legacy/bin/netperf-legacy-reader.dll "$f" >"$f.traceevent"
  grep '^tracelog ' "$f.traceevent" | sed 's/^tracelog //' >"$f.te"
  "$TOOL" counts "$f" >"$f.ours"
  if diff -u "$f.te" "$f.ours" >"$f.diff"; then
    echo "netperf-legacy: $(basename "$f"): TraceEvent 2.0.56 = nettrace ($(wc -l <"$f.ours") types)"
  else
    echo "netperf-legacy: $(basename "$f"): differs"; cat "$f.traceevent" "$f.diff"; status=1
  fi
done
exit $status

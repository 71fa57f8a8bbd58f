#!/usr/bin/env bash
# The heap reference (tests/heap_oracle/README.md): what PerfView's graph code, as dotnet-gcdump
# 10.0.750501 ships it, makes of the snapshots in tests/data/heap/ — per type the count,
# shallow size and PerfView-inclusive size, and every node's spanning-tree parent — written
# as baselines the Catch2 heap tests compare with. A .nettrace snapshot is first converted by
# `dotnet-gcdump convert`, so its baseline is the tool's reading of the heap-dump events.
#
#   scripts/heap-oracle.sh            write build/heap-oracle-out/<snapshot>.oracle.json
#   scripts/heap-oracle.sh --update   ... then gzip them into tests/data/heap/oracle/ (committed)
#   scripts/heap-oracle.sh --check    ... then compare with tests/data/heap/oracle/; also
#                                     generate 1,000,000-object graphs (tests/bench/heap_gen) and
#                                     compare `nettrace heap` with the reference on them
#
# Without `dotnet` it prints one line and exits 0: the committed baselines are used as they are.
set -euo pipefail
shopt -s nullglob
cd "$(dirname "$0")/.."
export LC_ALL=C TZ=UTC DOTNET_CLI_TELEMETRY_OPTOUT=1 DOTNET_NOLOGO=1 DOTNET_SKIP_FIRST_TIME_EXPERIENCE=1

TOOLS_VERSION=10.0.750501
TOOLS=build/dotnet-tools
OUT=build/heap-oracle-out
BASE=tests/data/heap/oracle
NETTRACE_TOOL=${NETTRACE_TOOL:-build/native/nettrace}
GENERATOR=${HEAP_GEN:-build/native/tests/heap_gen}

mode=run
case "${1:-}" in
  --update) mode=update ;;
  --check) mode=check ;;
  "") ;;
  *) echo "usage: scripts/heap-oracle.sh [--update|--check]" >&2; exit 2 ;;
esac

if ! command -v dotnet >/dev/null 2>&1; then
  echo "heap-oracle: skipped: dotnet not found (the committed baselines in $BASE stand)"
  exit 0
fi
[ -x "$TOOLS/dotnet-gcdump" ] || dotnet tool install dotnet-gcdump --version "$TOOLS_VERSION" --tool-path "$TOOLS" >/dev/null
dotnet build tests/heap_oracle -c Release -v quiet -nologo >/dev/null
ORACLE=(dotnet build/heap-oracle/bin/Release/net10.0/heap-oracle.dll)

rm -rf "$OUT" && mkdir -p "$OUT"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for gz in tests/data/heap/*.gcdump.gz tests/data/heap/*.nettrace.gz; do
  name=$(basename "$gz" .gz)
  gzip -dc "$gz" >"$tmp/$name"
  input="$tmp/$name"
  if [[ "$name" == *.nettrace ]]; then
    "$TOOLS/dotnet-gcdump" convert "$input" -o "$tmp/$name.gcdump" >/dev/null
    input="$tmp/$name.gcdump"
  fi
  "${ORACLE[@]}" "$input" "$OUT/$name.oracle.json"
done

status=0
case "$mode" in
  update)
    mkdir -p "$BASE"
    for f in "$OUT"/*.oracle.json; do gzip -9nc "$f" >"$BASE/$(basename "$f").gz"; done
    echo "heap-oracle: baselines written to $BASE"
    ;;
  check)
    for f in "$OUT"/*.oracle.json; do
      if ! cmp -s "$f" <(gzip -dc "$BASE/$(basename "$f").gz" 2>/dev/null); then
        echo "heap-oracle: $(basename "$f") differs from $BASE" >&2
        status=1
      fi
    done
    # Big generated graphs: the reference's rows against `nettrace heap`'s.
    for objects in 1000000; do
      "$GENERATOR" --objects "$objects" --seed 7 -o "$tmp/gen-$objects.gcdump"
      "${ORACLE[@]}" "$tmp/gen-$objects.gcdump" "$tmp/gen-$objects.oracle.json"
      "$NETTRACE_TOOL" heap "$tmp/gen-$objects.gcdump" >"$tmp/gen-$objects.json"
      node tests/heap_oracle/compare_rows.mjs "$tmp/gen-$objects.oracle.json" "$tmp/gen-$objects.json" || status=1
    done
    [ "$status" = 0 ] && echo "heap-oracle: the baselines and the generated graphs agree"
    ;;
esac
exit "$status"

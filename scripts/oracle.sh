#!/usr/bin/env bash
# The reference tool: what TraceEvent (the library PerfView and dotnet-trace are built on) sees
# in every trace under tests/data/, written as machine-comparable files (tests/oracle/README.md).
#
#   scripts/oracle.sh            build tests/oracle, write build/oracle-out/<trace file name>/
#   scripts/oracle.sh --update   ... then copy the results into tests/data/oracle/ (committed)
#   scripts/oracle.sh --check    ... then compare with tests/data/oracle/; exit 1 on a difference
#
# Every mode also runs the v6 round trip: each trace TraceEvent read is converted to NetTrace v6
# by ${NETTRACE_TOOL:-build/native/nettrace} and must read back in TraceEvent with the same
# events, fields and stacks (tests/oracle/README.md, "v6 round trip"); exit 1 if not.
#
# Without `dotnet` it prints one line and exits 0: the committed baselines are used as they are.
# Traces are unpacked into a temporary folder (never beside the originals); the TraceEvent
# oracle runs once over all of them, then dotnet-trace (convert + report) over the traces with
# CPU samples, two at a time. Large outputs are compressed with `gzip -9n` (no name, no time:
# the same content gives the same bytes); comparisons are of the decompressed content.
set -euo pipefail
shopt -s nullglob
cd "$(dirname "$0")/.."
# TZ: TraceEvent's PayloadString prints DateTimes in local time. LC_ALL: dotnet-trace report
# formats percentages with the current culture. Both pinned so the files do not depend on them.
export LC_ALL=C TZ=UTC DOTNET_CLI_TELEMETRY_OPTOUT=1 DOTNET_NOLOGO=1 DOTNET_SKIP_FIRST_TIME_EXPERIENCE=1

DOTNET_TRACE_VERSION=10.0.750501
TOOLS=build/dotnet-tools
OUT=build/oracle-out
BASE=tests/data/oracle
SAMPLE_KEY='Microsoft-DotNETCore-SampleProfiler/Thread/Sample, '
COMPRESSED=(events.jsonl stacks.jsonl cpu.folded speedscope.json)
NETTRACE_TOOL=${NETTRACE_TOOL:-build/native/nettrace}

mode=run
case "${1:-}" in
  --update) mode=update ;;
  --check) mode=check ;;
  "") ;;
  *) echo "usage: scripts/oracle.sh [--update|--check]" >&2; exit 2 ;;
esac

if ! command -v dotnet >/dev/null 2>&1; then
  echo "oracle: skipped: dotnet not found; the committed baselines in tests/data/oracle are used as they are"
  exit 0
fi

now() { date +%s%N; }
secs() { local t=$((($(now) - $1) / 10000000)); printf '%d.%02d s' $((t / 100)) $((t % 100)); }

build_tools() {
  mkdir -p build/oracle
  if ! nice -n 10 dotnet build tests/oracle/Oracle.csproj -c Release -o build/oracle/bin -nologo \
    -v q >build/oracle/build.log 2>&1; then
    cat build/oracle/build.log >&2
    echo "oracle: build of tests/oracle failed (log above)" >&2
    exit 1
  fi
  local have=""
  [ -x "$TOOLS/dotnet-trace" ] && have=$("$TOOLS/dotnet-trace" --version 2>/dev/null || true)
  if [ "${have%%+*}" != "$DOTNET_TRACE_VERSION" ]; then
    [ -n "$have" ] && dotnet tool uninstall dotnet-trace --tool-path "$TOOLS" >/dev/null
    dotnet tool install dotnet-trace --version "$DOTNET_TRACE_VERSION" --tool-path "$TOOLS" >/dev/null
  fi
}

# Unpacks every trace of tests/data (gzip'd or not, any subfolder, not the baselines) into
# $tmp/traces with the same layout; fills the array `traces`. Output folders are named by
# file name alone, so two traces with the same name in different folders are refused.
unpack_traces() {
  traces=()
  local f rel dest
  declare -A seen=()
  while IFS= read -r f; do
    rel=${f#tests/data/}
    rel=${rel%.gz}
    if [ -n "${seen[$(basename "$rel")]:-}" ]; then
      echo "oracle: two traces named $(basename "$rel"): ${seen[$(basename "$rel")]} and $f" >&2
      exit 1
    fi
    seen[$(basename "$rel")]=$f
    dest="$tmp/traces/$rel"
    mkdir -p "$(dirname "$dest")"
    case "$f" in
      *.gz) gzip -dc "$f" >"$dest" ;;
      *) cp "$f" "$dest" ;;
    esac
    traces+=("$dest")
  done < <(find tests/data -path "$BASE" -prune -o -type f \
    \( -name '*.nettrace' -o -name '*.netperf' -o -name '*.nettrace.gz' -o -name '*.netperf.gz' \) -print | LC_ALL=C sort)
}

# dotnet-trace on one trace (argument: the unpacked trace). Each run gets its own copy of the
# trace, because dotnet-trace writes its .etlx beside the trace it reads.
run_dotnet_trace() {
  local trace=$1 name dir work start
  name=$(basename "$trace")
  dir="$OUT/$name"
  work=$(mktemp -d "$tmp/dt.XXXXXX")
  start=$(now)
  # Runs inside `|| …` (set -e is off there): each step checks for itself.
  cp "$trace" "$work/$name" || return 1
  if dt_run convert "$work/convert.log" convert --format Speedscope -o "$work/out" "$work/$name"; then
    normalise_speedscope "$work/out.speedscope.json" "$name" >"$dir/speedscope.json" || return 1
  fi
  dt_run topN "$dir/topN.txt" report "$work/$name" topN || true
  dt_run topN-inclusive "$dir/topN-inclusive.txt" report "$work/$name" topN --inclusive || true
  rm -rf "$work"
  echo "oracle: $name: dotnet-trace $(secs "$start")" >&2
}

# dt_run LABEL STDOUT ARGS...: runs dotnet-trace (in $work, $dir from the caller). A non-zero
# exit or anything on stderr (convert reports some failures there and still exits 0) is a
# failure: STDOUT is removed and one line "LABEL: exit N: <first stderr line>" is added to
# dotnet-trace-error.txt, the temporary folder replaced by <tmp>.
dt_run() {
  local label=$1 stdout=$2 rc=0
  shift 2
  nice -n 10 "$TOOLS/dotnet-trace" "$@" >"$stdout" 2>"$work/stderr" || rc=$?
  if ((rc == 0)) && [ ! -s "$work/stderr" ]; then return 0; fi
  rm -f "$stdout"
  printf '%s: exit %d: %s\n' "$label" "$rc" "$(head -n 1 "$work/stderr" | sed "s|$work|<tmp>|g")" \
    >>"$dir/dotnet-trace-error.txt"
  return 1
}

# The speedscope "name" is dotnet-trace's output file name (a temporary path here): replaced by
# the trace file name. Everything else, "exporter" included (it names the TraceEvent version
# inside dotnet-trace, fixed for a given tool version), is kept byte for byte.
normalise_speedscope() {
  local file=$1 name
  name=$(printf '%s' "$2" | sed 's/[\/&]/\\&/g')
  if ! head -c 300 "$file" | grep -q '^{"exporter": "[^"]*", "name": "[^"]*"'; then
    echo "oracle: unexpected speedscope header in $file" >&2
    return 1
  fi
  sed -E "1s/^(\{\"exporter\": \"[^\"]*\", \"name\": \")[^\"]*\"/\1$name\"/" "$file"
}

# Prints the content of a result file, decompressed when it is gzip'd.
content() { case "$1" in *.gz) gzip -dc "$1" ;; *) cat "$1" ;; esac; }

compress_outputs() {
  local f
  for f in "${COMPRESSED[@]}"; do
    find "$OUT" -type f -name "$f" -print0 | xargs -0 -r -n 1 -P 2 gzip -9n
  done
}

# Copies build/oracle-out into tests/data/oracle. A file whose content is unchanged is left
# alone (no churn in git); files and trace folders that are no longer produced are removed.
update_baselines() {
  local d name f rel changed=0
  mkdir -p "$BASE"
  for d in "$OUT"/*/; do
    name=$(basename "$d")
    mkdir -p "$BASE/$name"
    for f in "$d"*; do
      rel=$(basename "$f")
      if [ -f "$BASE/$name/$rel" ] && cmp -s <(content "$f") <(content "$BASE/$name/$rel"); then continue; fi
      cp "$f" "$BASE/$name/$rel"
      changed=$((changed + 1))
    done
    for f in "$BASE/$name"/*; do
      [ -e "$d$(basename "$f")" ] || { rm -f "$f"; changed=$((changed + 1)); }
    done
  done
  for d in "$BASE"/*/; do
    [ -d "$OUT/$(basename "$d")" ] || { rm -rf "$d"; changed=$((changed + 1)); }
  done
  echo "oracle: updated $BASE ($changed files changed, $(du -sk "$BASE" | cut -f1) KiB in all)"
}

# Compares build/oracle-out with tests/data/oracle by decompressed content; prints one line per
# difference (with the first differing lines, cut short) and returns 1 if there is any.
check_baselines() {
  local d name f rel problems=0
  for d in "$OUT"/*/; do
    name=$(basename "$d")
    if [ ! -d "$BASE/$name" ]; then
      echo "oracle: new trace without baselines: $name"
      problems=$((problems + 1))
      continue
    fi
    for f in "$d"*; do
      rel=$(basename "$f")
      if [ ! -f "$BASE/$name/$rel" ]; then
        echo "oracle: new file: $name/$rel"
      elif ! cmp -s <(content "$f") <(content "$BASE/$name/$rel"); then
        echo "oracle: differs: $name/$rel"
        diff <(content "$BASE/$name/$rel") <(content "$f") | head -n 4 | cut -c 1-200 | sed 's/^/    /' || true
      else
        continue
      fi
      problems=$((problems + 1))
    done
    for f in "$BASE/$name"/*; do
      [ -e "$d$(basename "$f")" ] && continue
      echo "oracle: no longer produced: $name/$(basename "$f")"
      problems=$((problems + 1))
    done
  done
  for d in "$BASE"/*/; do
    [ -d "$OUT/$(basename "$d")" ] && continue
    echo "oracle: baselines of a trace that is gone: $(basename "$d")"
    problems=$((problems + 1))
  done
  if ((problems)); then
    echo "oracle: $problems difference(s) with $BASE; after review: scripts/oracle.sh --update"
    return 1
  fi
  echo "oracle: all baselines in $BASE match"
}

# v6 round trip through TraceEvent: converts every trace TraceEvent read (from $OUT) with
# `nettrace convert`, runs the oracle over the v6 files in one pass and compares the two views
# (tests/oracle/v6_roundtrip.mjs). Prints what was skipped and why; returns 1 on any difference.
v6_round_trip() {
  local t name start status rc=0 names=() files=()
  if [ ! -x "$NETTRACE_TOOL" ]; then
    echo "oracle: v6 round trip: skipped: $NETTRACE_TOOL is not built"
    return 0
  fi
  if ! command -v node >/dev/null 2>&1; then
    echo "oracle: v6 round trip: skipped: node not found"
    return 0
  fi
  start=$(now)
  mkdir -p "$tmp/v6" "$tmp/v6-out"
  for t in "${traces[@]}"; do
    name=$(basename "$t")
    if [ ! -e "$OUT/$name/events.jsonl.gz" ] && [ ! -e "$OUT/$name/events.jsonl" ]; then
      if [ -s "$OUT/$name/error.txt" ]; then
        echo "oracle: v6 round trip: $name: skipped: TraceEvent cannot read it ($(tail -n 1 "$OUT/$name/error.txt"))"
      else
        echo "oracle: v6 round trip: $name: no oracle output for the original trace in $OUT"
        rc=1
      fi
      continue
    fi
    status=0
    v6_convert "$t" "$tmp/v6/$name" || status=$?
    if ((status == 2)); then continue; fi
    if ((status)); then
      rc=1
      continue
    fi
    names+=("$name")
    files+=("$tmp/v6/$name")
    # Rule field-past-payload (tests/oracle/v6_roundtrip.mjs): the fields our reader finds the
    # payload ending before, which TraceEvent reads from whatever follows the event.
    "$NETTRACE_TOOL" events "$t" --limit 1000000000 | node tests/oracle/v6_roundtrip.mjs --past-payload "$name" >>"$tmp/v6-past-payload.jsonl"
  done
  if ((${#files[@]})); then
    if ! nice -n 10 dotnet build/oracle/bin/oracle.dll --dotnet-trace "$DOTNET_TRACE_VERSION" "$tmp/v6-out" \
      "${files[@]}" 2>"$tmp/v6-oracle.log"; then
      cat "$tmp/v6-oracle.log" >&2
      echo "oracle: v6 round trip: the oracle failed on the converted traces (log above)"
      return 1
    fi
    node tests/oracle/v6_roundtrip.mjs --past-payload-list "$tmp/v6-past-payload.jsonl" "$OUT" "$tmp/v6-out" "${names[@]}" || rc=1
  fi
  echo "oracle: v6 round trip over ${#names[@]} traces $(secs "$start")" >&2
  return $rc
}

# v6_convert TRACE OUT: `nettrace convert`, then a check that OUT starts with the v6 stream
# header ("Nettrace", reserved 0, major version 6). Returns 0 when OUT is to be compared,
# 2 when the trace is skipped (our reader does not read it; the reason is printed), 1 on a
# failure. A trace that ends early converts to what was read before the fault (the CLI exits 1
# then); it is compared when TraceEvent, too, read the original only with ContinueOnError.
v6_convert() {
  local trace=$1 out=$2 name err
  name=$(basename "$trace")
  if ! "$NETTRACE_TOOL" convert "$trace" "$out" 2>"$tmp/convert.log"; then
    err=$(head -n 1 "$tmp/convert.log" | sed -e "s|^nettrace: $trace: ||" -e 's/ (the output is incomplete.*//')
    if grep -q '^nettrace: .*: unsupported-format at offset' "$tmp/convert.log"; then
      echo "oracle: v6 round trip: $name: skipped: nettrace convert does not read it: $err"
      return 2
    fi
    if ! grep -q '^nettrace: .*: truncated at offset' "$tmp/convert.log" ||
      ! grep -q '"continueOnError":true' "$OUT/$name/meta.json"; then
      echo "oracle: v6 round trip: $name: nettrace convert failed: $err"
      return 1
    fi
    echo "oracle: v6 round trip: $name: ends early, as TraceEvent found too (ContinueOnError): converted up to the fault"
  fi
  if [ "$(head -c 16 "$out" | od -An -tx1 | tr -d ' \n')" != 4e657474726163650000000006000000 ]; then
    echo "oracle: v6 round trip: $name: nettrace convert did not write a NetTrace v6 stream header"
    return 1
  fi
}

# TraceEvent's name for every CLR event name question (core/write/clr_name_probe.h): the probe
# trace written by the CLI, named by the oracle (tests/oracle/ClrNames.cs) into
# $OUT/traceevent-clr-names.txt; --update keeps it in tests/data/clr-names/, --check compares.
# scripts/gen_clr_events.py and the [clr] unit tests hold our names to the kept file.
CLR_NAMES=tests/data/clr-names/traceevent-clr-names.txt
clr_names() {
  if [ ! -x "$NETTRACE_TOOL" ]; then
    echo "oracle: CLR names: skipped: $NETTRACE_TOOL is not built"
    return 0
  fi
  "$NETTRACE_TOOL" write-clr-name-probe "$tmp/clr-name-probe.nettrace"
  nice -n 10 dotnet build/oracle/bin/oracle.dll --clr-names "$tmp/clr-name-probe.nettrace" \
    "$tmp/clr-name-probe.nettrace.probes.tsv" "$OUT/traceevent-clr-names.txt" || return 1
  case $mode in
    update) cmp -s "$OUT/traceevent-clr-names.txt" "$CLR_NAMES" || cp "$OUT/traceevent-clr-names.txt" "$CLR_NAMES" ;;
    check)
      if ! cmp -s "$OUT/traceevent-clr-names.txt" "$CLR_NAMES"; then
        echo "oracle: differs: $CLR_NAMES"
        diff "$CLR_NAMES" "$OUT/traceevent-clr-names.txt" | head -n 4 | cut -c 1-200 | sed 's/^/    /' || true
        return 1
      fi ;;
  esac
}

main() {
  local started start t n=0 v6=0 names=0
  started=$(now)
  start=$(now)
  build_tools
  echo "oracle: build $(secs "$start")" >&2
  tmp=$(mktemp -d)
  trap 'rm -rf "$tmp"' EXIT
  unpack_traces
  rm -rf "$OUT"
  mkdir -p "$OUT"
  start=$(now)
  nice -n 10 dotnet build/oracle/bin/oracle.dll --dotnet-trace "$DOTNET_TRACE_VERSION" "$OUT" "${traces[@]}"
  echo "oracle: TraceEvent pass over ${#traces[@]} traces $(secs "$start")" >&2
  start=$(now)
  for t in "${traces[@]}"; do
    grep -q "^$SAMPLE_KEY" "$OUT/$(basename "$t")/counts.txt" 2>/dev/null || continue
    n=$((n + 1))
    # A failure of the script's own steps (not of dotnet-trace, which is recorded in
    # dotnet-trace-error.txt) is noted here, since `wait` does not report it.
    (run_dotnet_trace "$t" || basename "$t" >>"$tmp/dotnet-trace-failed") &
    # Two at a time (CI has two cores); wait for one to end before starting a third.
    while (($(jobs -rp | wc -l) >= 2)); do wait -n; done
  done
  wait
  if [ -s "$tmp/dotnet-trace-failed" ]; then
    echo "oracle: the dotnet-trace step failed for: $(tr '\n' ' ' <"$tmp/dotnet-trace-failed")" >&2
    exit 1
  fi
  echo "oracle: dotnet-trace over $n traces with CPU samples $(secs "$start")" >&2
  start=$(now)
  compress_outputs
  echo "oracle: gzip $(secs "$start")" >&2
  v6_round_trip || v6=1
  clr_names || names=1
  echo "oracle: ${#traces[@]} traces in $OUT ($(secs "$started"))"
  case $mode in
    update) update_baselines ;;
    check) check_baselines ;;
  esac
  if ((v6)); then
    echo "oracle: v6 round trip failed (above): fix the converter, or name a rule in tests/oracle/v6_roundtrip.mjs"
    exit 1
  fi
  if ((names)); then
    echo "oracle: TraceEvent's CLR event names changed (above): run scripts/oracle.sh --update, then scripts/gen_clr_events.py"
    exit 1
  fi
}

main

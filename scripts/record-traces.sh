#!/usr/bin/env bash
# Records the .NET 10 reference traces from the programs in tests/apps (tests/data/dotnet10/MANIFEST.md
# describes each one; tests/apps/README.md the programs).
#
#   scripts/record-traces.sh [OUT]            build tests/apps, record every trace into OUT
#                                             (default build/recorded/), check each one
#   scripts/record-traces.sh --commit [OUT]   ... then gzip them (gzip -9n) into tests/data/dotnet10/
#                                             and rewrite tests/data/dotnet10/MANIFEST.md
#   scripts/record-traces.sh --no-record --commit [OUT]   commit what OUT already holds (checked again)
#   scripts/record-traces.sh --only NAME ...  record (and commit) that one trace; the manifest
#                                             is still rewritten whole from tests/data/dotnet10
#
# Five ways of recording, as .NET users do: environment variables at start-up (streaming and
# written at exit), dotnet-trace collect (launching the program), our own diagnostics-IPC
# client (tests/apps/NetPerfClient) asking for the NetPerf format, and `nettrace collect`
# listening on a diagnostic port the program connects to at start-up. Recordings differ from run to
# run (timestamps, addresses, sample counts); the committed ones are the reference set.
# Without `dotnet` the script prints one line and exits 0.
set -euo pipefail
cd "$(dirname "$0")/.."
export LC_ALL=C TZ=UTC DOTNET_CLI_TELEMETRY_OPTOUT=1 DOTNET_NOLOGO=1 DOTNET_SKIP_FIRST_TIME_EXPERIENCE=1

DOTNET_TRACE_VERSION=10.0.750501
TOOLS=build/dotnet-tools
APPS=tests/apps
# The program runs from a fixed folder outside the checkout: its path is recorded in every trace
# (ProcessInfo command line, module paths) and must not name where the checkout lives.
STAGE=/tmp/nettrace-trace-apps
APP=$STAGE/TraceScenarios.dll
# Programs other than TraceScenarios are staged in folders of their own, $STAGE-<program>.
PROGRAMS=(TraceScenarios NetPerfClient WebExceptions OrderFlows)
CLIENT=build/apps/bin/NetPerfClient/Release/net10.0/NetPerfClient.dll
DATA=tests/data/dotnet10
READER=build/native/nettrace

commit=0
record=1
only=""
out=build/recorded
want_only=0
for arg in "$@"; do
  if [ "$want_only" = 1 ]; then only=$arg; want_only=0; continue; fi
  case "$arg" in
    --commit) commit=1 ;;
    --only) want_only=1 ;;
    --no-record) record=0 ;;
    -h | --help) sed -n '2,17p' "$0"; exit 0 ;;
    -*) echo "usage: scripts/record-traces.sh [--no-record] [--commit] [--only NAME] [OUT]" >&2; exit 2 ;;
    *) out=$arg ;;
  esac
done

if ! command -v dotnet >/dev/null 2>&1; then
  echo "record-traces: skipped: dotnet not found"
  exit 0
fi

# Provider specs, NAME:KEYWORDS:LEVEL[:FILTER] (keywords in hex).
ALL=0xFFFFFFFFFFFFFFFF
CONTROL="TraceScenarios-Control:$ALL:5"
TYPES="TraceScenarios-Types:$ALL:5"
SELF="TraceScenarios-SelfDescribing:$ALL:5"
ACTIVITIES="TraceScenarios-Activities:$ALL:5"
# TaskTransfer|Tasks|TaskStops|TasksFlowActivityIds|AsyncMethod: task, await-continuation and
# wait events, which thread-time views use to follow work across awaits.
TPL_ASYNC="System.Threading.Tasks.TplEventSource:0x1C3:5"
# TasksFlowActivityIds alone: EventSource Start/Stop events get activity ids, no TPL events.
TPL_IDS="System.Threading.Tasks.TplEventSource:0x80:4"
COUNTERS="System.Runtime:0xFFFFFFFF:5:EventCounterIntervalSec=1 TraceScenarios-Counters:0xFFFFFFFF:5:EventCounterIntervalSec=1"
METRICS="System.Diagnostics.Metrics:0x7:5:SessionId=net10-counters;Metrics=TraceScenarios.Metrics;RefreshInterval=1;MaxTimeSeries=100;MaxHistograms=10"
INSTRUMENTS="System.Diagnostics.Metrics:0x7:5:SessionId=net10-servergc;Metrics=TraceScenarios.Instruments;RefreshInterval=1;MaxTimeSeries=100;MaxHistograms=10"
# Runtime keywords: GC 0x1, AssemblyLoader 0x4, Loader 0x8, JIT 0x10, Contention 0x4000,
# Exception 0x8000, CompilationDiagnostic (R2R entry points) 0x2000000000, Compilation 0x1000000000,
# AllocationSampling 0x80000000000 (.NET 10), Threading (thread pool) 0x10000, WaitHandle
# 0x40000000000 (.NET 9+, Verbose). Private provider: MulticoreJit 0x20000 (the events TraceEvent
# uses to find the multicore-JIT background thread).
RT=Microsoft-Windows-DotNETRuntime
RT_PRIVATE=Microsoft-Windows-DotNETRuntimePrivate
SAMPLER="Microsoft-DotNETCore-SampleProfiler:0x0:5"
ORDERS="OrderFlows-Events:$ALL:5"
# The runtime's own meter, collected every 0.5 s: Collection Start/Stop pairs with activity ids.
RUNTIME_METRICS="System.Diagnostics.Metrics:0x7:5:SessionId=order-flows;Metrics=System.Runtime;RefreshInterval=0.5;MaxTimeSeries=100;MaxHistograms=10"

# name | how | scenarios | dotnet-trace profile | providers (space-separated)
#   [| program in tests/apps (default TraceScenarios) | more dotnet-trace arguments (space-separated)]
#   [| environment (space-separated VAR=value)]
RECORDINGS=(
  "net10-cpu-async-http.nettrace|dotnet-trace|async,http,threadpool,activities|dotnet-common,dotnet-sampled-thread-time|$CONTROL $ACTIVITIES $TPL_ASYNC System.Net.Http:$ALL:4 System.Net.Sockets:$ALL:4"
  "net10-gc-verbose.nettrace|dotnet-trace|gc|gc-verbose|$CONTROL"
  "net10-alloc-sampled.nettrace|dotnet-trace|gc||$CONTROL $RT:0x80000000001:5"
  "net10-eventsource.nettrace|dotnet-trace|eventsource,activities,exceptions,contention||$CONTROL $TYPES $SELF $ACTIVITIES $TPL_IDS $RT:0xC000:4"
  "net10-counters.nettrace|dotnet-trace|counters||$CONTROL $COUNTERS $METRICS"
  "net10-startup-streaming.nettrace|env-streaming|jit,loader,exceptions,contention||$CONTROL $RT:0x300000C01D:5 $SAMPLER"
  "net10-startup-at-exit.nettrace|env-at-exit|gc,exceptions,contention||$CONTROL $RT:0xC009:4"
  "net10-ipc.netperf|ipc-netperf|exceptions,eventsource||$CONTROL $TYPES $SELF $RT:0x8001:4 $SAMPLER"
  "net10-bgc-waits-mcj.nettrace|dotnet-trace|multicorejit,bgc,waits,http||$CONTROL $RT:0x40000014019:5 $RT_PRIVATE:0x20000:5"
  "net10-servergc-instruments-gcverbose.nettrace|dotnet-trace|servergc,instruments|gc-verbose|$CONTROL $COUNTERS $INSTRUMENTS|||DOTNET_gcServer=1"
  "net10-servergc-instruments-default.nettrace|dotnet-trace|servergc,instruments|dotnet-common,dotnet-sampled-thread-time|$CONTROL $COUNTERS $INSTRUMENTS|||DOTNET_gcServer=1"
  # dotnet-trace's default profile (no option at all), then --clrevents at verbose level, the
  # environment variables, and our own collector (its default is dotnet-trace's).
  "net10-web-exceptions.nettrace|dotnet-trace|exceptions|||WebExceptions"
  "net10-web-exceptions-clrevents.nettrace|dotnet-trace|exceptions|dotnet-sampled-thread-time||WebExceptions|--clrevents exception+threading --clreventlevel verbose"
  "net10-web-exceptions-env.nettrace|env-streaming|exceptions||$RT:0x8000:5 $SAMPLER|WebExceptions"
  "net10-web-exceptions-nettrace.nettrace|nettrace-collect|exceptions|||WebExceptions"
  "net10-order-flows.nettrace|dotnet-trace|orders|dotnet-common,dotnet-sampled-thread-time|$ORDERS $TPL_IDS $RUNTIME_METRICS|OrderFlows"
  "net10-order-flows-tasks.nettrace|dotnet-trace|orders|dotnet-sampled-thread-time|$ORDERS $TPL_ASYNC|OrderFlows|--clrevents threading --clreventlevel verbose"
  "net10-order-flows-env.nettrace|env-at-exit|orders||$ORDERS $TPL_IDS $SAMPLER|OrderFlows"
  "net10-order-flows-nettrace.nettrace|nettrace-collect|orders|dotnet-common,dotnet-sampled-thread-time|$ORDERS $TPL_IDS|OrderFlows"
  # AllocationSampled alone (the AllocationSampling keyword, Informational), at the runtime's one
  # rate, by dotnet-trace and by our own collector.
  "net10-allocations.nettrace|dotnet-trace|allocations||$CONTROL $RT:0x80000000000:4"
  "net10-allocations-nettrace.nettrace|nettrace-collect|allocations||$CONTROL $RT:0x80000000000:4"
)

now() { date +%s%N; }
secs() { local t=$((($(now) - $1) / 10000000)); printf '%d.%02d s' $((t / 100)) $((t % 100)); }
field() { local IFS='|'; local -a f; read -r -a f <<<"$1"; printf '%s' "${f[$2]:-}"; }

build_apps() {
  local start log=$out/logs/build.log p
  start=$(now)
  : >"$log"
  for p in "${PROGRAMS[@]}"; do
    if ! nice -n 10 dotnet build "$APPS/$p/$p.csproj" -c Release -nologo -v q >>"$log" 2>&1; then
      cat "$log" >&2
      echo "record-traces: build of $APPS/$p failed (log above)" >&2
      exit 1
    fi
  done
  # Only the programs of the recordings asked for are (re)staged.
  local rec stage
  for p in TraceScenarios WebExceptions OrderFlows; do
    for rec in "${RECORDINGS[@]}"; do
      [ -z "$only" ] || [ "$(field "$rec" 0)" = "$only" ] || continue
      [ "$(program_of "$rec")" = "$p" ] || continue
      stage=$(dirname "$(app_dll "$p")")
      rm -rf "$stage"
      mkdir -p "$stage"
      cp -R "build/apps/bin/$p/Release/net10.0/." "$stage/"
      break
    done
  done
  echo "record-traces: built tests/apps in $(secs "$start")"
}

install_dotnet_trace() {
  local have=""
  [ -x "$TOOLS/dotnet-trace" ] && have=$("$TOOLS/dotnet-trace" --version 2>/dev/null || true)
  if [ "${have%%+*}" != "$DOTNET_TRACE_VERSION" ]; then
    [ -n "$have" ] && dotnet tool uninstall dotnet-trace --tool-path "$TOOLS" >/dev/null
    dotnet tool install dotnet-trace --version "$DOTNET_TRACE_VERSION" --tool-path "$TOOLS" >/dev/null
  fi
}

# The EventPipeConfig syntax of environment variables: keywords without 0x, comma-separated.
env_config() {
  local spec name kw rest list=()
  for spec in "$@"; do
    IFS=: read -r name kw rest <<<"$spec"
    list+=("$name:${kw#0x}:$rest")
  done
  local IFS=,
  printf '%s' "${list[*]}"
}

# The staged program's dll (program name as in tests/apps), and the one the build wrote (for
# `facts` and `version`, which do not depend on where the program runs from).
built_dll() { echo "build/apps/bin/$1/Release/net10.0/$1.dll"; }
app_dll() { if [ "$1" = TraceScenarios ]; then echo "$STAGE/TraceScenarios.dll"; else echo "$STAGE-$1/$1.dll"; fi; }

# record_one NAME HOW SCENARIOS PROFILE PROGRAM EXTRA ENVIRONMENT PROVIDERS...: one trace into
# $out/NAME, log in $out/logs. EXTRA: more dotnet-trace arguments, space-separated (may be
# empty); ENVIRONMENT (VAR=value ..., may be empty) is set for the program and its tools.
record_one() {
  local name=$1 how=$2 scenarios=$3 profile=$4 APP
  APP=$(app_dll "$5")
  local -a extra environment
  read -r -a extra <<<"$6"
  read -r -a environment <<<"$7"
  shift 7
  [ "${#environment[@]}" = 0 ] || export "${environment[@]}"
  local file=$out/$name log=$out/logs/$name.log
  rm -f "$file"
  case "$how" in
    dotnet-trace)
      local -a args=(collect -o "$file")
      # No provider and no profile: dotnet-trace's default profile, as a user gets it.
      if (($#)); then
        local IFS=,
        args+=(--providers "$*")
        unset IFS
      fi
      [ -n "$profile" ] && args+=(--profile "$profile")
      args+=("${extra[@]}")
      # Multicore JIT replays a profile written by an earlier run: run once untraced to write it
      # (into the staged program's folder, fresh for every recording), then record the second run.
      if [[ ",$scenarios," == *,multicorejit,* ]]; then
        rm -rf "$STAGE/mcj"
        nice -n 10 dotnet "$APP" run "$scenarios" >"$log.first-run" 2>&1 || return 1
      fi
      # Launched by dotnet-trace (suspended until the session exists) and traced until it exits:
      # the runtime ends the session with rundown at exit. Stopping on RunDone instead
      # (--stopping-event-*, with --wait-session) stalled in 2 of 6 tries here: dotnet-trace
      # saw the event only after the program's 30 s wait for the session's end had expired.
      nice -n 10 "$TOOLS/dotnet-trace" "${args[@]}" -- dotnet "$APP" run "$scenarios" >"$log" 2>&1
      ;;
    env-streaming | env-at-exit)
      local streaming=0
      [ "$how" = env-streaming ] && streaming=1
      DOTNET_EnableEventPipe=1 DOTNET_EventPipeOutputPath="$file" DOTNET_EventPipeOutputStreaming=$streaming \
        DOTNET_EventPipeConfig="$(env_config "$@")" nice -n 10 dotnet "$APP" run "$scenarios" >"$log" 2>&1
      ;;
    ipc-netperf)
      local -a args=(--output "$file" --format 0)
      local spec
      for spec in "$@"; do args+=(--provider "$spec"); done
      nice -n 10 dotnet "$CLIENT" "${args[@]}" -- dotnet "$APP" run "$scenarios" --wait-session >"$log" 2>&1
      ;;
    nettrace-collect)
      # nettrace listens on a diagnostic port; the runtime connects at start-up, suspended until
      # the session exists, and the session ends when the program exits.
      [ -x "$READER" ] || { echo "record-traces: $READER is not built (scripts/build.sh)" >&2; return 1; }
      local port=$out/logs/$name.port pid status=0
      local -a args=(collect --diagnostic-port "$port" -o "$file")
      if (($#)); then
        local IFS=,
        args+=(--providers "$*")
        unset IFS
      fi
      [ -n "$profile" ] && args+=(--profile "$profile")
      rm -f "$port"
      "$READER" "${args[@]}" >"$log.collect" 2>&1 &
      pid=$!
      for _ in $(seq 100); do [ -S "$port" ] && break; sleep 0.1; done
      DOTNET_DiagnosticPorts="$port" nice -n 10 dotnet "$APP" run "$scenarios" >"$log" 2>&1 || status=$?
      wait "$pid" || status=$?
      return $status
      ;;
    *) echo "record-traces: unknown way of recording '$how'" >&2; exit 1 ;;
  esac
}

# check_one FILE: complete trace or exit 1. Both formats end with the FastSerialization
# EndObject tag of the last block and the NullReference tag that closes the stream (06 01);
# a session that was cut off does not. The project's reader, when built, checks the rest.
check_one() {
  local file=$1 tail summary
  [ -s "$file" ] || { echo "record-traces: $file is missing or empty" >&2; exit 1; }
  tail=$(tail -c 2 "$file" | od -An -tx1 | tr -d ' \n')
  [ "$tail" = 0601 ] || { echo "record-traces: $file does not end with the end-of-stream tag (ends $tail)" >&2; exit 1; }
  if [ -x "$READER" ] && [ "${file##*.}" = nettrace ]; then
    summary=$("$READER" summary "$file" 2>/dev/null || true)
    if ! grep -q '"complete":true' <<<"$summary" || grep -q '"error":{' <<<"$summary"; then
      echo "record-traces: $READER summary says $file is incomplete or broken" >&2
      exit 1
    fi
    grep -o '"eventCount":[0-9]*' <<<"$summary" | head -n 1 | cut -d: -f2
  else
    echo "-"
  fi
}

record_all() {
  local rec name start events
  mkdir -p "$out/logs"
  build_apps
  install_dotnet_trace
  printf '%-36s %12s %10s %9s\n' trace bytes events time
  for rec in "${RECORDINGS[@]}"; do
    name=$(field "$rec" 0)
    [ -z "$only" ] || [ "$name" = "$only" ] || continue
    start=$(now)
    # shellcheck disable=SC2046 # the providers field is a space-separated list on purpose
    # In a subshell: a recording's environment stays with it.
    if ! (record_one "$name" "$(field "$rec" 1)" "$(field "$rec" 2)" "$(field "$rec" 3)" "$(program_of "$rec")" \
      "$(field "$rec" 6)" "$(field "$rec" 7)" $(field "$rec" 4)); then
      cat "$out/logs/$name.log" >&2
      echo "record-traces: recording $name failed (log above)" >&2
      exit 1
    fi
    events=$(check_one "$out/$name")
    printf '%-36s %12s %10s %9s\n' "$name" "$(stat -c %s "$out/$name")" "$events" "$(secs "$start")"
  done
}

# --- the manifest ------------------------------------------------------------------------

program_of() { local p; p=$(field "$1" 5); echo "${p:-TraceScenarios}"; }

how_text() {
  case "$1" in
    dotnet-trace) echo "dotnet-trace $DOTNET_TRACE_VERSION \`collect ${3:+--providers … }[--profile …] -- dotnet $2.dll run …\`: the program is launched suspended, resumed once the session exists, and traced until it exits (the runtime ends the session with rundown at exit)" ;;
    env-streaming) echo "environment variables at start-up: \`DOTNET_EnableEventPipe=1\`, \`DOTNET_EventPipeOutputStreaming=1\` (written while running), \`DOTNET_EventPipeOutputPath\`, \`DOTNET_EventPipeConfig\` as below; the file is closed with rundown when the process exits" ;;
    env-at-exit) echo "environment variables at start-up: \`DOTNET_EnableEventPipe=1\`, \`DOTNET_EventPipeOutputStreaming=0\` (buffered, written when the process exits), \`DOTNET_EventPipeOutputPath\`, \`DOTNET_EventPipeConfig\` as below" ;;
    nettrace-collect) echo "this project's \`nettrace collect --diagnostic-port PORT -o OUT [--providers …] [--profile …]\` (build/native/nettrace; without --providers or --profile it asks for dotnet-trace's default profile), the program started with \`DOTNET_DiagnosticPorts=PORT\` (suspended until the session exists); the session ends when the program exits" ;;
    ipc-netperf) echo "tests/apps/NetPerfClient over the diagnostics IPC socket: CollectTracing2 (0x02 0x03) with format 0 = NetPerf v3, circular buffer 64 MB, rundown on; stopped with StopTracing (0x02 0x01) on a second connection once the program printed \`scenarios-done\`" ;;
  esac
}

provider_rows() {
  local spec name kw level filter
  echo "| provider | keywords | level | filter data |"
  echo "|---|---|---|---|"
  for spec in "$@"; do
    IFS=: read -r name kw level filter <<<"$spec"
    printf '| %s | %s | %s | %s |\n' "$name" "$kw" "$level" "${filter:+\`$filter\`}"
  done
}

manifest_entry() {
  local rec=$1 name how scenarios profile gz program extra
  name=$(field "$rec" 0); how=$(field "$rec" 1); scenarios=$(field "$rec" 2); profile=$(field "$rec" 3)
  program=$(program_of "$rec"); extra=$(field "$rec" 6)
  gz=$DATA/$name.gz
  echo "## \`$name.gz\`"
  echo
  echo "- program: \`$program run $scenarios\`"
  echo "- recorded by: $(how_text "$how" "$program" "$(field "$rec" 4)")"
  [ -n "$profile" ] && echo "- dotnet-trace profile: \`--profile $profile\` (plus the providers below)"
  [ -n "$extra" ] && echo "- more dotnet-trace arguments: \`$extra\`"
  [ -z "$profile$extra$(field "$rec" 4)" ] && echo "- no provider or profile given: dotnet-trace's default profile (\`dotnet-common\`, \`dotnet-sampled-thread-time\`)"
  [ -n "$(field "$rec" 7)" ] && echo "- environment: \`$(field "$rec" 7)\`"
  echo "- size: $(stat -c %s "$gz") bytes gzip'd, $(gzip -dc "$gz" | wc -c) bytes unpacked; sha256 (unpacked) \`$(gzip -dc "$gz" | sha256sum | cut -d' ' -f1)\`"
  echo
  if [ -n "$(field "$rec" 4)" ]; then
    # shellcheck disable=SC2046 # the providers field is a space-separated list on purpose
    provider_rows $(field "$rec" 4)
    echo
  fi
  echo "What the program does (exact facts, printed by \`$program facts $scenarios\`):"
  echo
  dotnet "$(built_dll "$program")" facts "$scenarios"
  echo
}

# What .NET 10.0.12 itself writes that a reader must cope with, seen in these recordings with
# both the project's reader and TraceEvent 4.0.0 (tests/oracle).
quirks() {
  cat <<'EOF_QUIRKS'
## Runtime behaviour these traces capture (.NET 10.0.12)

- TraceScenarios-SelfDescribing `Flag` and `BoolArray`: the runtime writes each bool as 1 byte but
  describes it as Boolean (TypeCode 3, 4 bytes), so the field after it cannot be read as described.
- TraceScenarios-SelfDescribing `Money`: a decimal is described with TypeCode 15, which NetTraceFormat
  does not define (16 bytes follow).
- TraceScenarios-Types `Enums`: the byte-based enum `tiny` is described as Byte but written as 4 bytes,
  so `huge` (long-based) does not sit where the metadata puts it (20 payload bytes for 17 described).
- TraceScenarios-Types `Blob` (manifest byte[] parameter) and the TraceLogging `OrderCodes`/`OrderLines`
  (arrays inside EventSource.Write values): metadata without any field description.
- TraceLogging `Batch` with opcode Start and then Stop: two metadata records with the same event name.
- `net10-counters`: System.Diagnostics.Metrics answers its second Enable with one
  `MultipleSessionsNotSupportedError` and keeps the first session's settings.
- `net10-alloc-sampled`: with the AllocationSampling keyword on, no GC/AllocationTick is written, only
  AllocationSampled (event 303).
- `net10-ipc.netperf` (format 0) is NetPerf v3 as .NET Core 2.x wrote it: no `Nettrace` magic, a `Trace`
  object of version 3, blocks of version 1, events with inline stacks.
- `net10-bgc-waits-mcj`: an induced `GC.Collect(2, GCCollectionMode.Forced or Default, blocking: false)`
  was a blocking gen2 GC (GCMemoryInfo.Concurrent false), so the background GCs are the GC's own
  (gen2 budget); the gen1 GCs that run while one is in progress are written with GC/Start Type 0
  (NonConcurrentGC), not 2 (ForegroundGC), and TraceEvent shows them so. A contended Monitor acquisition writes a WaitHandleWait/Start–Stop (WaitSource 0)
  of its own, nested in its Contention/Start–Stop. With the Threading keyword on and loopback
  socket I/O (`http`), Linux writes no IOThreadCreate/Terminate/Retire/Unretire, no
  ThreadPoolIOEnqueue/Dequeue/Pack and no worker-thread retirement event: the portable thread pool
  has no I/O completion threads there (sockets complete on the SocketAsyncEngine thread).

EOF_QUIRKS
}

write_manifest() {
  local rec runtime
  runtime=$(dotnet "$(built_dll TraceScenarios)" version)
  {
    echo "# .NET 10 reference traces"
    echo
    echo "Recorded on this project's machines by \`scripts/record-traces.sh --commit\` from the"
    echo "programs in \`tests/apps\` (MIT, like the rest of the project). Regenerate them with the same"
    echo "command; new recordings differ in timestamps, addresses and sample counts, never in the facts."
    echo
    echo "- runtime: $runtime; $(nproc) processors (the thread-pool scenario depends on it)"
    echo "- every trace is complete: the NetPerf session was stopped with StopTracing, the others end when"
    echo "  the program exits normally (the runtime then closes the session); all carry rundown and end"
    echo "  with the stream's end-of-stream tag. \`scripts/record-traces.sh\` checks this, and checks the"
    echo "  NetTrace ones with \`build/native/nettrace summary\` (complete, no error) when it is built."
    echo "- scenario boundaries: each trace has TraceScenarios-Control ScenarioStart/ScenarioStop (payload ="
    echo "  scenario name; Start/Stop opcodes, with activity ids where the session enables TplEventSource"
    echo "  keyword 0x80) and RunDone at the end."
    echo "- provider tables: for the environment-variable recordings they are \`DOTNET_EventPipeConfig\`"
    echo "  (keywords written there without 0x)."
    echo
    quirks
    for rec in "${RECORDINGS[@]}"; do
      manifest_entry "$rec"
    done
  } >"$DATA/MANIFEST.md"
}

commit_all() {
  local rec name
  mkdir -p "$DATA"
  for rec in "${RECORDINGS[@]}"; do
    name=$(field "$rec" 0)
    [ -z "$only" ] || [ "$name" = "$only" ] || continue
    [ "$record" = 1 ] || check_one "$out/$name" >/dev/null
    gzip -9n <"$out/$name" >"$DATA/$name.gz"
  done
  write_manifest
  echo "record-traces: wrote $DATA ($(du -cb "$DATA"/*.gz | tail -1 | cut -f1) bytes of traces) and $DATA/MANIFEST.md"
}

start=$(now)
if [ "$record" = 1 ]; then
  record_all
else
  # --no-record: the manifest still needs the built program (facts, version).
  mkdir -p "$out/logs"
  build_apps
fi
[ "$commit" = 1 ] && commit_all
echo "record-traces: done in $(secs "$start")"

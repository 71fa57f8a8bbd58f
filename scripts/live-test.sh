#!/usr/bin/env bash
# Live-session tests of `nettrace ps` / `nettrace collect` against real .NET 10 processes
# (tests/apps/TraceScenarios), in a private TMPDIR so only our processes' sockets are there.
# Needs dotnet; without it, one line and exit 0 (the protocol's unit tests need no dotnet).
set -uo pipefail
cd "$(dirname "$0")/.."
if ! command -v dotnet >/dev/null 2>&1; then
  echo "live sessions: skipped: dotnet not found (the IPC protocol unit tests in [diag] still run)"
  exit 0
fi
NT=${NETTRACE_TOOL:-build/native/nettrace}
APP=build/apps/bin/TraceScenarios/Release/net10.0/TraceScenarios.dll
[ -f "$APP" ] || nice dotnet build tests/apps/TraceScenarios -c Release -nologo -v q >/dev/null || exit 1
ORACLE=build/oracle/bin/oracle.dll
[ -f "$ORACLE" ] || nice dotnet build tests/oracle/Oracle.csproj -c Release -o build/oracle/bin -nologo -v q >/dev/null || exit 1
export TMPDIR
TMPDIR=$(mktemp -d /tmp/nettrace-live-XXXXXX)
trap 'kill $(jobs -p) 2>/dev/null; rm -rf "$TMPDIR"' EXIT
W=$TMPDIR
failures=0
check() {  # check NAME CONDITION-COMMAND...
  local name=$1
  shift
  if "$@"; then echo "ok   $name"; else echo "FAIL $name"; failures=$((failures + 1)); fi
}
# A runtime on a loaded machine (two CI runs at once took > 10 s) may be slow to open its
# socket: wait up to 60 s.
wait_socket() { for _ in $(seq 1 600); do ls "$TMPDIR"/dotnet-diagnostic-"$1"-*-socket >/dev/null 2>&1 && return 0; sleep 0.1; done; return 1; }
wait_line() { for _ in $(seq 1 300); do grep -q "$2" "$1" 2>/dev/null && return 0; sleep 0.1; done; return 1; }
complete() { "$NT" summary "$1" | grep -q '"complete":true,"bytesRead":[0-9]*,"error":null'; }

# 1. no such process → a clear error
"$NT" collect --pid 999999 -o "$W/none.nettrace" 2>"$W/none.err"
check "collect --pid of no process: exit 1, 'no process with pid 999999'" \
  bash -c "[ $? -eq 1 ] && grep -qx 'nettrace: no process with pid 999999' '$W/none.err'"

# 2. ps lists a started program and skips a socket file whose process is gone
python3 -c "import socket,sys; s=socket.socket(socket.AF_UNIX); s.bind(sys.argv[1])" "$TMPDIR/dotnet-diagnostic-999999-1-socket"
dotnet "$APP" run gc,exceptions --wait-session >"$W/a.out" 2>"$W/a.err" &
A=$!
wait_socket $A
"$NT" ps --json >"$W/ps.json" 2>"$W/ps.err"
check "ps --json lists pid $A as TraceScenarios on .NET 10" \
  node -e "const l=JSON.parse(require('fs').readFileSync('$W/ps.json','utf8')); const p=l.find(x=>x.pid===$A); process.exit(p&&p.name==='TraceScenarios'&&p.runtimeVersion.startsWith('10.')&&p.commandLine.includes('TraceScenarios.dll run gc,exceptions')?0:1)"
check "ps skips the dead socket file of pid 999999" bash -c "! grep -q 999999 '$W/ps.json'"

# 3. collect every profile at once (one session each, concurrently), Ctrl-C after the
#    program's work: complete files whose per-type counts equal TraceEvent's
profiles="dotnet-common dotnet-sampled-thread-time gc-verbose gc-collect database"
pids=()
for p in $profiles; do
  "$NT" collect --pid $A --profile $p --providers TraceScenarios-Control -o "$W/$p.nettrace" 2>"$W/$p.err" &
  pids+=($!)
done
wait_line "$W/a.out" scenarios-done
kill -INT "${pids[@]}"
i=0
for p in $profiles; do
  wait "${pids[$i]}"
  check "collect --profile $p: Ctrl-C → StopTracing, exit 0" test $? -eq 0
  i=$((i + 1))
done
wait $A
check "the program saw its sessions end (exit 0)" test $? -eq 0
nice dotnet "$ORACLE" "$W/oracle" $(for p in $profiles; do echo "$W/$p.nettrace"; done) >/dev/null 2>"$W/oracle.err"
for p in $profiles; do
  f="$W/$p.nettrace"
  check "$p: the file is complete" complete "$f"
  events=$("$NT" summary "$f" | node -e "let s='';process.stdin.on('data',d=>s+=d).on('end',()=>console.log(JSON.parse(s).eventCount))")
  check "$p: the live summary's final count equals the file's ($events)" grep -q "wrote $f: $events events" "$W/$p.err"
  check "$p: live summary lines on stderr (events, bytes, events/s, dropped)" grep -q "events/s .* dropped 0$" "$W/$p.err"
  "$NT" counts "$f" >"$W/$p.ours.txt"
  sed "s/, <Event .*//" "$W/oracle/$p.nettrace/counts.txt" >"$W/$p.theirs.txt"
  check "$p: per-type counts equal TraceEvent's ($(wc -l <"$W/$p.ours.txt") types)" diff "$W/$p.theirs.txt" "$W/$p.ours.txt"
done

# 4. stopping mid-run (--duration) while the program keeps working
dotnet "$APP" run jit,threadpool,gc >"$W/b.out" 2>"$W/b.err" &
B=$!
wait_socket $B
# The socket exists before the program's own assembly has loaded; on a loaded machine an
# attach right then would still see that load. Its first scenario's end means it ran.
wait_line "$W/b.err" "TraceScenarios: jit done"
"$NT" collect --pid $B --profile dotnet-common --duration 300ms -o "$W/mid.nettrace" 2>"$W/mid.err"
check "collect --duration 300ms stops mid-run, exit 0" test $? -eq 0
check "the mid-run file is complete" complete "$W/mid.nettrace"
wait $B

# 5. the program exits mid-session: the stream ends, the file is complete and readable
dotnet "$APP" run jit,threadpool,gc >"$W/c.out" 2>"$W/c.err" &
D=$!
wait_socket $D
"$NT" collect --pid $D --profile gc-verbose -o "$W/exit.nettrace" 2>"$W/exit.err"
check "collect while the program exits: exit 0" test $? -eq 0
check "the file of a session ended by the exit is complete" complete "$W/exit.nettrace"
grep "events/s" "$W/exit.err" | sed 's/^/     /'

# 6b. the client killed: the runtime ends that session; a new session on the process works
dotnet "$APP" run jit,threadpool,gc >"$W/e.out" 2>"$W/e.err" &
E=$!
wait_socket $E
"$NT" collect --pid $E --profile gc-verbose -o "$W/killed.nettrace" 2>/dev/null &
K=$!
sleep 0.5
{ kill -KILL $K && wait $K; } 2>/dev/null
"$NT" collect --pid $E --profile dotnet-common --duration 300ms -o "$W/after.nettrace" 2>"$W/after.err"
check "after a killed client, a new session starts and ends cleanly" test $? -eq 0
check "…and its file is complete" complete "$W/after.nettrace"
wait $E
check "the program was not disturbed by the killed client (exit 0)" test $? -eq 0

# 6. start-up tracing through a reverse diagnostic port catches the first assembly loads
"$NT" collect --diagnostic-port "$W/port.sock" --providers Microsoft-Windows-DotNETRuntime:0x8:4 -o "$W/startup.nettrace" 2>"$W/startup.err" &
S=$!
for _ in $(seq 1 50); do [ -S "$W/port.sock" ] && break; sleep 0.1; done
DOTNET_DiagnosticPorts="$W/port.sock,connect,suspend" dotnet "$APP" run gc >"$W/d.out" 2>"$W/d.err"
wait $S
check "start-up collect: exit 0 after the program ends" test $? -eq 0
check "start-up trace is complete" complete "$W/startup.nettrace"
check "start-up trace has the load of TraceScenarios itself" bash -c \
  "'$NT' events '$W/startup.nettrace' --name Loader/AssemblyLoad | grep -q 'TraceScenarios, Version'"
check "…that an attach after start-up misses" bash -c \
  "! '$NT' events '$W/mid.nettrace' --name Loader/AssemblyLoad | grep -q 'TraceScenarios, Version'"

# 7. a process of another user: a clear permission message (needs root to act as another user)
if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null; then
  chmod 755 "$TMPDIR"
  dotnet "$APP" run jit,threadpool >/dev/null 2>&1 &
  G=$!
  wait_socket $G
  setpriv --reuid=65534 --regid=65534 --clear-groups "$NT" collect --pid $G -o "$W/other.nettrace" 2>"$W/other.err"
  check "collect on another user's process: exit 1, a permission message" bash -c \
    "[ $? -eq 1 ] && grep -q 'a process of another user? run as that user or root): Permission denied' '$W/other.err'"
  check "…and no output file is created" test ! -e "$W/other.nettrace"
  wait $G
else
  echo "skip another user's process: needs root and setpriv"
fi

# 8. `nettrace-analyzer live` (the npm CLI's page server): the stream a page reads while the
#    program works, Stop through the page's endpoint, then the download: the same bytes as the
#    -o file, a complete trace whose per-type counts equal TraceEvent's
NPM="node dist/bin/nettrace-analyzer.mjs"
dotnet "$APP" run jit,threadpool,gc --wait-session >"$W/l.out" 2>"$W/l.err" &
L=$!
wait_socket $L
$NPM live --pid $L --profile dotnet-common --providers TraceScenarios-Control -o "$W/live.nettrace" --port 0 2>"$W/live.err" &
LV=$!
wait_line "$W/live.err" "serving http"
URL=$(grep -o 'http://127.0.0.1:[0-9]*/' "$W/live.err" | head -1)
wait_line "$W/live.err" "^nettrace-analyzer: session "
# What the page's requests carry (web/src/live/local_guard.ts): the token its HTML holds, its origin.
TOKEN=$(curl -s "$URL" | grep -o 'name="nettrace-live-token" content="[^"]*"' | sed 's/.*content="//; s/"$//')
ORIGIN=${URL%/}
curl -sN -H "x-nettrace-token: $TOKEN" "${URL}live/stream" -o "$W/live-stream.nettrace" &
CURL=$!
for _ in $(seq 1 100); do
  curl -s -H "x-nettrace-token: $TOKEN" "${URL}live/info" >>"$W/live-info.txt" && echo >>"$W/live-info.txt"
  grep -q scenarios-done "$W/l.out" && break
  sleep 0.05
done
# Another site's page (no-cors POST), a rebinding page (its own Host) and a request without
# the token are refused while the session runs; the page's own Stop then ends it.
status() { curl -s -o /dev/null -w '%{http_code}' "$@"; }
LPORT=${URL##*:}
LPORT=${LPORT%/}
check "live: a Stop from another origin is refused (403)" test "$(status -X POST -H "Origin: http://evil.example" "${URL}live/stop")" = 403
check "live: a request for another Host is refused (403)" test "$(status -H "Host: evil.example:$LPORT" -H "x-nettrace-token: $TOKEN" "${URL}live/info")" = 403
check "live: a Stop without the token is refused (403)" test "$(status -X POST -H "Origin: $ORIGIN" "${URL}live/stop")" = 403
curl -s -X POST -H "x-nettrace-token: $TOKEN" -H "Origin: $ORIGIN" "${URL}live/stop" >/dev/null
wait $CURL
wait_line "$W/live.err" "session ended"
curl -s "${URL}live/trace.nettrace?token=$TOKEN" -o "$W/live-download.nettrace"
kill -INT $LV
wait $LV
check "live: Ctrl-C after the session ended quits, exit 0" test $? -eq 0
wait $L
check "live: the program saw its session end (exit 0)" test $? -eq 0
check "live: the stream a page read equals the -o file" cmp -s "$W/live-stream.nettrace" "$W/live.nettrace"
check "live: the download equals the -o file" cmp -s "$W/live-download.nettrace" "$W/live.nettrace"
check "live: the file is complete" complete "$W/live.nettrace"
check "live: the event count grew at least twice while the program worked" \
  node -e "const c=require('fs').readFileSync('$W/live-info.txt','utf8').split('\n').filter(Boolean).map(l=>JSON.parse(l).events); let g=0; for (let i=1;i<c.length;i++) if (c[i]>c[i-1]) g++; process.exit(g>=2?0:1)"
events=$("$NT" summary "$W/live.nettrace" | node -e "let s='';process.stdin.on('data',d=>s+=d).on('end',()=>console.log(JSON.parse(s).eventCount))")
check "live: its final count equals the file's ($events)" grep -q "session ended: $events events" "$W/live.err"
# The page's engine (wasm, as `nettrace-analyzer counts`) and TraceEvent read the file alike.
$NPM counts "$W/live.nettrace" >"$W/live.npm.txt"
"$NT" counts "$W/live.nettrace" >"$W/live.ours.txt"
check "live: the page's engine counts the file as the native tool does" cmp -s "$W/live.npm.txt" "$W/live.ours.txt"
nice dotnet "$ORACLE" "$W/oracle-live" "$W/live.nettrace" >/dev/null 2>"$W/oracle-live.err"
sed "s/, <Event .*//" "$W/oracle-live/live.nettrace/counts.txt" >"$W/live.theirs.txt"
check "live: per-type counts equal TraceEvent's ($(wc -l <"$W/live.ours.txt") types)" diff "$W/live.theirs.txt" "$W/live.ours.txt"

# 9. start-up tracing from the npm CLI (--diagnostic-port): the reverse port in Node
$NPM collect --diagnostic-port "$W/npm-port.sock" --providers Microsoft-Windows-DotNETRuntime:0x8:4 -o "$W/npm-startup.nettrace" 2>"$W/npm-startup.err" &
S=$!
for _ in $(seq 1 50); do [ -S "$W/npm-port.sock" ] && break; sleep 0.1; done
DOTNET_DiagnosticPorts="$W/npm-port.sock,connect,suspend" dotnet "$APP" run gc >"$W/n.out" 2>"$W/n.err"
wait $S
check "npm start-up collect: exit 0 after the program ends" test $? -eq 0
check "npm start-up trace is complete" complete "$W/npm-startup.nettrace"
check "npm start-up trace has the load of TraceScenarios itself" bash -c \
  "'$NT' events '$W/npm-startup.nettrace' --name Loader/AssemblyLoad | grep -q 'TraceScenarios, Version'"
check "npm start-up: the port's socket file is removed" test ! -e "$W/npm-port.sock"

echo "live sessions: $failures failed"
[ "$failures" -eq 0 ]

#!/usr/bin/env bash
# The npm package as a user gets it: `npm pack`, install the tarball into an empty project,
# import it from Node and summarise a real trace; type-check a TypeScript consumer too.
# Needs a finished scripts/build.sh (build/native/ for the reference output); the package
# itself is built by `npm pack`'s prepack step.
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$PWD
trace=$repo/build/native/testdata/only_managed_samples.nettrace
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

mkdir "$tmp/pack" "$tmp/consumer"
# `npm pack` must build what it packs (prepack). Packed here, so prepack's build is
# incremental (the wasm module is up to date after scripts/build.sh; a copy of the sources
# would compile it again from scratch, minutes on 2 cores). dist/ is removed first: what is
# packed must be what prepack builds.
rm -rf "$repo/dist"
tarball=$(npm pack --silent --pack-destination "$tmp/pack" 2>"$tmp/prepack.log" | tail -n 1) ||
  { tail -20 "$tmp/prepack.log" >&2; echo "pack_check: npm pack (with its prepack build) failed" >&2; exit 1; }
listing=$(tar -tzf "$tmp/pack/$tarball" | sort)
echo "packed $tarball ($(du -k "$tmp/pack/$tarball" | cut -f1) KiB, $(echo "$listing" | wc -l) files)"
for f in package/dist/index.js package/dist/index.d.ts package/dist/nettrace_wasm.mjs package/dist/nettrace_wasm.wasm \
  package/dist/nettrace_wasm.d.mts package/dist/engine/engine_worker.js package/dist/engine/file_reader_worker.js \
  package/dist/bin/nettrace-analyzer.mjs \
  package/dist/analyzer/element.js package/dist/analyzer/element.d.ts package/dist/analyzer.css \
  package/dist/live/index.js package/dist/live/index.d.ts package/LICENSE package/THIRD_PARTY_NOTICES.md \
  package/dist/duckdb/sql_libraries.mjs package/dist/duckdb/duckdb-browser-eh.worker.js package/dist/duckdb/duckdb-eh.wasm; do
  grep -qx "$f" <<<"$listing" || { echo "pack_check: $f missing from the package" >&2; exit 1; }
done

cd "$tmp/consumer"
cat >package.json <<'JSON'
{ "name": "nettrace-consumer", "version": "1.0.0", "private": true, "type": "module" }
JSON
npm install --silent --no-audit --no-fund "$tmp/pack/$tarball"

cat >check.mjs <<'JS'
import { openAsBlob } from 'node:fs';
import { openTrace, NetTraceError } from 'nettrace-analyzer';
const [trace, expectedEvents] = process.argv.slice(2);
const handle = await openTrace(await openAsBlob(trace));
const summary = handle.summary();
handle.close();
if (summary.eventCount !== Number(expectedEvents)) {
  console.error(`eventCount ${summary.eventCount}, native says ${expectedEvents}`);
  process.exit(1);
}
if (typeof NetTraceError !== 'function') process.exit(1);
console.log(`consumer: ${summary.eventCount} events from ${trace.split('/').pop()} through the installed package`);
JS
expected=$(LC_ALL=C TZ=UTC "$repo/build/native/nettrace" summary "$trace" |
  node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>console.log(JSON.parse(s).eventCount))')
node check.mjs "$trace" "$expected"

# The bin: `npx nettrace-analyzer` from the installed package prints what the native tool prints.
native_summary=$(LC_ALL=C TZ=UTC "$repo/build/native/nettrace" summary "$trace")
[ "$(npx --no-install nettrace-analyzer summary "$trace")" = "$native_summary" ] ||
  { echo "pack_check: npx nettrace-analyzer summary differs from the native summary" >&2; exit 1; }
native_events=$(LC_ALL=C TZ=UTC "$repo/build/native/nettrace" events "$trace" --offset 100 --limit 25)
[ "$(npx --no-install nettrace-analyzer events "$trace" --offset 100 --limit 25)" = "$native_events" ] ||
  { echo "pack_check: npx nettrace-analyzer events differs from the native events" >&2; exit 1; }
echo "consumer: npx nettrace-analyzer summary/events equal the native tool's output"

# Bundled by Vite into a consumer's app: the bundler must find the .wasm and the engine worker
# (new URL(..., import.meta.url)), and the app must open a trace in Chromium.
mkdir app
cat >app/index.html <<'HTML'
<!doctype html>
<html><head><meta charset="utf-8"><link rel="icon" href="data:,"></head>
<body><input type="file" id="file"><output id="result"></output>
<div id="viewer" style="height: 500px"></div><script type="module" src="./main.js"></script></body></html>
HTML
cat >app/main.js <<'JS'
import { openTrace } from 'nettrace-analyzer';
import { mountAnalyzer } from 'nettrace-analyzer/element';
const viewer = mountAnalyzer(document.getElementById('viewer'));
document.getElementById('file').addEventListener('change', async (event) => {
  try {
    const trace = await openTrace(event.target.files[0]);
    const page = await trace.events({ limit: 3 });
    await viewer.open(event.target.files[0]);
    const styled = getComputedStyle(document.getElementById('viewer').shadowRoot.querySelector('.nta')).display === 'flex';
    window.__result = { ok: true, summaryJson: trace.summaryJson(), events: page.json.length,
      viewerEvents: viewer.summary?.eventCount ?? -1, styled };
    trace.close();
  } catch (e) {
    window.__result = { ok: false, error: String(e?.stack ?? e) };
  }
  document.getElementById('result').dataset.done = '1';
});
JS
"$repo/node_modules/.bin/vite" build app --outDir dist --logLevel warn
ls app/dist/assets/*.wasm app/dist/assets/engine_worker-*.js app/dist/assets/file_reader_worker-*.js >/dev/null
echo "$native_summary" >expected-summary.json
(cd "$repo" && node tests/browser/bundled_check.mjs "$tmp/consumer/app/dist" "$trace" "$tmp/consumer/expected-summary.json")
# A File of 32 MiB or more goes through the file reader worker the engine worker starts: the
# bundle must hold that worker too (a written trace, 1.6 M events, ~1 s to write).
big=$tmp/written-40mb.nettrace
"$repo/build/native/tests/nettrace_bench" generate "$big" --size-mb 40 --interleaved >/dev/null 2>&1
LC_ALL=C TZ=UTC "$repo/build/native/nettrace" summary "$big" >expected-big-summary.json
(cd "$repo" && node tests/browser/bundled_check.mjs "$tmp/consumer/app/dist" "$big" "$tmp/consumer/expected-big-summary.json")

# The declarations resolve and are live (the @ts-expect-error must be needed).
cat >check.ts <<'TS'
import { openTrace, NetTraceError, type EventPage, type Histogram, type Summary, type TraceHandle } from 'nettrace-analyzer';
import { mountAnalyzer, type AnalyzerSelection, type NetTraceAnalyzerElement } from 'nettrace-analyzer/element';
export function embed(div: HTMLElement, element: NetTraceAnalyzerElement): void {
  const viewer = mountAnalyzer(div, { sampleUrl: '/sample.nettrace' });
  div.addEventListener('selection', (e) => console.log((e as CustomEvent<AnalyzerSelection>).detail.kind));
  void viewer.open(new Blob([]), 'empty.nettrace');
  void element.open(new Blob([])).then(() => element.summary?.eventCount);
  // @ts-expect-error open() takes a Blob, URL or string
  void element.open(42);
}
export async function count(bytes: Uint8Array): Promise<number> {
  const handle: TraceHandle = await openTrace(bytes, { chunkSize: 1 << 20 });
  const summary: Summary = handle.summary();
  const page: EventPage = await handle.events({ provider: 'Microsoft-Windows-DotNETRuntime', limit: 10 });
  const timeline: Histogram = await handle.histogram({ buckets: 10, groupBy: 'provider' });
  handle.close();
  if (page.total < 0 || timeline.counts.length !== timeline.series.length * 10) throw new Error('types lie');
  return summary.eventCount;
}
export const isError = (e: unknown): boolean => e instanceof NetTraceError && e.offset !== null;
// @ts-expect-error groupBy is one of four names (none, provider, eventType, thread)
void openTrace(new Uint8Array(0)).then((h) => h.histogram({ groupBy: 'process' }));
// @ts-expect-error chunkSize is a number
void openTrace(new Uint8Array(0), { chunkSize: 'big' });
TS
cat >tsconfig.json <<'JSON'
{ "compilerOptions": { "strict": true, "noEmit": true, "target": "ES2022", "module": "NodeNext",
  "moduleResolution": "NodeNext", "lib": ["ES2022", "DOM", "DOM.Iterable"], "types": [] }, "files": ["check.ts"] }
JSON
"$repo/node_modules/.bin/tsc" -p tsconfig.json
echo "consumer: TypeScript declarations type-check (NodeNext)"

// Timing of a whole-file read: `build/native/nettrace summary FILE` as a process, and the
// wasm engine in this Node process (4 MiB chunks, as the browser reads). Median of 5 runs.
import { spawnSync } from 'node:child_process';
import { readFileSync, statSync } from 'node:fs';
import { join, basename } from 'node:path';
import { fileURLToPath } from 'node:url';

const RUNS = 5;
const CHUNK = 4 * 1024 * 1024;
const root = fileURLToPath(new URL('../', import.meta.url));
const file = process.argv[2];
const size = statSync(file).size;
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

function report(label, seconds, events) {
  const mb = size / 1e6;
  console.log(
    `${label.padEnd(8)} median ${(seconds * 1000).toFixed(1).padStart(8)} ms   ` +
      `${(mb / seconds).toFixed(1).padStart(7)} MB/s   ${Math.round(events / seconds).toLocaleString('en-US').padStart(12)} events/s`,
  );
}

console.log(`${basename(file)}: ${size.toLocaleString('en-US')} bytes, ${RUNS} runs each`);

const nativeTimes = [];
let events = 0;
for (let i = 0; i < RUNS; i++) {
  const t0 = process.hrtime.bigint();
  const r = spawnSync(join(root, 'build/native/nettrace'), ['summary', file], { maxBuffer: 1 << 28 });
  nativeTimes.push(Number(process.hrtime.bigint() - t0) / 1e9);
  if (r.status !== 0) throw new Error(`nettrace summary failed: ${r.stderr}`);
  events = JSON.parse(r.stdout.toString('utf8')).eventCount;
}
report('native', median(nativeTimes), events);

const wasmDir = join(root, 'build/wasm/wasm');
const { default: create } = await import(join(wasmDir, 'nettrace_wasm.mjs'));
const M = await create({ wasmBinary: readFileSync(join(wasmDir, 'nettrace_wasm.wasm')) });
const bytes = readFileSync(file);
const wasmTimes = [];
for (let i = 0; i < RUNS; i++) {
  const t0 = process.hrtime.bigint();
  const session = new M.TraceSession();
  const buffer = M._malloc(CHUNK);
  for (let off = 0; off < bytes.length; off += CHUNK) {
    const chunk = bytes.subarray(off, off + CHUNK);
    M.HEAPU8.set(chunk, buffer);
    session.pushChunk(buffer, chunk.length);
  }
  session.finish();
  const json = session.summaryJson();
  wasmTimes.push(Number(process.hrtime.bigint() - t0) / 1e9);
  if (JSON.parse(json).eventCount !== events) throw new Error('wasm and native event counts differ');
  M._free(buffer);
  session.delete();
}
report('wasm', median(wasmTimes), events);
console.log(`wasm/native time ratio: ${(median(wasmTimes) / median(nativeTimes)).toFixed(2)}`);

// The wasm engine and the native one must agree byte for byte: for every real trace, the
// summary JSON from wasm (fed in 1 MiB chunks, as the browser does) equals the stdout of
// `build/native/nettrace summary FILE`. For a truncated trace both stop with the same error.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { corpusTraces, feedRaw, loadRawModule, runNative, statusString } from './helpers.mjs';

const MiB = 1024 * 1024;
const M = await loadRawModule();

for (const trace of corpusTraces()) {
  test(`wasm summary equals native summary: ${trace.name}`, () => {
    const bytes = readFileSync(trace.path);
    const native = runNative('summary', trace.path);
    const wasm = feedRaw(M, bytes, MiB);

    // The CLI ends its output with one newline; the engine's JSON document has none.
    const wasmOut = Buffer.from(wasm.summaryJson.endsWith('\n') ? wasm.summaryJson : `${wasm.summaryJson}\n`, 'utf8');
    assert.ok(native.stdout.length > 0, `native printed nothing (stderr: ${native.stderr})`);
    assert.ok(wasmOut.equals(native.stdout), 'wasm summaryJson() differs from `nettrace summary` stdout');
    const summary = JSON.parse(wasm.summaryJson);
    assert.deepEqual(wasm.sessionStatus, wasm.status, 'status() repeats the first fatal error');
    assert.equal(summary.eventCount, wasm.events, 'summary eventCount vs eventCount()');

    if (native.status === 0) {
      assert.deepEqual(wasm.status, { ok: true, code: 'ok', offset: null, message: '' });
      assert.equal(wasm.bytes, bytes.length, 'every byte consumed');
    } else {
      // The engine stopped at a fatal error (a truncated file, or a format not supported
      // yet): both builds must name the same error at the same offset.
      assert.equal(native.status, 1, `native exit status (stderr: ${native.stderr})`);
      assert.equal(wasm.status.ok, false, `native failed (${native.stderr.trim()}) but wasm did not`);
      assert.ok(native.stderr.includes(statusString(wasm.status)),
        `native stderr ${JSON.stringify(native.stderr)} lacks ${JSON.stringify(statusString(wasm.status))}`);
      assert.deepEqual(summary.error, { code: wasm.status.code, offset: wasm.status.offset, message: wasm.status.message });
    }
    if (trace.truncated) {
      assert.equal(wasm.status.code, 'truncated', 'a truncated trace must fail as truncated');
      assert.equal(typeof wasm.status.offset, 'number');
      assert.ok(summary.eventCount > 0, 'the events before the fault are kept');
    }
  });
}

test('wasm TraceEvent counts equal native `nettrace counts`', () => {
  for (const trace of corpusTraces()) {
    const native = runNative('counts', trace.path);
    const wasm = feedRaw(M, readFileSync(trace.path), MiB);
    const wasmOut = Buffer.from(wasm.counts, 'utf8');
    assert.ok(wasmOut.equals(native.stdout), `${trace.name}: traceEventCounts() differs from \`nettrace counts\``);
  }
});

test('chunk size does not change the result (1, 7, 4096 bytes and whole file)', () => {
  const small = corpusTraces().filter((t) => readFileSync(t.path).length <= 600 * 1024);
  assert.ok(small.length > 0);
  for (const trace of small) {
    const bytes = readFileSync(trace.path);
    const whole = feedRaw(M, bytes, bytes.length);
    const sizes = bytes.length <= 64 * 1024 ? [1, 7, 4096] : [7, 4096, 65536];
    for (const size of sizes) {
      const chunked = feedRaw(M, bytes, size);
      assert.equal(chunked.summaryJson, whole.summaryJson, `${trace.name} at chunk size ${size}`);
    }
  }
});

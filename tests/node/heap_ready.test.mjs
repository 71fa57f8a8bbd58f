// The engine's heap readied ahead of a read (web/src/reader/heap_ready.ts, what a prewarmed
// engine worker does before 'ready'): the memory grows by what is asked and the OS backs it
// (resident), so a first read reuses pages already faulted in; asked for nothing, it does
// nothing. Residency, not time: a test is never timed (scripts/bench.mjs measures the gain).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { feedRaw, loadRawModule, root, runNative, statusString, testdata } from './helpers.mjs';
import { readFileSync } from 'node:fs';

const { readyHeap } = await import(join(root, 'dist/reader/heap_ready.js'));
const MiB = 1 << 20;

test('readyHeap: the heap grows by what is asked and the OS backs all of it', async () => {
  const M = await loadRawModule(); // a fresh instance: its memory beyond the initial data is untouched
  const before = M.HEAPU8.length;
  assert.equal(readyHeap(M, 0), before, 'asked for nothing, the heap stays as it is');
  const rssBefore = process.memoryUsage().rss;
  const after = readyHeap(M, 64 * MiB);
  const resident = process.memoryUsage().rss - rssBefore;
  assert.ok(after >= before + 48 * MiB, `wasm memory ${before} -> ${after} bytes`);
  // Grown alone, the memory would stay unbacked (rss unchanged): one write per 4 KiB backs it.
  assert.ok(resident >= 32 * MiB, `resident memory grew by ${(resident / MiB).toFixed(1)} MiB, expected ~64`);
  // Freed back to the engine: a read in the same instance finds its memory there (the wasm
  // memory does not grow) and gives the native CLI's summary.
  const path = join(testdata, 'only_managed_samples.nettrace');
  const read = feedRaw(M, readFileSync(path), 1 << 20);
  assert.equal(statusString(read.status), 'ok');
  assert.equal(M.HEAPU8.length, after, 'the read grew the memory instead of reusing the readied heap');
  assert.equal(read.summaryJson + '\n', runNative('summary', path).stdout.toString('utf8'));
});

test('readyHeap: a size that is not a whole number of bytes up to 1 GiB does nothing; prewarmEngine rejects it', async () => {
  const M = await loadRawModule();
  const before = M.HEAPU8.length;
  const snapshot = M.HEAPU8.slice(0, before);
  // Each would have reached the engine's 32-bit malloc cut down, or written past its block.
  for (const bad of [Infinity, NaN, -1, 0.5, 2 ** 32 + 5000, 2 ** 30 + 1]) {
    assert.equal(readyHeap(M, bad), before, `readyHeap(${bad}) grew the heap`);
  }
  assert.deepEqual(M.HEAPU8.slice(0, before), snapshot, 'a refused size wrote into the heap');
  const { prewarmEngine, PREWARM_HEAP_BYTES } = await import(join(root, 'dist/index.js'));
  assert.equal(PREWARM_HEAP_BYTES, 32 * MiB);
  for (const bad of [Infinity, -1, 0.5, 2 ** 32]) {
    await assert.rejects(prewarmEngine({ heapBytes: bad }), RangeError, `prewarmEngine({ heapBytes: ${bad} })`);
  }
});

// Heap snapshots through the wasm engine (wasm/heap_bindings.cc, web/src/api/heap.ts): the npm
// CLI's `heap` prints byte for byte what the native `nettrace heap` prints — on every committed
// snapshot (.gcdump and .nettrace with heap-dump events), as JSON and CSV, with --paths-to and
// --baseline — and the JS API reads from any source with progress, cancel and its memory told.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { nativeTool, root, runAsync, testdata } from './helpers.mjs';

const npmTool = join(root, 'dist/bin/nettrace-analyzer.mjs');
const { openHeap, NetTraceError } = await import(join(root, 'dist/index.js'));
const heapDir = join(testdata, 'heap');
const snapshots = ['heapgraphs-small.gcdump', 'heapgraphs-small.nettrace', 'heapgraphs-big.gcdump', 'heapgraphs-big.nettrace'];
const path = (f) => join(heapDir, f);

// Both CLIs on the same arguments: the same stdout bytes and exit status.
async function same(args, label) {
  const [native, npm] = await Promise.all([runAsync(nativeTool, ['heap', ...args]), runAsync(process.execPath, [npmTool, 'heap', ...args])]);
  assert.equal(npm.status, native.status, `${label}: exit status (npm stderr: ${npm.stderr})`);
  assert.ok(native.stdout.equals(npm.stdout), `${label}: the npm CLI's output differs from the native CLI's`);
  return native;
}

for (const file of snapshots) {
  test(`heap ${file}: the npm CLI prints the native CLI's JSON and CSV, with --paths-to and --baseline`, async () => {
    const other = file.replace(/small|big/, (m) => (m === 'small' ? 'big' : 'small'));
    const crossKind = file.endsWith('.gcdump') ? file.replace('.gcdump', '.nettrace') : file.replace('.nettrace', '.gcdump');
    for (const format of ['json', 'csv']) {
      const plain = await same([path(file), '--format', format], `${file} ${format}`);
      assert.equal(plain.status, 0, plain.stderr);
      assert.ok(plain.stdout.length > 100, `${file} ${format}: printed ${plain.stdout.length} bytes`);
      await same([path(file), '--format', format, '--paths-to', 'HeapGraphs', '--largest', '7', '--paths', '3'], `${file} ${format} --paths-to`);
      await same([path(file), '--format', format, '--paths-to', 'System.Byte[]'], `${file} ${format} --paths-to System.Byte[]`);
      for (const baseline of [other, crossKind]) {
        const diff = await same([path(file), '--baseline', path(baseline), '--format', format], `${file} --baseline ${baseline} ${format}`);
        assert.equal(diff.status, 0, diff.stderr);
        // small and big differ by the 30,000 BigNodes; the two kinds of one size read the same heap shapes.
        if (format === 'json' && baseline === other) assert.ok(JSON.parse(diff.stdout).types.length > 0, `${file} --baseline ${baseline}: no type changed`);
      }
    }
  });
}

test('heap on a damaged snapshot: the same views and exit status as the native CLI, or the same refusal', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'heap-'));
  try {
    for (const file of ['heapgraphs-small.gcdump', 'heapgraphs-small.nettrace']) {
      const bytes = readFileSync(path(file));
      // The tail cut off (a graph still whole for the .gcdump: only its trailer is missing), and cut in half.
      for (const keep of [bytes.length - 16, bytes.length >> 1, 10]) {
        const cut = join(dir, `${keep}-${file}`);
        writeFileSync(cut, bytes.subarray(0, keep));
        const r = await same([cut], `${file} cut to ${keep} bytes`);
        assert.equal(r.status, 1, `${file} cut to ${keep} bytes: exit status`);
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('openHeap: bytes, a Blob and a stream give the same views; progress reaches "done" through the analysis', async () => {
  const bytes = readFileSync(path('heapgraphs-big.gcdump'));
  const phases = [];
  const fromBytes = await openHeap(bytes, { chunkSize: 64 * 1024, onProgress: (p) => phases.push(p) });
  const fromBlob = await openHeap(new Blob([bytes]));
  const fromStream = await openHeap(new Blob([bytes]).stream());
  try {
    assert.equal(fromBytes.kind, 'gcdump');
    assert.equal(fromBytes.error, null);
    const reads = phases.filter((p) => p.phase === 'reading');
    assert.ok(reads.length >= Math.floor(bytes.length / (64 * 1024)), `${reads.length} reading reports`);
    assert.equal(reads.at(-1).bytes, bytes.length);
    assert.ok(phases.some((p) => p.phase === 'analysis' && typeof p.step === 'string' && p.step.length > 0), 'no analysis step reported');
    assert.equal(phases.at(-1).phase, 'done');
    const native = await runAsync(nativeTool, ['heap', path('heapgraphs-big.gcdump'), '--paths-to', 'BigNode']);
    assert.deepEqual(fromBytes.snapshot({ pathsTo: 'BigNode' }), JSON.parse(native.stdout));
    assert.deepEqual(fromBlob.snapshot(), fromStream.snapshot());
    assert.deepEqual(fromBytes.paths('BigNode'), JSON.parse(native.stdout).pathsTo);
    // The memory it states: the graph's nodes and edges as the views count them.
    const { totals } = fromBytes.snapshot();
    assert.equal(fromBytes.memory.nodes, totals.nodes);
    assert.equal(fromBytes.memory.edges, totals.edges);
    assert.ok(fromBytes.memory.graphBytes > 0 && fromBytes.memory.analysisBytes > 0);
    const small = await openHeap(readFileSync(path('heapgraphs-small.gcdump')));
    try {
      const nativeDiff = await runAsync(nativeTool, ['heap', path('heapgraphs-big.gcdump'), '--baseline', path('heapgraphs-small.gcdump')]);
      assert.deepEqual(fromBytes.diff(small), JSON.parse(nativeDiff.stdout));
    } finally {
      small.close();
    }
  } finally {
    fromBytes.close(), fromBlob.close(), fromStream.close();
  }
  assert.throws(() => fromBytes.snapshot(), (e) => e instanceof NetTraceError && e.code === 'closed');
});

test('openHeap: an abort stops the read with code "cancelled"; a file without a heap is refused with its offset', async () => {
  const bytes = readFileSync(path('heapgraphs-big.nettrace'));
  const controller = new AbortController();
  let reports = 0;
  await assert.rejects(
    openHeap(bytes, { chunkSize: 64 * 1024, signal: controller.signal, onProgress: () => ++reports === 3 && controller.abort() }),
    (e) => e instanceof NetTraceError && e.code === 'cancelled',
  );
  assert.equal(reports, 3, 'reading went on after the abort');
  const trace = join(testdata, 'only_managed_samples.nettrace');
  const native = await runAsync(nativeTool, ['heap', trace]);
  await assert.rejects(openHeap(trace), (e) => e instanceof NetTraceError && native.stderr.includes(e.reason) && e.offset !== null);
  await assert.rejects(openHeap(new Uint8Array(100)), (e) => e instanceof NetTraceError && e.code === 'bad-magic');
});

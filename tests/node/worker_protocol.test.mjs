// The worker-backed TraceHandle (engine/worker_client.ts ↔ engine_worker.ts, protocol.ts) in
// Node: the engine worker runs in a worker_threads worker behind a minimal Worker facade, so
// the page's side of the protocol is exercised here as in a browser. eventStack() and text
// searches (with progress and cancel) must give what the in-thread handle gives.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker as ThreadWorker } from 'node:worker_threads';
import { corpusTraces, root } from './helpers.mjs';

const { openTraceInWorker, openTraceInThread, NetTraceError } = await import(join(root, 'dist/index.js'));

/** The part of the DOM Worker that worker_client.ts uses. */
class FacadeWorker {
  constructor() {
    this.thread = new ThreadWorker(new URL('./worker_bootstrap.mjs', import.meta.url), {
      workerData: { engineWorker: pathToFileURL(join(root, 'dist/engine/engine_worker.js')).href },
    });
  }
  addEventListener(type, listener) {
    if (type === 'message') this.thread.on('message', (data) => listener({ data }));
    if (type === 'error') this.thread.on('error', (e) => listener({ message: e.message }));
  }
  postMessage(message, transfer) {
    this.thread.postMessage(message, transfer);
  }
  terminate() {
    void this.thread.terminate();
  }
}
globalThis.Worker = FacadeWorker;

const objver4 = corpusTraces().find((t) => t.name.startsWith('eventpipe-dotnetcore3.0-win-x64-objver4'));

test('worker handle: eventStack and text search equal the in-thread handle; progress and cancel cross the protocol', async () => {
  // In memory: Node cannot post a file-backed Blob to a worker thread.
  const blob = new Blob([readFileSync(objver4.path)]);
  const opening = [];
  const worker = await openTraceInWorker(blob, { workerUrl: 'unused', onProgress: (p) => opening.push(p) });
  const local = await openTraceInThread(blob);
  try {
    assert.equal(worker.summaryJson(), local.summaryJson());
    // The engine worker (the app's) leaves method names in the File while it reads and reads
    // back those stacks can name: the "names" reports, then "done" with the file's bytes.
    const names = opening.filter((p) => p.phase === 'names');
    assert.ok(names.length > 0, `no names read back: ${JSON.stringify(opening.slice(-3))}`);
    // A phase's first report is always forwarded: the page says at once that names are read back.
    assert.equal(names[0].bytes, 0, JSON.stringify(names[0]));
    assert.ok(names.at(-1).bytes === names.at(-1).total && names.at(-1).total > 0 && names.at(-1).total < blob.size / 4,
      JSON.stringify(names.at(-1)));
    assert.deepEqual(opening.at(-1), { bytes: blob.size, total: blob.size, events: worker.eventCount, phase: 'done' });
    for (const row of [0, 100, 7298, 20000, worker.eventCount - 1]) {
      assert.deepEqual(await worker.eventStack(row), await local.eventStack(row), `row ${row}`);
    }
    await assert.rejects(worker.eventStack(worker.eventCount), NetTraceError);

    const reports = [];
    const q = { text: 'StringReader', offset: 2, limit: 5 };
    const page = await worker.events(q, { onProgress: (p) => reports.push(p) });
    const expected = await local.events(q);
    assert.deepEqual(page.json, expected.json);
    assert.equal(page.total, expected.total);
    assert.ok(reports.length > 0);
    assert.equal(reports.at(-1).scanned, reports.at(-1).total);
    assert.equal(reports.at(-1).matches, expected.total);
    // Plain pages still work the same.
    assert.deepEqual((await worker.events({ name: 'GC/Start', limit: 3 })).json, (await local.events({ name: 'GC/Start', limit: 3 })).json);

    const controller = new AbortController();
    const cancelled = worker.events({ text: 'zq-none' }, { signal: controller.signal, onProgress: () => controller.abort() });
    controller.abort();
    await assert.rejects(cancelled, (e) => e instanceof NetTraceError && e.code === 'cancelled');
    await assert.rejects(worker.events({ text: 'zq-none' }, { signal: AbortSignal.abort() }), (e) => e.code === 'cancelled');
    assert.equal((await worker.events({ text: 'zq-none' })).total, 0);
  } finally {
    worker.close();
    local.close();
  }
});

test('worker handle: exportStream, exportTo and export cross the protocol a part at a time, the in-thread bytes', async () => {
  const blob = new Blob([readFileSync(objver4.path)]);
  const worker = await openTraceInWorker(blob, { workerUrl: 'unused' });
  const local = await openTraceInThread(blob);
  try {
    for (const [format, options] of [['csv', { stackText: true }], ['chrome', {}], ['speedscope', { speedscope: 'sampled' }]]) {
      const want = Buffer.from(await local.export(format, options));
      const parts = [];
      for await (const part of worker.exportStream(format, options)) parts.push(part);
      assert.ok(Buffer.concat(parts).equals(want), `${format}: exportStream differs`);
      if (want.length > 2 << 20) assert.ok(parts.length >= 2, `${format}: ${parts.length} part(s)`);
      const chunks = [];
      assert.equal(await worker.exportTo(format, new WritableStream({ write: (c) => void chunks.push(c) }), options), want.length);
      assert.ok(Buffer.concat(chunks).equals(want), `${format}: exportTo differs`);
      assert.equal(await worker.export(format, options), want.toString());
    }
    // A reader that stops early ends the worker's export; the handle goes on answering.
    const reader = worker.exportStream('csv', { stackText: true }).getReader();
    assert.ok((await reader.read()).value.length > 0);
    await reader.cancel();
    assert.equal(await worker.export('stacks-csv'), await local.export('stacks-csv'));
  } finally {
    worker.close();
    local.close();
  }
  await assert.rejects(worker.exportTo('csv', new WritableStream()), (e) => e instanceof NetTraceError && e.code === 'closed');
});

// web/src/engine — the module worker that owns the engine. It opens traces with the
// in-thread API (api/trace.ts) and serves the requests of protocol.ts. Reading happens
// here, off the page's thread: a File is read with Blob.stream() (a big one's by a file reader
// worker: off_thread_blob.ts) or Blob.slice() chunks, a URL with fetch().
// Typed against a minimal worker scope so that it compiles under the DOM lib as well (the
// npm package ships it).
import { diffStacksJson } from '../api/diff.js';
import type { TraceHandle } from '../api/handle.js';
import { openTraceInThread } from '../api/trace.js';
import { compareRunsText } from '../api/verdict.js';
import { NetTraceError } from '../api/types.js';
import type { RawTraceSession } from '../nettrace_wasm.mjs';
import type { Progress } from '../reader/errors.js';
import { readyHeap } from '../reader/heap_ready.js';
import { compiledEngine, loadNetTraceModule, useCompiledEngine } from '../reader/wasm_loader.js';
import { warmUp } from './engine_warm_up.js';
import { OFF_THREAD_MIN_BYTES, offThreadBlob } from './off_thread_blob.js';
import type { EngineInit, EngineRequest, EngineResponse, OpenResult, QueryRequest, RequestId } from './protocol.js';

interface WorkerScope {
  postMessage(message: unknown, transfer: Transferable[]): void;
  addEventListener(type: 'message', listener: (event: MessageEvent<EngineRequest | EngineInit>) => void): void;
}
const ctx = self as unknown as WorkerScope;

/** Progress messages are posted at most this often (and always the last one). */
const PROGRESS_INTERVAL_MS = 50;

const traces = new Map<RequestId, TraceHandle>();
const running = new Map<RequestId, AbortController>();
/** Exports read a part at a time by the page (WorkerTrace.exportStream), by their 'exportOpen' id. */
const exports = new Map<RequestId, ReadableStreamDefaultReader<Uint8Array>>();
/** Live opens still reading (OpenRequest.live): their queries bypass the queue. */
const reading = new Set<RequestId>();

function post(message: EngineResponse, transfer: Transferable[] = []): void {
  ctx.postMessage(message, transfer);
}

let engineStarted = false;

/**
 * Loads the engine at the first message, not at the first open: a worker started ahead of
 * time (prewarmEngine) is then ready when a trace arrives. `module` is the engine an earlier
 * worker compiled (the page's EngineInit): its code, already optimized by the browser, is
 * shared, where compiling again would run the first trace in baseline code while the browser
 * optimizes it anew (HeartRateMonitor in Chromium: parse ~190 ms after a fresh compile, 70-120
 * ms on a shared module). Without one, this worker compiles it and its 'ready' hands it to the page.
 * A failure here is not final: the open asks again and reports it.
 * Then the worker opens a small written profile once (warmUp): a browser compiles each wasm
 * function on its first call and optimizes it only after it has run a while, and a small
 * trace's first read otherwise spent most of its time there. A warm-up that fails changes
 * nothing for the reads that follow. Requests wait for it: they would otherwise share the
 * thread with it.
 * Last, a prewarmed worker writes `readyHeapBytes` of the engine's heap once (reader/
 * heap_ready.ts): the page faults of a first trace's memory are paid before it arrives.
 */
function startEngine(module: WebAssembly.Module | null, readyHeapBytes = 0): void {
  if (engineStarted) return;
  engineStarted = true;
  if (module !== null) useCompiledEngine(module);
  queue = loadNetTraceModule().then(
    async (engine) => {
      await warmUp(engine).catch(() => undefined);
      const heapBytes = readyHeap(engine, readyHeapBytes);
      post({ id: 0, kind: 'ready', module: module === null ? await compiledEngine() : null, heapBytes });
    },
    () => undefined,
  ).catch(() => undefined); // the queue must go on whatever happened here
}

function trace(id: RequestId): TraceHandle {
  const t = traces.get(id);
  if (t === undefined) throw new NetTraceError('closed', null, 'the trace handle was closed');
  return t;
}

/** Typed arrays in a result (and in its objects one level down: a sandwich's two graphs) move
 *  to the page instead of being copied. */
function transferables(value: unknown, levels = 2): Transferable[] {
  if (value === null || typeof value !== 'object' || levels === 0) return [];
  const out: Transferable[] = [];
  for (const v of Object.values(value)) {
    if (ArrayBuffer.isView(v)) {
      if (v.buffer instanceof ArrayBuffer) out.push(v.buffer);
    } else if (!Array.isArray(v)) out.push(...transferables(v, levels - 1));
  }
  return out;
}

async function query(request: QueryRequest): Promise<unknown> {
  const t = trace(request.trace);
  switch (request.kind) {
    case 'query':
      return t.query(request.name, request.request, request.args);
    case 'events': {
      // A text search can take seconds: it is cancellable ('cancel' with this id) and
      // reports progress, at most one message per PROGRESS_INTERVAL_MS (and the last one).
      const controller = new AbortController();
      running.set(request.id, controller);
      let lastPost = -Infinity;
      try {
        return await t.events(request.query, {
          signal: controller.signal,
          onProgress: (p) => {
            const now = performance.now();
            if (now - lastPost < PROGRESS_INTERVAL_MS && p.scanned < p.total) return;
            lastPost = now;
            post({ id: request.id, kind: 'searchProgress', ...p });
          },
        });
      } finally {
        running.delete(request.id);
      }
    }
    case 'eventDetail':
      return t.eventDetail(request.index);
    case 'eventStack':
      return t.eventStack(request.index);
    case 'histogram':
      return t.histogram(request.query);
    case 'flameGraph':
      return t.flameGraph(request.query);
    case 'topFunctions':
      return t.topFunctions(request.query, request.count);
    case 'sandwich':
      return t.sandwich(request.query, request.functionName);
    case 'export':
      return t.export(request.format, request.options);
    case 'exportOpen':
      exports.set(request.id, t.exportStream(request.format, request.options).getReader());
      return null;
    case 'exportNext': {
      const reader = exports.get(request.stream);
      if (reader === undefined) throw new NetTraceError('closed', null, 'the export was cancelled or has ended');
      try {
        const { value, done } = await reader.read();
        if (done) exports.delete(request.stream);
        return { bytes: done ? null : value };
      } catch (e) {
        exports.delete(request.stream);
        throw e;
      }
    }
    case 'exportCancel':
      await exports.get(request.stream)?.cancel();
      exports.delete(request.stream);
      return null;
    case 'datasetTables':
      return t.datasetTables(request.fileName);
  }
}

async function handle(request: EngineRequest): Promise<unknown> {
  switch (request.kind) {
    case 'open': {
      const controller = new AbortController();
      running.set(request.id, controller);
      let lastPost = -Infinity;
      let lastPhase: Progress['phase'] | null = null;
      let timer: ReturnType<typeof setInterval> | null = null;
      // A live open: a snapshot every `live` ms, between two chunks (this thread pushes them).
      // Passed only then: a live session names frames while reading, so its method names are
      // copied as they come, where any other open leaves them in the File (api/trace.ts).
      const onSession = (session: RawTraceSession, view: () => TraceHandle): void => {
        reading.add(request.id);
        timer = setInterval(() => {
          const v = view();
          traces.set(request.id, v);
          const rows = session.snapshot().rows; // already taken by view(): only counts now
          post({ id: request.id, kind: 'live', summaryJson: v.summaryJson(), bytes: v.bytes, eventCount: v.eventCount, rows });
        }, request.live);
      };
      try {
        // A big File is streamed by a reader worker, so that reading it overlaps parsing it.
        const source = request.fileRead !== 'slices' && request.source instanceof Blob && request.source.size >= OFF_THREAD_MIN_BYTES
          ? offThreadBlob(request.source)
          : request.source;
        const t = await openTraceInThread(source, {
          ...(request.chunkSize !== undefined ? { chunkSize: request.chunkSize } : {}),
          ...(request.fileRead !== undefined ? { fileRead: request.fileRead } : {}),
          ...(request.readAhead !== undefined ? { readAhead: request.readAhead } : {}),
          ...(request.keepStreamedBytes !== undefined ? { keepStreamedBytes: request.keepStreamedBytes } : {}),
          ...(request.keepPartial !== undefined ? { keepPartial: request.keepPartial } : {}),
          signal: controller.signal,
          onProgress: (p) => {
            const now = performance.now();
            // Reports of reading and of names read back are thinned: one per interval, but
            // always a phase's first (the page says at once that names are read back) and its
            // last when the total is known (bytes = total).
            const thinned = (p.phase === 'reading' || p.phase === 'names') && p.phase === lastPhase;
            const last = p.total > 0 && p.bytes >= p.total;
            if (now - lastPost < PROGRESS_INTERVAL_MS && thinned && !last) return;
            lastPost = now;
            lastPhase = p.phase;
            post({ id: request.id, kind: 'progress', ...p });
          },
        }, request.live === undefined ? undefined : onSession);
        traces.set(request.id, t);
        const error = t.error === null ? null : { code: t.error.code, offset: t.error.offset, message: t.error.reason };
        const result: OpenResult = { summaryJson: t.summaryJson(), bytes: t.bytes, eventCount: t.eventCount, error };
        return result;
      } finally {
        running.delete(request.id);
        reading.delete(request.id);
        if (timer !== null) clearInterval(timer);
      }
    }
    case 'cancel':
      running.get(request.target)?.abort();
      return null;
    case 'close':
      traces.get(request.trace)?.close();
      traces.delete(request.trace);
      return null;
    case 'diff': {
      // Both traces in this worker's engine, only for the diff (worker_client.ts diffTracesInWorker).
      const a = await openTraceInThread(request.baseline);
      try {
        const b = await openTraceInThread(request.comparison);
        try {
          return await diffStacksJson(a, b, request.options);
        } finally {
          b.close();
        }
      } finally {
        a.close();
      }
    }
    case 'runDiff':
      // One trace at a time in this worker's engine (worker_client.ts compareRunsInWorker).
      return await compareRunsText(request.baseline, request.comparison, 'json', request.options);
    default:
      return query(request);
  }
}

// Requests run one after another, in arrival order. 'cancel' alone bypasses the queue: it
// must reach a running 'open'.
let queue: Promise<void> = Promise.resolve();

ctx.addEventListener('message', (event: MessageEvent<EngineRequest | EngineInit>) => {
  if (event.data.kind === 'engine') return startEngine(event.data.module, event.data.readyHeapBytes ?? 0);
  startEngine(null); // a worker started without an EngineInit (tests/node/worker_bootstrap.mjs)
  const request = event.data;
  const run = (): Promise<void> =>
    handle(request).then(
      (value) => post({ id: request.id, kind: 'result', value }, transferables(value)),
      (e: unknown) => {
        const error = e instanceof NetTraceError ? e : null;
        post({
          id: request.id,
          kind: 'error',
          code: error?.code ?? 'engine',
          offset: error?.offset ?? null,
          message: error?.reason ?? (e instanceof Error ? e.message : String(e)),
          summaryJson: error?.partial ? JSON.stringify(error.partial) : null,
        });
      },
    );
  const live = 'trace' in request && reading.has(request.trace);
  if (request.kind === 'cancel' || live) void run();
  else queue = queue.then(run);
});

// web/src/engine — the page's side of protocol.ts: openTraceInWorker() starts a module
// worker that owns the engine and returns a TraceHandle whose calls become requests (ids,
// one promise each). Progress goes to the caller's callback; an AbortSignal becomes a
// 'cancel' request; close() frees the trace and ends the worker.
import type { DiffOptions } from '../api/diff.js';
import type { RunDiffOptions } from '../api/verdict.js';
import type { ExportFormat, ExportOptions, OpenTraceOptions, ProfileExportFormat, QueryName, QueryOptions, StackQuery, TextExportFormat, TraceHandle } from '../api/handle.js';
import type { RunDiffResult } from '../api/generated/results.js';
import type {
  EventPage,
  EventQuery,
  EventsOptions,
  FlameGraphData,
  Histogram,
  HistogramQuery,
  Progress,
  Sandwich,
  SearchProgress,
  StackDiffResult,
  Summary,
  TopFunctions,
  TraceEvent,
} from '../api/types.js';
import { NetTraceError } from '../api/types.js';
import { MAX_READY_HEAP_BYTES, isReadyHeapSize } from '../reader/heap_ready.js';
import { ModelQueryHandle } from '../api/model_query.js';
import { streamParts, writeParts } from '../api/export_sink.js';
import type { ExportDestination, ExportToOptions } from '../api/export_sink.js';
import type { DatasetTables } from '../api/dataset_tables.js';
import type { EngineInit, EngineRequest, EngineResponse, OpenResult, QueryRequest, RequestId } from './protocol.js';

export interface WorkerOptions {
  /** The engine worker script; default: engine_worker.js next to this module. */
  workerUrl?: URL | string;
}

/** A source still being recorded (openTraceInWorker's `live`): snapshots while it is read. */
export interface LiveOpenOptions {
  /** Milliseconds between two snapshots. */
  intervalMs: number;
  /** A handle over what was read so far (its summary, events, histogram, flame graph); it
   *  shares the final handle's worker: closing it does nothing. */
  onSnapshot(handle: TraceHandle, rows: number): void;
}

interface Pending {
  resolve(value: unknown): void;
  reject(error: NetTraceError): void;
  onProgress?: ((progress: Progress) => void) | undefined;
  onSearchProgress?: ((progress: SearchProgress) => void) | undefined;
  onLive?: ((snapshot: OpenResult, rows: number) => void) | undefined;
}

// Distributes Omit over the union, so each request keeps its own fields.
type RequestBody = EngineRequest extends infer R ? (R extends EngineRequest ? Omit<R, 'id'> : never) : never;
type QueryBody = QueryRequest extends infer R ? (R extends QueryRequest ? Omit<R, 'id' | 'trace'> : never) : never;

class EngineConnection {
  private readonly pending = new Map<RequestId, Pending>();
  private nextId: RequestId = 1;

  constructor(private readonly worker: Worker) {
    worker.addEventListener('message', (event: MessageEvent<EngineResponse>) => this.receive(event.data));
    worker.addEventListener('error', (event: ErrorEvent) => {
      const error = new NetTraceError('engine', null, `engine worker failed: ${event.message || 'load error'}`);
      for (const p of this.pending.values()) p.reject(error);
      this.pending.clear();
    });
  }

  send(
    body: RequestBody,
    onProgress?: (progress: Progress) => void,
    transfer: Transferable[] = [],
    onSearchProgress?: (progress: SearchProgress) => void,
  ) {
    const id = this.nextId++;
    const done = new Promise<unknown>((resolve, reject) =>
      this.pending.set(id, { resolve, reject, onProgress, onSearchProgress }),
    );
    this.worker.postMessage({ ...body, id } as EngineRequest, transfer);
    return { id, done };
  }

  /** Where the 'live' messages of request `id` go (openTraceInWorker's `live`). */
  onLive(id: RequestId, listener: (snapshot: OpenResult, rows: number) => void): void {
    const pending = this.pending.get(id);
    if (pending !== undefined) pending.onLive = listener;
  }

  terminate(): void {
    this.worker.terminate();
    const error = new NetTraceError('closed', null, 'the trace handle was closed');
    for (const p of this.pending.values()) p.reject(error);
    this.pending.clear();
  }

  private receive(response: EngineResponse): void {
    const pending = this.pending.get(response.id);
    if (pending === undefined) return;
    switch (response.kind) {
      case 'progress':
        pending.onProgress?.({ bytes: response.bytes, total: response.total, events: response.events, phase: response.phase });
        return;
      case 'live':
        pending.onLive?.({ summaryJson: response.summaryJson, bytes: response.bytes, eventCount: response.eventCount, error: null }, response.rows);
        return;
      case 'searchProgress':
        pending.onSearchProgress?.({ scanned: response.scanned, total: response.total, matches: response.matches });
        return;
      case 'result':
        this.pending.delete(response.id);
        pending.resolve(response.value);
        return;
      case 'error': {
        this.pending.delete(response.id);
        const partial = response.summaryJson === null ? null : (JSON.parse(response.summaryJson) as Summary);
        pending.reject(new NetTraceError(response.code, response.offset, response.message, partial));
        return;
      }
    }
  }
}

/** A started engine worker kept for the next open (prewarmEngine), keyed by its script. */
let spare: { key: string; worker: Worker; failed: boolean; ready: Promise<void> } | null = null;

function spareKey(options: WorkerOptions): string {
  return options.workerUrl === undefined ? '' : String(options.workerUrl);
}

/**
 * The engine the first worker of each script compiled (its 'ready'), handed to every later
 * worker of that script (EngineInit): they share its compiled and optimized code. Kept for the
 * page's life, also while no trace is open: a worker ended with its trace would otherwise take
 * the browser's compiled code with it, and the next trace would start from baseline code again.
 */
const compiledEngines = new Map<string, WebAssembly.Module>();

function startWorker(options: WorkerOptions, readyHeapBytes = 0): Worker {
  // The literal `new URL(..., import.meta.url)` form is what bundlers recognise as a worker.
  const worker =
    options.workerUrl === undefined
      ? new Worker(new URL('./engine_worker.js', import.meta.url), { type: 'module' })
      : new Worker(options.workerUrl, { type: 'module' });
  const key = spareKey(options);
  worker.addEventListener('message', (event: MessageEvent<EngineResponse>) => {
    const m = event.data;
    if (m.kind === 'ready' && m.module && !compiledEngines.has(key)) compiledEngines.set(key, m.module);
  });
  const init: EngineInit = { id: 0, kind: 'engine', module: compiledEngines.get(key) ?? null, readyHeapBytes };
  worker.postMessage(init);
  return worker;
}

/** prewarmEngine's default heapBytes: a read of a trace of up to ~30 MB needs no more. */
export const PREWARM_HEAP_BYTES = 32 << 20;

export interface PrewarmOptions extends WorkerOptions {
  /** Bytes of the engine's heap the worker writes once while it waits (default
   *  PREWARM_HEAP_BYTES; 0: none; at most 1 GiB, else prewarmEngine rejects with a
   *  RangeError). They stay resident for the worker's life; a first trace's
   *  read then reuses them instead of paying a page fault for each 4 KiB it first writes
   *  (HeartRateMonitor's first parse in Chromium: ~100 ms, ~30 ms with them). */
  heapBytes?: number;
}

/**
 * Starts an engine worker ahead of the next openTraceInWorker with the same `workerUrl`: the
 * worker loads and compiles the wasm engine at once and readies its heap, so a trace dropped
 * later starts reading without waiting for either (a small trace's summary then shows almost
 * at once). At most one such worker waits; calling again while it waits does nothing.
 * @returns settles when that worker has loaded the engine (rejects when it failed to).
 */
export function prewarmEngine(options: PrewarmOptions = {}): Promise<void> {
  const heapBytes = options.heapBytes ?? PREWARM_HEAP_BYTES;
  if (!isReadyHeapSize(heapBytes))
    return Promise.reject(new RangeError(`heapBytes takes a whole number of bytes from 0 to ${MAX_READY_HEAP_BYTES}, not ${heapBytes}`));
  const key = spareKey(options);
  if (spare !== null && spare.key === key && !spare.failed) return spare.ready;
  spare?.worker.terminate();
  const worker = startWorker(options, heapBytes);
  let failed = (): void => undefined;
  const ready = new Promise<void>((resolve, reject) => {
    worker.addEventListener('message', (event: MessageEvent<EngineResponse>) => {
      if (event.data.kind === 'ready') resolve();
    });
    failed = () => reject(new NetTraceError('engine', null, 'the engine worker failed to load'));
  });
  ready.catch(() => undefined);
  const waiting = { key, worker, failed: false, ready };
  // A worker that failed to load is not handed out: its error would fire before the open's
  // connection listens, and the open would wait forever.
  worker.addEventListener(
    'error',
    () => {
      waiting.failed = true;
      failed();
    },
    { once: true },
  );
  spare = waiting;
  return ready;
}

function takeWorker(options: WorkerOptions): Worker {
  const taken = spare;
  if (taken !== null && taken.key === spareKey(options) && !taken.failed) {
    spare = null;
    return taken.worker;
  }
  return startWorker(options);
}

/**
 * Reads a trace in an engine worker (the one prewarmEngine started, else a new one); the page's thread only passes messages.
 * @param source a File/Blob (read there with Blob.stream(), or Blob.slice() chunks), bytes (copied once, the copy is
 *   transferred) or a URL (relative to the page; fetched and streamed in the worker)
 */
export async function openTraceInWorker(
  source: Blob | ArrayBuffer | ArrayBufferView | URL | string,
  options: OpenTraceOptions & WorkerOptions & { live?: LiveOpenOptions } = {},
): Promise<TraceHandle> {
  const connection = new EngineConnection(takeWorker(options));
  let payload: Blob | ArrayBuffer | string;
  const transfer: Transferable[] = [];
  // A relative URL means relative to the page, not to the worker script.
  const base = (globalThis as { location?: { href: string } }).location?.href;
  if (source instanceof URL || typeof source === 'string') payload = new URL(source, base).href;
  else if (source instanceof Blob) payload = source;
  else if (source instanceof ArrayBuffer) payload = source.slice(0);
  else payload = new Uint8Array(source.buffer, source.byteOffset, source.byteLength).slice().buffer;
  // Bytes are copied once (the caller's buffer stays usable) and the copy moves to the worker.
  if (payload instanceof ArrayBuffer) transfer.push(payload);
  const body: RequestBody = { kind: 'open', source: payload };
  if (options.chunkSize !== undefined) body.chunkSize = options.chunkSize;
  if (options.fileRead !== undefined) body.fileRead = options.fileRead;
  if (options.readAhead !== undefined) body.readAhead = options.readAhead;
  if (options.keepStreamedBytes !== undefined) body.keepStreamedBytes = options.keepStreamedBytes;
  if (options.keepPartial !== undefined) body.keepPartial = options.keepPartial;
  const live = options.live;
  if (live !== undefined) body.live = live.intervalMs;
  const { id, done } = connection.send(body, options.onProgress, transfer);
  if (live !== undefined) connection.onLive(id, (snapshot, rows) => live.onSnapshot(new WorkerTrace(connection, id, snapshot, false), rows));
  const onAbort = (): void => void connection.send({ kind: 'cancel', target: id }).done.catch(() => undefined);
  options.signal?.addEventListener('abort', onAbort, { once: true });
  if (options.signal?.aborted) onAbort();
  try {
    const opened = (await done) as OpenResult;
    return new WorkerTrace(connection, id, opened);
  } catch (e) {
    connection.terminate();
    throw e;
  } finally {
    options.signal?.removeEventListener('abort', onAbort);
  }
}

/**
 * The A/B stack diff (api/diff.ts) of two traces given by their sources, computed in a new
 * engine worker that reads both and ends with the answer: the way to diff from a page's
 * thread, where handles of openTraceInWorker each live in their own worker.
 */
export async function diffTracesInWorker(
  baseline: Blob | URL | string,
  comparison: Blob | URL | string,
  options: DiffOptions & WorkerOptions = {},
): Promise<StackDiffResult> {
  const base = (globalThis as { location?: { href: string } }).location?.href;
  const payload = (s: Blob | URL | string): Blob | string => (s instanceof Blob ? s : new URL(s, base).href);
  const connection = new EngineConnection(startWorker(options));
  try {
    const { query, baseline: qa, comparison: qb, maxFunctions } = options;
    const diffOptions: DiffOptions = { ...(query ? { query } : {}), ...(qa ? { baseline: qa } : {}), ...(qb ? { comparison: qb } : {}) };
    if (maxFunctions !== undefined) diffOptions.maxFunctions = maxFunctions;
    const { done } = connection.send({ kind: 'diff', baseline: payload(baseline), comparison: payload(comparison), options: diffOptions });
    return JSON.parse((await done) as string) as StackDiffResult;
  } finally {
    connection.terminate();
  }
}

/**
 * Many runs a side compared (api/verdict.ts compareRuns: Welch's t, Holm) in a new engine
 * worker that reads the traces one at a time and ends with the answer: the page's thread only
 * sends the sources and receives the document. `baselineNames` / `comparisonNames` name the
 * runs (default: a File's name, else the URL). `signal` ends the worker at once (the promise
 * then rejects with code "cancelled").
 */
export async function compareRunsInWorker(
  baseline: (Blob | URL | string)[],
  comparison: (Blob | URL | string)[],
  options: RunDiffOptions & WorkerOptions = {},
): Promise<RunDiffResult> {
  const base = (globalThis as { location?: { href: string } }).location?.href;
  const payload = (s: Blob | URL | string): Blob | string => (s instanceof Blob ? s : new URL(s, base).href);
  const nameOf = (s: Blob | URL | string): string => (s instanceof File ? s.name : s instanceof Blob ? 'trace' : new URL(s, base).href);
  const { workerUrl: _, signal, ...rest } = options;
  signal?.throwIfAborted();
  const runOptions: Omit<RunDiffOptions, 'signal'> = {
    ...rest,
    baselineNames: options.baselineNames ?? baseline.map(nameOf),
    comparisonNames: options.comparisonNames ?? comparison.map(nameOf),
  };
  const connection = new EngineConnection(startWorker(options));
  let cancelled = false;
  const onAbort = (): void => {
    cancelled = true;
    connection.terminate();
  };
  signal?.addEventListener('abort', onAbort, { once: true });
  try {
    const { done } = connection.send({ kind: 'runDiff', baseline: baseline.map(payload), comparison: comparison.map(payload), options: runOptions });
    return JSON.parse((await done) as string) as RunDiffResult;
  } catch (e) {
    throw cancelled ? new NetTraceError('cancelled', null, 'the comparison was cancelled') : e;
  } finally {
    signal?.removeEventListener('abort', onAbort);
    connection.terminate();
  }
}

class WorkerTrace extends ModelQueryHandle implements TraceHandle {
  /** Why reading stopped early, or the names read back were cancelled (keepPartial), else null. */
  readonly error: NetTraceError | null;
  readonly bytes: number;
  readonly eventCount: number;
  private closed = false;

  constructor(
    private readonly connection: EngineConnection,
    private readonly id: RequestId,
    private readonly opened: OpenResult,
    /** false for a live snapshot's handle: the final handle owns the worker. */
    private readonly owner = true,
  ) {
    super();
    this.bytes = opened.bytes;
    this.eventCount = opened.eventCount;
    const e = opened.error;
    this.error = e === null ? null : new NetTraceError(e.code, e.offset, e.message, this.summary());
  }

  private ask<T>(body: QueryBody): Promise<T> {
    if (this.closed) return Promise.reject(new NetTraceError('closed', null, 'the trace handle was closed'));
    return this.connection.send({ ...body, trace: this.id } as RequestBody).done as Promise<T>;
  }

  summary(): Summary {
    return JSON.parse(this.opened.summaryJson) as Summary;
  }
  summaryJson(): string {
    return this.opened.summaryJson;
  }
  query<N extends QueryName>(name: N, request?: QueryOptions<N>, args: string[] = []): Promise<string> {
    return this.ask({ kind: 'query', name, request: request ?? {}, args });
  }
  async events(query: EventQuery = {}, options: EventsOptions = {}): Promise<EventPage> {
    if (!query.text) return this.ask({ kind: 'events', query });
    // A text search: progress messages go to onProgress, an abort becomes a 'cancel'.
    if (this.closed) throw new NetTraceError('closed', null, 'the trace handle was closed');
    if (options.signal?.aborted) throw new NetTraceError('cancelled', null, 'the search was cancelled');
    const { id, done } = this.connection.send(
      { kind: 'events', query, trace: this.id } as RequestBody,
      undefined,
      [],
      options.onProgress,
    );
    const onAbort = (): void => void this.connection.send({ kind: 'cancel', target: id }).done.catch(() => undefined);
    options.signal?.addEventListener('abort', onAbort, { once: true });
    try {
      return (await done) as EventPage;
    } finally {
      options.signal?.removeEventListener('abort', onAbort);
    }
  }
  eventDetail(index: number): Promise<TraceEvent> {
    return this.ask({ kind: 'eventDetail', index });
  }
  eventStack(index: number): Promise<string[]> {
    return this.ask({ kind: 'eventStack', index });
  }
  histogram(query: HistogramQuery = {}): Promise<Histogram> {
    return this.ask({ kind: 'histogram', query });
  }
  flameGraph(query: StackQuery = {}): Promise<FlameGraphData> {
    return this.ask({ kind: 'flameGraph', query });
  }
  topFunctions(query: StackQuery = {}, count = 50): Promise<TopFunctions> {
    return this.ask({ kind: 'topFunctions', query, count });
  }
  sandwich(query: StackQuery, functionName: string): Promise<Sandwich> {
    return this.ask({ kind: 'sandwich', query, functionName });
  }
  export(format: TextExportFormat, options?: ExportOptions): Promise<string>;
  export(format: ProfileExportFormat, options?: ExportOptions): Promise<Uint8Array>;
  export(format: ExportFormat, options?: ExportOptions): Promise<string | Uint8Array>;
  export(format: ExportFormat, options: ExportOptions = {}): Promise<string | Uint8Array> {
    return this.ask({ kind: 'export', format, options });
  }
  /** The worker's export stream, a part asked for (and transferred) each time the reader wants one. */
  exportStream(format: TextExportFormat, options: ExportOptions = {}): ReadableStream<Uint8Array> {
    let stream: RequestId | null = null;
    return new ReadableStream<Uint8Array>(
      {
        pull: async (controller) => {
          if (stream === null) {
            if (this.closed) throw new NetTraceError('closed', null, 'the trace handle was closed');
            const opened = this.connection.send({ kind: 'exportOpen', format, options, trace: this.id });
            await opened.done;
            stream = opened.id;
          }
          const { bytes } = await this.ask<{ bytes: Uint8Array | null }>({ kind: 'exportNext', stream });
          if (bytes === null) controller.close();
          else controller.enqueue(bytes);
        },
        cancel: async () => {
          if (stream !== null) await this.ask({ kind: 'exportCancel', stream }).catch(() => undefined);
        },
      },
      { highWaterMark: 0 },
    );
  }
  exportTo(format: TextExportFormat, destination: ExportDestination, options: ExportOptions & ExportToOptions = {}): Promise<number> {
    const { signal, keepOpen, ...exportOptions } = options;
    return writeParts(streamParts(this.exportStream(format, exportOptions)), destination, { ...(signal ? { signal } : {}), ...(keepOpen ? { keepOpen } : {}) });
  }
  datasetTables(fileName: string): Promise<DatasetTables> {
    return this.ask({ kind: 'datasetTables', fileName });
  }
  close(): void {
    if (this.closed || !this.owner) return;
    this.closed = true;
    // The worker owns all of the trace's memory: ending it frees everything at once.
    this.connection.terminate();
  }
}

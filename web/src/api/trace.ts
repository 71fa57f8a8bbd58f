// web/src/api — openTrace in the calling thread: the engine (wasm) runs here. Node programs,
// tests and workers use it directly; the engine worker wraps it for pages.
import type { NetTraceModule, RawEventQuery, RawHistogramQuery, RawStackQuery, RawTraceSession } from '../nettrace_wasm.mjs';
import type { EventsRequest, FlameRequest, HistogramRequest } from './generated/requests.js';
import { toTraceInput } from '../reader/chunk_source.js';
import type { TraceInput, TraceSource } from '../reader/chunk_source.js';
import { HeapBuffer, isOutOfMemory, provideNames, readIntoSession, ReadCancelled } from '../reader/read_trace.js';
import { discardEngine, loadNetTraceModule } from '../reader/wasm_loader.js';
import type { WasmOptions } from '../reader/wasm_loader.js';
import type { ExportFormat, ExportOptions, OpenTraceOptions, ProfileExportFormat, StackQuery, TextExportFormat, TraceHandle } from './handle.js';
import { collectParts, gzipParts, profileParts, pushOtlp } from './profile_export.js';
import type {
  EventPage,
  EventQuery,
  EventsOptions,
  FlameGraphData,
  Histogram,
  HistogramQuery,
  Sandwich,
  Summary,
  TopFunctions,
  TraceEvent,
} from './types.js';
import { NetTraceError } from './types.js';
import { ModelQueryHandle } from './model_query.js';
import type { QueryName, QueryOptions } from './model_query.js';
import { exportParts } from './export_parts.js';
import type { ExportEngine } from './export_parts.js';
import { partsAsStream, partsAsText, writeParts } from './export_sink.js';
import type { ExportDestination, ExportToOptions } from './export_sink.js';
import { datasetTables } from './dataset_tables.js';
import type { DatasetTables } from './dataset_tables.js';


/** Rows a text-search step examines at most (each step also re-reads at most 32 blocks). */
const SEARCH_ROWS_PER_STEP = 32768;
/**
 * A text search yields to the event loop (a macrotask) at least this often, so that a worker
 * sees 'cancel' messages: re-reading an in-memory Blob may resolve without ever yielding.
 */
const SEARCH_YIELD_MS = 30;

/** Two ascending row lists merged into one ascending list. */
function mergeRows(a: Uint32Array, b: Uint32Array): Uint32Array {
  if (b.length === 0) return a;
  if (a.length === 0) return b;
  const out = new Uint32Array(a.length + b.length);
  let i = 0;
  let j = 0;
  let k = 0;
  while (i < a.length && j < b.length) out[k++] = a[i]! <= b[j]! ? a[i++]! : b[j++]!;
  while (i < a.length) out[k++] = a[i++]!;
  while (j < b.length) out[k++] = b[j++]!;
  return out;
}

function concatRows(parts: Uint32Array[], count: number): Uint32Array {
  const out = new Uint32Array(count);
  let at = 0;
  for (const p of parts) out.set(p, at), (at += p.length);
  return out;
}

/**
 * Reads a whole trace with the engine in this thread.
 * @param source File/Blob, ArrayBuffer/typed array, URL, stream; in Node also a file path
 * @param onSession called with the engine session before reading starts: a live session
 *   (web/src/live) reads its counts while the bytes arrive; it must not push or finish
 * @throws NetTraceError with `code`, `offset` and the `partial` summary read before a fatal
 *   error; code "cancelled" when `signal` aborted; code "source" when the source failed
 */
export async function openTraceInThread(
  source: TraceSource,
  options: OpenTraceOptions & WasmOptions = {},
  onSession?: (session: RawTraceSession, view: () => TraceHandle) => void,
): Promise<TraceHandle> {
  const M = await loadNetTraceModule(options);
  const input = await toTraceInput(source, options);
  const session = new M.TraceSession();
  // A live session names frames while it reads: its names are copied as they come.
  if (!onSession && input.randomAccess) session.keepNamesInSource();
  onSession?.(session, () => liveView(M, session, input));
  const summary = (): Summary => JSON.parse(session.summaryJson()) as Summary;
  let status;
  let namesCancelled = false;
  try {
    const read = await readIntoSession(M, session, input, options);
    status = read.status;
    if (status.code === 'out-of-memory') {
      // Nothing of the instance is used again, not even to delete the session (discardEngine).
      discardEngine(M);
      input.close();
      throw new NetTraceError(status.code, status.offset, status.message, null);
    }
    if (status.ok || options.keepPartial) namesCancelled = await provideNamesUnlessCancelled(M, session, input, options);
    if (status.ok && !namesCancelled) options.onProgress?.({ bytes: read.bytes, total: input.size ?? read.bytes, events: session.eventCount(), phase: 'done' });
  } catch (e) {
    if (e instanceof NetTraceError && e.code === 'out-of-memory') throw e;
    if (isOutOfMemory(e)) {
      // Out of a call after the read (names read back, a progress report): as above.
      discardEngine(M);
      input.close();
      throw new NetTraceError('out-of-memory', null, "out of memory (the engine's heap cannot grow further)", null);
    }
    if (e instanceof ReadCancelled && options.keepPartial) return keepCancelled(M, session, input);
    const partial = summary();
    session.delete();
    input.close();
    if (e instanceof ReadCancelled) throw new NetTraceError('cancelled', null, e.message, partial);
    if (e instanceof NetTraceError) throw new NetTraceError(e.code, e.offset, e.reason, partial);
    throw new NetTraceError('source', null, e instanceof Error ? e.message : String(e), partial);
  }
  if (!status.ok) {
    // A damaged trace kept: its fault first, then that some of its names were not read back.
    const reason = namesCancelled ? `${status.message}; ${NAMES_CANCELLED}` : status.message;
    const error = new NetTraceError(status.code, status.offset, reason, summary());
    if (options.keepPartial) return new InThreadTrace(M, session, input, error);
    session.delete();
    input.close();
    throw error;
  }
  if (namesCancelled) return new InThreadTrace(M, session, input, new NetTraceError('cancelled', null, NAMES_CANCELLED, summary()));
  return new InThreadTrace(M, session, input, null);
}

/** A cancel while method names were read back (keepPartial): the frames of some methods show their id. */
export const NAMES_CANCELLED = 'reading back the method names was cancelled: frames of the methods whose names were not read back show their method id';

/**
 * The method names read back (provideNames), cancelled by the signal between two ranges.
 * @returns true when the signal cancelled it and the caller keeps the trace (keepPartial);
 *   without keepPartial the cancel is thrown, as a cancel of the read is.
 */
async function provideNamesUnlessCancelled(M: NetTraceModule, session: RawTraceSession, input: TraceInput, options: OpenTraceOptions): Promise<boolean> {
  try {
    await provideNames(M, session, input, options.onProgress, options.signal);
    return false;
  } catch (e) {
    if (e instanceof ReadCancelled && options.keepPartial) return true;
    throw e;
  }
}

/**
 * A cancelled read kept (keepPartial): the end of input is declared so that the engine
 * indexes what it read, and the summary's error says "cancelled" — not the "truncated" that
 * ending the stream there makes the engine report — at the offset where reading stopped.
 */
async function keepCancelled(M: NetTraceModule, session: RawTraceSession, input: TraceInput): Promise<TraceHandle> {
  session.finish();
  // Not cancellable (the signal has already aborted): the names of what was read are what
  // lets its stacks be read.
  await provideNames(M, session, input);
  const offset = session.bytesConsumed();
  const message = 'reading was cancelled';
  const summary = JSON.parse(session.summaryJson()) as Summary;
  summary.error = { code: 'cancelled', offset, message };
  summary.complete = false;
  const error = new NetTraceError('cancelled', offset, message, summary);
  return new InThreadTrace(M, session, input, error, JSON.stringify(summary));
}

/**
 * A handle over a session still reading (live sessions: web/src/engine/engine_worker.ts):
 * session.snapshot() first makes what was read so far queryable; the handle's counts and
 * summary are those of that moment, its queries answer over the rows released so far. It does
 * not own the session: close() on it does nothing (the finished trace's handle frees it).
 */
function liveView(M: NetTraceModule, session: RawTraceSession, input: TraceInput): TraceHandle {
  session.snapshot();
  const view = new InThreadTrace(M, session, input, null);
  view.close = () => undefined;
  return view;
}

/** The engine and session behind a handle opened in this thread (api/diff.ts); null for others. */
export function inThreadEngine(handle: TraceHandle): { M: NetTraceModule; session: RawTraceSession } | null {
  return handle instanceof InThreadTrace ? handle.engine() : null;
}

class InThreadTrace extends ModelQueryHandle implements TraceHandle {
  readonly bytes: number;
  readonly eventCount: number;
  private readonly summaryText: string;
  private session: RawTraceSession | null;
  /** The match list of the last text search, by its query (filters + text, no page). */
  private lastSearch: { key: string; rows: Uint32Array } | null = null;

  constructor(
    private readonly M: NetTraceModule,
    session: RawTraceSession,
    private readonly input: TraceInput,
    readonly error: NetTraceError | null,
    summaryText: string = session.summaryJson(),
  ) {
    super();
    this.session = session;
    this.summaryText = summaryText;
    this.bytes = session.bytesConsumed();
    this.eventCount = session.eventCount();
    this.exports = {
      M,
      session: () => this.live(),
      withBlocks: (rows, use) => this.withBlocks(rows, use),
      openStreams: new Set(),
      pagedExports: Promise.resolve(),
    };
  }

  engine(): { M: NetTraceModule; session: RawTraceSession } {
    return { M: this.M, session: this.live() };
  }

  private live(): RawTraceSession {
    if (this.session === null) throw new NetTraceError('closed', null, 'the trace handle was closed');
    return this.session;
  }

  summary(): Summary {
    return JSON.parse(this.summaryText) as Summary;
  }
  summaryJson(): string {
    return this.summaryText;
  }
  async query<N extends QueryName>(name: N, request?: QueryOptions<N>, args: string[] = []): Promise<string> {
    const answer = this.live().query(name, JSON.stringify(request ?? {}), args);
    if (!answer.ok) throw new NetTraceError(answer.code, null, answer.message);
    return answer.text;
  }

  /** Provide-and-use sections, one at a time (see withBlocks). */
  private blockQueue: Promise<unknown> = Promise.resolve();

  /**
   * Re-reads the blocks of `rows`, then runs `use` before any other call can provide blocks:
   * the engine keeps a bounded block cache, so two interleaved calls could otherwise evict
   * each other's blocks between the read and the use (events() and a text search at once).
   */
  private withBlocks<T>(rows: Uint32Array, use: (session: RawTraceSession) => T): Promise<T> {
    const run = this.blockQueue.then(async () => {
      await this.provide(rows);
      return use(this.live());
    });
    this.blockQueue = run.catch(() => undefined);
    return run;
  }

  /** Reads again the blocks these rows live in and hands them to the engine, in order. */
  private async provide(rows: Uint32Array): Promise<void> {
    const ranges = this.live().blocksNeeded(rows);
    const reads: Promise<Uint8Array>[] = [];
    for (let i = 0; i < ranges.length; i += 2) {
      const start = ranges[i]!;
      reads.push(this.input.reread(start, start + ranges[i + 1]!));
    }
    const blocks = await Promise.all(reads);
    const session = this.live(); // closed while reading?
    const heap = new HeapBuffer(this.M);
    try {
      blocks.forEach((bytes, k) => session.provideBlock(ranges[2 * k]!, heap.put(bytes), bytes.length));
    } finally {
      heap.free();
    }
  }

  /**
   * Every row matching a query with text, ascending: scanText steps over the query's rows,
   * each re-reading at most 32 blocks for the rows whose payloads must be looked at. Only
   * row numbers are kept; the last query's list is cached for paging.
   */
  private async searchText(query: EventQuery, options: EventsOptions): Promise<Uint32Array> {
    const { offset: _offset, limit: _limit, ...filter } = query;
    const key = JSON.stringify([filter.provider, filter.name, filter.thread, filter.fromMs, filter.toMs, filter.text]);
    if (this.lastSearch?.key === key) return this.lastSearch.rows;
    const text = filter.text!;
    const parts: Uint32Array[] = [];
    let count = 0;
    let cursor = 0;
    let lastYield = performance.now();
    for (;;) {
      if (options.signal?.aborted) throw new NetTraceError('cancelled', null, 'the search was cancelled');
      const step = this.live().scanText(filter, cursor, SEARCH_ROWS_PER_STEP);
      let payloadMatches: Uint32Array = new Uint32Array(0);
      if (step.needPayload.length > 0) {
        payloadMatches = await this.withBlocks(step.needPayload, (session) => session.matchPayloadText(step.needPayload, text));
      }
      const merged = mergeRows(step.matches, payloadMatches);
      if (merged.length > 0) parts.push(merged), (count += merged.length);
      options.onProgress?.({ scanned: step.next - step.begin, total: step.end - step.begin, matches: count });
      if (step.next >= step.end) break;
      cursor = step.next;
      if (performance.now() - lastYield > SEARCH_YIELD_MS) {
        await new Promise((resolve) => setTimeout(resolve, 0));
        lastYield = performance.now();
      }
    }
    if (options.signal?.aborted) throw new NetTraceError('cancelled', null, 'the search was cancelled');
    const rows = concatRows(parts, count);
    this.lastSearch = { key, rows };
    return rows;
  }

  async events(query: EventQuery = {}, options: EventsOptions = {}): Promise<EventPage> {
    let total: number;
    let rows: Uint32Array;
    if (query.text) {
      const matches = await this.searchText(query, options);
      const offset = Math.max(0, Math.floor(query.offset ?? 0));
      const limit = Math.max(0, Math.floor(query.limit ?? 100));
      total = matches.length;
      rows = matches.slice(offset, offset + limit);
    } else {
      ({ total, rows } = this.live().queryEvents(query));
    }
    const json = await this.withBlocks(rows, (session) => Array.from(rows, (row) => session.eventJson(row)));
    return { total, rows, events: json.map((j) => JSON.parse(j) as TraceEvent), json };
  }

  async eventDetail(index: number): Promise<TraceEvent> {
    if (!Number.isInteger(index) || index < 0 || index >= this.eventCount) {
      throw new NetTraceError('invalid-argument', null, `no event with index ${index}`);
    }
    return JSON.parse(await this.withBlocks(Uint32Array.of(index), (session) => session.eventJson(index))) as TraceEvent;
  }

  async eventStack(index: number): Promise<string[]> {
    if (!Number.isInteger(index) || index < 0 || index >= this.eventCount) {
      throw new NetTraceError('invalid-argument', null, `no event with index ${index}`);
    }
    return this.live().eventStack(index);
  }

  /**
   * The return addresses ("0x…") of eventStack's frames, leaf first (after its
   * UNMANAGED_CODE_TIME leaf): two frames of one method at different call sites differ here.
   * Rejects with code "invalid-argument" for a bad index.
   */
  async eventStackAddresses(index: number): Promise<string[]> {
    if (!Number.isInteger(index) || index < 0 || index >= this.eventCount) {
      throw new NetTraceError('invalid-argument', null, `no event with index ${index}`);
    }
    return this.live().eventStackAddresses(index);
  }

  async histogram(query: HistogramQuery = {}): Promise<Histogram> {
    return this.live().histogram(query);
  }

  async flameGraph(query?: StackQuery): Promise<FlameGraphData> {
    // Columns arrive as typed arrays copied out of the wasm heap (no JSON round trip).
    return this.live().flameGraph(query ?? {});
  }

  async topFunctions(query?: StackQuery, count = 50): Promise<TopFunctions> {
    return JSON.parse(this.live().topFunctionsJson(query ?? {}, count)) as TopFunctions;
  }

  async sandwich(query: StackQuery, functionName: string): Promise<Sandwich> {
    return this.live().sandwich(query, functionName);
  }

  /** What the export's parts are made from (api/export_parts.ts). */
  private readonly exports: ExportEngine;

  /** pprof (gzipped here) or OTLP (pushed too with otlpEndpoint): api/profile_export.ts. */
  private async profile(format: ProfileExportFormat, options: ExportOptions): Promise<Uint8Array> {
    const parts = profileParts(this.M, this.live(), format, options);
    const bytes = await collectParts(format === 'pprof' ? gzipParts(parts) : parts);
    if (format === 'otlp' && options.otlpEndpoint) await pushOtlp(options.otlpEndpoint, bytes);
    return bytes;
  }

  export(format: TextExportFormat, options?: ExportOptions): Promise<string>;
  export(format: ProfileExportFormat, options?: ExportOptions): Promise<Uint8Array>;
  export(format: ExportFormat, options?: ExportOptions): Promise<string | Uint8Array>;
  async export(format: ExportFormat, options: ExportOptions = {}): Promise<string | Uint8Array> {
    if (format === 'pprof' || format === 'otlp') return this.profile(format, options);
    return partsAsText(exportParts(this.exports, format, options));
  }

  exportStream(format: TextExportFormat, options: ExportOptions = {}): ReadableStream<Uint8Array> {
    return partsAsStream(() => exportParts(this.exports, format, options));
  }

  async exportTo(format: TextExportFormat, destination: ExportDestination, options: ExportOptions & ExportToOptions = {}): Promise<number> {
    const { signal, keepOpen, ...exportOptions } = options;
    return writeParts(exportParts(this.exports, format, exportOptions), destination, { ...(signal ? { signal } : {}), ...(keepOpen ? { keepOpen } : {}) });
  }

  async datasetTables(fileName: string): Promise<DatasetTables> {
    return datasetTables(this.M, this.live(), this.input, this.summaryText, fileName);
  }

  close(): void {
    // Exports in progress read the session: they end first (their next part fails "closed").
    for (const stream of this.exports.openStreams) stream.delete();
    this.exports.openStreams.clear();
    this.session?.delete();
    this.session = null;
    this.input.close();
  }
}

// The raw bindings' request types (wasm/nettrace_module.d.ts) have exactly the members and
// value types of the generated ones (api/generated/requests.ts): tsc fails when they drift.
type Members<T> = { [K in keyof T]-?: NonNullable<T[K]> };
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const rawRequestTypesMatch: [
  Same<Members<RawStackQuery>, Members<FlameRequest>>,
  Same<Members<RawEventQuery>, Members<EventsRequest>>,
  Same<Members<RawHistogramQuery>, Members<HistogramRequest>>,
] = [true, true, true];
void rawRequestTypesMatch;

// web/src/api — the handle on an opened trace. The same interface is offered in-thread
// (api/trace.ts: Node, tests, a worker of your own) and through the engine worker
// (engine/worker_client.ts: browser pages), so both are tested by the same suites.
import type {
  EventPage,
  EventQuery,
  EventsOptions,
  FlameGraphData,
  Histogram,
  HistogramQuery,
  NetTraceError,
  Progress,
  Sandwich,
  Summary,
  TopFunctions,
  TraceEvent,
} from './types.js';
import type { GcStats, JitStats } from './types.js';
import type { ExportRequest, FlameRequest } from './generated/requests.js';
import type { ExportDestination, ExportToOptions } from './export_sink.js';
import type { DatasetTables } from './dataset_tables.js';

/** The statistics `runtimeStatsText` gives; the generic query's names and requests. */
export type { QueryName, QueryOptions, RuntimeStatsKind } from './model_query.js';
import type { QueryName, QueryOptions, RuntimeStatsKind } from './model_query.js';
import type { ActivitiesView, AllocationsView, ContentionView, CountersView, EventViewName, ExceptionsView, ThreadPoolView } from './event_views.js';

export interface OpenTraceOptions {
  /** Called after every ≤ 1 MiB decoded (PUSH_SIZE; ~25 ms apart in Chromium), while method names
   *  are read back (phase "names"), then once with phase "done" (none after a cancel). The engine
   *  worker forwards at most one "reading" or "names" report per 50 ms, but always a phase's first,
   *  and its last when the total is known. */
  onProgress?: (progress: Progress) => void;
  /** Aborting stops reading between two chunks, or reading back method names (progress phase
   *  "names") between two ranges; openTrace then rejects with code "cancelled". */
  signal?: AbortSignal;
  /** Bytes per read of a File/Blob read by slices, or per piece of bytes in memory; default 4 MiB.
   *  Streams (a File's stream() included) hand over the pieces they have. */
  chunkSize?: number;
  /**
   * File/Blob sources: how the first pass reads. 'stream' (the default for a Blob that has
   * stream(): browsers' File/Blob, Node's fs.openAsBlob): Blob.stream(), which the browser fills
   * ahead on its own threads and which reads a File ~1.6× as fast as slices in Chromium
   * (reader/stream_chunks.ts). 'slices': Blob.slice() chunks of `chunkSize`, `readAhead` of them
   * in flight. Re-reads for event details are slices either way.
   */
  fileRead?: 'stream' | 'slices';
  /**
   * File/Blob sources read by slices: chunk reads issued ahead, in flight while the engine
   * decodes the chunk before them (reader/read_ahead.ts). At most readAhead + 1 chunks are held
   * at once. Default 2; 0 reads and decodes in turn; at most 8.
   */
  readAhead?: number;
  /**
   * Stream and URL sources without HTTP Range support cannot be read twice: their bytes are
   * kept (outside the wasm heap) so that events have details. false: keep nothing, events come
   * without details. Default true.
   */
  keepStreamedBytes?: boolean;
  /** Total size of a stream source, when known (for progress). */
  size?: number;
  /** Passed to fetch() for URL sources. */
  fetchInit?: RequestInit;
  /**
   * When the trace is damaged (truncated, corrupt): resolve with a handle over every event
   * read before the fault, its `error` set, instead of rejecting (as the native tool keeps
   * them). A cancelled read (`signal`) resolves the same way, its `error` code "cancelled"
   * at the offset where reading stopped. A cancel while method names are read back (after a
   * read to the end) resolves with every event, its `error` code "cancelled" with a null
   * offset: frames of the methods whose names were not read back show their module and method
   * id (after a damaged read, the fault's `error` says so too). Source failures still reject.
   */
  keepPartial?: boolean;
}

/**
 * What flameGraph / topFunctions / export select: one event type's stacks, filtered, weighed,
 * grouped and folded (docs/stacks.md). The members are generated from the
 * engine's query table (api/generated/requests.ts), the same options as the CLI's `flame` flags.
 */
export type StackQuery = FlameRequest;

/** The exports that are text. */
export type TextExportFormat = 'speedscope' | 'chrome' | 'csv' | 'stacks-csv' | 'folded';
/** The exports that are bytes: pprof (gzipped profile.proto), otlp (an OpenTelemetry profiles request). */
export type ProfileExportFormat = 'pprof' | 'otlp';
export type ExportFormat = TextExportFormat | ProfileExportFormat;

/**
 * The stacks to export (speedscope, folded), `stackText` and `csvPayload` (csv), `speedscope`
 * (evented or sampled), generated as `export`'s options of the query table; and the profile's
 * name (speedscope; default "trace"), which the CLIs take from the file name.
 */
export interface ExportOptions extends ExportRequest {
  name?: string;
}

/** A trace read to the end (or, with keepPartial, to a fault). Holds engine memory until close(). */
export interface TraceHandle {
  /** Why reading stopped before the end, or the names read back were cancelled (keepPartial), else null. */
  readonly error: NetTraceError | null;
  /** The summary document (docs/summary-json.md), parsed. */
  summary(): Summary;
  /** The summary document exactly as the engine wrote it. */
  summaryJson(): string;
  /** Per-type counts in TraceEvent's baseline form ("Provider/Name, count" lines). */
  traceEventCounts(): Promise<string>;
  /**
   * Any query the engine answers from the trace by name (core/api/model_queries.h: summary,
   * counts, flame, top, sandwich, gc, jit, exceptions, contention, activities, counters,
   * threadpool, allocations), exactly as the native `nettrace NAME FILE [ARGS…] [options]`
   * prints it, without its final newline: `request` holds its options (the generated request
   * type, `format` and top's `n`), `args` its positional arguments after FILE (sandwich: the
   * function). The other methods that return these documents are this call, parsed.
   * @throws NetTraceError code "invalid-argument" for a query the engine does not answer by
   *   name, a bad option or a missing argument
   */
  query<N extends QueryName>(name: N, request?: QueryOptions<N>, args?: string[]): Promise<string>;
  /** Bytes read and events decoded. */
  readonly bytes: number;
  readonly eventCount: number;
  /**
   * A page of events in time order, with details: the byte ranges holding them are read
   * again from the source (Blob.slice(), a Range request, or the kept stream bytes).
   * With `query.text`, `total` is the number of matches and the page is taken from them;
   * `options` cancels the search (code "cancelled") and reports its progress.
   */
  events(query?: EventQuery, options?: EventsOptions): Promise<EventPage>;
  /** One event by its index (the `index` field, a row of `EventPage.rows`), with details. */
  eventDetail(index: number): Promise<TraceEvent>;
  /**
   * The stack of one event (its `index`) as frame names, leaf first, named at the event's time
   * exactly as the flame graph names them ("Module!Namespace.Type.Method", "module+0x1a2b",
   * "0x7ffa12345678"; a sample taken outside managed code ends in "UNMANAGED_CODE_TIME").
   * [] when the event has no stack. Rejects with code "invalid-argument" for a bad index.
   */
  eventStack(index: number): Promise<string[]>;
  /** Event counts over time buckets, for timelines. */
  histogram(query?: HistogramQuery): Promise<Histogram>;
  /** The laid-out flame graph of a stack query: columns as typed arrays. */
  flameGraph(query?: StackQuery): Promise<FlameGraphData>;
  /** The `count` (default 50) heaviest functions by exclusive weight, with inclusive weights. */
  topFunctions(query?: StackQuery, count?: number): Promise<TopFunctions>;
  /** Callers and callees of the function named `functionName` (a frame name) in the stacks of `query`. */
  sandwich(query: StackQuery, functionName: string): Promise<Sandwich>;
  /**
   * The trace in another tool's format, as text: "speedscope" (the stacks of `options`: for
   * time weights one evented profile per thread, else, or with `speedscope: 'sampled'`, one
   * sampled profile per thread), "chrome" (every event, Chrome trace JSON, payload fields as
   * args), "csv" (every event with its call-stack id; `stackText` adds the frames; with
   * `event`, that type's events with their payload fields as columns), "stacks-csv" (each
   * id's frames), "folded" (the stacks of `options` as "a;b;c weight" lines). The bytes of
   * `nettrace export` (whose JSON formats end with one more newline).
   * For a small document: the whole text is held at once. A document of any size goes to
   * exportTo() or exportStream() (docs/exports.md).
   * @throws NetTraceError code "too-large" when the text is longer than a JavaScript string
   *   can be (2^29 − 24 characters in V8), "closed" when the handle is closed meanwhile
   */
  export(format: TextExportFormat, options?: ExportOptions): Promise<string>;
  /**
   * The stacks as one profile with a sample type per (event, weight) pair (docs/exports.md):
   * "pprof" (gzipped profile.proto, the bytes `go tool pprof` and Pyroscope read; they gunzip to
   * the native CLI's bytes), "otlp" (an OpenTelemetry profiles ExportProfilesServiceRequest, the
   * native CLI's bytes). `event` / `weight` narrow the sample types when given; the other
   * selection options apply as for flameGraph. With `otlpEndpoint` (otlp) the request is also
   * POSTed to that OTLP/HTTP collector (fetch; https works).
   * @throws NetTraceError code "invalid-argument" when there is nothing to profile, "output"
   *   when the collector refuses the push (its status and answer in the message)
   */
  export(format: ProfileExportFormat, options?: ExportOptions): Promise<Uint8Array>;
  export(format: ExportFormat, options?: ExportOptions): Promise<string | Uint8Array>;
  /**
   * The same document written to `destination` a part at a time (about 1 MiB each), each
   * part produced only once the previous one is written: the memory held is one part's,
   * whatever the document's size.
   * @param destination a file path (Node: created or truncated; removed again if the export
   *   fails), a Node Writable (waits for 'drain' when it is full) or a WHATWG WritableStream
   *   (waits for its `ready`)
   * @param options the export's options, and `signal` (stops between two parts), `keepOpen`
   *   (a stream is otherwise ended or closed at the end, as pipeTo() does)
   * @returns the number of bytes written
   * @throws NetTraceError code "output" when the destination cannot be created or written
   *   (its `reason` says why: a missing folder, a closed stream…), "cancelled" when `signal`
   *   aborted, "closed" when the handle is closed meanwhile, "invalid-argument" for an
   *   unknown format or destination
   */
  exportTo(format: TextExportFormat, destination: ExportDestination, options?: ExportOptions & ExportToOptions): Promise<number>;
  /**
   * The same document as a stream of its UTF-8 bytes, a part produced each time the reader
   * asks for one (nothing is made ahead). Cancelling the stream ends the export. Errors come
   * through the stream as NetTraceError (codes as for exportTo).
   */
  exportStream(format: TextExportFormat, options?: ExportOptions): ReadableStream<Uint8Array>;
  /** One record per GC as TraceEvent's TraceGC, with GCStats totals, per process (docs/views.md). */
  gc(): Promise<GcStats>;
  /** One record per jitted method as TraceEvent's TraceJittedMethod, with JITStats totals (docs/views.md). */
  jit(): Promise<JitStats>;
  /** The same statistics exactly as the native `nettrace gc|jit FILE --format json|csv` prints them (without its final newline). */
  runtimeStatsText(kind: RuntimeStatsKind, format: 'json' | 'csv'): Promise<string>;
  /** An event view exactly as the native `nettrace VIEW FILE [--format csv]` prints it (JSON without the newline). */
  eventView(view: EventViewName, format?: 'json' | 'csv'): Promise<string>;
  /**
   * The trace's dataset tables (docs/dataset.md) as uncompressed Parquet bytes, by table name,
   * with its `trace_id`: the rows `nettrace dataset` writes for it. `fileName` fills
   * `traces.file_name`. Holds the trace's bytes while it runs (api/dataset_tables.ts).
   */
  datasetTables(fileName: string): Promise<DatasetTables>;
  /** First-chance exceptions by type and throwing method (`nettrace exceptions`), parsed. */
  exceptions(): Promise<ExceptionsView>;
  /** Lock contention and wait-handle waits (`nettrace contention`), parsed. */
  contention(): Promise<ContentionView>;
  /** Start/Stop activities (`nettrace activities`), parsed. */
  activities(): Promise<ActivitiesView>;
  /** EventCounters and Metrics time series (`nettrace counters`), parsed. */
  counters(): Promise<CountersView>;
  /** Thread pool counts, adjustments and starvation (`nettrace threadpool`), parsed. */
  threadPool(): Promise<ThreadPoolView>;
  /**
   * Allocated bytes and objects by type and function (`nettrace allocations`), parsed: from .NET
   * 10's AllocationSampled, estimates with 99 % intervals; else GC/AllocationTick's amounts.
   */
  allocations(): Promise<AllocationsView>;
  /** Frees the engine's memory; the handle is unusable afterwards. */
  close(): void;
}

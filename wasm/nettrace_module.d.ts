// Hand-written types of the raw Emscripten module built from wasm/bindings.cc
// (emcc 3.1.6 has no --embind-emit-tsd). Keep in step with bindings.cc: embind reports a
// missing or renamed binding only when it is called.

/** A fatal input error (or `ok`), as wasm/bindings.cc converts core's `Status`. */
export interface RawStatus {
  ok: boolean;
  /** `ErrorCodeName()`: "ok", "truncated", "bad-magic", "unsupported-version", "unsupported-format",
   *  "corrupt", "bad-reference", "limit-exceeded", "invalid-argument". */
  code: string;
  /** Absolute file offset of the fault, or null when the error is not about a position. */
  offset: number | null;
  message: string;
}

/** core/trace_session.h. An embind handle: call `delete()` when done (there is no GC of wasm memory). */
export interface RawTraceSession {
  /**
   * Feeds the next bytes of the file.
   * @param pointer address in the wasm heap (from `_malloc`) holding the bytes
   * @param length number of bytes at `pointer`; the engine copies what it keeps
   * @returns the first fatal error so far (the same one again on later calls), or ok
   */
  pushChunk(pointer: number, length: number): RawStatus;
  /** NetPerf v1/v2: bytes wanted from the end of the file before the next push (0: none). */
  tailWanted(): number;
  /** Hands over the file's last bytes [fileSize - length, fileSize). */
  provideTail(pointer: number, length: number, fileSize: number): RawStatus;
  /** Declares the end of input. @returns an error when the stream ended early. */
  finish(): RawStatus;
  /** First fatal error so far. */
  status(): RawStatus;
  /** The trace summary as one JSON document (docs/summary-json.md). */
  summaryJson(): string;
  /** Per-type counts in TraceEvent's baseline form ("Provider/Name, count" lines). */
  traceEventCounts(): string;
  bytesConsumed(): number;
  eventCount(): number;
  /** Events the trace says were dropped so far (sequence-number gaps). */
  droppedEventCount(): number;
  /** Live sessions: makes what was read so far queryable before finish() (TraceSession::Snapshot):
   *  rows = events released by the sorter (the store's rows), pending = events it still holds. */
  snapshot(): { rows: number; pending: number };
  /** Events in time order matching `query`: the page's store rows (a copy) and the match count. */
  queryEvents(query: RawEventQuery): { total: number; rows: Uint32Array };
  /**
   * The file ranges that must be provided (provideBlock) before eventJson can give these rows'
   * details, as pairs: [offset0, size0, offset1, size1, …]. Ranges already provided are left out.
   */
  blocksNeeded(rows: Uint32Array): Float64Array;
  /** Hands back the bytes of a range from blocksNeeded (copied; the engine keeps a bounded cache). */
  provideBlock(offset: number, pointer: number, length: number): void;
  /**
   * Method names stay in the file while reading (before the first pushChunk): for a source
   * that can be read again. After finish, nameRangesNeeded/provideNames until it is empty,
   * before any call that names frames.
   */
  keepNamesInSource(): void;
  /** After finish: the file ranges of method names frames can need, not provided yet, as pairs. */
  nameRangesNeeded(): Float64Array;
  /** Hands back the bytes of a range from nameRangesNeeded (copied). */
  provideNames(offset: number, pointer: number, length: number): void;
  /** One event as JSON ("null" for a row out of range); details when its block was provided. */
  eventJson(row: number): string;
  /** One event's stack as frame names, leaf first, named as the flame graph names them ([] without one). */
  eventStack(row: number): string[];
  /** The same stack's return addresses ("0x…"), leaf first. */
  eventStackAddresses(row: number): string[];
  /**
   * One step of a free-text search (core/analysis/text_search.h) from store row `cursor`,
   * examining at most `maxRows` rows; query.text must be non-empty. Rows in `needPayload`
   * must have their blocks provided, then be passed to matchPayloadText.
   */
  scanText(query: RawEventQuery, cursor: number, maxRows: number): RawTextScanStep;
  /** Of these rows (blocks provided), those with a payload field value containing `text`. */
  matchPayloadText(rows: Uint32Array, text: string): Uint32Array;
  /** Event counts over time buckets: a histogram request (filters, buckets, groupBy) of the query table. */
  histogram(query: RawHistogramQuery): RawHistogram;
  /** Bytes per event of the store's per-event columns. */
  storeBytesPerEvent(): number;
  /** The stack analyses (core/analysis/stacks/call_tree.h, flame_graph.h, top_functions.h): JSON or text. */
  flameGraphJson(query: RawStackQuery): string;
  /** The same layout as typed columns (core/analysis/stacks/flame_graph.h FlameGraph). */
  flameGraph(query: RawStackQuery): RawFlameGraph;
  /** Folded stacks ("a;b;c weight" lines, sorted), a part at a time. */
  foldedStream(query: RawStackQuery): RawExportStream;
  topFunctionsJson(query: RawStackQuery, count: number): string;
  sandwichJson(query: RawStackQuery, functionName: string): string;
  /** The same two layouts as typed columns. */
  sandwich(query: RawStackQuery, functionName: string): { function: string; callers: RawFlameGraph; callees: RawFlameGraph };
  /** speedscope JSON, one sampled profile per thread, a part at a time. */
  speedscopeStream(query: RawStackQuery, name: string): RawExportStream;
  /** Evented profiles in milliseconds for time weights (thread time, wait time), else as speedscopeStream. */
  speedscopeEventedStream(query: RawStackQuery, name: string): RawExportStream;
  /** Every event as CSV (the stack's text too when `stackText`), a part at a time. */
  eventsCsvStream(stackText: boolean): RawExportStream;
  /** Every call stack an event has, as CSV, a part at a time. */
  stacksCsvStream(): RawExportStream;
  /** CSV of one event type with payload columns, by pages (their blocks provided): the page end in `rows`. */
  payloadCsvPageEnd(rows: Uint32Array): number;
  /** `columns` with the page's new payload field names appended. */
  payloadCsvColumns(rows: Uint32Array, columns: string[]): string[];
  /** The page's CSV lines for these columns (UTF-8 bytes, the native tool's). */
  payloadCsvLines(rows: Uint32Array, columns: string[]): Uint8Array;
  /** The Chrome trace with payload args, by pages of store rows (their blocks provided): head, pages from row 0, tail (UTF-8 bytes). */
  chromeTraceBegin(): Uint8Array;
  chromeTracePageEnd(beginRow: number): number;
  chromeTraceEvents(beginRow: number, endRow: number): Uint8Array;
  chromeTraceEnd(): Uint8Array;
  /**
   * Any query of the model queries' table (core/api/model_queries.h) by name: summary, counts,
   * flame, top, sandwich, gc, jit and the event views. `requestJson`: the request object as
   * JSON (its options, `format` "json" | "csv", top's `n`); `args`: the positional arguments
   * after FILE (sandwich: the function). `text`: the native CLI's output without its last newline.
   */
  query(name: string, requestJson: string, args: string[]): RawStatus & { text: string };
  delete(): void;
  isDeleted(): boolean;
}

/** core/analysis/query/event_query.h; absent, null or undefined fields mean "any" / the default. */
/**
 * An export produced a part at a time (core/export/export_stream.h), bounded memory whatever
 * the document's size. It reads its session: delete() it before the session.
 */
export interface RawExportStream {
  /** The next part's UTF-8 bytes (whole items until about `budget` bytes; a copy); empty at the end. */
  next(budget: number): Uint8Array;
  delete(): void;
}

export interface RawEventQuery {
  provider?: string | undefined;
  name?: string | undefined;
  thread?: number | undefined;
  fromMs?: number | undefined;
  toMs?: number | undefined;
  /** Free text; queryEvents and histogram ignore it (scanText applies it). */
  text?: string | undefined;
  offset?: number | undefined;
  limit?: number | undefined;
}

/** histogram's request (api/generated/requests.ts HistogramRequest): filters, buckets, grouping. */
export interface RawHistogramQuery {
  provider?: string | undefined;
  name?: string | undefined;
  thread?: number | undefined;
  fromMs?: number | undefined;
  toMs?: number | undefined;
  buckets?: number | undefined;
  groupBy?: 'none' | 'provider' | 'eventType' | 'thread' | undefined;
}

/** TraceSession.scanText: one step; `next === end` when the scan is complete. */
export interface RawTextScanStep {
  /** Rows matching on provider, name, thread or labels (no payload needed), ascending. */
  matches: Uint32Array;
  /** Candidate rows whose payloads must be looked at, ascending (at most 32 blocks' worth). */
  needPayload: Uint32Array;
  /** The query's row range [begin, end) (its time filter). */
  begin: number;
  end: number;
  next: number;
}

/** core/analysis/stacks/call_tree.h StackQuery; absent fields keep the engine's defaults. */
export interface RawStackQuery {
  event?: string | undefined;
  provider?: string | undefined;
  thread?: number | undefined;
  fromMs?: number | undefined;
  toMs?: number | undefined;
  inverted?: boolean | undefined;
  groupByThread?: boolean | undefined;
  process?: number | undefined;
  groupByProcess?: boolean | undefined;
  weight?:
    | 'auto' | 'count' | 'bytes' | 'thread-time' | 'managed-thread-time' | 'traceevent-thread-time' | 'wait-time'
    | 'alloc-bytes' | 'alloc-objects' | undefined;
  typeAsRoot?: boolean | undefined;
  exceptionType?: string | undefined;
  stitchAsync?: boolean | undefined;
  groupByModule?: boolean | undefined;
  justMyCode?: boolean | undefined;
  dropTimeLeaves?: boolean | undefined;
  groupPats?: string | undefined;
  foldPats?: string | undefined;
  excludePats?: string | undefined;
  includePats?: string | undefined;
  dotnetTraceFrames?: boolean | undefined;
}

/** core/analysis/query/histogram.h; counts are series-major (counts[s * buckets + b]), a copy. */
export interface RawHistogram {
  fromMs: number;
  toMs: number;
  bucketMs: number;
  buckets: number;
  total: number;
  series: string[];
  counts: Float64Array;
}

/** The allocator's view: linear memory size, bytes malloc has handed out, bytes free in it. */
export interface RawHeapStats {
  heapSize: number;
  allocated: number;
  free: number;
}

/** core/convert/convert_session.h: any readable trace in, NetTrace v6 out, chunk by chunk. */
export interface RawConvertSession {
  pushChunk(pointer: number, size: number): RawStatus;
  tailWanted(): number;
  provideTail(pointer: number, length: number, fileSize: number): RawStatus;
  /** End of input; after an input error, flushes what was read before the fault. */
  finish(): RawStatus;
  /** Whether that flush worked (ok when nothing needed flushing). */
  flushStatus(): RawStatus;
  /** The v6 bytes produced since the last call. */
  takeOutput(): Uint8Array;
  eventsWritten(): number;
  delete(): void;
}

/** A budget file checked against traces added one at a time (wasm/verdict_bindings.cc). */
export interface RawBudgetCheck {
  /** Parses the budget file; `source` names it in errors. */
  load(text: string, source: string): RawStatus;
  /** Measures an opened trace: a checked one, or (baseline) one the relative budgets compare with. */
  add(session: RawTraceSession, name: string, baseline: boolean): void;
  /** Checks every budget (an error: a relative budget without baseline traces). */
  check(): RawStatus;
  passed(): boolean;
  /** format: text | json | junit | markdown, as `nettrace check --format` prints it. */
  output(format: string, timestamp: string): string;
  delete(): void;
}

/** Many runs a side, added one at a time, then compared (`nettrace diff --baseline … --compare …`). */
export interface RawRunDiff {
  /** The stack selection (a flame request as JSON), the tests' alpha and minShare; maxFunctions < 0: all. */
  setRequest(stackJson: string, alpha: number, minShare: number, maxFunctions: number): RawStatus;
  add(session: RawTraceSession, name: string, baseline: boolean): void;
  /** format: json (with its final newline) | markdown. */
  output(format: string): RawStatus & { text: string };
  delete(): void;
}

/**
 * wasm/profile_bindings.cc: a profile export (pprof uncompressed, or an OTLP profiles request)
 * built from a session's stacks, read a part at a time. An embind handle: call `delete()`.
 */
export interface RawProfileExport {
  /** Whether the profile was built; else `message()` says why (nothing to profile, a bad option). */
  ok(): boolean;
  message(): string;
  /** The next part (a JS-owned copy, at least `budget` bytes unless the document ends), or null after the last. */
  next(budget: number): Uint8Array | null;
  delete(): void;
}

/**
 * core/heap/heap_session.h (wasm/heap_bindings.cc): a heap snapshot, a .gcdump or a .nettrace with
 * heap-dump events (told from the first bytes), read chunk by chunk. An embind handle: `delete()`.
 */
export interface RawHeapSession {
  /** The file's size, when known: the reader allocates its arrays once. */
  setFileSize(size: number): void;
  /** The first fatal error (again on later calls), or ok. */
  pushChunk(pointer: number, size: number): RawStatus;
  /** End of input: builds the graph. */
  finish(): RawStatus;
  status(): RawStatus;
  /** Spanning tree, dominators, paths: once, after finish() with a graph; onPhase gets each phase's name. */
  analyze(onPhase?: (phase: string) => void): void;
  hasGraph(): boolean;
  analyzed(): boolean;
  bytesReceived(): number;
  /** "gcdump", "nettrace", or "" before the first bytes. */
  kind(): string;
  /** {kind, bytesReceived, error, graph, analyzed, memory?: {graphBytes, analysisBytes, nodes, edges}}. */
  statusJson(): string;
  /** `nettrace heap --format json` without its final newline ("" before analyze()). */
  json(pathsTo: string, largest: number, paths: number): string;
  /** The pathsTo part alone: {type, matched, instances, roots, paths}. */
  pathsJson(pathsTo: string, paths: number): string;
  /** `nettrace heap --format csv`. */
  typesCsv(): string;
  delete(): void;
}

export interface NetTraceModule {
  TraceSession: { new (): RawTraceSession };
  HeapSession: { new (): RawHeapSession };
  /** `nettrace heap CURRENT --baseline BASELINE` (json without its final newline, or csv); both analysed. */
  heapDiffText(baseline: RawHeapSession, current: RawHeapSession, csv: boolean): string;
  BudgetCheck: { new (): RawBudgetCheck };
  RunDiff: { new (): RawRunDiff };
  /** format "pprof" | "otlp"; requestJson: the export's options as JSON (ExportRequest). */
  ProfileExport: { new (session: RawTraceSession, format: string, requestJson: string): RawProfileExport };
  /** The opentelemetry-proto release the OTLP export follows ("v1.11.0"). */
  readonly otlpProtoVersion: string;
  /** fromMs / toMs: keep events in that window (ms from the trace's sync time); null: all. */
  ConvertSession: { new (fromMs: number | null, toMs: number | null): RawConvertSession };
  /** `nettrace write-sample-universal`: a small collect-linux-like v6 trace. */
  writeSampleUniversal(): { status: RawStatus; bytes: Uint8Array };
  /** A small written profile (core/write/warm_up_trace.h) that an engine worker opens once, so
   *  that the code a first trace runs is compiled before it arrives. */
  warmUpTrace(): { status: RawStatus; bytes: Uint8Array<ArrayBuffer> };
  /** mallinfo() and the heap size: for leak tests and memory figures. */
  heapStats(): RawHeapStats;
  /** The header line of a payload CSV with these columns. */
  payloadCsvHeader(columns: string[]): Uint8Array;
  /** A/B stack diff as JSON (core/analysis/stacks/stack_diff.h); maxFunctions < 0: every function. */
  stackDiffJson(a: RawTraceSession, queryA: RawStackQuery, b: RawTraceSession, queryB: RawStackQuery, maxFunctions: number): string;
  /** The query table (core/api/query_table.cc) and the result tables (core/api/result_table*.cc) as JSON: what `nettrace schema` prints. */
  querySchemaJson(): string;
  /** The native CLI's parser of a command's argv (after the command; options before or after
   *  the positional arguments) → status, the given options as a JSON object {name: value}, the
   *  positional arguments (FILE, ROW, …) and whether --help was given. */
  parseCliArgs(command: string, args: string[]): RawStatus & { request: string; positional: string[]; help: boolean };
  /** The request parser the bindings use on JS request objects (as JSON): status (the first bad
   *  member, which the bindings leave out) and the options taken. */
  parseRequest(command: string, json: string): RawStatus & { request: string };
  /** The commands and options sections of --help (native: the native tool's commands only). */
  cliHelp(native: boolean): string;
  /** What `PROGRAM COMMAND --help` prints ("" for an unknown command). */
  commandHelp(command: string, program: string): string;
  /** The usage line an argument error of COMMAND ends with ("" for an unknown command). */
  commandUsage(command: string, program: string): string;
  /** A/B stack diff as "a;b;c weightA weightB" lines. */
  stackDiffFolded(a: RawTraceSession, queryA: RawStackQuery, b: RawTraceSession, queryB: RawStackQuery): string;
  // core/diag, the diagnostics IPC protocol (wasm/diag_bindings.cc): web/src/live/ moves the bytes.
  /** A CollectTracing request from --profile / --providers (either may be ""), with its fallback state. */
  DiagCollectPlan: { new (profiles: string, providers: string, bufferMB: number): RawDiagCollectPlan };
  /** 20 header bytes → size and command. */
  diagParseHeader(bytes: Uint8Array): RawDiagStatus & { size: number; commandSet: number; commandId: number };
  /** A whole reply (header + payload). ok: it decoded; success: the runtime said OK. */
  diagParseReply(bytes: Uint8Array): RawDiagReply;
  /** StopTracing of a session (its id as the decimal string diagParseReply gave). */
  diagEncodeStopTracing(sessionId: string): Uint8Array;
  /** A Process-set command without payload: 0 ProcessInfo, 1 ResumeRuntime, 4 ProcessInfo2, 8 ProcessInfo3. */
  diagEncodeProcessCommand(commandId: number): Uint8Array;
  /** The OK payload of ProcessInfo command `commandId` (0, 4 or 8). */
  diagParseProcessInfo(commandId: number, payload: Uint8Array): RawDiagProcessInfo;
  /** "UnknownCommand (0x80131385)"-style name of a diagnostics HRESULT. */
  diagHresultName(hresult: number): string;
  /** The 34-byte ADVR_V1 message a runtime sends first on a reverse diagnostic port. */
  diagParseAdvertise(bytes: Uint8Array): { ok: boolean; message: string; processId: number; runtimeCookie: string };
  /** The wasm heap. Replaced when memory grows: read it again after any call that may allocate. */
  readonly HEAPU8: Uint8Array;
  _malloc(size: number): number;
  _free(pointer: number): void;
}

export interface NetTraceModuleOptions {
  /** The .wasm bytes (required in Node, where the loader's fetch() of a file path fails). */
  wasmBinary?: ArrayBuffer | Uint8Array;
  /** Maps "nettrace_wasm.wasm" to the URL to fetch. Default: next to nettrace_wasm.mjs. */
  locateFile?: (path: string, prefix: string) => string;
  /**
   * Instantiates the module itself (Emscripten's hook): gets the imports, calls `receive` with
   * the instance once made, and returns `{}` at once (the exports arrive through `receive`).
   */
  instantiateWasm?: (
    imports: WebAssembly.Imports,
    receive: (instance: WebAssembly.Instance, module?: WebAssembly.Module) => void,
  ) => object;
}

declare function createNetTraceModule(options?: NetTraceModuleOptions): Promise<NetTraceModule>;
export default createNetTraceModule;

/** TraceSession.flameGraph: the engine's flame graph columns, copied out of the heap. */
export interface RawFlameGraph {
  unit: string;
  total: number;
  frameNames: string[];
  /** Per frame, what its name leaves out (FlameGraphJson.frameDetails); only when some frame has one. */
  frameDetails?: string[];
  frame: Uint32Array;
  parent: Uint32Array;
  depth: Uint32Array;
  start: Float64Array;
  end: Float64Array;
  self: Float64Array;
  count: Float64Array;
}

/** A core/diag result: ok, or what is wrong with the message. */
export interface RawDiagStatus {
  ok: boolean;
  message: string;
}

/** wasm/diag_bindings.cc CollectPlan. An embind handle: call `delete()`. */
export interface RawDiagCollectPlan {
  /** Whether the profiles and providers parsed. */
  status(): RawDiagStatus;
  /** "CollectTracing5"-style name of the version message() encodes. */
  versionName(): string;
  message(): RawDiagStatus & { bytes: Uint8Array };
  /** After UnknownCommand: moves to the next older version; `lost` says what it cannot do. */
  fallback(): { ok: boolean; older?: string; lost?: string };
  delete(): void;
}

export interface RawDiagReply extends RawDiagStatus {
  success: boolean;
  hresult: number;
  /** "" when success. */
  hresultName: string;
  payload: Uint8Array;
  /** The session id of an OK CollectTracing/StopTracing reply, as a decimal string ("" otherwise). */
  sessionId: string;
}

export interface RawDiagProcessInfo extends RawDiagStatus {
  processId: number;
  runtimeCookie: string;
  commandLine: string;
  os: string;
  arch: string;
  entrypointAssembly: string;
  clrProductVersion: string;
  runtimeIdentifier: string;
}

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
  /** Declares the end of input. @returns an error when the stream ended early. */
  finish(): RawStatus;
  /** First fatal error so far. */
  status(): RawStatus;
  /** The trace summary as one JSON document (README "Summary JSON"). */
  summaryJson(): string;
  /** Per-type counts in TraceEvent's baseline form ("Provider/Name, count" lines). */
  traceEventCounts(): string;
  bytesConsumed(): number;
  eventCount(): number;
  delete(): void;
  isDeleted(): boolean;
}

export interface NetTraceModule {
  TraceSession: { new (): RawTraceSession };
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
}

declare function createNetTraceModule(options?: NetTraceModuleOptions): Promise<NetTraceModule>;
export default createNetTraceModule;

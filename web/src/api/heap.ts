// web/src/api — heap snapshots in the calling thread, through the engine's heap reader
// (core/heap, wasm/heap_bindings.cc): a .gcdump, or a .nettrace holding GC heap-dump events,
// read chunk by chunk from any trace source, analysed once (PerfView's spanning tree,
// dominators, paths from the roots), and its views as `nettrace heap` prints them.
//
//   const heap = await openHeap('app.gcdump', { onProgress: (p) => … });
//   heap.snapshot({ pathsTo: 'MyCache' });  // types, largest objects, roots, paths
//   heap.diff(await openHeap('before.gcdump'));  // growth by type
//   heap.close();
import type { NetTraceModule, RawHeapSession, RawStatus } from '../nettrace_wasm.mjs';
import { toTraceInput } from '../reader/chunk_source.js';
import type { SourceOptions, TraceSource } from '../reader/chunk_source.js';
import { DEFAULT_CHUNK_SIZE, HeapBuffer, PUSH_SIZE, isOutOfMemory, outOfMemoryStatus } from '../reader/read_trace.js';
import { nextTask } from '../reader/read_ahead.js';
import { discardEngine, loadNetTraceModule } from '../reader/wasm_loader.js';
import type { WasmOptions } from '../reader/wasm_loader.js';
import type { HeapRequest } from './generated/requests.js';
import type { HeapDiff, HeapPaths, HeapSnapshot } from './generated/results.js';
import { NetTraceError } from './types.js';

export interface HeapProgress {
  /** Bytes handed to the engine. */
  bytes: number;
  /** The source's size; 0 when unknown. */
  total: number;
  /** "reading": after each ≤ 1 MiB pushed; "analysis": before each analysis step (`step` names it);
   *  "done": once, when the views can be asked for. */
  phase: 'reading' | 'analysis' | 'done';
  /** The analysis step about to run (core/heap/heap_analysis.h's phase names). */
  step?: string;
}

export interface OpenHeapOptions extends WasmOptions, Pick<SourceOptions, 'size' | 'fetchInit'> {
  /** Bytes read at a time (the views do not depend on it); default 4 MiB. */
  chunkSize?: number;
  /** Aborting stops reading between two pushes (≤ 1 MiB apart) or before the analysis: openHeap
   *  rejects with code "cancelled" and frees what it read. */
  signal?: AbortSignal;
  onProgress?: (progress: HeapProgress) => void;
}

/** What the engine holds for the snapshot (statusJson's memory): the graph and the analyses. */
export interface HeapMemory {
  graphBytes: number;
  analysisBytes: number;
  nodes: number;
  edges: number;
}

export type HeapFormat = 'json' | 'csv';

export interface HeapHandle {
  /** "gcdump" or "nettrace" (told from the first bytes, never from a name). */
  readonly kind: string;
  /** A fault after which the graph was still whole (the views show it); null when the read was clean.
   *  `nettrace heap` prints the views and exits 1 then. */
  readonly error: NetTraceError | null;
  readonly memory: HeapMemory;
  /** The views: `nettrace heap FILE [--paths-to T] [--largest N] [--paths N] --format json`. */
  snapshot(query?: HeapRequest): HeapSnapshot;
  /** The paths from the roots to a type's instances alone (the snapshot's `pathsTo`). */
  paths(type: string, count?: number): HeapPaths;
  /** Growth by type from `baseline` (an older snapshot of the same process) to this one. */
  diff(baseline: HeapHandle): HeapDiff;
  /** Exactly what `nettrace heap` prints: the views, or with `baseline` the growth (json ends with a newline). */
  text(format?: HeapFormat, query?: HeapRequest, baseline?: HeapHandle): string;
  /** Frees the engine's memory for this snapshot. */
  close(): void;
}

const toError = (s: RawStatus): NetTraceError => new NetTraceError(s.code, s.offset, s.message);

/**
 * Reads and analyses a heap snapshot in this thread.
 * @throws NetTraceError: the file's fault when no graph could be built from it (code and offset),
 *   "cancelled", "source" (the source could not be read), "out-of-memory"
 */
export async function openHeap(source: TraceSource, options: OpenHeapOptions = {}): Promise<HeapHandle> {
  const M = await loadNetTraceModule(options);
  const input = await toTraceInput(source, { keepStreamedBytes: false, ...pickSource(options) });
  const session = new M.HeapSession();
  const heap = new HeapBuffer(M);
  const total = input.size ?? 0;
  let offset = 0;
  let keep = false;
  let outOfMemory = false;
  try {
    if (input.size !== null && input.size !== undefined) session.setFileSize(input.size);
    let status: RawStatus = session.status();
    read: for await (const chunk of input.chunks(Math.max(1, Math.floor(options.chunkSize ?? DEFAULT_CHUNK_SIZE)))) {
      for (let at = 0; at < chunk.length; at += PUSH_SIZE) {
        if (options.signal?.aborted) throw cancelled();
        const bytes = chunk.subarray(at, at + PUSH_SIZE);
        status = session.pushChunk(heap.put(bytes), bytes.length);
        offset += bytes.length;
        options.onProgress?.({ bytes: offset, total, phase: 'reading' });
        if (!status.ok) break read;
        await nextTask(); // a cancel from the event loop is seen before the next push
      }
    }
    heap.free();
    if (options.signal?.aborted) throw cancelled();
    status = session.finish();
    if (!session.hasGraph()) throw status.ok ? new NetTraceError('corrupt', null, 'no heap graph could be built from the file') : toError(status);
    session.analyze((step) => options.onProgress?.({ bytes: offset, total, phase: 'analysis', step }));
    options.onProgress?.({ bytes: offset, total, phase: 'done' });
    keep = true;
    return new InThreadHeap(M, session, status.ok ? null : toError(status));
  } catch (e) {
    if (!isOutOfMemory(e)) throw e instanceof NetTraceError ? e : new NetTraceError('source', null, e instanceof Error ? e.message : String(e));
    // The instance is not used again (read_trace.ts isOutOfMemory), not even to free.
    outOfMemory = true;
    discardEngine(M);
    throw toError(outOfMemoryStatus(offset));
  } finally {
    if (!outOfMemory) {
      heap.free();
      if (!keep) session.delete();
    }
    input.close();
  }
}

function cancelled(): NetTraceError {
  return new NetTraceError('cancelled', null, 'reading the heap snapshot was cancelled');
}

function pickSource(options: OpenHeapOptions): SourceOptions {
  const out: SourceOptions = {};
  if (options.size !== undefined) out.size = options.size;
  if (options.fetchInit !== undefined) out.fetchInit = options.fetchInit;
  return out;
}

// HeapRequest's defaults (core/api/query_table.cc: --largest 20, --paths 10).
const LARGEST = 20;
const PATHS = 10;

class InThreadHeap implements HeapHandle {
  readonly kind: string;
  readonly memory: HeapMemory;
  private closed = false;

  constructor(
    readonly M: NetTraceModule,
    private readonly session: RawHeapSession,
    readonly error: NetTraceError | null,
  ) {
    this.kind = session.kind();
    this.memory = (JSON.parse(session.statusJson()) as { memory: HeapMemory }).memory;
  }

  private live(): RawHeapSession {
    if (this.closed) throw new NetTraceError('closed', null, 'the heap snapshot was closed');
    return this.session;
  }

  private viewsJson(query: HeapRequest): string {
    return this.live().json(query.pathsTo ?? '', count(query.largest, LARGEST, 'largest'), count(query.paths, PATHS, 'paths'));
  }

  snapshot(query: HeapRequest = {}): HeapSnapshot {
    return JSON.parse(this.viewsJson(query)) as HeapSnapshot;
  }

  paths(type: string, paths = PATHS): HeapPaths {
    return JSON.parse(this.live().pathsJson(type, count(paths, PATHS, 'paths'))) as HeapPaths;
  }

  diff(baseline: HeapHandle): HeapDiff {
    return JSON.parse(this.diffText(baseline, false)) as HeapDiff;
  }

  text(format: HeapFormat = 'json', query: HeapRequest = {}, baseline?: HeapHandle): string {
    if (format !== 'json' && format !== 'csv') throw new NetTraceError('invalid-argument', null, "heap's format is json or csv");
    const csv = format === 'csv';
    if (baseline) return csv ? this.diffText(baseline, true) : `${this.diffText(baseline, false)}\n`;
    return csv ? this.live().typesCsv() : `${this.viewsJson(query)}\n`;
  }

  private diffText(baseline: HeapHandle, csv: boolean): string {
    if (!(baseline instanceof InThreadHeap) || baseline.M !== this.M)
      throw new NetTraceError('invalid-argument', null, 'a heap diff compares two snapshots opened in the same engine instance');
    return this.M.heapDiffText(baseline.live(), this.live(), csv);
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.session.delete();
  }
}

// A count option as the query table takes it: an integer ≥ 0 (default when absent).
function count(value: number | undefined, fallback: number, name: string): number {
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || value < 0 || value > 0xffffffff)
    throw new NetTraceError('invalid-argument', null, `${name} is an integer from 0 to 4294967295`);
  return value;
}

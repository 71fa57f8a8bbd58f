// web/src/api — one trace's dataset tables (docs/dataset.md) as Parquet bytes in memory: what
// the page's SQL tab registers with DuckDB-wasm, written by the same engine code
// (core/dataset through wasm/dataset_bindings.cc) as the files `nettrace dataset` and
// writeDataset put on disk. No Node or DOM API: it runs in the engine worker and in Node.
import type { NetTraceModule, RawStatus, RawTraceSession } from '../nettrace_wasm.mjs';
import type { TraceInput } from '../reader/chunk_source.js';
import { HeapBuffer } from '../reader/read_trace.js';
import { NetTraceError } from './types.js';

/** The dataset bindings of the engine module (wasm/dataset_bindings.cc). */
export interface DatasetBindings {
  traceTableNames(): string[];
  TraceTables: new (session: RawTraceSession, read: ((offset: number, size: number) => Uint8Array) | undefined) => {
    write(table: string, codec: string, write: (bytes: Uint8Array) => void, compress?: (bytes: Uint8Array) => Uint8Array): RawStatus;
    /** The traces row: the summary's facts and those read from the trace's events. */
    writeTraces(summaryJson: string, traceId: string, fileName: string, fileBytes: number, codec: string,
      write: (bytes: Uint8Array) => void, compress?: (bytes: Uint8Array) => Uint8Array): RawStatus;
    delete(): void;
  };
  Sha256: new () => { update(pointer: number, size: number): void; hex(): string; delete(): void };
}

/** Every table of one trace, uncompressed Parquet, by table name (`traces` included). */
export interface DatasetTables {
  /** SHA-256 of the trace's bytes, lower-case hex: the dataset's `trace_id`. */
  traceId: string;
  tables: Record<string, Uint8Array>;
}

/** The bytes a table's writer hands out (views into the heap, valid during the call), joined. */
function collect(fill: (write: (bytes: Uint8Array) => void) => RawStatus, table: string): Uint8Array {
  const parts: Uint8Array[] = [];
  let size = 0;
  const status = fill((bytes) => {
    parts.push(bytes.slice());
    size += bytes.length;
  });
  if (!status.ok) throw new NetTraceError('engine', null, `${table}: ${status.message}`);
  const out = new Uint8Array(size);
  let at = 0;
  for (const p of parts) out.set(p, at), (at += p.length);
  return out;
}

const HASH_PIECE = 4 << 20;

/** SHA-256 of `bytes` by the engine's hasher, a piece at a time through the heap. */
function sha256Hex(M: NetTraceModule & DatasetBindings, bytes: Uint8Array): string {
  const hash = new M.Sha256();
  const heap = new HeapBuffer(M);
  try {
    for (let at = 0; at < bytes.length; at += HASH_PIECE) {
      const piece = bytes.subarray(at, Math.min(bytes.length, at + HASH_PIECE));
      hash.update(heap.put(piece), piece.length);
    }
    return hash.hex();
  } finally {
    heap.free();
    hash.delete();
  }
}

/**
 * The tables of a read trace. The events table re-reads event blocks for their payloads while
 * it is written, synchronously, and a source reads back asynchronously (a File, a URL's kept
 * bytes): so the trace's bytes are read back whole first and held while the tables are
 * written (memory: about the file's size, on top of the engine's).
 */
export async function datasetTables(M: NetTraceModule, session: RawTraceSession, input: TraceInput, summaryJson: string,
  fileName: string): Promise<DatasetTables> {
  const D = M as NetTraceModule & DatasetBindings;
  const size = input.size ?? session.bytesConsumed();
  const bytes = await input.reread(0, size);
  const traceId = sha256Hex(D, bytes);
  const read = (offset: number, length: number): Uint8Array =>
    offset + length <= bytes.length ? bytes.subarray(offset, offset + length) : new Uint8Array(0);
  const tables: Record<string, Uint8Array> = {};
  const writer = new D.TraceTables(session, read);
  try {
    for (const table of D.traceTableNames()) tables[table] = collect((write) => writer.write(table, 'none', write, undefined), table);
    tables['traces'] = collect((write) => writer.writeTraces(summaryJson, traceId, fileName, size, 'none', write, undefined), 'traces');
  } finally {
    writer.delete();
  }
  return { traceId, tables };
}

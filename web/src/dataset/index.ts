// web/src/dataset — the Parquet dataset of many traces from Node (docs/dataset.md): the same
// tables, layout and bytes rules as the native `nettrace dataset`, written by the engine
// compiled to wasm (core/dataset through wasm/dataset_bindings.cc). Node only (node:fs):
// imported as 'nettrace-analyzer/dataset', never by the page.
//
//   import { writeDataset } from 'nettrace-analyzer/dataset';
//   for (const r of await writeDataset('fleet', ['a.nettrace', 'b.nettrace'])) console.log(r);
//
// Each file of a trace goes to TABLE/trace_id=<sha256>/.part-0.parquet.partial, is flushed
// (fsync) and renamed over part-0.parquet; `traces` is written last, so its file marks the
// trace complete and a later run skips it before reading it.
import { openTraceInThread, inThreadEngine } from '../api/trace.js';
import { NetTraceError } from '../reader/errors.js';
import type { NetTraceModule, RawStatus, RawTraceSession } from '../nettrace_wasm.mjs';
import { baseName, joinPath as join, nodeModules } from './node_modules.js';
import type { NodeModules } from './node_modules.js';
import type { DatasetBindings } from '../api/dataset_tables.js';

/** The wasm build compresses with Node's zlib: GZIP pages, or none. */
export type DatasetCodec = 'gzip' | 'none';

export interface DatasetOptions {
  codec?: DatasetCodec;
  /** Bytes read at a time while a trace is read (the output is the same). */
  chunkSize?: number;
}

/** One line per trace, as the native tool prints it. */
export interface DatasetResult {
  file: string;
  traceId: string;
  written?: string[];
  skipped?: 'present';
}

/** SHA-256 of a file, lower-case hex: the trace's id (`sha256sum` prints the same). */
export function traceIdOf(node: NodeModules, path: string): { id: string; bytes: number } {
  const hash = node.createHash('sha256');
  const fd = node.fs.openSync(path, 'r');
  const buffer = new Uint8Array(1 << 20);
  let bytes = 0;
  try {
    for (let n; (n = node.fs.readSync(fd, buffer, 0, buffer.length, null)) > 0; bytes += n) hash.update(buffer.subarray(0, n));
  } finally {
    node.fs.closeSync(fd);
  }
  return { id: hash.digest('hex'), bytes };
}

export const partitionDir = (root: string, table: string, traceId: string): string => join(root, table, `trace_id=${traceId}`);

/** Writes one table's file through a temporary name, flushed and renamed into place. */
function writeTableFile(fs: NodeModules['fs'], root: string, table: string, traceId: string,
  fill: (write: (bytes: Uint8Array) => void) => RawStatus): void {
  const dir = partitionDir(root, table, traceId);
  fs.mkdirSync(dir, { recursive: true });
  const temp = join(dir, '.part-0.parquet.partial');
  const fd = fs.openSync(temp, 'w');
  let status: RawStatus;
  try {
    // A view into the wasm heap, valid during the call: written at once.
    status = fill((bytes) => {
      for (let done = 0; done < bytes.length;) done += fs.writeSync(fd, bytes.subarray(done));
    });
    if (status.ok) fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
  if (!status.ok) {
    fs.rmSync(temp, { force: true });
    throw new NetTraceError('engine', null, `${table}: ${status.message}`);
  }
  fs.renameSync(temp, join(dir, 'part-0.parquet'));
}

/** Adds traces to the dataset at `root`; a trace already there is skipped unread. A file that
 *  is no trace throws (code "bad-magic"); a damaged trace is added with its error in `traces`. */
export async function writeDataset(root: string, files: string[], options: DatasetOptions = {}): Promise<DatasetResult[]> {
  const codec = options.codec ?? 'gzip';
  if (codec !== 'gzip' && codec !== 'none') throw new NetTraceError('engine', null, `codec '${String(codec)}': the npm package writes gzip or none`);
  const node = await nodeModules();
  const fs = node.fs;
  const compress = codec === 'gzip' ? (bytes: Uint8Array) => node.gzipSync(bytes) : undefined;
  const results: DatasetResult[] = [];
  for (const file of files) {
    const { id, bytes } = traceIdOf(node, file);
    if (fs.existsSync(join(partitionDir(root, 'traces', id), 'part-0.parquet'))) {
      results.push({ file, traceId: id, skipped: 'present' });
      continue;
    }
    const trace = await openTraceInThread(file, { keepPartial: true, ...(options.chunkSize ? { chunkSize: options.chunkSize } : {}) });
    try {
      if (trace.error?.code === 'bad-magic') throw new NetTraceError('bad-magic', null, `${file} is not a trace; not added`);
      const engine = inThreadEngine(trace);
      if (engine === null) throw new NetTraceError('engine', null, 'the trace was not read in this thread');
      const M = engine.M as NetTraceModule & DatasetBindings;
      const fd = fs.openSync(file, 'r');
      const tables = new M.TraceTables(engine.session, (offset, size) => {
        const out = new Uint8Array(size);
        return fs.readSync(fd, out, 0, size, offset) === size ? out : new Uint8Array(0);
      });
      const written: string[] = [];
      try {
        for (const table of M.traceTableNames()) {
          writeTableFile(fs, root, table, id, (write) => tables.write(table, codec, write, compress));
          written.push(table);
        }
        writeTableFile(fs, root, 'traces', id, (write) => tables.writeTraces(trace.summaryJson(), id, baseName(file), bytes, codec, write, compress));
      } finally {
        tables.delete();
        fs.closeSync(fd);
      }
      results.push({ file, traceId: id, written: [...written, 'traces'] });
    } finally {
      trace.close();
    }
  }
  return results;
}

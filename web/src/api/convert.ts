// web/src/api — conversion to NetTrace v6 (core/convert/convert_session.h, the facade
// `nettrace convert` drives): any trace the engine reads in, v6 bytes out as they are produced,
// in the calling thread. Memory stays bounded by a chunk and a block: nothing is kept.
//
//   const result = await convertTrace('old.netperf', (bytes) => out.write(bytes), { fromMs: 0, toMs: 500 });
//   if (result.error) … // the output holds every event read before the fault, without an end marker
import { toTraceInput } from '../reader/chunk_source.js';
import type { SourceOptions, TraceSource } from '../reader/chunk_source.js';
import { DEFAULT_CHUNK_SIZE, HeapBuffer, PUSH_SIZE, isOutOfMemory, outOfMemoryStatus, provideTail } from '../reader/read_trace.js';
import { discardEngine, loadNetTraceModule } from '../reader/wasm_loader.js';
import type { WasmOptions } from '../reader/wasm_loader.js';
import type { RawStatus } from '../nettrace_wasm.mjs';
import { NetTraceError } from './types.js';
import type { ConvertRequest } from './generated/requests.js';

/** fromMs / toMs (keep events in that window) are `convert`'s options of the query table (api/generated/requests.ts). */
export interface ConvertOptions extends WasmOptions, Pick<SourceOptions, 'size' | 'fetchInit'>, ConvertRequest {
  /** Bytes read at a time (the output does not depend on it). */
  chunkSize?: number;
}

export interface ConvertResult {
  /** Events written to the v6 output. */
  eventsWritten: number;
  /**
   * The input's fatal error (a truncated or damaged trace), or null. The output then holds
   * every event read before the fault as whole blocks, without the end-of-stream marker.
   */
  error: NetTraceError | null;
}

const toError = (s: RawStatus): NetTraceError => new NetTraceError(s.code, s.offset, s.message);

/**
 * Rewrites a trace as NetTrace v6, handing the output to `write` in order as it is produced.
 * @throws NetTraceError (code "source") when the source cannot be read, or what `write` throws
 */
export async function convertTrace(
  source: TraceSource,
  write: (bytes: Uint8Array) => void | Promise<void>,
  options: ConvertOptions = {},
): Promise<ConvertResult> {
  const M = await loadNetTraceModule(options);
  const input = await toTraceInput(source, { keepStreamedBytes: false, ...pickSource(options) });
  const session = new M.ConvertSession(options.fromMs ?? null, options.toMs ?? null);
  const heap = new HeapBuffer(M);
  const drain = async () => {
    const bytes = session.takeOutput();
    if (bytes.length > 0) await write(bytes);
  };
  let offset = 0;
  let outOfMemory = false;
  try {
    let status: RawStatus | null = null;
    read: for await (const chunk of input.chunks(Math.max(1, Math.floor(options.chunkSize ?? DEFAULT_CHUNK_SIZE)))) {
      for (let at = 0; at < chunk.length; at += PUSH_SIZE) {
        const bytes = chunk.subarray(at, at + PUSH_SIZE);
        status = session.pushChunk(heap.put(bytes), bytes.length);
        offset += bytes.length;
        await drain();
        if (!status.ok) break read;
        const tail = await provideTail(session, input, heap);
        if (tail && !tail.ok) {
          status = tail;
          break read;
        }
      }
    }
    // finish() also flushes what was read before an input error.
    const finished = session.finish();
    await drain();
    const flush = session.flushStatus();
    if (!flush.ok) throw toError(flush);
    return { eventsWritten: session.eventsWritten(), error: finished.ok ? null : toError(finished) };
  } catch (e) {
    if (!isOutOfMemory(e)) throw e;
    // The instance is not used again (read_trace.ts isOutOfMemory), not even to free.
    outOfMemory = true;
    discardEngine(M);
    throw toError(outOfMemoryStatus(offset));
  } finally {
    if (!outOfMemory) heap.free(), session.delete();
    input.close();
  }
}

function pickSource(options: ConvertOptions): SourceOptions {
  const out: SourceOptions = {};
  if (options.size !== undefined) out.size = options.size;
  if (options.fetchInit !== undefined) out.fetchInit = options.fetchInit;
  return out;
}

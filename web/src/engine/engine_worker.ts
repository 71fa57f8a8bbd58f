// web/src/engine — the module worker that owns the engine. It loads the wasm once, keeps
// at most one TraceSession, and serves the requests of protocol.ts. Reading happens here,
// off the page's thread: the File is read with Blob.slice() chunks (see read_trace.ts).
import type { NetTraceModule, RawStatus, RawTraceSession } from '../nettrace_wasm.mjs';
import type { EngineRequest, EngineResponse, ErrorResponse, RequestId } from './protocol.js';
import { toChunkSource } from './chunk_source.js';
import { readIntoSession, ReadCancelled } from './read_trace.js';
import { loadNetTraceModule } from './wasm_loader.js';

const ctx = self as unknown as DedicatedWorkerGlobalScope;

/** Progress messages are posted at most this often (and always for the last chunk). */
const PROGRESS_INTERVAL_MS = 50;

let modulePromise: Promise<NetTraceModule> | null = null;
let session: RawTraceSession | null = null;
let streamTotal = 0;
const running = new Map<RequestId, AbortController>();

function post(message: EngineResponse, transfer: Transferable[] = []): void {
  ctx.postMessage(message, transfer);
}

function engine(): Promise<NetTraceModule> {
  modulePromise ??= loadNetTraceModule();
  return modulePromise;
}

function replaceSession(M: NetTraceModule | null): RawTraceSession | null {
  session?.delete();
  session = M === null ? null : new M.TraceSession();
  return session;
}

function errorFrom(id: RequestId, status: RawStatus, current: RawTraceSession): ErrorResponse {
  return {
    id,
    kind: 'error',
    code: status.code,
    offset: status.offset,
    message: status.message,
    summaryJson: current.summaryJson(),
  };
}

async function handle(request: EngineRequest): Promise<void> {
  switch (request.kind) {
    case 'open': {
      const M = await engine();
      const current = replaceSession(M)!;
      const controller = new AbortController();
      running.set(request.id, controller);
      let lastPost = -Infinity;
      try {
        const status = await readIntoSession(M, current, toChunkSource(request.file), {
          ...(request.chunkSize !== undefined ? { chunkSize: request.chunkSize } : {}),
          signal: controller.signal,
          onProgress: (p) => {
            const now = performance.now();
            if (now - lastPost < PROGRESS_INTERVAL_MS && p.bytes < p.total) return;
            lastPost = now;
            post({ id: request.id, kind: 'progress', ...p });
          },
        });
        if (!status.ok) {
          post(errorFrom(request.id, status, current));
          return;
        }
        post({
          id: request.id,
          kind: 'result',
          bytes: current.bytesConsumed(),
          events: current.eventCount(),
          summaryJson: current.summaryJson(),
        });
      } catch (e) {
        if (!(e instanceof ReadCancelled)) throw e;
        post({
          id: request.id,
          kind: 'error',
          code: 'cancelled',
          offset: null,
          message: e.message,
          summaryJson: current.summaryJson(),
        });
      } finally {
        running.delete(request.id);
      }
      return;
    }
    case 'begin': {
      replaceSession(await engine());
      streamTotal = request.total ?? 0;
      post({ id: request.id, kind: 'result', bytes: 0, events: 0 });
      return;
    }
    case 'chunk': {
      const M = await engine();
      const current = session;
      if (current === null) throw new Error("'chunk' without 'begin'");
      const bytes = new Uint8Array(request.data);
      const buffer = M._malloc(Math.max(1, bytes.length));
      if (buffer === 0) throw new Error('cannot allocate the chunk in the wasm heap');
      let status: RawStatus;
      try {
        M.HEAPU8.set(bytes, buffer);
        status = current.pushChunk(buffer, bytes.length);
      } finally {
        M._free(buffer);
      }
      const bytesConsumed = current.bytesConsumed();
      const events = current.eventCount();
      if (!status.ok) {
        post(errorFrom(request.id, status, current));
        return;
      }
      post({ id: request.id, kind: 'progress', bytes: bytesConsumed, total: streamTotal, events });
      post({ id: request.id, kind: 'result', bytes: bytesConsumed, events });
      return;
    }
    case 'finish': {
      const current = session;
      if (current === null) throw new Error("'finish' without 'begin'");
      const status = current.finish();
      if (!status.ok) {
        post(errorFrom(request.id, status, current));
        return;
      }
      post({
        id: request.id,
        kind: 'result',
        bytes: current.bytesConsumed(),
        events: current.eventCount(),
        summaryJson: current.summaryJson(),
      });
      return;
    }
    case 'cancel': {
      running.get(request.target)?.abort();
      post({ id: request.id, kind: 'result', bytes: 0, events: 0 });
      return;
    }
    case 'close': {
      replaceSession(null);
      post({ id: request.id, kind: 'result', bytes: 0, events: 0 });
      return;
    }
  }
}

// Requests run one after another, in arrival order, so a session is never replaced while a
// read is using it. 'cancel' alone bypasses the queue: it must reach a running 'open'.
let queue: Promise<void> = Promise.resolve();

ctx.addEventListener('message', (event: MessageEvent<EngineRequest>) => {
  const request = event.data;
  const run = (): Promise<void> =>
    handle(request).catch((e: unknown) => {
      post({
        id: request.id,
        kind: 'error',
        code: 'engine',
        offset: null,
        message: e instanceof Error ? e.message : String(e),
        summaryJson: null,
      });
    });
  if (request.kind === 'cancel') void run();
  else queue = queue.then(run);
});

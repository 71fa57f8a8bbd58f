// web/src/engine — the page's side of heap_worker.ts: heap snapshots read and analysed in a
// module worker, their views asked for by message. Cancel (the signal) ends the worker, so it
// stops a read and the analyses alike, and frees all their memory at once.
import type { HeapMemory, HeapProgress } from '../api/heap.js';
import type { HeapRequest } from '../api/generated/requests.js';
import type { HeapDiff, HeapPaths, HeapSnapshot } from '../api/generated/results.js';
import { NetTraceError } from '../api/types.js';
import type { HeapWorkerRequest, HeapWorkerResponse } from './heap_worker.js';

type Pending = { resolve: (v: unknown) => void; reject: (e: unknown) => void; onProgress?: (p: HeapProgress) => void };
type Ask = HeapWorkerRequest extends infer R ? (R extends { id: number } ? Omit<R, 'id'> : never) : never;

/** One heap worker: the snapshot shown and the baselines compared with it. */
export class HeapWorker {
  private readonly worker = new Worker(new URL('./heap_worker.js', import.meta.url), { type: 'module' });
  private readonly pending = new Map<number, Pending>();
  private next = 1;
  private ended = false;

  constructor() {
    this.worker.addEventListener('message', (event: MessageEvent<HeapWorkerResponse>) => {
      const m = event.data;
      const p = this.pending.get(m.id);
      if (p === undefined) return;
      if ('progress' in m) return p.onProgress?.(m.progress as HeapProgress);
      this.pending.delete(m.id);
      if (m.ok) p.resolve(m.result);
      else p.reject(new NetTraceError(m.code, m.offset, m.message));
    });
    this.worker.addEventListener('error', (e) => this.fail(new NetTraceError('engine', null, `the heap worker failed: ${e.message}`)));
  }

  private ask<T>(request: Ask, onProgress?: (p: HeapProgress) => void): Promise<T> {
    if (this.ended) return Promise.reject(new NetTraceError('closed', null, 'the heap worker has ended'));
    const id = this.next++;
    return new Promise<T>((resolve, reject) => {
      this.pending.set(id, { resolve: resolve as (v: unknown) => void, reject, ...(onProgress ? { onProgress } : {}) });
      this.worker.postMessage({ ...request, id } as HeapWorkerRequest);
    });
  }

  private fail(error: NetTraceError): void {
    for (const p of this.pending.values()) p.reject(error);
    this.pending.clear();
  }

  /** Reads a snapshot in the worker; aborting `signal` ends the worker (code "cancelled"). */
  async open(source: Blob | string, options: { signal?: AbortSignal; onProgress?: (p: HeapProgress) => void } = {}): Promise<WorkerHeap> {
    const onAbort = () => this.end(new NetTraceError('cancelled', null, 'reading the heap snapshot was cancelled'));
    if (options.signal?.aborted) onAbort();
    options.signal?.addEventListener('abort', onAbort, { once: true });
    try {
      const id = this.next;
      const opened = await this.ask<{ kind: string; memory: HeapMemory; error: { code: string; offset: number | null; message: string } | null }>(
        { op: 'open', source }, options.onProgress);
      const error = opened.error === null ? null : new NetTraceError(opened.error.code, opened.error.offset, opened.error.message);
      return new WorkerHeap(this, id, opened.kind, opened.memory, error);
    } finally {
      options.signal?.removeEventListener('abort', onAbort);
    }
  }

  snapshot(heap: number, query: HeapRequest): Promise<HeapSnapshot> {
    return this.ask({ op: 'snapshot', heap, query });
  }
  paths(heap: number, type: string): Promise<HeapPaths> {
    return this.ask({ op: 'paths', heap, type });
  }
  diff(heap: number, baseline: number): Promise<HeapDiff> {
    return this.ask({ op: 'diff', heap, baseline });
  }
  close(heap: number): void {
    if (!this.ended) void this.ask({ op: 'close', heap }).catch(() => undefined);
  }

  /** Ends the worker: every request still waiting rejects with `error`. */
  end(error = new NetTraceError('closed', null, 'the heap worker has ended')): void {
    if (this.ended) return;
    this.ended = true;
    this.worker.terminate();
    this.fail(error);
  }
}

/** A snapshot held by a HeapWorker: its views, asked for by message. */
export class WorkerHeap {
  constructor(
    readonly worker: HeapWorker,
    readonly id: number,
    readonly kind: string,
    readonly memory: HeapMemory,
    readonly error: NetTraceError | null,
  ) {}
  snapshot(query: HeapRequest = {}): Promise<HeapSnapshot> {
    return this.worker.snapshot(this.id, query);
  }
  paths(type: string): Promise<HeapPaths> {
    return this.worker.paths(this.id, type);
  }
  /** Growth from `baseline`, a snapshot opened in the same worker. */
  diff(baseline: WorkerHeap): Promise<HeapDiff> {
    return this.worker.diff(this.id, baseline.id);
  }
  close(): void {
    this.worker.close(this.id);
  }
}

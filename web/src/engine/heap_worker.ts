// web/src/engine — the module worker of the page's Heap tab: it reads heap snapshots with the
// in-thread API (api/heap.ts) and answers the views, so that the page answers while a big
// snapshot is read and analysed, and Cancel ends the worker at any point (heap_client.ts).
// The snapshot shown and the baselines compared with it live in this worker's one engine
// instance: a diff needs both there. Typed against a minimal worker scope, so that it compiles
// under the DOM lib too (the npm package ships it).
import { openHeap } from '../api/heap.js';
import type { HeapHandle } from '../api/heap.js';
import { NetTraceError } from '../api/types.js';
import type { HeapRequest } from '../api/generated/requests.js';

/** Requests, each with an id its answer carries. */
export type HeapWorkerRequest = { id: number } & (
  | { op: 'open'; source: Blob | string }
  | { op: 'snapshot'; heap: number; query: HeapRequest }
  | { op: 'paths'; heap: number; type: string }
  | { op: 'diff'; heap: number; baseline: number }
  | { op: 'close'; heap: number }
);

/** Answers: a result (for open: the heap's id, kind, memory and error), a failure, or progress of an open. */
export type HeapWorkerResponse =
  | { id: number; ok: true; result: unknown }
  | { id: number; ok: false; code: string; offset: number | null; message: string }
  | { id: number; progress: { bytes: number; total: number; phase: string; step?: string } };

interface WorkerScope {
  postMessage(message: HeapWorkerResponse): void;
  addEventListener(type: 'message', listener: (event: MessageEvent<HeapWorkerRequest>) => void): void;
}
const ctx = self as unknown as WorkerScope;
const heaps = new Map<number, HeapHandle>();

function heapOf(id: number): HeapHandle {
  const heap = heaps.get(id);
  if (heap === undefined) throw new NetTraceError('closed', null, 'the heap snapshot was closed');
  return heap;
}

async function answer(r: HeapWorkerRequest): Promise<unknown> {
  switch (r.op) {
    case 'open': {
      const heap = await openHeap(r.source, { onProgress: (progress) => ctx.postMessage({ id: r.id, progress }) });
      heaps.set(r.id, heap);
      const error = heap.error === null ? null : { code: heap.error.code, offset: heap.error.offset, message: heap.error.reason };
      return { kind: heap.kind, memory: heap.memory, error };
    }
    case 'snapshot':
      return heapOf(r.heap).snapshot(r.query);
    case 'paths':
      return heapOf(r.heap).paths(r.type);
    case 'diff':
      return heapOf(r.heap).diff(heapOf(r.baseline));
    case 'close':
      heaps.get(r.heap)?.close();
      heaps.delete(r.heap);
      return null;
  }
}

ctx.addEventListener('message', (event) => {
  const r = event.data;
  answer(r).then(
    (result) => ctx.postMessage({ id: r.id, ok: true, result }),
    (e: unknown) => {
      const error = e instanceof NetTraceError ? e : new NetTraceError('engine', null, e instanceof Error ? e.message : String(e));
      ctx.postMessage({ id: r.id, ok: false, code: error.code, offset: error.offset, message: error.reason });
    },
  );
});

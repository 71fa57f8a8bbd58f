// web/src/engine — the page's side of protocol.ts: one module worker, request ids, and a
// promise per request. Progress messages go to the caller's callback; an AbortSignal turns
// into a 'cancel' request.
import type { Progress, Summary } from '../api/types.js';
import { NetTraceError } from '../api/types.js';
import type { EngineRequest, EngineResponse, RequestId, ResultResponse } from './protocol.js';

export interface OpenOptions {
  onProgress?: ((progress: Progress) => void) | undefined;
  signal?: AbortSignal | undefined;
  chunkSize?: number | undefined;
}

export interface OpenResult {
  summaryJson: string;
  summary: Summary;
  bytes: number;
  events: number;
}

interface Pending {
  resolve(response: ResultResponse): void;
  reject(error: NetTraceError): void;
  onProgress?: ((progress: Progress) => void) | undefined;
}

// Distributes Omit over the union, so each request keeps its own fields.
type RequestBody = EngineRequest extends infer R ? (R extends EngineRequest ? Omit<R, 'id'> : never) : never;

export class EngineClient {
  private readonly worker: Worker;
  private readonly pending = new Map<RequestId, Pending>();
  private nextId: RequestId = 1;

  constructor(workerUrl: URL) {
    this.worker = new Worker(workerUrl, { type: 'module' });
    this.worker.addEventListener('message', (event: MessageEvent<EngineResponse>) => this.receive(event.data));
    this.worker.addEventListener('error', (event: ErrorEvent) => {
      const error = new NetTraceError('engine', null, `engine worker failed: ${event.message || 'load error'}`);
      for (const p of this.pending.values()) p.reject(error);
      this.pending.clear();
    });
  }

  /** Reads `file` in the worker. Rejects with a NetTraceError carrying the partial summary. */
  async open(file: Blob, options: OpenOptions = {}): Promise<OpenResult> {
    const request: RequestBody = { kind: 'open', file };
    if (options.chunkSize !== undefined) request.chunkSize = options.chunkSize;
    const { id, done } = this.send(request, options.onProgress);
    const onAbort = (): void => void this.send({ kind: 'cancel', target: id }).done.catch(() => undefined);
    options.signal?.addEventListener('abort', onAbort, { once: true });
    if (options.signal?.aborted) onAbort();
    try {
      const response = await done;
      const summaryJson = response.summaryJson ?? '{}';
      return { summaryJson, summary: JSON.parse(summaryJson) as Summary, bytes: response.bytes, events: response.events };
    } finally {
      options.signal?.removeEventListener('abort', onAbort);
    }
  }

  /**
   * Streams a trace the page reads itself (a fetch body, say): begin, then chunk per piece
   * (the buffer is transferred, so it is unusable here afterwards), then finish.
   */
  async begin(total?: number): Promise<void> {
    await this.send(total === undefined ? { kind: 'begin' } : { kind: 'begin', total }).done;
  }

  async chunk(data: ArrayBuffer, onProgress?: (progress: Progress) => void): Promise<{ bytes: number; events: number }> {
    const response = await this.send({ kind: 'chunk', data }, onProgress, [data]).done;
    return { bytes: response.bytes, events: response.events };
  }

  async finish(): Promise<OpenResult> {
    const response = await this.send({ kind: 'finish' }).done;
    const summaryJson = response.summaryJson ?? '{}';
    return { summaryJson, summary: JSON.parse(summaryJson) as Summary, bytes: response.bytes, events: response.events };
  }

  /** Frees the worker's session (the worker itself stays up). */
  async close(): Promise<void> {
    await this.send({ kind: 'close' }).done;
  }

  terminate(): void {
    this.worker.terminate();
  }

  private send(
    body: RequestBody,
    onProgress?: (progress: Progress) => void,
    transfer: Transferable[] = [],
  ): { id: RequestId; done: Promise<ResultResponse> } {
    const id = this.nextId++;
    const done = new Promise<ResultResponse>((resolve, reject) => {
      this.pending.set(id, { resolve, reject, onProgress });
    });
    this.worker.postMessage({ ...body, id } as EngineRequest, transfer);
    return { id, done };
  }

  private receive(response: EngineResponse): void {
    const pending = this.pending.get(response.id);
    if (pending === undefined) return;
    switch (response.kind) {
      case 'progress':
        pending.onProgress?.({ bytes: response.bytes, total: response.total, events: response.events });
        return;
      case 'result':
        this.pending.delete(response.id);
        pending.resolve(response);
        return;
      case 'error': {
        this.pending.delete(response.id);
        const partial = response.summaryJson === null ? null : (JSON.parse(response.summaryJson) as Summary);
        pending.reject(new NetTraceError(response.code, response.offset, response.message, partial));
        return;
      }
    }
  }
}

// web/src/analyzer — the Heap tab: a heap snapshot read with the engine's heap reader in a
// worker of its own (engine/heap_client.ts: the page answers while a big snapshot is read and
// analysed, and Cancel ends the worker at any point) with progress, shown by views/heap_view.ts. Either a .gcdump opened on its own
// (the other tabs, which need events, are hidden), or the heap-dump events of a trace opened
// in the other tabs, read again as a heap when the tab is first shown.
import type { HeapProgress } from '../api/heap.js';
import { HeapWorker } from '../engine/heap_client.js';
import type { WorkerHeap } from '../engine/heap_client.js';
import type { Summary } from '../api/types.js';
import { NetTraceError } from '../api/types.js';
import { h, percent } from '../ui/dom.js';
import { formatBytes } from '../ui/units.js';
import { HeapView } from '../views/heap_view.js';
import type { ControllerContext } from './context.js';

/** A .gcdump is a FastSerialization stream whose first object is a GCHeapDump (the engine's
 *  own test, core/heap/heap_session.cc): looked for in its first bytes, never in its name. */
const GCDUMP_TYPE = 'GCHeapDump';
const HEAD_BYTES = 64;

/** Whether a File/Blob's first bytes are a .gcdump's; a URL by its name (its bytes are not here yet). */
export async function isGcdump(source: Blob | string): Promise<boolean> {
  if (typeof source === 'string') return new URL(source).pathname.toLowerCase().endsWith('.gcdump');
  const head = new Uint8Array(await source.slice(0, HEAD_BYTES).arrayBuffer());
  return String.fromCharCode(...head).includes(GCDUMP_TYPE);
}

/** A trace holds a heap dump: the runtime's GC/BulkNode events (the GC heap-dump keyword). */
export function hasHeapDump(summary: Summary): boolean {
  return summary.types.some((t) => t.provider === 'Microsoft-Windows-DotNETRuntime' && t.name === 'GC/BulkNode' && t.count > 0);
}

export class HeapController {
  private heap: WorkerHeap | null = null;
  /** The worker of the snapshot shown (and of the baselines compared with it). */
  private worker: HeapWorker | null = null;
  private view: HeapView | null = null;
  private current: AbortController | null = null;
  /** A trace's heap-dump events, read when the tab is first shown. */
  private pending: Blob | string | null = null;
  private readonly box: HTMLElement;

  constructor(private readonly ctx: ControllerContext) {
    this.box = ctx.layout.heap;
    ctx.layout.loading.cancel.addEventListener('click', () => this.current?.abort());
  }

  /** The heap shown, or null (the analyzer instance's `heap`). */
  get handle(): WorkerHeap | null {
    return this.heap;
  }

  /** Forgets the snapshot shown (and a read in progress). */
  reset(): void {
    this.current?.abort();
    this.current = null;
    this.pending = null;
    this.view?.dispose();
    this.view = null;
    this.heap = null;
    this.worker?.end();
    this.worker = null;
    this.box.replaceChildren();
    delete this.box.dataset['heap'];
    const button = this.ctx.layout.tabButtons.get('heap')!;
    button.hidden = true;
  }

  /** A trace with heap-dump events is shown: its Heap tab reads them when opened. */
  offer(source: Blob | string): void {
    this.pending = source;
    this.ctx.layout.tabButtons.get('heap')!.hidden = false;
  }

  /** The tab is shown: reads the offered trace's heap once. */
  show(): void {
    const pending = this.pending;
    if (pending === null) return;
    this.pending = null;
    void this.read(pending, this.ctx.state.name);
  }

  /**
   * Reads a snapshot and shows it. @returns whether it is shown (else the status line says why
   * and data-heap="error").
   */
  async read(source: Blob | string, name: string): Promise<boolean> {
    this.current?.abort();
    this.worker?.end();
    const controller = new AbortController();
    this.current = controller;
    const worker = new HeapWorker();
    this.worker = worker;
    const { loading } = this.ctx.layout;
    loading.cancel.hidden = false;
    this.status(`Reading the heap snapshot in ${name}…`, false);
    this.box.dataset['heap'] = 'reading';
    try {
      const heap = await worker.open(source, { signal: controller.signal, onProgress: (p) => this.progress(p) });
      const view = await HeapView.create(heap, name, { openBaseline: (file) => this.openBaseline(worker, file) });
      if (this.current !== controller) {
        view.dispose();
        return false;
      }
      this.heap = heap;
      this.view = view;
      this.box.replaceChildren(this.view.root);
      const m = heap.memory;
      const warning = heap.error === null ? '' : ` The file ends in a fault (${heap.error.message}): the graph read before it is shown.`;
      this.status(`Read the heap snapshot in ${name}: ${m.nodes.toLocaleString('en-US')} nodes, ${m.edges.toLocaleString('en-US')} references; the engine holds ${formatBytes(m.graphBytes + m.analysisBytes)}.${warning}`, heap.error !== null);
      this.box.dataset['heap'] = 'done';
      return true;
    } catch (e) {
      if (this.current !== controller) return false;
      worker.end();
      if (this.worker === worker) this.worker = null;
      const cancelled = e instanceof NetTraceError && e.code === 'cancelled';
      this.status(cancelled ? 'Cancelled.' : `${name} holds no heap snapshot that can be read: ${e instanceof Error ? e.message : String(e)}`, !cancelled);
      this.box.replaceChildren(h('p', { class: 'muted', text: cancelled ? 'Reading the heap snapshot was cancelled.' : 'No heap snapshot.' }));
      this.box.dataset['heap'] = cancelled ? 'cancelled' : 'error';
      return false;
    } finally {
      if (this.current === controller) {
        this.current = null;
        loading.cancel.hidden = true;
        loading.progress.hidden = true;
        loading.progressText.textContent = '';
      }
    }
  }

  private async openBaseline(worker: HeapWorker, file: File): Promise<WorkerHeap | null> {
    try {
      return await worker.open(file);
    } catch (e) {
      this.status(`${file.name} cannot be compared: ${e instanceof Error ? e.message : String(e)}`, true);
      return null;
    }
  }

  private progress(p: HeapProgress): void {
    const { loading } = this.ctx.layout;
    loading.progress.hidden = false;
    loading.progress.max = Math.max(1, p.total || p.bytes);
    loading.progress.value = p.bytes;
    const of = p.total > 0 ? ` of ${formatBytes(p.total)} (${percent(p.bytes, p.total)})` : '';
    loading.progressText.textContent = p.phase === 'reading' ? `Reading: ${formatBytes(p.bytes)}${of}` : p.phase === 'analysis' ? `Analysing the graph: ${p.step ?? ''}` : 'Analysed';
  }

  private status(text: string, error: boolean): void {
    const line = this.ctx.layout.loading.status;
    line.classList.toggle('error', error);
    line.textContent = text;
  }
}

// web/src/analyzer — the embeddable analyzer: `<nettrace-analyzer src="…">` and
// mountAnalyzer(element, options). Everything lives in an open shadow root with the analyzer's
// own stylesheet (analyzer.css, loaded from beside this package by a <link>, so no inline
// style is needed under a strict Content-Security-Policy); the engine runs in a module worker.
//
//   <script type="module" src=".../analyzer/element.js"></script>
//   <nettrace-analyzer src="traces/app.nettrace"></nettrace-analyzer>
//   element.addEventListener('load', (e) => console.log(e.detail.summary.eventCount));
//   element.open(file);
//
// Attributes: src (a trace URL, opened when set), sample (a URL offered as "Try the sample
// trace"), sync-hash (keep the view state in the page's URL hash). Events (CustomEvent, not
// bubbling): load {name, summary}, error {name, code, offset, message, partial},
// selection {kind: 'range' | 'event' | 'frame', …}, live {name, summary} (openLive's snapshots).
import type { TraceHandle } from '../api/handle.js';
import type { WorkerHeap } from '../engine/heap_client.js';
import type { Summary } from '../api/types.js';
import { h } from '../ui/dom.js';
import { createAnalyzer } from './analyzer.js';
import type { AnalyzerInstance, AnalyzerOptions } from './analyzer.js';

export type { AnalyzerError, AnalyzerInstance, AnalyzerLoad, AnalyzerOptions, AnalyzerSelection } from './analyzer.js';

/** analyzer.css sits at the package's (or the site's) top, one level above this module. */
const STYLESHEET = new URL('../analyzer.css', import.meta.url);

export interface MountOptions extends AnalyzerOptions {
  /** The analyzer's stylesheet (default: analyzer.css beside the package). */
  stylesheet?: URL | string;
}

/**
 * Mounts an analyzer in `element`'s shadow root (created open when it has none; replaced
 * content when it has one). `element` receives the load / error / selection events and
 * gives the analyzer its size.
 */
export function mountAnalyzer(element: HTMLElement, options: MountOptions = {}): AnalyzerInstance {
  const root = element.shadowRoot ?? element.attachShadow({ mode: 'open' });
  root.replaceChildren(h('link', { attrs: { rel: 'stylesheet', href: String(options.stylesheet ?? STYLESHEET) } }));
  return createAnalyzer(element, root, options);
}

export class NetTraceAnalyzerElement extends HTMLElement {
  static readonly observedAttributes = ['src'];
  private instance: AnalyzerInstance | null = null;

  connectedCallback(): void {
    if (this.instance !== null) return;
    const sample = this.getAttribute('sample');
    this.instance = mountAnalyzer(this, {
      syncHash: this.hasAttribute('sync-hash'),
      ...(sample === null ? {} : { sampleUrl: sample }),
    });
    const src = this.getAttribute('src');
    if (src !== null && src !== '') void this.instance.open(src);
  }

  disconnectedCallback(): void {
    // A move (remove + append in one task) keeps the analyzer; a removal ends its worker.
    queueMicrotask(() => {
      if (this.isConnected || this.instance === null) return;
      this.instance.destroy();
      this.instance = null;
    });
  }

  attributeChangedCallback(name: string, previous: string | null, value: string | null): void {
    if (name === 'src' && value !== null && value !== '' && value !== previous && this.instance !== null) void this.instance.open(value);
  }

  /** Opens a File or Blob (or a URL); resolves once it has been read or has failed. */
  open(source: Blob | URL | string, name?: string): Promise<void> {
    if (this.instance === null) return Promise.reject(new Error('nettrace-analyzer: open() before the element is in the document'));
    return this.instance.open(source, name);
  }

  /** Reads a session still recording from an HTTP stream (`nettrace-analyzer live`): the
   *  views grow while it runs ("live" events), then show the whole trace. */
  openLive(url: string, name: string): Promise<void> {
    if (this.instance === null) return Promise.reject(new Error('nettrace-analyzer: openLive() before the element is in the document'));
    return this.instance.openLive(url, name);
  }

  /** Shows a heap snapshot (a .gcdump, or a .nettrace of heap-dump events) in the Heap tab,
   *  beside the trace shown (a live session's page: its snapshot of the running process). */
  showHeap(source: Blob, name: string): Promise<void> {
    if (this.instance === null) return Promise.reject(new Error('nettrace-analyzer: showHeap() before the element is in the document'));
    return this.instance.showHeap(source, name);
  }

  /** Computes the flame graph again over what has been read so far. */
  refreshFlame(): void {
    this.instance?.refreshFlame();
  }

  /** The trace shown (the engine handle: events, flame graphs, exports), or null. */
  get trace(): TraceHandle | null {
    return this.instance?.trace ?? null;
  }

  /** The heap snapshot the Heap tab shows (held by its worker: its views, as `nettrace heap`
   *  prints them, come as promises), or null. */
  get heap(): WorkerHeap | null {
    return this.instance?.heap ?? null;
  }

  /** The summary of the trace shown, or null. */
  get summary(): Summary | null {
    return this.instance?.summary ?? null;
  }
}

if (customElements.get('nettrace-analyzer') === undefined) customElements.define('nettrace-analyzer', NetTraceAnalyzerElement);

declare global {
  interface HTMLElementTagNameMap {
    'nettrace-analyzer': NetTraceAnalyzerElement;
  }
}

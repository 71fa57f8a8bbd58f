// web/src/analyzer — one analyzer instance: a landing area (drop zone, file picker, sample,
// open from URL), then the views of the opened trace — Summary, Events (virtualized table),
// Flame graph (with top functions, a sandwich and a diff), Diagnostics — under a timeline
// (with its lanes and time-order chart) whose brush narrows them all, SQL over the trace's
// dataset tables (DuckDB-wasm, loaded when that tab is first opened), plus exports. A live
// session (openLive) is shown as it grows. It lives in a shadow root (see element.ts), talks to
// the engine in a worker, and tells its host what happens through DOM events (load, error,
// selection, live).
// This file is the coordinator: one AnalyzerState (context.ts) shared by one controller per
// view (*_controller.ts), over the typed elements of layout.ts. A new view is a Tab in
// app/state.ts, its panel and parts in layout.ts, a controller, and its refresh in showTab.
// Trace strings are data: every value reaches the DOM through textContent, never as HTML.
import type { Summary } from '../api/types.js';
import { NetTraceError } from '../api/types.js';
import type { TraceHandle } from '../api/handle.js';
import { defaultState } from '../app/state.js';
import type { Tab, ViewState } from '../app/state.js';
import { wireMenus } from '../ui/menu.js';
import { wireTabs } from '../ui/tab_keys.js';
import { wireHome } from './home.js';
import { wireExports } from './exports.js';
import { buildLayout } from './layout.js';
import type { Layout } from './layout.js';
import { nameOfUrl, wireSources } from './sources.js';
import { AnalyzerState } from './context.js';
import type { AnalyzerSelection, ControllerContext, Coordinator, EventFilters } from './context.js';
import { DiagnosticsController } from './diagnostics_controller.js';
import { EventsController } from './events_controller.js';
import { FlameController, stackQueryOf } from './flame_controller.js';
import { HeapController, hasHeapDump, isGcdump } from './heap_controller.js';
import type { WorkerHeap } from '../engine/heap_client.js';
import { LoadController } from './load_controller.js';
import { RunsController } from './runs_controller.js';
import { SideController } from './side_controller.js';
import { SqlController } from './sql_controller.js';
import { SummaryController } from './summary_controller.js';
import type { ReadFacts } from './summary_controller.js';
import { TimelineController } from './timeline_controller.js';

export interface AnalyzerOptions {
  /** Keep the view state in the page's URL hash, so that a link reproduces the view (the
   *  full-page app does; an embedded analyzer leaves its host page's URL alone). */
  syncHash?: boolean;
  /** A trace that "Try the sample trace" opens; the button is hidden without one. */
  sampleUrl?: string;
  /** The engine's module worker script (default: engine/engine_worker.js beside this module). */
  workerUrl?: URL | string;
}

export type { AnalyzerError, AnalyzerLoad, AnalyzerSelection } from './context.js';

export interface AnalyzerInstance {
  /** Reads a session still recording from `url` (an HTTP stream: `nettrace-analyzer live`),
   *  showing what was read so far every 500 ms ("live" events), then the whole trace. The
   *  host's page ends the session (its Stop): the analyzer shows no progress bar or Cancel. */
  openLive(url: string, name: string): Promise<void>;
  /** Shows a heap snapshot in the Heap tab, the trace shown (if any) kept in the other tabs. */
  showHeap(source: Blob, name: string): Promise<void>;
  /** Computes the flame graph again over what has been read (a live session's grows). */
  refreshFlame(): void;
  /** Opens a trace: a File/Blob, or a URL to fetch. Resolves when it has been read (or has
   *  failed: the failure is shown and reported through the `error` event, not thrown). */
  open(source: Blob | URL | string, name?: string): Promise<void>;
  /** The trace shown (also a partial one: its `error` set), or null. */
  readonly trace: TraceHandle | null;
  /** The heap snapshot the Heap tab shows (a .gcdump, or a trace's heap-dump events once the tab was opened), or null. */
  readonly heap: WorkerHeap | null;
  /** Its summary (the partial one after a fatal error), or null. */
  readonly summary: Summary | null;
  /** Ends the worker and removes listeners outside the shadow root. */
  destroy(): void;
}

/** Builds an analyzer in `root` (a shadow root of `host`, which receives its events). */
export function createAnalyzer(host: HTMLElement, root: ShadowRoot, options: AnalyzerOptions = {}): AnalyzerInstance {
  const layout = buildLayout();
  root.append(layout.root);
  return new Analyzer(host, layout, options).instance();
}

/** The event table's filters cleared (the time range aside). */
const NO_EVENT_FILTERS: Required<EventFilters> = { provider: '', event: '', thread: null, text: '' };

/** The coordinator: owns the state and the controllers, and what crosses views (tabs, the
 *  time range, a function picked, a new trace). */
class Analyzer implements Coordinator {
  private readonly state: AnalyzerState;
  /** Listeners outside the shadow root (host, window) end with destroy(). */
  private readonly lifetime = new AbortController();
  private readonly summary: SummaryController;
  private readonly diagnostics: DiagnosticsController;
  private readonly sql: SqlController;
  private readonly events: EventsController;
  private readonly flame: FlameController;
  private readonly side: SideController;
  private readonly timeline: TimelineController;
  private readonly loader: LoadController;
  private readonly heap: HeapController;
  private readonly runs: RunsController;
  private readonly showResult: () => void;

  constructor(
    private readonly host: HTMLElement,
    private readonly layout: Layout,
    private readonly options: AnalyzerOptions,
  ) {
    this.state = new AnalyzerState(options.syncHash === true);
    const rejected = options.syncHash === true ? this.state.readHash() : [];
    const ctx: ControllerContext = { state: this.state, layout, app: this };
    const workerOptions = options.workerUrl === undefined ? {} : { workerUrl: options.workerUrl };
    this.summary = new SummaryController(ctx);
    this.diagnostics = new DiagnosticsController(ctx);
    this.sql = new SqlController(ctx, layout.sql);
    this.events = new EventsController(ctx);
    this.flame = new FlameController(ctx);
    this.side = new SideController(ctx, workerOptions);
    this.flame.onDrawn = () => this.side.show();
    this.timeline = new TimelineController(ctx);
    this.heap = new HeapController(ctx);
    wireTabs(layout.tabButtons, (tab, focus) => this.showTab(tab, focus));
    wireMenus(layout.root);
    this.showResult = this.wireHome();
    this.runs = new RunsController(ctx, workerOptions);
    this.loader = new LoadController(ctx, workerOptions, {
      resetViews: () => this.resetViews(),
      showResult: () => {
        this.runs.hide();
        this.showResult();
      },
      showTrace: (summary, facts) => {
        this.showTrace(summary, facts);
        this.explored();
      },
      opened: (trace, source) => {
        this.state.trace = trace;
        this.side.setComparison(source);
        if (hasHeapDump(trace.summary())) this.heap.offer(source);
      },
      snapshot: (trace, summary, facts, first) => {
        this.state.trace = trace;
        this.timeline.traceGrew();
        this.showTrace(summary, facts, first);
      },
      liveEnded: () => {
        this.timeline.traceGrew();
        this.flame.traceGrew();
      },
    });
    wireExports(layout.exports, {
      shown: () => (this.state.trace === null ? null : { trace: this.state.trace, name: this.state.name }),
      stackQuery: () => stackQueryOf(ctx),
      csvEvent: () => (this.state.view.event === '' ? null : { event: this.state.view.event, provider: this.state.view.provider }),
      onError: (e) => this.reportUnexpected(e),
    });
    // A hash edited by hand (or a link followed within the page) changes the view.
    if (options.syncHash === true) window.addEventListener('hashchange', () => this.onHashChange(), { signal: this.lifetime.signal });
    this.wireSources();
    this.tellRejected(rejected);
  }

  /** Values of the link that are not valid were replaced by their defaults: say which. */
  private tellRejected(rejected: string[]): void {
    if (rejected.length === 0) return;
    const status = this.layout.loading.status;
    status.classList.remove('error');
    status.textContent = `Ignored in the link (not valid, the default is used): ${rejected.join(', ')}`;
  }

  private wireHome(): () => void {
    const { layout, state } = this;
    const { showResult } = wireHome(
      { home: layout.home, back: layout.landing.back, landing: layout.landing.landing, drop: layout.landing.drop, result: layout.result, tabs: layout.tabList, exports: layout.exports },
      {
        shownName: () => (state.summary === null ? null : state.name),
        canExport: () => state.trace !== null,
        onBack: () => this.showTab(state.trace === null ? 'summary' : state.view.tab, true),
      },
    );
    return showResult;
  }

  private wireSources(): void {
    const land = this.layout.landing;
    wireSources(
      { host: this.host, drop: land.drop, fileInput: land.fileInput, choose: land.choose, sampleButton: land.sampleButton, urlForm: land.urlForm, urlInput: land.urlInput },
      {
        open: (source, name) => void this.open(source, name).catch((e: unknown) => this.reportUnexpected(e)),
        status: (text) => {
          this.layout.loading.status.classList.remove('error');
          this.layout.loading.status.textContent = text;
        },
        onError: (e) => this.reportUnexpected(e),
        sampleUrl: this.options.sampleUrl,
        syncHash: this.options.syncHash === true,
        outside: { signal: this.lifetime.signal },
      },
    );
  }

  // ---- Coordinator ----------------------------------------------------------------------

  showTab(tab: Tab, focus = false): void {
    this.state.set({ tab });
    this.layout.result.dataset['tab'] = tab;
    for (const [t, button] of this.layout.tabButtons) {
      const selected = t === tab;
      button.setAttribute('aria-selected', String(selected));
      button.tabIndex = selected ? 0 : -1;
      this.layout.panels.get(t)!.hidden = !selected;
    }
    if (focus) this.layout.tabButtons.get(tab)!.focus();
    this.state.save();
    if (tab === 'events') this.events.refresh();
    if (tab === 'flame') this.flame.refresh();
    if (tab === 'diagnostics') this.diagnostics.show();
    if (tab === 'sql') this.sql.show();
    if (tab === 'heap') this.heap.show();
  }

  rangeChanged(): void {
    const view = this.state.view;
    this.timeline.showRange();
    this.state.save();
    this.emit<AnalyzerSelection>('selection', { kind: 'range', fromMs: view.fromMs, toMs: view.toMs });
    if (this.state.trace === null) return;
    if (view.tab === 'events') this.events.refresh();
    if (view.tab === 'flame') this.flame.refresh();
  }

  selectRange(fromMs: number, toMs: number, filters?: EventFilters): void {
    // Kept to the microsecond, as the brush keeps its times (what the hash and the inputs show).
    this.state.set({ fromMs: Number(fromMs.toFixed(3)), toMs: Number(toMs.toFixed(3)) });
    if (filters !== undefined) {
      this.state.set({ ...NO_EVENT_FILTERS, ...filters });
      this.events.reset();
      this.timeline.filtersChanged();
    }
    this.rangeChanged();
    this.showTab('events');
  }

  showEventsWith(filters: EventFilters): void {
    this.state.set({ ...NO_EVENT_FILTERS, ...filters });
    this.events.reset();
    this.showTab('events');
    this.timeline.refresh();
  }

  pickFunction(name: string, openSandwich: boolean): void {
    if (openSandwich) {
      // The README's promise: a Top functions row opens that function's sandwich.
      this.flame.search(name);
      this.state.set({ side: 'sandwich', fn: name });
      this.state.save();
      this.side.show();
      return;
    }
    this.state.set({ fn: name });
    this.state.save();
    this.side.showSandwich();
  }

  filtersChanged(): void {
    this.timeline.showRange();
    this.timeline.filtersChanged();
  }

  emit<T>(type: string, detail: T): void {
    this.host.dispatchEvent(new CustomEvent<T>(type, { detail }));
  }

  reportUnexpected(e: unknown): void {
    // A request of a trace closed since (another one opened, or destroy()) is not a failure.
    if (e instanceof NetTraceError && (e.code === 'closed' || e.code === 'cancelled')) return;
    const status = this.layout.loading.status;
    status.classList.add('error');
    status.textContent = `Failed: ${e instanceof Error ? e.message : String(e)}`;
    if (this.layout.result.dataset['state'] === 'reading') this.layout.result.dataset['state'] = 'error';
  }

  // ---- traces -----------------------------------------------------------------------------

  private onHashChange(): void {
    this.tellRejected(this.state.readHash());
    this.runs.follow();
    this.events.reset();
    this.timeline.showRange();
    if (this.state.trace !== null) this.showTab(this.state.view.tab);
    this.timeline.refresh();
  }

  private resetViews(): void {
    const { state, layout } = this;
    state.trace?.close();
    state.trace = null;
    state.summary = null;
    // The views (and their listeners) are kept for the next trace: they get its data.
    this.events.reset();
    this.flame.reset();
    this.timeline.reset();
    this.side.reset();
    this.summary.reset();
    this.sql.reset();
    this.heap.reset();
    for (const button of layout.tabButtons.values()) if (button.dataset['tab'] !== 'heap') button.hidden = false;
    layout.partialBanner.hidden = true;
    layout.partialBanner.textContent = '';
    delete layout.result.dataset['partial'];
    layout.tabList.hidden = true;
    layout.exports.hidden = true;
    layout.timeline.box.hidden = true;
    for (const panel of layout.panels.values()) panel.hidden = true;
  }

  /** Shows a trace's summary and its views; `showView` false: a live snapshot on the Flame
   *  graph tab, whose graph waits for refreshFlame. */
  private showTrace(summary: Summary, facts: ReadFacts, showView = true): void {
    const { state, layout } = this;
    state.summary = summary;
    state.name = facts.name;
    const open = state.trace !== null;
    layout.landing.landing.hidden = true;
    layout.tabList.hidden = false;
    layout.exports.hidden = !open;
    for (const t of ['events', 'flame', 'sql'] as const) {
      const button = layout.tabButtons.get(t)!;
      button.disabled = !open;
      button.title = open ? '' : 'Not available: no event could be read';
    }
    this.summary.show(summary, facts);
    this.events.setUp(summary);
    this.flame.setUp(summary);
    // A link's Heap tab, for a trace without a heap dump: its summary instead.
    const tab = state.view.tab === 'heap' && layout.tabButtons.get('heap')!.hidden ? 'summary' : state.view.tab;
    if (showView || state.view.tab !== 'flame') this.showTab(open ? tab : 'summary');
    this.timeline.refresh();
  }

  async open(source: Blob | URL | string, name?: string): Promise<void> {
    // A new trace starts with fresh filters; the first one keeps those of the link's hash.
    const view = this.state.view;
    if (this.state.summary !== null) this.state.view = { ...defaultState(), tab: view.tab, timelineBy: view.timelineBy, runsEvent: view.runsEvent, runsWeight: view.runsWeight };
    if (typeof source === 'string' || source instanceof URL) {
      let absolute: URL;
      try {
        absolute = new URL(source, document.baseURI);
      } catch {
        throw new Error(`not a URL: ${String(source)}`);
      }
      if (await isGcdump(absolute.href)) return this.openHeapFile(absolute.href, name ?? nameOfUrl(absolute));
      return this.loader.load(absolute.href, name ?? nameOfUrl(absolute), 0);
    }
    const fileName = name ?? (source instanceof File ? source.name : 'trace.nettrace');
    if (await isGcdump(source)) return this.openHeapFile(source, fileName);
    return this.loader.load(source, fileName, source.size);
  }

  /** A .gcdump: the Heap tab alone (the other tabs need events). */
  private async openHeapFile(source: Blob | string, name: string): Promise<void> {
    const { layout, state } = this;
    this.loader.stop();
    this.resetViews();
    this.showResult();
    state.name = name;
    layout.landing.landing.hidden = true;
    layout.result.dataset['state'] = 'reading';
    layout.fileName.textContent = name;
    layout.tabList.hidden = false;
    for (const button of layout.tabButtons.values()) button.hidden = button.dataset['tab'] !== 'heap';
    this.showTab('heap');
    const shown = await this.heap.read(source, name);
    if (layout.result.dataset['state'] === 'reading') layout.result.dataset['state'] = shown ? 'done' : 'error';
  }

  /** A trace read to its end (or to a fault) is shown: the timeline's lanes follow it. */
  private explored(): void {
    const { trace, summary } = this.state;
    if (trace !== null && summary !== null) this.timeline.showLanes(trace, summary);
  }

  private openLive(url: string, name: string): Promise<void> {
    const view = this.state.view;
    if (this.state.summary !== null) this.state.view = { ...defaultState(), tab: view.tab, timelineBy: view.timelineBy, runsEvent: view.runsEvent, runsWeight: view.runsWeight };
    return this.loader.load(new URL(url, document.baseURI).href, name, 0, true);
  }

  instance(): AnalyzerInstance {
    const self = this;
    return {
      open: (source, name) => this.open(source, name).catch((e: unknown) => this.reportUnexpected(e)),
      openLive: (url, name) => this.openLive(url, name).catch((e: unknown) => this.reportUnexpected(e)),
      showHeap: async (source, name) => {
        this.heap.reset();
        const { layout } = this;
        layout.landing.landing.hidden = true;
        layout.tabList.hidden = false;
        layout.tabButtons.get('heap')!.hidden = false;
        this.showTab('heap');
        await this.heap.read(source, name);
      },
      refreshFlame: () => {
        this.flame.traceGrew();
        this.showTab('flame');
      },
      get trace() {
        return self.state.trace;
      },
      get summary() {
        return self.state.summary;
      },
      get heap() {
        return self.heap.handle;
      },
      destroy: () => {
        this.loader.stop();
        this.heap.reset();
        this.state.trace?.close();
        this.state.trace = null;
        this.lifetime.abort();
        this.timeline.dispose();
        this.flame.dispose();
        this.events.dispose();
        this.side.dispose();
        this.sql.reset();
        this.runs.dispose();
      },
    };
  }
}

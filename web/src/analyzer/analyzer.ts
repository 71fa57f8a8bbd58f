// web/src/analyzer — one analyzer instance: a landing area (drop zone, file picker, sample,
// open from URL), then three views of the opened trace — Summary, Events (virtualized table),
// Flame graph (with top functions and a sandwich) — under a timeline whose brush narrows them
// all, plus exports. It lives in a shadow root (see element.ts), talks to the engine in a
// worker, and tells its host what happens through DOM events (load, error, selection).
// Trace strings are data: every value reaches the DOM through textContent, never as HTML.
import type { FlameGraphData, Progress, Summary } from '../api/types.js';
import { NetTraceError } from '../api/types.js';
import type { StackQuery, TraceHandle } from '../api/handle.js';
import { openTraceInWorker, prewarmEngine } from '../engine/worker_client.js';
import { defaultState, orderedRange, readHash, TABS, writeHash } from '../app/state.js';
import type { Tab, ViewState } from '../app/state.js';
import { debounced } from '../ui/debounce.js';
import { effectiveWeight, offerWeights, weightChoices } from './weights.js';
import { readTransform, showTransform, transformQuery, wireTransform } from '../views/stack_transform_controls.js';
import { fillSelect, fmt, formatBytes, h, percent } from '../ui/dom.js';
import { wireTabs } from '../ui/tab_keys.js';
import { EventTable } from '../views/events_view.js';
import type { EventFilter } from '../views/events_view.js';
import { FlameGraph } from '../views/flame_view.js';
import { DiffView } from '../views/diff_view.js';
import { SandwichView } from '../views/sandwich_view.js';
import { formatMs, topFunctionsTable } from '../views/top_functions.js';
import { renderEventViews } from '../views/event_views_view.js';
import { eventTypes, processes, renderSummary, threads } from '../views/summary_view.js';
import { renderGcView } from '../views/gc_view.js';
import { Timeline } from '../views/timeline_view.js';
import { TimelinePanel } from '../views/timeline_panel.js';
import { renderJitView } from '../views/jit_view.js';
import { wireHome } from './home.js';
import { wireExports } from './exports.js';
import { buildLayout } from './layout.js';
import { nameOfUrl, wireSources } from './sources.js';
import { fillStackThreads } from './stack_threads.js';
import { hasSummary, partialText, refusalText, summaryTitle } from './read_outcome.js';

export interface AnalyzerOptions {
  /** Keep the view state in the page's URL hash, so that a link reproduces the view (the
   *  full-page app does; an embedded analyzer leaves its host page's URL alone). */
  syncHash?: boolean;
  /** A trace that "Try the sample trace" opens; the button is hidden without one. */
  sampleUrl?: string;
  /** The engine's module worker script (default: engine/engine_worker.js beside this module). */
  workerUrl?: URL | string;
}

/** `detail` of the `selection` event. */
export type AnalyzerSelection =
  | { kind: 'range'; fromMs: number | null; toMs: number | null }
  | { kind: 'event'; index: number; provider: string; name: string; timeMs: number }
  | { kind: 'frame'; name: string };

/** `detail` of the `load` event. */
export interface AnalyzerLoad {
  name: string;
  summary: Summary;
}

/** `detail` of the `error` event: the reason reading stopped, with what was read before (a
 *  damaged or cancelled read that read events also leaves `trace` open over them). */
export interface AnalyzerError {
  name: string;
  code: string;
  offset: number | null;
  message: string;
  partial: Summary | null;
}

export interface AnalyzerInstance {
  /** Reads a session still recording from `url` (an HTTP stream: `nettrace-analyzer live`),
   *  showing what was read so far every LIVE_INTERVAL_MS ("live" events), then the whole trace. */
  openLive(url: string, name: string): Promise<void>;
  /** Computes the flame graph again over what has been read (a live session's grows). */
  refreshFlame(): void;
  /** Opens a trace: a File/Blob, or a URL to fetch. Resolves when it has been read (or has
   *  failed: the failure is shown and reported through the `error` event, not thrown). */
  open(source: Blob | URL | string, name?: string): Promise<void>;
  /** The trace shown (also a partial one: its `error` set), or null. */
  readonly trace: TraceHandle | null;
  /** Its summary (the partial one after a fatal error), or null. */
  readonly summary: Summary | null;
  /** Ends the worker and removes listeners outside the shadow root. */
  destroy(): void;
}

/** Event types first offered for stacks: CPU samples (sample profiler, Linux profilers). */
const PREFERRED_STACKS = ['Thread/Sample', 'cpu', 'GC/AllocationTick', 'Exception/Start'];

/** Typing pause after which the event text search starts (a keystroke later cancels it). */
const SEARCH_PAUSE_MS = 300;
/** A live session's views follow what was read this often (issue 15 asks for at least once a second). */
const LIVE_INTERVAL_MS = 500;

const finite = (text: string): number | undefined => (text !== '' && Number.isFinite(Number(text)) ? Number(text) : undefined);

/** Builds an analyzer in `root` (a shadow root of `host`, which receives its events). */
export function createAnalyzer(host: HTMLElement, root: ShadowRoot, options: AnalyzerOptions = {}): AnalyzerInstance {
  root.append(buildLayout());
  const byId = <T extends HTMLElement>(id: string): T => {
    const element = root.getElementById(id);
    if (element === null) throw new Error(`#${id} is missing from the analyzer's layout`);
    return element as T;
  };
  const emit = <T>(type: string, detail: T): void => void host.dispatchEvent(new CustomEvent<T>(type, { detail }));
  /** Listeners outside the shadow root (host, window) end with destroy(). */
  const lifetime = new AbortController();
  const outside = { signal: lifetime.signal };

  // The engine worker for the first trace starts now, so a drop does not wait for the
  // worker and the wasm module to load; each open starts the next one (one waits at most).
  const workerOptions = options.workerUrl === undefined ? {} : { workerUrl: options.workerUrl };
  const drop = byId<HTMLElement>('drop');
  // data-engine="ready" says a drop now starts reading at once (benchmarks wait for it).
  const warm = (): void =>
    void prewarmEngine(workerOptions).then(
      () => (drop.dataset['engine'] = 'ready'),
      () => delete drop.dataset['engine'],
    );
  warm();

  const fileInput = byId<HTMLInputElement>('file');
  const sampleButton = byId<HTMLButtonElement>('sample');
  const urlInput = byId<HTMLInputElement>('url');
  const cancelButton = byId<HTMLButtonElement>('cancel');
  const progressBar = byId<HTMLProgressElement>('progress');
  const progressText = byId<HTMLElement>('progress-text');
  const statusLine = byId<HTMLElement>('status');
  const partialBanner = byId<HTMLElement>('partial-banner');
  const result = byId<HTMLElement>('result');
  const resultTitle = byId<HTMLElement>('result-title');
  const headline = byId<HTMLElement>('headline');
  const summaryTables = byId<HTMLElement>('summary-tables');
  const summaryPre = byId<HTMLElement>('summary');
  const tabList = byId<HTMLElement>('tabs');
  const landing = byId<HTMLElement>('landing');
  const fileNameLine = byId<HTMLElement>('file-name');
  const exportsBar = byId<HTMLElement>('exports');
  const timelineBox = byId<HTMLElement>('timeline');
  const rangeChip = byId<HTMLElement>('range-chip');
  const timelineGroup = byId<HTMLSelectElement>('t-group');
  const tabButtons = new Map<Tab, HTMLButtonElement>(TABS.map((t) => [t, byId<HTMLButtonElement>(`tab-${t}`)]));
  const panels = new Map<Tab, HTMLElement>(TABS.map((t) => [t, byId<HTMLElement>(`view-${t}`)]));

  /** The trace shown; closed (its worker ended) when another one is opened. */
  let shown: TraceHandle | null = null;
  let shownSummary: Summary | null = null;
  let shownName = '';
  let current: AbortController | null = null;
  let state: ViewState = options.syncHash === true ? orderedRange(readHash(location.hash)).state : defaultState();
  let eventTable: EventTable | null = null;
  let eventTableTrace: TraceHandle | null = null;
  let flame: FlameGraph | null = null;
  const sandwich = new SandwichView(byId('g-sandwich'));
  const diffView = new DiffView(byId('g-diff'), workerOptions); // A/B diff against a baseline (views/diff_view.ts)
  /** The sandwich's trace, query and function, to redo it only when one of them changes. */
  let sandwichKey = '';
  /** The stack query the flame graph shows (also what speedscope/folded exports take). */
  let flameQueryKey = '';
  let timelineKey = '';
  let eventFiltersApplied = '';
  const timeline = new Timeline(byId('timeline-canvas'), byId('timeline-legend'), (range) => {
    state = { ...state, fromMs: range === null ? '' : range[0].toFixed(3), toMs: range === null ? '' : range[1].toFixed(3) };
    rangeChanged();
  });
  // Lanes (threads, GC heap and pauses, activities) and the time-order chart (views/timeline_panel.ts).
  const timelinePanel = new TimelinePanel(timelineBox, (fromMs, toMs) => selectRangeInEvents(fromMs, toMs), (e) => reportUnexpected(e));

  // ---- state and tabs --------------------------------------------------------------------

  function saveState(): void {
    if (options.syncHash === true) history.replaceState(null, '', writeHash(state));
  }

  function showTab(tab: Tab, focus = false): void {
    state.tab = tab;
    result.dataset['tab'] = tab;
    for (const [t, button] of tabButtons) {
      const selected = t === tab;
      button.setAttribute('aria-selected', String(selected));
      button.tabIndex = selected ? 0 : -1;
      panels.get(t)!.hidden = !selected;
    }
    if (focus) tabButtons.get(tab)!.focus();
    saveState();
    if (tab === 'events') void showEvents().catch(reportUnexpected);
    if (tab === 'flame') void showFlame().catch(reportFlameError);
    if (tab === 'diagnostics') void showDiagnostics().catch(reportUnexpected);
  }

  /** The Diagnostics tab (issue 14), built once per trace. */
  let diagnosticsTrace: TraceHandle | null = null;
  async function showDiagnostics(): Promise<void> {
    if (shown === null || diagnosticsTrace === shown) return;
    diagnosticsTrace = shown;
    const box = byId<HTMLElement>('diagnostics-box');
    delete box.dataset['ready'];
    box.replaceChildren();
    await renderEventViews(box, shown);
  }

  wireTabs(tabButtons, (tab, focus) => showTab(tab, focus));

  const { showResult } = wireHome(
    { home: byId('home'), back: byId('back'), landing, drop, result, tabs: tabList, exports: exportsBar },
    {
      shownName: () => (shownSummary === null ? null : shownName),
      canExport: () => shown !== null,
      onBack: () => showTab(shown === null ? 'summary' : state.tab, true),
    },
  );

  // ---- loading ---------------------------------------------------------------------------

  function showProgress(p: Progress, progressCount: number): void {
    progressBar.hidden = false;
    progressBar.max = Math.max(1, p.total || p.bytes);
    progressBar.value = p.bytes;
    const of = p.total > 0 ? ` of ${formatBytes(p.total)} (${percent(p.bytes, p.total)})` : '';
    progressText.textContent = `${p.phase === 'done' ? 'Indexed' : p.phase === 'reading-end' ? 'Reading the end of the file first (NetPerf 1/2), then' : 'Reading'}: ${formatBytes(p.bytes)}${of} · ${fmt(p.events)} events`;
    result.dataset['progressCount'] = String(progressCount);
  }

  function resetViews(): void {
    shown?.close();
    shown = null;
    shownSummary = null;
    // The views (and their listeners) are kept for the next trace: they get its data.
    eventFiltersApplied = '';
    flameQueryKey = '';
    timelineKey = '';
    byId('g-top').replaceChildren();
    sandwich.clear();
    sandwichKey = '';
    diffView.clear();
    timelinePanel.clear();
    headline.replaceChildren();
    summaryTables.replaceChildren();
    summaryPre.textContent = '';
    resultTitle.hidden = true;
    partialBanner.hidden = true;
    partialBanner.textContent = '';
    delete result.dataset['partial'];
    tabList.hidden = true;
    exportsBar.hidden = true;
    timelineBox.hidden = true;
    for (const panel of panels.values()) panel.hidden = true;
  }

  async function load(source: Blob | string, name: string, size: number, live = false): Promise<void> {
    current?.abort();
    const controller = new AbortController();
    current = controller;
    let progressCount = 0;
    resetViews();
    showResult();
    result.dataset['state'] = 'reading';
    result.dataset['progressCount'] = '0';
    statusLine.classList.remove('error');
    statusLine.textContent = `Reading ${name}…`;
    fileNameLine.textContent = name;
    progressText.textContent = '';
    cancelButton.hidden = false;
    const started = performance.now();
    try {
      // A damaged or cancelled read keeps what it read: those events are explored like a
      // complete trace's (the native tool does the same), under a banner.
      delete drop.dataset['engine']; // this open takes the waiting worker
      const opened = await openTraceInWorker(source, {
        signal: controller.signal,
        keepPartial: true,
        onProgress: (p) => showProgress(p, ++progressCount),
        ...workerOptions,
        ...(live ? { live: { intervalMs: LIVE_INTERVAL_MS, onSnapshot: (h: TraceHandle, rows: number) => current === controller && showLive(h, rows, name, started) } } : {}),
      });
      warm();
      if (current !== controller) {
        opened.close();
        return;
      }
      hideProgress();
      // Nothing read at all (not a trace, an empty file, a cancel before the first event).
      if (opened.error !== null && opened.eventCount === 0) {
        opened.close();
        throw opened.error;
      }
      if (live) timelineKey = flameQueryKey = ''; // the snapshots' views follow the final trace (the event table keeps its place)
      shown = opened;
      diffView.setComparison(source);
      const summary = opened.summary();
      const seconds = (performance.now() - started) / 1000;
      // A URL's size is what was read of it (reading reached its end, or a fault).
      showTrace(summary, name, size || opened.bytes, seconds, opened.error);
      void showTimeline().catch(reportUnexpected);
      timelinePanel.show(opened, summary);
      if (opened.error === null) {
        statusLine.textContent = `Read ${name}: ${fmt(summary.eventCount)} events in ${seconds.toFixed(2)} s.`;
        result.dataset['state'] = 'done';
        emit<AnalyzerLoad>('load', { name, summary });
      } else {
        const text = partialText(opened.error, name, summary.eventCount, size);
        statusLine.classList.add('error');
        statusLine.textContent = text.status;
        partialBanner.textContent = text.banner;
        partialBanner.hidden = false;
        result.dataset['state'] = 'error';
        result.dataset['partial'] = opened.error.code;
        const e = opened.error;
        emit<AnalyzerError>('error', { name, code: e.code, offset: e.offset, message: e.reason, partial: summary });
      }
    } catch (e) {
      if (current !== controller) return;
      refused(e, name, typeof source === 'string' ? null : size, (performance.now() - started) / 1000, typeof source === 'string');
    } finally {
      if (current === controller) {
        cancelButton.hidden = true;
        current = null;
      }
    }
  }

  /** A live session's snapshot (live_controls.ts): every view follows what was read so far;
   *  the flame graph only when asked (refreshFlame), as it weighs every stack. */
  function showLive(snapshot: TraceHandle, rows: number, name: string, started: number): void {
    const summary = snapshot.summary();
    const first = shown === null;
    shown = snapshot;
    timelineKey = '';
    const seconds = (performance.now() - started) / 1000;
    hideProgress();
    showTrace(summary, name, snapshot.bytes, seconds, null, first);
    void showTimeline().catch(reportUnexpected);
    statusLine.textContent = `Live: ${fmt(summary.eventCount)} events read, ${fmt(rows)} in time order, ${formatBytes(snapshot.bytes)} · ${seconds.toFixed(1)} s`;
    result.dataset['state'] = 'live';
    result.dataset['liveEvents'] = String(summary.eventCount);
    result.dataset['liveRows'] = String(rows);
    emit<AnalyzerLoad>('live', { name, summary });
  }

  /** A read that gave nothing to explore: why, and only the facts that were established. */
  function refused(e: unknown, name: string, size: number | null, seconds: number, fromUrl: boolean): void {
    hideProgress();
    statusLine.classList.add('error');
    statusLine.textContent = refusalText(e, name, fromUrl);
    if (hasSummary(e)) showTrace((e as NetTraceError).partial!, name, size, seconds, e as NetTraceError);
    if (e instanceof NetTraceError) {
      emit<AnalyzerError>('error', { name, code: e.code, offset: e.offset, message: e.reason, partial: e.partial });
    } else {
      emit<AnalyzerError>('error', { name, code: 'source', offset: null, message: e instanceof Error ? e.message : String(e), partial: null });
    }
    result.dataset['state'] = 'error';
  }

  /** The progress bar and line end with the read: the status line and summary say the rest. */
  function hideProgress(): void {
    progressBar.hidden = true;
    progressText.textContent = '';
  }

  /** The event table with these filters (the others cleared), from a click in the Summary. */
  function showEventsWith(filters: Partial<Pick<ViewState, 'provider' | 'event' | 'thread' | 'text'>>): void {
    state = { ...state, provider: '', event: '', thread: '', text: '', ...filters };
    eventFiltersApplied = '';
    showTab('events');
    void showTimeline().catch(reportUnexpected);
  }

  function showTrace(summary: Summary, name: string, size: number | null, seconds: number, error: NetTraceError | null, showView = true): void {
    shownSummary = summary;
    shownName = name;
    landing.hidden = true;
    tabList.hidden = false;
    exportsBar.hidden = shown === null;
    for (const t of ['events', 'flame'] as const) {
      const button = tabButtons.get(t)!;
      button.disabled = shown === null;
      button.title = shown === null ? 'Not available: no event could be read' : '';
    }
    resultTitle.hidden = false;
    resultTitle.textContent = summaryTitle(error, summary.eventCount);
    renderSummary(summary, headline, summaryTables, {
      fileName: name,
      fileSize: size,
      readSeconds: seconds,
      partial: error !== null,
      onPickType: shown === null ? null : (t) => showEventsWith({ provider: t.provider, event: t.name }),
      onStacksOfType:
        shown === null ? null : (t) => {
          state = { ...state, stackEvent: t.name };
          showTab('flame');
        },
      onPickThread: shown === null ? null : (t) => showEventsWith({ thread: String(t.threadId) }),
      onPickRuntimeType:
        shown === null ? null : (eventName, typeName) =>
          showEventsWith({ provider: 'Microsoft-Windows-DotNETRuntime', event: eventName, text: typeName === '(other types)' ? '' : typeName }),
    });
    summaryPre.textContent = JSON.stringify(summary, null, 2);
    if (shown !== null) void showGcs(shown).catch(reportUnexpected);
    setUpFilters(summary);
    if (!showView && state.tab === 'flame') return; // a live snapshot: the flame graph waits for refreshFlame
    showTab(shown === null ? 'summary' : state.tab);
  }

  /** The GC view under the summary's runtime tables; a GC's row selects its time range. */
  async function showGcs(trace: TraceHandle): Promise<void> {
    const stats = await trace.gc();
    if (shown !== trace) return;
    renderGcView(stats, summaryTables, (fromMs, toMs) => {
      state = { ...state, fromMs: fromMs.toFixed(3), toMs: toMs.toFixed(3) };
      rangeChanged();
      showTab('events');
    });
    const jit = await trace.jit();
    if (shown === trace) renderJitView(jit, summaryTables);
  }

  /** A time range from the timeline's lanes (a GC pause, an activity), selected in every view
   *  as the GC table's rows select theirs; the event table shows it. */
  function selectRangeInEvents(fromMs: number, toMs: number): void {
    state = { ...state, fromMs: fromMs.toFixed(3), toMs: toMs.toFixed(3) };
    rangeChanged();
    showTab('events');
  }

  // ---- timeline and the time range (applies to the event table and the flame graph) ------

  /** Stacked by provider over every event, or by event type over the event filter's types. */
  async function showTimeline(): Promise<void> {
    const trace = shown;
    if (trace === null) return;
    timelineGroup.value = state.timelineBy;
    const byType = state.timelineBy === 'type';
    const query = {
      buckets: 400,
      groupBy: byType ? ('eventType' as const) : ('provider' as const),
      ...(byType && state.provider !== '' ? { provider: state.provider } : {}),
      ...(byType && state.event !== '' ? { name: state.event } : {}),
      ...(byType && finite(state.thread) !== undefined ? { thread: finite(state.thread)! } : {}),
    };
    const key = JSON.stringify(query);
    if (key === timelineKey) return;
    timelineKey = key;
    let histogram = await trace.histogram(query);
    if (shown !== trace || key !== timelineKey) return;
    // Series are "Provider/Task/Opcode"; one provider's types need not repeat its name.
    const prefix = `${state.provider}/`;
    if (byType && state.provider !== '' && histogram.series.every((name) => name.toLowerCase().startsWith(prefix.toLowerCase()))) {
      histogram = { ...histogram, series: histogram.series.map((name) => name.slice(prefix.length)) };
    }
    timelineBox.hidden = false;
    timelineBox.dataset['series'] = String(histogram.series.length);
    timeline.setData(histogram);
    showRange();
  }

  timelineGroup.addEventListener('change', () => {
    state = { ...state, timelineBy: timelineGroup.value === 'type' ? 'type' : 'provider' };
    saveState();
    void showTimeline().catch(reportUnexpected);
  });

  /** The range chip and the brush follow state.fromMs / state.toMs. */
  function showRange(): void {
    const from = finite(state.fromMs) ?? null;
    const to = finite(state.toMs) ?? null;
    const any = from !== null || to !== null;
    rangeChip.hidden = !any;
    byId('range-text').textContent = any ? `${from === null ? 'start' : `${from.toFixed(1)} ms`} – ${to === null ? 'end' : `${to.toFixed(1)} ms`}` : '';
    timeline.setRange(any ? [from ?? -Infinity, to ?? Infinity] : null);
    timelinePanel.setSelection(any ? [from ?? -Infinity, to ?? Infinity] : null);
  }

  /** The time range changed (brush, chip, or the event filter's inputs): every view follows. */
  function rangeChanged(): void {
    showRange();
    saveState();
    emit<AnalyzerSelection>('selection', { kind: 'range', fromMs: finite(state.fromMs) ?? null, toMs: finite(state.toMs) ?? null });
    if (shown === null) return;
    if (state.tab === 'events') void showEvents().catch(reportUnexpected);
    if (state.tab === 'flame') void showFlame().catch(reportFlameError);
  }

  byId('range-clear').addEventListener('click', () => {
    state = { ...state, fromMs: '', toMs: '' };
    rangeChanged();
  });

  // ---- events ----------------------------------------------------------------------------

  const fProvider = byId<HTMLSelectElement>('f-provider');
  const fEvent = byId<HTMLSelectElement>('f-event');
  const fThread = byId<HTMLSelectElement>('f-thread');
  const fText = byId<HTMLInputElement>('f-text');
  const fFrom = byId<HTMLInputElement>('f-from');
  const fTo = byId<HTMLInputElement>('f-to');
  const rangeNote = byId<HTMLElement>('range-note');
  const gEvent = byId<HTMLSelectElement>('g-event');
  const gThread = byId<HTMLSelectElement>('g-thread');
  const gProcess = byId<HTMLSelectElement>('g-process');
  const gInverted = byId<HTMLInputElement>('g-inverted');
  const gWeight = byId<HTMLSelectElement>('g-weight');
  const gStitch = byId<HTMLInputElement>('g-stitch');
  const gSearch = byId<HTMLInputElement>('g-search');

  function setUpFilters(summary: Summary): void {
    const types = eventTypes(summary);
    const providers = [...new Set(types.map((t) => t.provider))].sort();
    fillSelect(fProvider, 'any provider', providers.map((p) => ({ value: p, label: p })));
    const threadOptions = threads(summary).map((t) => ({
      value: String(t.threadId),
      label: `${t.threadId}${t.name === '' ? '' : ` ${t.name}`} (${fmt(t.eventCount)} events)`,
    }));
    fillSelect(fThread, 'any thread', threadOptions);
    // The flame graph's picker is filled for its stack type (offerStackThreads).
    gThread.replaceChildren();
    const processList = processes(summary);
    byId('g-process-label').hidden = processList.length < 2;
    fillSelect(gProcess, 'all processes', processList.map((p) => ({ value: String(p.pid), label: `${p.name || '?'} (${p.pid})` })));
    // The flame graph offers the types whose events carry stacks (all types when the
    // summary does not say), most stacks first.
    const stackCount = new Map<string, number>();
    for (const t of types) stackCount.set(t.name, (stackCount.get(t.name) ?? 0) + (t.withStacks ?? t.count));
    const stackTypes = [...stackCount].filter(([, n]) => n > 0).sort((a, b) => b[1] - a[1]);
    gEvent.replaceChildren(
      ...stackTypes.map(([name, n]) => h('option', { text: `${name} (${fmt(n)})`, attrs: { value: name } })),
    );
    if (stackTypes.length === 0) gEvent.append(h('option', { text: 'no events with stack frames', attrs: { value: '', disabled: '' } }));
    const has = (name: string): boolean => stackCount.has(name) && stackCount.get(name)! > 0;
    if (state.stackEvent !== '' && !has(state.stackEvent)) state.stackEvent = '';
    if (state.stackEvent === '') state.stackEvent = PREFERRED_STACKS.find(has) ?? stackTypes[0]?.[0] ?? '';
  }

  function fillEventNames(): void {
    if (shownSummary === null) return;
    const names = eventTypes(shownSummary)
      .filter((t) => state.provider === '' || t.provider.toLowerCase() === state.provider.toLowerCase())
      .map((t) => t.name);
    fillSelect(fEvent, 'any event', [...new Set(names)].sort().map((n) => ({ value: n, label: n })));
  }

  function eventFilter(): EventFilter {
    const filter: EventFilter = {};
    if (state.provider !== '') filter.provider = state.provider;
    if (state.event !== '') filter.name = state.event;
    const thread = finite(state.thread);
    if (thread !== undefined) filter.thread = thread;
    const from = finite(state.fromMs);
    const to = finite(state.toMs);
    if (from !== undefined) filter.fromMs = from;
    if (to !== undefined) filter.toMs = to;
    if (state.text.trim() !== '') filter.text = state.text.trim();
    return filter;
  }

  async function showEvents(): Promise<void> {
    if (shown === null) return;
    let traceChanged = false;
    if (eventTable === null) {
      eventTable = new EventTable(shown, byId('event-scroller'), byId('event-count'), byId('event-detail'));
      eventTable.onSelect = (event) =>
        emit<AnalyzerSelection>('selection', { kind: 'event', index: event.index, provider: event.provider, name: event.name, timeMs: event.timeMs });
      eventTableTrace = shown;
    } else if (eventTableTrace !== shown) {
      eventTable.setTrace(shown);
      eventTableTrace = shown;
      traceChanged = true;
    }
    fProvider.value = state.provider;
    fillEventNames();
    fEvent.value = state.event;
    fThread.value = state.thread;
    fText.value = state.text;
    fFrom.value = state.fromMs;
    fTo.value = state.toMs;
    const key = JSON.stringify(eventFilter());
    if (key === eventFiltersApplied && !traceChanged) return;
    // The same filter over another trace is a live session's next snapshot: keep the place.
    const keepPosition = key === eventFiltersApplied;
    eventFiltersApplied = key;
    await eventTable.setFilter(eventFilter(), { keepPosition });
  }

  function onFilterChange(): void {
    const typed = { ...state, provider: fProvider.value, event: fEvent.value, thread: fThread.value, text: fText.value, fromMs: fFrom.value, toMs: fTo.value };
    const ordered = orderedRange(typed);
    state = ordered.state;
    fFrom.value = state.fromMs;
    fTo.value = state.toMs;
    rangeNote.textContent = ordered.swapped ? `From was after To: swapped to ${state.fromMs} – ${state.toMs} ms.` : '';
    showRange();
    saveState();
    void showEvents().catch(reportUnexpected);
    if (state.timelineBy === 'type') void showTimeline().catch(reportUnexpected);
  }
  fProvider.addEventListener('change', () => {
    fEvent.value = '';
    onFilterChange();
  });
  for (const input of [fEvent, fThread, fFrom, fTo]) input.addEventListener('change', onFilterChange);
  // Free text applies as the user types, once typing pauses: a search can re-read the whole
  // file, and each new search cancels the one before (EventTable.setFilter). Enter (and
  // clearing the field) applies it at once.
  const textTyping = debounced(onFilterChange, SEARCH_PAUSE_MS);
  fText.addEventListener('input', () => textTyping.schedule());
  for (const type of ['search', 'change']) {
    fText.addEventListener(type, () => {
      textTyping.cancel();
      onFilterChange();
    });
  }
  byId('event-filters').addEventListener('submit', (e) => e.preventDefault());
  byId('f-clear').addEventListener('click', () => {
    for (const input of [fProvider, fEvent, fThread, fText, fFrom, fTo]) input.value = '';
    onFilterChange();
  });

  // ---- flame graph -----------------------------------------------------------------------

  function stackQuery(): StackQuery {
    const query: StackQuery = { event: state.stackEvent, inverted: state.inverted, weight: effectiveWeight(state.stackEvent, state.weight) };
    const thread = finite(state.stackThread);
    const process = finite(state.process);
    const from = finite(state.fromMs);
    const to = finite(state.toMs);
    if (thread !== undefined) query.thread = thread;
    if (process !== undefined) query.process = process;
    if (from !== undefined) query.fromMs = from;
    if (to !== undefined) query.toMs = to;
    if (query.weight === 'traceevent-thread-time') query.stitchAsync = !state.noStitch;
    Object.assign(query, transformQuery(state));
    return query;
  }

  /** The trace and stack type the flame graph's thread picker was filled for. */
  let stackThreadsFor: { trace: TraceHandle; event: string } | null = null;

  /** Offers the threads with events of the picked stack type (a thread without any is dropped). */
  async function offerStackThreads(trace: TraceHandle): Promise<void> {
    if (stackThreadsFor?.trace === trace && stackThreadsFor.event === state.stackEvent) return;
    stackThreadsFor = { trace, event: state.stackEvent };
    let offered: Set<string>;
    try {
      offered = await fillStackThreads(gThread, trace, threads(trace.summary()), state.stackEvent);
    } catch (e) {
      stackThreadsFor = null; // asked again next time
      throw e;
    }
    if (shown === trace && state.stackThread !== '' && !offered.has(state.stackThread)) state = { ...state, stackThread: '' };
  }

  async function showFlame(): Promise<void> {
    const trace = shown;
    if (trace === null) return;
    if (flame === null) {
      flame = new FlameGraph(byId('g-canvas'), byId('g-tooltip'), byId('g-breadcrumb'), byId('g-search-result'));
      flame.onZoom = (name) => {
        emit<AnalyzerSelection>('selection', { kind: 'frame', name });
        pickFunction(name);
      };
    }
    await offerStackThreads(trace);
    if (shown !== trace) return;
    gEvent.value = state.stackEvent;
    gThread.value = state.stackThread;
    gProcess.value = state.process;
    gInverted.checked = state.inverted;
    offerWeights(gWeight, state.stackEvent, state.weight);
    showTransform(byId, state);
    const query = stackQuery();
    const key = JSON.stringify(query);
    if (key === flameQueryKey) {
      flame.draw();
      showSide();
      return;
    }
    flameQueryKey = key;
    const message = byId('g-message');
    message.textContent = 'Computing…';
    const [data, top] = await Promise.all([trace.flameGraph(query), trace.topFunctions(query, 100)]);
    if (key !== flameQueryKey || shown !== trace) return;
    const box = byId('g-canvas-box');
    box.dataset['nodes'] = String(data.frame.length);
    box.dataset['total'] = String(data.total);
    box.dataset['weight'] = query.weight ?? '';
    showStitching(query, data.asyncStitching);
    if (data.total > 0 && data.frame.length <= 1) {
      message.textContent = `${fmt(data.total)} ${data.unit}, but these events carry no stack frames. Pick another event type.`;
    } else if (data.total === 0) {
      message.textContent = `No stacks for ${state.stackEvent}${query.thread === undefined ? '' : ` on thread ${query.thread}`}. Pick another event type.`;
    } else {
      const total = data.unit === 'nanoseconds' ? formatMs(data.total) : `${fmt(data.total)} ${data.unit}`;
      message.textContent = `${total} · ${fmt(data.frame.length)} nodes · click a frame to zoom (or arrow keys + Enter), Escape to zoom out`;
    }
    flame.setData(data);
    flame.zoomTo(0);
    byId('g-top').replaceChildren(
      topFunctionsTable(top, (name) => {
        gSearch.value = name;
        flame?.search(name);
        // The README's promise: a Top functions row opens that function's sandwich.
        state = { ...state, side: 'sandwich' };
        pickFunction(name);
        showSide();
      }),
    );
    showSide();
  }

  // ---- beside the flame graph: top functions or the sandwich of one function --------------

  const sideTabs = new Map<ViewState['side'], HTMLButtonElement>([
    ['top', byId<HTMLButtonElement>('side-top')],
    ['sandwich', byId<HTMLButtonElement>('side-sandwich')],
    ['diff', byId<HTMLButtonElement>('side-diff')],
  ]);

  function showSide(focus = false): void {
    for (const [side, button] of sideTabs) {
      const selected = side === state.side;
      button.setAttribute('aria-selected', String(selected));
      button.tabIndex = selected ? 0 : -1;
      if (focus && selected) button.focus();
    }
    byId('g-top').hidden = state.side !== 'top';
    byId('g-sandwich').hidden = state.side !== 'sandwich';
    if (state.side === 'sandwich') void showSandwich().catch(reportUnexpected);
    byId('g-diff').hidden = state.side !== 'diff';
    if (state.side === 'diff') void diffView.show(sandwichQuery()).catch(reportUnexpected);
  }

  /** The flame graph's stacks, not inverted: a sandwich shows both directions anyway. */
  const sandwichQuery = (): StackQuery => ({ ...stackQuery(), inverted: false });

  /** The sandwich of state.fn in the flame graph's stacks, or how to pick a function. */
  async function showSandwich(): Promise<void> {
    const trace = shown;
    if (trace === null || state.side !== 'sandwich') return;
    const query = sandwichQuery();
    const key = JSON.stringify([query, state.fn]);
    if (key === sandwichKey) return;
    sandwichKey = key;
    if (state.fn === '') {
      sandwich.showHint('Pick a function: click a frame in the flame graph or a row of Top functions.');
      return;
    }
    await sandwich.show(trace, query, state.fn);
  }

  /** A function picked (top functions row, flame graph frame, sandwich row). */
  function pickFunction(name: string): void {
    state = { ...state, fn: name };
    saveState();
    void showSandwich().catch(reportUnexpected);
  }

  diffView.onChange = () => {
    if (state.side === 'diff') void diffView.show(sandwichQuery()).catch(reportUnexpected);
  };
  sandwich.onPick = (name) => {
    state = { ...state, fn: name };
    sandwichKey = JSON.stringify([sandwichQuery(), name]);
    saveState();
  };
  wireTabs(sideTabs, (side, focus) => {
    state = { ...state, side };
    saveState();
    showSide(focus);
  });

  /** The stitching toggle beside the weight picker: only for dotnet-trace's thread time, with why it is unavailable. */
  function showStitching(query: StackQuery, stitching: FlameGraphData['asyncStitching']): void {
    byId('g-stitch-box').hidden = query.weight !== 'traceevent-thread-time';
    gStitch.checked = !state.noStitch;
    gStitch.disabled = stitching?.state === 'unavailable';
    byId('g-stitch-note').textContent = stitching?.state === 'unavailable' ? `(unavailable: ${stitching.reason ?? ''})` : '';
    byId('g-stitch-box').dataset['state'] = stitching?.state ?? '';
  }

  function reportFlameError(e: unknown): void {
    flameQueryKey = '';
    byId('g-message').textContent = `Could not compute the flame graph: ${e instanceof Error ? e.message : String(e)}`;
  }

  function onFlameControls(): void {
    // A weight is kept in the link only when it is not the event type's default.
    const weight = gWeight.value === weightChoices(gEvent.value)[0]!.value || !weightChoices(gEvent.value).some((c) => c.value === gWeight.value) ? '' : gWeight.value;
    state = { ...state, stackEvent: gEvent.value, stackThread: gThread.value, process: gProcess.value, inverted: gInverted.checked, weight, noStitch: !gStitch.checked, ...readTransform(byId) };
    saveState();
    void showFlame().catch(reportFlameError);
  }
  for (const input of [gEvent, gThread, gProcess, gInverted, gWeight, gStitch]) input.addEventListener('change', onFlameControls);
  wireTransform(byId, onFlameControls);
  gSearch.addEventListener('input', () => flame?.search(gSearch.value));
  byId<HTMLInputElement>('g-flame').addEventListener('change', (e) => flame?.setRootAtBottom((e.target as HTMLInputElement).checked));
  byId('flame-controls').addEventListener('submit', (e) => e.preventDefault());

  // ---- exports ---------------------------------------------------------------------------

  wireExports(exportsBar, {
    shown: () => (shown === null ? null : { trace: shown, name: shownName }),
    stackQuery,
    csvEvent: () => (state.event === '' ? null : { event: state.event, provider: state.provider }),
    onError: reportUnexpected,
  });

  // A hash edited by hand (or a link followed within the page) changes the view.
  const onHashChange = (): void => {
    state = orderedRange(readHash(location.hash)).state;
    eventFiltersApplied = '';
    showRange();
    if (shown !== null) showTab(state.tab);
    void showTimeline().catch(reportUnexpected);
  };
  if (options.syncHash === true) window.addEventListener('hashchange', onHashChange, outside);

  // ---- sources ---------------------------------------------------------------------------

  function reportUnexpected(e: unknown): void {
    // A request of a trace closed since (another one opened, or destroy()) is not a failure.
    if (e instanceof NetTraceError && (e.code === 'closed' || e.code === 'cancelled')) return;
    statusLine.classList.add('error');
    statusLine.textContent = `Failed: ${e instanceof Error ? e.message : String(e)}`;
    if (result.dataset['state'] === 'reading') result.dataset['state'] = 'error';
  }

  async function open(source: Blob | URL | string, name?: string): Promise<void> {
    // A new trace starts with fresh filters; the first one keeps those of the link's hash.
    if (shownSummary !== null) state = { ...defaultState(), tab: state.tab, timelineBy: state.timelineBy };
    if (typeof source === 'string' || source instanceof URL) {
      let absolute: URL;
      try {
        absolute = new URL(source, document.baseURI);
      } catch {
        throw new Error(`not a URL: ${String(source)}`);
      }
      return load(absolute.href, name ?? nameOfUrl(absolute), 0);
    }
    const fileName = name ?? (source instanceof File ? source.name : 'trace.nettrace');
    return load(source, fileName, source.size);
  }

  wireSources(
    { host, drop, fileInput, choose: byId('choose'), sampleButton, urlForm: byId<HTMLFormElement>('url-form'), urlInput },
    {
      open: (source, name) => void open(source, name).catch(reportUnexpected),
      status: (text) => {
        statusLine.classList.remove('error');
        statusLine.textContent = text;
      },
      onError: reportUnexpected,
      sampleUrl: options.sampleUrl,
      syncHash: options.syncHash === true,
      outside,
    },
  );
  cancelButton.addEventListener('click', () => current?.abort());

  return {
    open: (source, name) => open(source, name).catch(reportUnexpected),
    openLive: (url, name) => {
      if (shownSummary !== null) state = { ...defaultState(), tab: state.tab, timelineBy: state.timelineBy };
      return load(new URL(url, document.baseURI).href, name, 0, true).catch(reportUnexpected);
    },
    refreshFlame: () => {
      flameQueryKey = '';
      showTab('flame');
    },
    get trace() {
      return shown;
    },
    get summary() {
      return shownSummary;
    },
    destroy() {
      // No late "Cancelled." or error event from the load in progress: forget it first.
      const reading = current;
      current = null;
      reading?.abort();
      shown?.close();
      shown = null;
      lifetime.abort();
      timeline.dispose();
      timelinePanel.dispose();
      flame?.dispose();
      eventTable?.dispose();
      sandwich.clear();
    },
  };
}

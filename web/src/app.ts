// web/src — the app: a landing page (drop zone, file picker, sample, open from URL, ?url=),
// then three views of the opened trace — Summary, Events (virtualized table), Flame graph —
// with exports and the view state in the URL hash. The engine runs in a worker. Trace strings
// are data: every value reaches the DOM through textContent, never as HTML.
import type { Progress, Summary } from './api/types.js';
import { NetTraceError } from './api/types.js';
import type { StackQuery, TraceHandle } from './api/handle.js';
import { openTraceInWorker } from './engine/worker_client.js';
import { defaultState, readHash, TABS, writeHash } from './app/state.js';
import type { Tab, ViewState } from './app/state.js';
import { byId, download, fillSelect, fmt, formatBytes, h, percent } from './ui/dom.js';
import { sortableTable } from './ui/sortable_table.js';
import { EventTable } from './views/events_view.js';
import type { EventFilter } from './views/events_view.js';
import { FlameGraph } from './views/flame_view.js';
import { eventTypes, renderSummary, threads } from './views/summary_view.js';
import { Timeline } from './views/timeline_view.js';

const SAMPLE_URL = 'samples/only_managed_samples.nettrace';

const drop = byId<HTMLElement>('drop');
const fileInput = byId<HTMLInputElement>('file');
const sampleButton = byId<HTMLButtonElement>('sample');
const urlForm = byId<HTMLFormElement>('url-form');
const urlInput = byId<HTMLInputElement>('url');
const cancelButton = byId<HTMLButtonElement>('cancel');
const progressBar = byId<HTMLProgressElement>('progress');
const progressText = byId<HTMLElement>('progress-text');
const statusLine = byId<HTMLElement>('status');
const result = byId<HTMLElement>('result');
const resultTitle = byId<HTMLElement>('result-title');
const headline = byId<HTMLElement>('headline');
const summaryTables = byId<HTMLElement>('summary-tables');
const summaryPre = byId<HTMLElement>('summary');
const tabList = byId<HTMLElement>('tabs');
const landing = byId<HTMLElement>('landing');
const fileNameLine = byId<HTMLElement>('file-name');
const exportsBar = byId<HTMLElement>('exports');

const tabButtons = new Map<Tab, HTMLButtonElement>(TABS.map((t) => [t, byId<HTMLButtonElement>(`tab-${t}`)]));
const panels = new Map<Tab, HTMLElement>(TABS.map((t) => [t, byId<HTMLElement>(`view-${t}`)]));

/** The trace shown; closed (its worker ended) when another one is opened. */
let shown: TraceHandle | null = null;
let shownSummary: Summary | null = null;
let shownName = '';
let current: AbortController | null = null;
let state: ViewState = readHash(location.hash);
let eventTable: EventTable | null = null;
let eventTableTrace: TraceHandle | null = null;
let flame: FlameGraph | null = null;
/** The stack query the flame graph shows (also what speedscope/folded exports take). */
let flameQueryKey = '';
const timelineBox = byId<HTMLElement>('timeline');
const rangeChip = byId<HTMLElement>('range-chip');
const timeline = new Timeline(byId('timeline-canvas'), byId('timeline-legend'), (range) => {
  state = { ...state, fromMs: range === null ? '' : range[0].toFixed(3), toMs: range === null ? '' : range[1].toFixed(3) };
  rangeChanged();
});

// ---- state and tabs ----------------------------------------------------------------------

function saveState(): void {
  history.replaceState(null, '', writeHash(state));
}

function showTab(tab: Tab, focus = false): void {
  state.tab = tab;
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
}

for (const [tab, button] of tabButtons) {
  button.addEventListener('click', () => {
    if (!button.disabled) showTab(tab);
  });
  button.addEventListener('keydown', (e) => {
    const enabled = TABS.filter((t) => !tabButtons.get(t)!.disabled);
    const i = enabled.indexOf(tab);
    const next = e.key === 'ArrowRight' ? enabled[(i + 1) % enabled.length] : e.key === 'ArrowLeft' ? enabled[(i - 1 + enabled.length) % enabled.length] : e.key === 'Home' ? enabled[0] : e.key === 'End' ? enabled.at(-1) : undefined;
    if (next !== undefined) {
      e.preventDefault();
      showTab(next, true);
    }
  });
}

// ---- loading -----------------------------------------------------------------------------

function showProgress(p: Progress, progressCount: number): void {
  progressBar.hidden = false;
  progressBar.max = Math.max(1, p.total || p.bytes);
  progressBar.value = p.bytes;
  const of = p.total > 0 ? ` of ${formatBytes(p.total)} (${percent(p.bytes, p.total)})` : '';
  progressText.textContent = `${p.phase === 'done' ? 'Indexed' : 'Reading'}: ${formatBytes(p.bytes)}${of} · ${fmt(p.events)} events`;
  result.dataset['progressCount'] = String(progressCount);
}

function resetViews(): void {
  shown?.close();
  shown = null;
  shownSummary = null;
  // The views (and their listeners) are kept for the next trace: they get its data.
  eventFiltersApplied = '';
  flameQueryKey = '';
  byId('g-top').replaceChildren();
  headline.replaceChildren();
  summaryTables.replaceChildren();
  summaryPre.textContent = '';
  resultTitle.hidden = true;
  tabList.hidden = true;
  exportsBar.hidden = true;
  timelineBox.hidden = true;
  for (const panel of panels.values()) panel.hidden = true;
}

async function load(source: Blob | string, name: string, size: number): Promise<void> {
  current?.abort();
  const controller = new AbortController();
  current = controller;
  let progressCount = 0;
  resetViews();
  result.dataset['state'] = 'reading';
  result.dataset['progressCount'] = '0';
  statusLine.classList.remove('error');
  statusLine.textContent = `Reading ${name}…`;
  fileNameLine.textContent = name;
  progressText.textContent = '';
  cancelButton.hidden = false;
  const started = performance.now();
  try {
    const opened = await openTraceInWorker(source, {
      signal: controller.signal,
      onProgress: (p) => showProgress(p, ++progressCount),
    });
    if (current !== controller) {
      opened.close();
      return;
    }
    shown = opened;
    progressBar.hidden = true;
    progressText.textContent = '';
    const seconds = (performance.now() - started) / 1000;
    statusLine.textContent = `Read ${name}: ${fmt(opened.summary().eventCount)} events in ${seconds.toFixed(2)} s.`;
    showTrace(opened.summary(), name, size || opened.bytes, seconds, false);
    result.dataset['state'] = 'done';
    void showTimeline(opened).catch(reportUnexpected);
  } catch (e) {
    if (current !== controller) return;
    const seconds = (performance.now() - started) / 1000;
    statusLine.classList.add('error');
    if (e instanceof NetTraceError) {
      const where = e.offset === null ? '' : ` at byte offset ${fmt(e.offset)}`;
      const kept = e.partial === null ? '' : ' The summary below is what was read before that point.';
      statusLine.textContent =
        e.code === 'cancelled' ? 'Cancelled.' : `Could not read all of ${name}: ${e.code}${where}: ${e.reason}.${kept}`;
      if (e.partial !== null) showTrace(e.partial, name, size, seconds, true);
    } else {
      statusLine.textContent = `Failed: ${e instanceof Error ? e.message : String(e)}`;
    }
    result.dataset['state'] = 'error';
  } finally {
    if (current === controller) {
      cancelButton.hidden = true;
      current = null;
    }
  }
}

function showTrace(summary: Summary, name: string, size: number, seconds: number, partial: boolean): void {
  shownSummary = summary;
  shownName = name;
  landing.hidden = true;
  tabList.hidden = false;
  exportsBar.hidden = shown === null;
  for (const t of ['events', 'flame'] as const) {
    const button = tabButtons.get(t)!;
    button.disabled = shown === null;
    button.title = shown === null ? 'Not available: the trace could not be read to its end' : '';
  }
  resultTitle.hidden = false;
  resultTitle.textContent = partial ? 'Summary of what was read before the error' : 'Summary';
  renderSummary(summary, headline, summaryTables, {
    fileName: name,
    fileSize: size,
    readSeconds: seconds,
    partial,
    onPickType: shown === null ? null : (t) => {
      state = { ...state, provider: t.provider, event: t.name, thread: '' };
      eventFiltersApplied = '';
      showTab('events');
    },
    onPickThread: shown === null ? null : (t) => {
      state = { ...state, provider: '', event: '', thread: String(t.threadId) };
      eventFiltersApplied = '';
      showTab('events');
    },
  });
  summaryPre.textContent = JSON.stringify(summary, null, 2);
  setUpFilters(summary);
  showTab(shown === null ? 'summary' : state.tab);
}

// ---- timeline and the time range (applies to the event table and the flame graph) -------

async function showTimeline(trace: TraceHandle): Promise<void> {
  const histogram = await trace.histogram({ buckets: 400, groupBy: 'provider' });
  if (shown !== trace) return;
  timelineBox.hidden = false;
  timeline.setData(histogram);
  showRange();
}

/** The range chip and the brush follow state.fromMs / state.toMs. */
function showRange(): void {
  const from = state.fromMs === '' ? null : Number(state.fromMs);
  const to = state.toMs === '' ? null : Number(state.toMs);
  const any = from !== null || to !== null;
  rangeChip.hidden = !any;
  byId('range-text').textContent = any ? `${from === null ? 'start' : `${from.toFixed(1)} ms`} – ${to === null ? 'end' : `${to.toFixed(1)} ms`}` : '';
  timeline.setRange(any ? [from ?? -Infinity, to ?? Infinity] : null);
}

/** The time range changed (brush, chip, or the event filter's inputs): every view follows. */
function rangeChanged(): void {
  showRange();
  saveState();
  if (shown === null) return;
  if (state.tab === 'events') void showEvents().catch(reportUnexpected);
  if (state.tab === 'flame') void showFlame().catch(reportFlameError);
}

byId('range-clear').addEventListener('click', () => {
  state = { ...state, fromMs: '', toMs: '' };
  rangeChanged();
});

// ---- events ------------------------------------------------------------------------------

const fProvider = byId<HTMLSelectElement>('f-provider');
const fEvent = byId<HTMLSelectElement>('f-event');
const fThread = byId<HTMLSelectElement>('f-thread');
const fFrom = byId<HTMLInputElement>('f-from');
const fTo = byId<HTMLInputElement>('f-to');
const gEvent = byId<HTMLSelectElement>('g-event');
const gThread = byId<HTMLSelectElement>('g-thread');
const gInverted = byId<HTMLInputElement>('g-inverted');
const gSearch = byId<HTMLInputElement>('g-search');
let eventFiltersApplied = '';

function setUpFilters(summary: Summary): void {
  const providers = [...new Set(eventTypes(summary).map((t) => t.provider))].sort();
  fillSelect(fProvider, 'any provider', providers.map((p) => ({ value: p, label: p })));
  const threadOptions = threads(summary).map((t) => ({ value: String(t.threadId), label: `${t.threadId} (${fmt(t.eventCount)} events)` }));
  fillSelect(fThread, 'any thread', threadOptions);
  fillSelect(gThread, 'all threads', threadOptions);
  const types = [...eventTypes(summary)].sort((a, b) => b.count - a.count);
  gEvent.replaceChildren(...[...new Set(types.map((t) => t.name))].map((name) => h('option', { text: name, attrs: { value: name } })));
  // CPU samples first: the sample profiler's, or a Linux profiler's Universal `cpu` events.
  const preferred = ['Thread/Sample', 'cpu', 'GC/AllocationTick', 'Exception/Start'].find((n) => types.some((t) => t.name === n));
  if (state.stackEvent === '' && preferred !== undefined) state.stackEvent = preferred;
  if (state.stackEvent === '' && types[0] !== undefined) state.stackEvent = types[0].name;
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
  if (state.thread !== '' && Number.isFinite(Number(state.thread))) filter.thread = Number(state.thread);
  if (state.fromMs !== '' && Number.isFinite(Number(state.fromMs))) filter.fromMs = Number(state.fromMs);
  if (state.toMs !== '' && Number.isFinite(Number(state.toMs))) filter.toMs = Number(state.toMs);
  return filter;
}

async function showEvents(): Promise<void> {
  if (shown === null) return;
  if (eventTable === null) {
    eventTable = new EventTable(shown, byId('event-scroller'), byId('event-count'), byId('event-detail'));
    eventTableTrace = shown;
  } else if (eventTableTrace !== shown) {
    eventTable.setTrace(shown);
    eventTableTrace = shown;
  }
  fProvider.value = state.provider;
  fillEventNames();
  fEvent.value = state.event;
  fThread.value = state.thread;
  fFrom.value = state.fromMs;
  fTo.value = state.toMs;
  const key = JSON.stringify(eventFilter());
  if (key === eventFiltersApplied) return;
  eventFiltersApplied = key;
  await eventTable.setFilter(eventFilter());
}

function onFilterChange(): void {
  state = { ...state, provider: fProvider.value, event: fEvent.value, thread: fThread.value, fromMs: fFrom.value, toMs: fTo.value };
  showRange();
  saveState();
  void showEvents().catch(reportUnexpected);
}
fProvider.addEventListener('change', () => {
  fEvent.value = '';
  onFilterChange();
});
for (const input of [fEvent, fThread]) input.addEventListener('change', onFilterChange);
for (const input of [fFrom, fTo]) input.addEventListener('change', onFilterChange);
byId('event-filters').addEventListener('submit', (e) => e.preventDefault());
byId('f-clear').addEventListener('click', () => {
  for (const input of [fProvider, fEvent, fThread, fFrom, fTo]) input.value = '';
  onFilterChange();
});

// ---- flame graph -------------------------------------------------------------------------

function stackQuery(): StackQuery {
  const query: StackQuery = { event: state.stackEvent, inverted: state.inverted };
  if (state.stackThread !== '' && Number.isFinite(Number(state.stackThread))) query.thread = Number(state.stackThread);
  if (state.fromMs !== '' && Number.isFinite(Number(state.fromMs))) query.fromMs = Number(state.fromMs);
  if (state.toMs !== '' && Number.isFinite(Number(state.toMs))) query.toMs = Number(state.toMs);
  return query;
}

async function showFlame(): Promise<void> {
  const trace = shown;
  if (trace === null) return;
  flame ??= new FlameGraph(byId('g-canvas'), byId('g-tooltip'), byId('g-breadcrumb'), byId('g-search-result'));
  gEvent.value = state.stackEvent;
  gThread.value = state.stackThread;
  gInverted.checked = state.inverted;
  const query = stackQuery();
  const key = JSON.stringify(query);
  if (key === flameQueryKey) {
    flame.draw();
    return;
  }
  flameQueryKey = key;
  const message = byId('g-message');
  message.textContent = 'Computing…';
  const [data, top] = await Promise.all([trace.flameGraph(query), trace.topFunctions(query, 100)]);
  if (key !== flameQueryKey || shown !== trace) return;
  const box = byId('g-canvas-box');
  box.dataset['nodes'] = String(data.frame.length);
  if (data.total > 0 && data.frame.length <= 1) {
    message.textContent = `${fmt(data.total)} ${data.unit}, but these events carry no stack frames. Pick another event type.`;
  } else if (data.total === 0) {
    message.textContent = `No stacks for ${state.stackEvent}${query.thread === undefined ? '' : ` on thread ${query.thread}`}. Pick another event type.`;
  } else {
    message.textContent = `${fmt(data.total)} ${data.unit} · ${fmt(data.frame.length)} nodes · click a frame to zoom (or arrow keys + Enter), Escape to zoom out`;
  }
  flame.setData(data);
  flame.zoomTo(0);
  const topBox = byId('g-top');
  topBox.replaceChildren(
    sortableTable({
      caption: 'Top functions',
      rows: top.functions,
      sortBy: 1,
      descending: true,
      onActivate: (f) => {
        gSearch.value = f.name;
        flame?.search(f.name);
      },
      rowTitle: 'Highlight in the flame graph',
      columns: [
        { label: 'Function', text: (f) => f.name, key: (f) => f.name },
        { label: 'Self', text: (f) => percent(f.exclusive, top.total), key: (f) => f.exclusive, numeric: true },
        { label: 'Total', text: (f) => percent(f.inclusive, top.total), key: (f) => f.inclusive, numeric: true },
      ],
    }),
  );
}

function reportFlameError(e: unknown): void {
  flameQueryKey = '';
  byId('g-message').textContent = `Could not compute the flame graph: ${e instanceof Error ? e.message : String(e)}`;
}

function onFlameControls(): void {
  state = { ...state, stackEvent: gEvent.value, stackThread: gThread.value, inverted: gInverted.checked };
  saveState();
  void showFlame().catch(reportFlameError);
}
for (const input of [gEvent, gThread, gInverted]) input.addEventListener('change', onFlameControls);
gSearch.addEventListener('input', () => flame?.search(gSearch.value));
byId<HTMLInputElement>('g-flame').addEventListener('change', (e) => flame?.setRootAtBottom((e.target as HTMLInputElement).checked));
byId('flame-controls').addEventListener('submit', (e) => e.preventDefault());

// ---- exports -----------------------------------------------------------------------------

const EXPORTS = {
  speedscope: { ext: 'speedscope.json', type: 'application/json' },
  chrome: { ext: 'chrome.json', type: 'application/json' },
  folded: { ext: 'folded.txt', type: 'text/plain' },
  csv: { ext: 'csv', type: 'text/csv' },
} as const;

for (const button of exportsBar.querySelectorAll<HTMLButtonElement>('button[data-export]')) {
  button.addEventListener('click', () => {
    const format = button.dataset['export'] as keyof typeof EXPORTS;
    const trace = shown;
    if (trace === null) return;
    button.disabled = true;
    const base = shownName.replace(/\.(nettrace|netperf)$/i, '');
    trace
      .export(format, { ...stackQuery(), name: shownName })
      .then((text) => download(text, `${base}.${EXPORTS[format].ext}`, EXPORTS[format].type))
      .catch(reportUnexpected)
      .finally(() => (button.disabled = false));
  });
}

// A hash edited by hand (or a link followed within the page) changes the view.
window.addEventListener('hashchange', () => {
  state = readHash(location.hash);
  eventFiltersApplied = '';
  showRange();
  if (shown !== null) showTab(state.tab);
});

// ---- sources -----------------------------------------------------------------------------

async function loadSample(): Promise<void> {
  statusLine.classList.remove('error');
  statusLine.textContent = 'Downloading the sample trace…';
  const response = await fetch(SAMPLE_URL);
  if (!response.ok) throw new Error(`cannot fetch the sample trace: HTTP ${response.status}`);
  const blob = await response.blob();
  await load(blob, SAMPLE_URL.slice(SAMPLE_URL.lastIndexOf('/') + 1), blob.size);
}

function loadUrl(url: string): Promise<void> {
  const absolute = new URL(url, location.href);
  const name = decodeURIComponent(absolute.pathname.slice(absolute.pathname.lastIndexOf('/') + 1)) || absolute.host;
  return load(absolute.href, name, 0);
}

function reportUnexpected(e: unknown): void {
  statusLine.classList.add('error');
  statusLine.textContent = `Failed: ${e instanceof Error ? e.message : String(e)}`;
  if (result.dataset['state'] === 'reading') result.dataset['state'] = 'error';
}

function loadFile(file: File): void {
  // A new file starts with fresh filters; the first one keeps those of the link's hash.
  if (shownSummary !== null) state = { ...defaultState(), tab: state.tab };
  load(file, file.name, file.size).catch(reportUnexpected);
}

fileInput.addEventListener('change', () => {
  const file = fileInput.files?.[0];
  if (file !== undefined) loadFile(file);
  fileInput.value = '';
});
byId('choose').addEventListener('click', () => fileInput.click());
sampleButton.addEventListener('click', () => void loadSample().catch(reportUnexpected));
urlForm.addEventListener('submit', (e) => {
  e.preventDefault();
  const url = urlInput.value.trim();
  if (url === '') return;
  const search = new URLSearchParams(location.search);
  search.set('url', url);
  history.replaceState(null, '', `?${search.toString()}${location.hash}`);
  void loadUrl(url).catch(reportUnexpected);
});
cancelButton.addEventListener('click', () => current?.abort());
byId('home').addEventListener('click', () => {
  landing.hidden = false;
  drop.focus();
});
// The whole page accepts a dropped file, the drop zone shows it.
for (const target of [drop, document.body]) {
  target.addEventListener('dragover', (e) => {
    e.preventDefault();
    drop.classList.add('over');
  });
}
drop.addEventListener('dragleave', () => drop.classList.remove('over'));
for (const target of [drop, document.body]) {
  target.addEventListener('drop', (e) => {
    e.preventDefault();
    e.stopPropagation();
    drop.classList.remove('over');
    const file = e.dataTransfer?.files[0];
    if (file !== undefined) loadFile(file);
  });
}
drop.addEventListener('keydown', (e) => {
  if (e.target === drop && (e.key === 'Enter' || e.key === ' ')) {
    e.preventDefault();
    fileInput.click();
  }
});

// `npm start` opens the page with ?sample so that it shows a real trace right away; ?url=
// opens a trace from a URL.
const params = new URLSearchParams(location.search);
const urlParam = params.get('url');
if (urlParam !== null && urlParam !== '') {
  urlInput.value = urlParam;
  void loadUrl(urlParam).catch(reportUnexpected);
} else if (params.has('sample')) void loadSample().catch(reportUnexpected);

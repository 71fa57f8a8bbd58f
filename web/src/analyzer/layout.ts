// web/src/analyzer — the analyzer's DOM, built once per instance inside its shadow root, and
// the typed references to the elements the controllers use: nothing is looked up by id
// elsewhere. The ids stay (the stylesheet and the browser checks use them); they are local to
// the shadow root, so several analyzers can live on one page. Only static text is written here;
// trace strings arrive later through textContent.
import { h } from '../ui/dom.js';
import { menu } from '../ui/menu.js';
import { SIDES, TABS } from '../app/state.js';
import type { Side, Tab } from '../app/state.js';
import { transformControls } from '../views/stack_transform_controls.js';
import type { TransformParts } from '../views/stack_transform_controls.js';
import { sqlParts } from './sql_layout.js';
import type { SqlParts } from './sql_layout.js';

type Attrs = Record<string, string>;

const button = (id: string, label: string, attrs: Attrs = {}): HTMLButtonElement =>
  h('button', { text: label, attrs: { type: 'button', id, ...attrs } });

const labelled = (label: string, control: HTMLElement): HTMLLabelElement => h('label', {}, `${label} `, control);

const select = (id: string): HTMLSelectElement => h('select', { attrs: { id } });

const checkbox = (id: string): HTMLInputElement => h('input', { attrs: { type: 'checkbox', id } });
const checkLabel = (input: HTMLInputElement, label: string): HTMLLabelElement => h('label', {}, input, ` ${label}`);

const muted = (id: string): HTMLSpanElement => h('span', { class: 'muted', attrs: { id } });

const TAB_LABELS: Record<Tab, string> = { summary: 'Summary', events: 'Events', flame: 'Flame graph', diagnostics: 'Diagnostics', sql: 'SQL', heap: 'Heap' };
const SIDE_LABELS: Record<Side, string> = { top: 'Top functions', sandwich: 'Sandwich', diff: 'Diff' };

/** The landing area: drop zone, file picker, sample, open from URL. */
export interface LandingParts {
  landing: HTMLElement;
  drop: HTMLElement;
  choose: HTMLButtonElement;
  fileInput: HTMLInputElement;
  sampleButton: HTMLButtonElement;
  back: HTMLButtonElement;
  urlForm: HTMLFormElement;
  urlInput: HTMLInputElement;
  /** Shows Compare runs (views/runs_view.ts) in place of the landing area. */
  runsOpen: HTMLButtonElement;
}

/** Reading progress and the status line. */
export interface LoadingParts {
  progress: HTMLProgressElement;
  cancel: HTMLButtonElement;
  progressText: HTMLElement;
  status: HTMLElement;
}

export interface TimelineParts {
  box: HTMLElement;
  rangeChip: HTMLElement;
  rangeText: HTMLElement;
  rangeClear: HTMLButtonElement;
  group: HTMLSelectElement;
  legend: HTMLElement;
  canvas: HTMLCanvasElement;
}

export interface SummaryParts {
  title: HTMLElement;
  headline: HTMLElement;
  tables: HTMLElement;
  json: HTMLElement;
}

export interface EventsParts {
  form: HTMLFormElement;
  provider: HTMLSelectElement;
  event: HTMLSelectElement;
  thread: HTMLSelectElement;
  text: HTMLInputElement;
  from: HTMLInputElement;
  to: HTMLInputElement;
  rangeNote: HTMLElement;
  clear: HTMLButtonElement;
  count: HTMLElement;
  scroller: HTMLElement;
  detail: HTMLElement;
}

export interface FlameParts {
  form: HTMLFormElement;
  event: HTMLSelectElement;
  thread: HTMLSelectElement;
  processLabel: HTMLElement;
  process: HTMLSelectElement;
  weight: HTMLSelectElement;
  /** The stitching toggle's label: hidden for other weights; its title says why it is off. */
  stitchBox: HTMLElement;
  stitch: HTMLInputElement;
  /** Grouping and folding (views/stack_transform_controls.ts). */
  transform: TransformParts;
  inverted: HTMLInputElement;
  rootAtBottom: HTMLInputElement;
  search: HTMLInputElement;
  searchResult: HTMLElement;
  breadcrumb: HTMLElement;
  message: HTMLElement;
  /** Why frames are unnamed (?!?) and what to do, above the graph; hidden when all are named. */
  unnamed: HTMLElement;
  canvasBox: HTMLElement;
  canvas: HTMLCanvasElement;
  tooltip: HTMLElement;
  sideTabs: Map<Side, HTMLButtonElement>;
  sides: Map<Side, HTMLElement>;
}

export interface Layout {
  root: HTMLElement;
  home: HTMLButtonElement;
  tabList: HTMLElement;
  tabButtons: Map<Tab, HTMLButtonElement>;
  panels: Map<Tab, HTMLElement>;
  fileName: HTMLElement;
  exports: HTMLElement;
  result: HTMLElement;
  partialBanner: HTMLElement;
  landing: LandingParts;
  loading: LoadingParts;
  timeline: TimelineParts;
  summary: SummaryParts;
  events: EventsParts;
  flame: FlameParts;
  diagnostics: HTMLElement;
  sql: SqlParts;
  /** The Heap tab's content (analyzer/heap_controller.ts). */
  heap: HTMLElement;
}

/** The exports: one "Export" menu, so the header keeps its room at any width. */
function exportsBar(): HTMLElement {
  const exportButton = (format: string, label: string, title: string): HTMLButtonElement =>
    h('button', { text: label, attrs: { type: 'button', 'data-export': format, title } });
  return h(
    'div',
    { class: 'exports', attrs: { id: 'exports', hidden: '' } },
    menu(
      'export-menu',
      'Export',
      'Download the trace (or the flame graph\'s stacks) in another format',
      exportButton('speedscope', 'speedscope', 'The selected stacks as a speedscope profile'),
      exportButton('chrome', 'Chrome trace', 'Every event as a Chrome trace (chrome://tracing, Perfetto)'),
      exportButton('folded', 'folded', 'The selected stacks as folded lines'),
      exportButton('csv', 'CSV', 'Every event as CSV with the id of its stack (frames: Stacks CSV); with an event type filtered in Events, that type with its payload fields as columns'),
      exportButton('stacks-csv', 'Stacks CSV', 'Each stack id of the CSV with its frames, root first'),
      exportButton('pprof', 'pprof', "The stacks as a gzipped pprof profile (go tool pprof, Pyroscope), one sample type per weight, with the flame graph's thread, time range and grouping"),
      exportButton('otlp', 'OpenTelemetry profile', "The same profile as an OTLP profiles request (an OpenTelemetry collector's /v1development/profiles)"),
    ),
  );
}

function landing(): LandingParts {
  const choose = button('choose', 'Choose a file…', { class: 'primary' });
  const fileInput = h('input', { attrs: { type: 'file', id: 'file', accept: '.nettrace,.netperf,.gcdump', hidden: '' } });
  const sampleButton = button('sample', 'Try the sample trace', { hidden: '' });
  // Shown by Home while a trace is open: the way back to it without reading it again.
  const back = button('back', 'Back to the open trace', { hidden: '' });
  const urlInput = h('input', { attrs: { type: 'url', id: 'url', placeholder: 'https://example.com/app.nettrace', required: '' } });
  const urlForm = h(
    'form',
    { class: 'url-form', attrs: { id: 'url-form' } },
    h('label', { text: 'Open from URL', attrs: { for: 'url' } }),
    urlInput,
    h('button', { text: 'Open', attrs: { type: 'submit' } }),
  );
  const drop = h(
    'div',
    { class: 'drop', attrs: { id: 'drop', tabindex: '0', 'aria-label': 'Drop a trace file here' } },
    h('p', {}, 'Drop a ', h('code', { text: '.nettrace' }), ', ', h('code', { text: '.netperf' }), ' or ', h('code', { text: '.gcdump' }), ' file here, or'),
    h('p', { class: 'actions' }, choose, fileInput, sampleButton),
    h('p', { class: 'actions' }, back),
    urlForm,
  );
  const runsOpen = button('runs-open', 'Compare runs…', { title: 'Several traces a side (baseline and comparison): what changed beyond the noise between runs' });
  const section = h(
    'section',
    { class: 'landing', attrs: { id: 'landing' } },
    h('p', { class: 'intro' }, 'Reads .NET EventPipe traces (', h('code', { text: '.nettrace' }), ', and ', h('code', { text: '.netperf' }), ' from .NET Core 2.x) and heap snapshots (', h('code', { text: '.gcdump' }), ') in your browser. The file never leaves this page.'),
    drop,
    h('p', { class: 'actions' }, runsOpen, ' several recordings of each version against each other'),
  );
  return { landing: section, drop, choose, fileInput, sampleButton, back, urlForm, urlInput, runsOpen };
}

function loading(): { section: HTMLElement; parts: LoadingParts } {
  const parts: LoadingParts = {
    progress: h('progress', { attrs: { id: 'progress', max: '1', value: '0', hidden: '' } }),
    cancel: button('cancel', 'Cancel', { hidden: '' }),
    progressText: h('p', { attrs: { id: 'progress-text' } }),
    status: h('p', { attrs: { id: 'status', role: 'status' } }),
  };
  const section = h(
    'section',
    { class: 'loading', attrs: { id: 'loading', 'aria-live': 'polite' } },
    h('div', { class: 'progress-row' }, parts.progress, parts.cancel),
    parts.progressText,
    parts.status,
  );
  return { section, parts };
}

function timeline(): TimelineParts {
  const rangeText = h('span', { attrs: { id: 'range-text' } });
  const rangeClear = button('range-clear', '✕', { 'aria-label': 'Clear the time range', title: 'Clear the time range' });
  const rangeChip = h('span', { class: 'chip', attrs: { id: 'range-chip', hidden: '' } }, rangeText, rangeClear);
  const group = h(
    'select',
    { attrs: { id: 't-group' } },
    h('option', { text: 'provider', attrs: { value: 'provider' } }),
    h('option', { text: 'event type', attrs: { value: 'type', title: 'The event types the event filter selects' } }),
  );
  const legend = h('span', { class: 'legend', attrs: { id: 'timeline-legend' } });
  const canvas = h('canvas', { attrs: { id: 'timeline-canvas', 'aria-label': 'Events over time', title: 'Drag to select a time range' } });
  const box = h(
    'div',
    { class: 'timeline', attrs: { id: 'timeline', hidden: '' } },
    h('div', { class: 'timeline-head' }, h('span', { class: 'muted', text: 'Timeline', attrs: { title: 'Drag across it to select a time range: every view follows' } }), rangeChip, labelled('Stacked by', group), legend),
    h('div', { class: 'timeline-box' }, canvas),
  );
  return { box, rangeChip, rangeText, rangeClear, group, legend, canvas };
}

const panel = (tab: Tab, fill: boolean, ...children: HTMLElement[]): HTMLElement =>
  h('div', { class: fill ? 'view fill' : 'view', attrs: { id: `view-${tab}`, role: 'tabpanel', 'aria-labelledby': `tab-${tab}`, hidden: '' } }, ...children);

function summaryView(): { panel: HTMLElement; parts: SummaryParts } {
  const parts: SummaryParts = {
    title: h('h2', { text: 'Summary', attrs: { id: 'result-title', hidden: '' } }),
    headline: h('dl', { class: 'facts', attrs: { id: 'headline' } }),
    tables: h('div', { class: 'summary-tables', attrs: { id: 'summary-tables' } }),
    json: h('pre', { attrs: { id: 'summary' } }),
  };
  const raw = h('details', { class: 'raw' }, h('summary', { text: 'Summary JSON' }), parts.json);
  return { panel: panel('summary', false, parts.title, parts.headline, parts.tables, raw), parts };
}

function eventsView(): { panel: HTMLElement; parts: EventsParts } {
  const number = (id: string): HTMLInputElement => h('input', { attrs: { id, type: 'number', step: 'any', size: '8' } });
  const head = (cls: string, text: string): HTMLElement => h('span', { class: cls, text });
  const p: Omit<EventsParts, 'form'> = {
    provider: select('f-provider'),
    event: select('f-event'),
    thread: select('f-thread'),
    text: h('input', { attrs: { id: 'f-text', type: 'search', placeholder: 'search names and fields as you type', size: '22' } }),
    from: number('f-from'),
    to: number('f-to'),
    rangeNote: h('span', { class: 'warn', attrs: { id: 'range-note', role: 'status' } }),
    clear: button('f-clear', 'Clear filters'),
    count: muted('event-count'),
    scroller: h('div', { class: 'vt-scroller', attrs: { id: 'event-scroller', tabindex: '0', role: 'grid', 'aria-label': 'Events' } }),
    detail: h('aside', { class: 'detail', attrs: { id: 'event-detail', 'aria-label': 'Event detail' } }),
  };
  const form = h(
    'form',
    { class: 'filters', attrs: { id: 'event-filters' } },
    labelled('Provider', p.provider),
    labelled('Event', p.event),
    labelled('Thread', p.thread),
    labelled('Text', p.text),
    labelled('From ms', p.from),
    labelled('To ms', p.to),
    p.rangeNote,
    p.clear,
    p.count,
  );
  const columns = ['c-time', 'Time (ms)', 'c-provider', 'Provider', 'c-event', 'Event', 'c-thread', 'Thread', 'c-fields', 'Fields'];
  const heads = [0, 2, 4, 6, 8].map((i) => head(columns[i]!, columns[i + 1]!));
  const table = h('div', { class: 'event-table' }, h('div', { class: 'vt-head', attrs: { role: 'row' } }, ...heads), p.scroller);
  return { panel: panel('events', true, form, h('div', { class: 'events-split' }, table, p.detail)), parts: { form, ...p } };
}

function flameControls(): Omit<FlameParts, 'form' | 'breadcrumb' | 'message' | 'unnamed' | 'canvasBox' | 'canvas' | 'tooltip' | 'sideTabs' | 'sides'> {
  const process = select('g-process');
  const stitch = checkbox('g-stitch');
  return {
    event: select('g-event'),
    thread: select('g-thread'),
    processLabel: h('label', { attrs: { id: 'g-process-label', hidden: '' } }, 'Process ', process),
    process,
    weight: select('g-weight'),
    stitchBox: h('label', { attrs: { id: 'g-stitch-box', hidden: '' } }, stitch, ' Stitch async'),
    stitch,
    transform: transformControls(),
    inverted: checkbox('g-inverted'),
    rootAtBottom: checkbox('g-flame'),
    search: h('input', { attrs: { type: 'search', id: 'g-search', placeholder: 'function name' } }),
    searchResult: muted('g-search-result'),
  };
}

/** The flame graph's controls, in one toolbar: the graph below owns the rest of the view. */
function flameView(): { panel: HTMLElement; parts: FlameParts } {
  const c = flameControls();
  const inverted = checkLabel(c.inverted, 'Inverted');
  inverted.title = 'Inverted: the leaves (where the weight is spent) at the root, their callers below';
  const form = h(
    'form',
    { class: 'filters toolbar', attrs: { id: 'flame-controls' } },
    labelled('Stacks', c.event),
    labelled('Thread', c.thread),
    c.processLabel,
    labelled('Weight', c.weight),
    c.stitchBox,
    c.transform.box,
    inverted,
    checkLabel(c.rootAtBottom, 'Root at bottom'),
    labelled('Search', c.search),
    c.searchResult,
  );
  const breadcrumb = h('div', { class: 'breadcrumb', attrs: { id: 'g-breadcrumb' } });
  const message = h('p', { class: 'muted', attrs: { id: 'g-message', title: 'Click a frame to zoom (or arrow keys + Enter), Escape to zoom out' } });
  const unnamed = h('p', { class: 'notice', attrs: { id: 'g-unnamed', role: 'note', hidden: '' } });
  const canvas = h('canvas', {
    attrs: { id: 'g-canvas', tabindex: '0', 'aria-label': 'Flame graph: click a frame to zoom, arrow keys move, Enter zooms, Escape zooms out' },
  });
  const tooltip = h('div', { class: 'tooltip', attrs: { id: 'g-tooltip', hidden: '' } });
  const canvasBox = h('div', { class: 'canvas-box', attrs: { id: 'g-canvas-box' } }, canvas, tooltip);
  const sideTabs = new Map<Side, HTMLButtonElement>(
    SIDES.map((s) => [s, h('button', { text: SIDE_LABELS[s], attrs: { type: 'button', role: 'tab', id: `side-${s}`, 'aria-selected': String(s === 'top') } })]),
  );
  const sides = new Map<Side, HTMLElement>([
    ['top', h('div', { class: 'top-functions', attrs: { id: 'g-top' } })],
    ['sandwich', h('div', { class: 'sandwich-box', attrs: { id: 'g-sandwich', hidden: '' } })],
    ['diff', h('div', { class: 'diff-box', attrs: { id: 'g-diff', hidden: '' } })],
  ]);
  const aside = h(
    'aside',
    { class: 'side' },
    h('div', { class: 'side-tabs', attrs: { role: 'tablist', 'aria-label': 'Beside the flame graph' } }, ...sideTabs.values()),
    ...sides.values(),
  );
  const status = h('div', { class: 'flame-status' }, breadcrumb, message);
  const split = h('div', { class: 'flame-split' }, h('div', { class: 'flame-box' }, unnamed, status, canvasBox), aside);
  return { panel: panel('flame', true, form, split), parts: { ...c, form, breadcrumb, message, unnamed, canvasBox, canvas, tooltip, sideTabs, sides } };
}

/** The analyzer's whole DOM (header: title, tabs, file name, exports; main area) and its parts. */
export function buildLayout(): Layout {
  const home = h('button', { text: 'NetTrace Analyzer', class: 'link', attrs: { type: 'button', id: 'home', title: 'Open another trace' } });
  const tabButtons = new Map<Tab, HTMLButtonElement>(
    TABS.map((t) => [t, h('button', { text: TAB_LABELS[t], attrs: { type: 'button', role: 'tab', id: `tab-${t}`, 'aria-controls': `view-${t}`, 'data-tab': t } })]),
  );
  const tabList = h('nav', { attrs: { id: 'tabs', role: 'tablist', 'aria-label': 'Views', hidden: '' } }, ...tabButtons.values());
  const fileName = h('span', { class: 'file-name', attrs: { id: 'file-name' } });
  const exports = exportsBar();
  const partialBanner = h('p', { class: 'partial-banner', attrs: { id: 'partial-banner', role: 'alert', hidden: '' } });
  const land = landing();
  const load = loading();
  const time = timeline();
  const summary = summaryView();
  const events = eventsView();
  const flame = flameView();
  // Exceptions, contention, activities, counters: filled by views/event_views_view.ts.
  const diagnostics = h('div', { class: 'event-views', attrs: { id: 'diagnostics-box' } });
  const sql = sqlParts();
  const heap = h('div', { class: 'heap-box', attrs: { id: 'heap-box' } });
  const panels = new Map<Tab, HTMLElement>([
    ['summary', summary.panel],
    ['events', events.panel],
    ['flame', flame.panel],
    ['diagnostics', panel('diagnostics', false, diagnostics)],
    ['sql', panel('sql', true, sql.box)],
    ['heap', panel('heap', false, heap)],
  ]);
  const result = h('section', { attrs: { id: 'result', 'data-state': 'idle' } }, partialBanner, time.box, ...panels.values());
  const root = h(
    'div',
    { class: 'nta' },
    h('header', { class: 'bar' }, h('h1', {}, home), tabList, fileName, exports),
    h('main', {}, land.landing, load.section, result),
  );
  return {
    root, home, tabList, tabButtons, panels, fileName, exports, result, partialBanner,
    landing: land, loading: load.parts, timeline: time, summary: summary.parts, events: events.parts, flame: flame.parts, diagnostics, sql: sql.parts, heap,
  };
}

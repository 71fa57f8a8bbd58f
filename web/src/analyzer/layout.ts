// web/src/analyzer — the analyzer's DOM, built once per instance inside its shadow root.
// Element ids are local to that root (ShadowRoot.getElementById), so several analyzers can
// live on one page. Only static text is written here; trace strings arrive later through
// textContent.
import { h } from '../ui/dom.js';
import { transformControls } from '../views/stack_transform_controls.js';

type Attrs = Record<string, string>;

const tab = (name: string, label: string): HTMLButtonElement =>
  h('button', { text: label, attrs: { type: 'button', role: 'tab', id: `tab-${name}`, 'aria-controls': `view-${name}`, 'data-tab': name } });

const button = (id: string, label: string, attrs: Attrs = {}): HTMLButtonElement =>
  h('button', { text: label, attrs: { type: 'button', id, ...attrs } });

const labelled = (label: string, control: HTMLElement): HTMLLabelElement => h('label', {}, `${label} `, control);

const select = (id: string): HTMLSelectElement => h('select', { attrs: { id } });

const checkbox = (id: string, label: string): HTMLLabelElement =>
  h('label', {}, h('input', { attrs: { type: 'checkbox', id } }), ` ${label}`);

function exportsBar(): HTMLElement {
  const exportButton = (format: string, label: string, title: string): HTMLButtonElement =>
    h('button', { text: label, attrs: { type: 'button', 'data-export': format, title } });
  return h(
    'div',
    { class: 'exports', attrs: { id: 'exports', hidden: '' } },
    h('span', { class: 'muted', text: 'Export:' }),
    exportButton('speedscope', 'speedscope', 'The selected stacks as a speedscope profile'),
    exportButton('chrome', 'Chrome trace', 'Every event as a Chrome trace (chrome://tracing, Perfetto)'),
    exportButton('folded', 'folded', 'The selected stacks as folded lines'),
    exportButton('csv', 'CSV', 'Every event as CSV with the id of its stack (frames: Stacks CSV); with an event type filtered in Events, that type with its payload fields as columns'),
    exportButton('stacks-csv', 'Stacks CSV', 'Each stack id of the CSV with its frames, root first'),
  );
}

function landing(): HTMLElement {
  return h(
    'section',
    { class: 'landing', attrs: { id: 'landing' } },
    h('p', { class: 'intro' }, 'Reads .NET EventPipe traces (', h('code', { text: '.nettrace' }), ', and ', h('code', { text: '.netperf' }), ' from .NET Core 2.x) in your browser. The file never leaves this page.'),
    h(
      'div',
      { class: 'drop', attrs: { id: 'drop', tabindex: '0', 'aria-label': 'Drop a trace file here' } },
      h('p', {}, 'Drop a ', h('code', { text: '.nettrace' }), ' or ', h('code', { text: '.netperf' }), ' file here, or'),
      h(
        'p',
        { class: 'actions' },
        button('choose', 'Choose a file…', { class: 'primary' }),
        h('input', { attrs: { type: 'file', id: 'file', accept: '.nettrace,.netperf', hidden: '' } }),
        button('sample', 'Try the sample trace', { hidden: '' }),
      ),
      // Shown by Home while a trace is open: the way back to it without reading it again.
      h('p', { class: 'actions' }, button('back', 'Back to the open trace', { hidden: '' })),
      h(
        'form',
        { class: 'url-form', attrs: { id: 'url-form' } },
        h('label', { text: 'Open from URL', attrs: { for: 'url' } }),
        h('input', { attrs: { type: 'url', id: 'url', placeholder: 'https://example.com/app.nettrace', required: '' } }),
        h('button', { text: 'Open', attrs: { type: 'submit' } }),
      ),
    ),
  );
}

function loading(): HTMLElement {
  return h(
    'section',
    { class: 'loading', attrs: { id: 'loading', 'aria-live': 'polite' } },
    h(
      'div',
      { class: 'progress-row' },
      h('progress', { attrs: { id: 'progress', max: '1', value: '0', hidden: '' } }),
      button('cancel', 'Cancel', { hidden: '' }),
    ),
    h('p', { attrs: { id: 'progress-text' } }),
    h('p', { attrs: { id: 'status', role: 'status' } }),
  );
}

function timeline(): HTMLElement {
  return h(
    'div',
    { class: 'timeline', attrs: { id: 'timeline', hidden: '' } },
    h(
      'div',
      { class: 'timeline-head' },
      h('span', { class: 'muted', text: 'Timeline — drag to select a time range' }),
      h(
        'span',
        { class: 'chip', attrs: { id: 'range-chip', hidden: '' } },
        h('span', { attrs: { id: 'range-text' } }),
        button('range-clear', '✕', { 'aria-label': 'Clear the time range', title: 'Clear the time range' }),
      ),
      labelled(
        'Stacked by',
        h(
          'select',
          { attrs: { id: 't-group' } },
          h('option', { text: 'provider', attrs: { value: 'provider' } }),
          h('option', { text: 'event type', attrs: { value: 'type', title: 'The event types the event filter selects' } }),
        ),
      ),
      h('span', { class: 'legend', attrs: { id: 'timeline-legend' } }),
    ),
    h('div', { class: 'timeline-box' }, h('canvas', { attrs: { id: 'timeline-canvas', 'aria-label': 'Events over time' } })),
  );
}

function summaryView(): HTMLElement {
  return h(
    'div',
    { class: 'view', attrs: { id: 'view-summary', role: 'tabpanel', 'aria-labelledby': 'tab-summary', hidden: '' } },
    h('h2', { text: 'Summary', attrs: { id: 'result-title', hidden: '' } }),
    h('dl', { class: 'facts', attrs: { id: 'headline' } }),
    h('div', { class: 'summary-tables', attrs: { id: 'summary-tables' } }),
    h('details', { class: 'raw' }, h('summary', { text: 'Summary JSON' }), h('pre', { attrs: { id: 'summary' } })),
  );
}

function eventsView(): HTMLElement {
  const number = (id: string): HTMLInputElement => h('input', { attrs: { id, type: 'number', step: 'any', size: '8' } });
  const head = (cls: string, text: string): HTMLElement => h('span', { class: cls, text });
  return h(
    'div',
    { class: 'view fill', attrs: { id: 'view-events', role: 'tabpanel', 'aria-labelledby': 'tab-events', hidden: '' } },
    h(
      'form',
      { class: 'filters', attrs: { id: 'event-filters' } },
      labelled('Provider', select('f-provider')),
      labelled('Event', select('f-event')),
      labelled('Thread', select('f-thread')),
      labelled('Text', h('input', { attrs: { id: 'f-text', type: 'search', placeholder: 'search names and fields as you type', size: '22' } })),
      labelled('From ms', number('f-from')),
      labelled('To ms', number('f-to')),
      h('span', { class: 'warn', attrs: { id: 'range-note', role: 'status' } }),
      button('f-clear', 'Clear filters'),
      h('span', { class: 'muted', attrs: { id: 'event-count' } }),
    ),
    h(
      'div',
      { class: 'events-split' },
      h(
        'div',
        { class: 'event-table' },
        h(
          'div',
          { class: 'vt-head', attrs: { role: 'row' } },
          head('c-time', 'Time (ms)'),
          head('c-provider', 'Provider'),
          head('c-event', 'Event'),
          head('c-thread', 'Thread'),
          head('c-fields', 'Fields'),
        ),
        h('div', { class: 'vt-scroller', attrs: { id: 'event-scroller', tabindex: '0', role: 'grid', 'aria-label': 'Events' } }),
      ),
      h('aside', { class: 'detail', attrs: { id: 'event-detail', 'aria-label': 'Event detail' } }),
    ),
  );
}

// Exceptions, contention, activities, counters (issue 14): filled by views/event_views_view.ts.
function diagnosticsView(): HTMLElement {
  return h(
    'div',
    { class: 'view', attrs: { id: 'view-diagnostics', role: 'tabpanel', 'aria-labelledby': 'tab-diagnostics', hidden: '' } },
    h('div', { class: 'event-views', attrs: { id: 'diagnostics-box' } }),
  );
}

function flameView(): HTMLElement {
  return h(
    'div',
    { class: 'view fill', attrs: { id: 'view-flame', role: 'tabpanel', 'aria-labelledby': 'tab-flame', hidden: '' } },
    h(
      'form',
      { class: 'filters', attrs: { id: 'flame-controls' } },
      labelled('Stacks of', select('g-event')),
      labelled('Thread', select('g-thread')),
      h('label', { attrs: { id: 'g-process-label', hidden: '' } }, 'Process ', select('g-process')),
      labelled('Weight', select('g-weight')),
      h('span', { attrs: { id: 'g-stitch-box', hidden: '' } }, checkbox('g-stitch', 'Stitch async work'), ' ', h('span', { class: 'muted', attrs: { id: 'g-stitch-note' } })),
      transformControls(),
      checkbox('g-inverted', 'Inverted (callers below)'),
      checkbox('g-flame', 'Root at the bottom'),
      labelled('Search', h('input', { attrs: { type: 'search', id: 'g-search', placeholder: 'function name' } })),
      h('span', { class: 'muted', attrs: { id: 'g-search-result' } }),
    ),
    h('div', { class: 'breadcrumb', attrs: { id: 'g-breadcrumb' } }),
    h(
      'div',
      { class: 'flame-split' },
      h(
        'div',
        { class: 'flame-box' },
        h('p', { class: 'muted', attrs: { id: 'g-message' } }),
        h(
          'div',
          { class: 'canvas-box', attrs: { id: 'g-canvas-box' } },
          h('canvas', {
            attrs: { id: 'g-canvas', tabindex: '0', 'aria-label': 'Flame graph: click a frame to zoom, arrow keys move, Enter zooms, Escape zooms out' },
          }),
          h('div', { class: 'tooltip', attrs: { id: 'g-tooltip', hidden: '' } }),
        ),
      ),
      h(
        'aside',
        { class: 'side' },
        h(
          'div',
          { class: 'side-tabs', attrs: { role: 'tablist', 'aria-label': 'Beside the flame graph' } },
          h('button', { text: 'Top functions', attrs: { type: 'button', role: 'tab', id: 'side-top', 'aria-selected': 'true' } }),
          h('button', { text: 'Sandwich', attrs: { type: 'button', role: 'tab', id: 'side-sandwich', 'aria-selected': 'false' } }),
          h('button', { text: 'Diff', attrs: { type: 'button', role: 'tab', id: 'side-diff', 'aria-selected': 'false' } }),
        ),
        h('div', { class: 'top-functions', attrs: { id: 'g-top' } }),
        h('div', { class: 'sandwich-box', attrs: { id: 'g-sandwich', hidden: '' } }),
        h('div', { class: 'diff-box', attrs: { id: 'g-diff', hidden: '' } }),
      ),
    ),
  );
}

/** The analyzer's whole DOM: header (title, tabs, file name, exports) and main area. */
export function buildLayout(): HTMLElement {
  return h(
    'div',
    { class: 'nta' },
    h(
      'header',
      { class: 'bar' },
      h('h1', {}, h('button', { text: 'NetTrace Analyzer', class: 'link', attrs: { type: 'button', id: 'home', title: 'Open another trace' } })),
      h(
        'nav',
        { attrs: { id: 'tabs', role: 'tablist', 'aria-label': 'Views', hidden: '' } },
        tab('summary', 'Summary'),
        tab('events', 'Events'),
        tab('flame', 'Flame graph'),
        tab('diagnostics', 'Diagnostics'),
      ),
      h('span', { class: 'file-name', attrs: { id: 'file-name' } }),
      exportsBar(),
    ),
    h(
      'main',
      {},
      landing(),
      loading(),
      h(
        'section',
        { attrs: { id: 'result', 'data-state': 'idle' } },
        h('p', { class: 'partial-banner', attrs: { id: 'partial-banner', role: 'alert', hidden: '' } }),
        timeline(),
        summaryView(),
        eventsView(),
        flameView(),
        diagnosticsView(),
      ),
    ),
  );
}

// web/src/analyzer — the Events tab: the filter form (provider, event, thread, text, time
// range) over the virtualized event table. The form shows state.view; a change of the form
// writes it back (numbers as numbers) and the table follows.
import type { TraceHandle } from '../api/handle.js';
import type { Summary } from '../api/types.js';
import { numberOf, orderedRange, textOf } from '../app/state.js';
import { debounced } from '../ui/debounce.js';
import { fillSelect, fmt } from '../ui/dom.js';
import { EventTable } from '../views/events_view.js';
import type { EventFilter } from '../views/events_view.js';
import { eventTypes, threads } from '../views/summary_view.js';
import { LastQuery } from './context.js';
import type { ControllerContext } from './context.js';
import type { AnalyzerSelection } from './context.js';

/** Typing pause after which the event text search starts (a keystroke later cancels it). */
const SEARCH_PAUSE_MS = 300;

export class EventsController {
  private table: EventTable | null = null;
  private tableTrace: TraceHandle | null = null;
  private readonly applied = new LastQuery<EventFilter>();
  /** The table was given another trace since its filter was applied. */
  private traceChanged = false;

  constructor(private readonly ctx: ControllerContext) {
    const f = ctx.layout.events;
    f.provider.addEventListener('change', () => {
      f.event.value = '';
      this.onFilterChange();
    });
    for (const input of [f.event, f.thread, f.from, f.to]) input.addEventListener('change', () => this.onFilterChange());
    // Free text applies as the user types, once typing pauses: a search can re-read the whole
    // file, and each new search cancels the one before (EventTable.setFilter). Enter (and
    // clearing the field) applies it at once.
    const typing = debounced(() => this.onFilterChange(), SEARCH_PAUSE_MS);
    f.text.addEventListener('input', () => typing.schedule());
    for (const type of ['search', 'change']) {
      f.text.addEventListener(type, () => {
        typing.cancel();
        this.onFilterChange();
      });
    }
    f.form.addEventListener('submit', (e) => e.preventDefault());
    f.clear.addEventListener('click', () => {
      for (const input of [f.provider, f.event, f.thread, f.text, f.from, f.to]) input.value = '';
      this.onFilterChange();
    });
  }

  /** A new trace (or a view state from a link): the table's filter is applied again. */
  reset(): void {
    this.applied.forget();
  }

  /** Fills the provider and thread pickers from a trace's summary. */
  setUp(summary: Summary): void {
    const f = this.ctx.layout.events;
    const providers = [...new Set(eventTypes(summary).map((t) => t.provider))].sort();
    fillSelect(f.provider, 'any provider', providers.map((p) => ({ value: p, label: p })));
    const threadOptions = threads(summary).map((t) => ({
      value: String(t.threadId),
      label: `${t.threadId}${t.name === '' ? '' : ` ${t.name}`} (${fmt(t.eventCount)} events)`,
    }));
    fillSelect(f.thread, 'any thread', threadOptions);
  }

  refresh(): void {
    this.show().catch((e: unknown) => this.ctx.app.reportUnexpected(e));
  }

  private fillEventNames(): void {
    const { summary, view } = this.ctx.state;
    if (summary === null) return;
    const names = eventTypes(summary)
      .filter((t) => view.provider === '' || t.provider.toLowerCase() === view.provider.toLowerCase())
      .map((t) => t.name);
    fillSelect(this.ctx.layout.events.event, 'any event', [...new Set(names)].sort().map((n) => ({ value: n, label: n })));
  }

  private filter(): EventFilter {
    const view = this.ctx.state.view;
    const filter: EventFilter = {};
    if (view.provider !== '') filter.provider = view.provider;
    if (view.event !== '') filter.name = view.event;
    if (view.thread !== null) filter.thread = view.thread;
    if (view.fromMs !== null) filter.fromMs = view.fromMs;
    if (view.toMs !== null) filter.toMs = view.toMs;
    if (view.text.trim() !== '') filter.text = view.text.trim();
    return filter;
  }

  /** The table, for the trace shown (created once; later traces reuse its DOM and listeners). */
  private tableOf(trace: TraceHandle): EventTable {
    if (this.table === null) {
      const parts = this.ctx.layout.events;
      this.table = new EventTable(trace, parts.scroller, parts.count, parts.detail);
      this.table.onSelect = (event) =>
        this.ctx.app.emit<AnalyzerSelection>('selection', { kind: 'event', index: event.index, provider: event.provider, name: event.name, timeMs: event.timeMs });
    } else if (this.tableTrace !== trace) {
      this.table.setTrace(trace);
      this.traceChanged = true;
    }
    this.tableTrace = trace;
    return this.table;
  }

  private async show(): Promise<void> {
    const { state, layout } = this.ctx;
    if (state.trace === null) return;
    const table = this.tableOf(state.trace);
    const f = layout.events;
    const view = state.view;
    f.provider.value = view.provider;
    this.fillEventNames();
    f.event.value = view.event;
    f.thread.value = textOf(view.thread);
    f.text.value = view.text;
    f.from.value = textOf(view.fromMs);
    f.to.value = textOf(view.toMs);
    const filter = this.filter();
    const traceChanged = this.traceChanged;
    this.traceChanged = false;
    // The same filter over another trace is a live session's next snapshot: the table keeps its place.
    const keepPosition = !this.applied.changed(filter);
    if (keepPosition && !traceChanged) return;
    await table.setFilter(filter, { keepPosition });
  }

  private onFilterChange(): void {
    const { state, layout, app } = this.ctx;
    const f = layout.events;
    const typed = { ...state.view, provider: f.provider.value, event: f.event.value, thread: numberOf(f.thread.value), text: f.text.value, fromMs: numberOf(f.from.value), toMs: numberOf(f.to.value) };
    const ordered = orderedRange(typed);
    state.view = ordered.state;
    f.from.value = textOf(state.view.fromMs);
    f.to.value = textOf(state.view.toMs);
    f.rangeNote.textContent = ordered.swapped ? `From was after To: swapped to ${textOf(state.view.fromMs)} – ${textOf(state.view.toMs)} ms.` : '';
    state.save();
    this.refresh();
    app.filtersChanged();
  }

  dispose(): void {
    this.table?.dispose();
  }
}

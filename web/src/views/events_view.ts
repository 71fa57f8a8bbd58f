// web/src/views — the Events tab: a virtualized, time-ordered event table. Only the rows in
// view are in the DOM; rows are fetched from the engine in pages of PAGE rows on demand
// (trace.events({offset, limit, …filter})). Click (or Enter / arrows) selects a row and shows
// every decoded field in the detail pane.
//
// Coordinate spaces: "row" = index among the filter's matches; "content px" = the scroll
// container's virtual height (row * ROW_PX, compressed by `scale` past MAX_CONTENT_PX, which
// browsers cannot lay out); "viewport px" = the visible part.
import type { EventPayload, EventQuery, PayloadField, TraceEvent } from '../api/types.js';
import { NetTraceError } from '../api/types.js';
import type { TraceHandle } from '../api/handle.js';
import { fmt, h, percent } from '../ui/dom.js';
import { findEventRow } from './event_identity.js';
import { shortProviderName } from './provider_name.js';

const ROW_PX = 24;
const PAGE = 200;
const MAX_CONTENT_PX = 8_000_000;

export type EventFilter = Omit<EventQuery, 'offset' | 'limit'>;

function valueText(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/** A field's value as the detail pane shows it: an enum's name with its number, "AllocSmall (0)". */
export function fieldValueText(f: PayloadField): string {
  return f.display !== undefined ? `${f.display} (${valueText(f.value)})` : valueText(f.value);
}

/** The Fields column: each field as name=value, an enum by its name as the detail pane
 *  names it ("Reason=AllocSmall", its number in the pane: "AllocSmall (0)"). */
export function fieldsText(event: TraceEvent): string {
  const fields = (event['payload'] as Partial<EventPayload> | undefined)?.fields;
  if (!Array.isArray(fields)) return '';
  return fields.map((f) => `${f.name}=${f.display ?? valueText(f.value)}`).join('  ');
}

export class EventTable {
  private filter: EventFilter = {};
  private total = 0;
  /** Generation: bumped when the filter changes, so late pages of an old filter are ignored. */
  private generation = 0;
  private readonly pages = new Map<number, TraceEvent[] | 'loading'>();
  private selectedRow = -1;
  /** The selected event (found again by its identity, event_identity.ts: a live snapshot may move its row). */
  private selectedEvent: TraceEvent | null = null;
  /** The matches of the filter last shown (kept across setTrace: a live snapshot's growth). */
  private shownTotal = 0;
  private readonly spacer: HTMLElement;
  private readonly rowsLayer: HTMLElement;
  private scale = 1;
  private frame = 0;
  private readonly resizeObserver = new ResizeObserver(() => this.schedule());
  /** The text search in progress, cancelled by the next filter. */
  private search: AbortController | null = null;
  /** Called when a row is selected (click, keys), with its event once it is known. */
  onSelect: ((event: TraceEvent) => void) | null = null;

  constructor(
    private trace: TraceHandle,
    private readonly scroller: HTMLElement,
    private readonly countLine: HTMLElement,
    private readonly detail: HTMLElement,
  ) {
    this.spacer = h('div', { class: 'vt-spacer' });
    this.rowsLayer = h('div', { class: 'vt-rows', attrs: { role: 'rowgroup' } });
    scroller.replaceChildren(this.spacer, this.rowsLayer);
    scroller.addEventListener('scroll', () => this.schedule());
    scroller.addEventListener('keydown', (e) => this.onKey(e));
    this.resizeObserver.observe(scroller);
  }

  /** Stops following the scroller's size and cancels a text search in progress. */
  dispose(): void {
    this.resizeObserver.disconnect();
    this.search?.abort();
    this.generation++;
  }

  /** Shows another trace (the table, its listeners and its DOM are reused). */
  setTrace(trace: TraceHandle): void {
    this.trace = trace;
    this.generation++;
    this.pages.clear();
    this.total = 0;
  }

  /**
   * Shows the events matching `filter`, from the first. keepPosition: the same filter over a
   * trace that grew (a live session's next snapshot): the scroll position, the selection and
   * its details stay.
   */
  async setFilter(filter: EventFilter, options: { keepPosition?: boolean } = {}): Promise<void> {
    const keep = options.keepPosition === true;
    this.filter = filter;
    const generation = ++this.generation;
    this.pages.clear();
    const oldTotal = this.shownTotal;
    if (!keep) {
      this.selectedRow = -1;
      this.selectedEvent = null;
      this.detailToken++;
      this.detail.replaceChildren(h('p', { class: 'muted', text: 'Click an event to see its fields.' }));
    }
    // A text search may re-read the whole file: it shows its progress, and a newer filter
    // cancels it. Later pages of the same query come from the engine's kept match list.
    this.search?.abort();
    const search = filter.text === undefined ? null : new AbortController();
    this.search = search;
    if (search !== null) {
      this.countLine.textContent = 'Searching…';
      delete this.scroller.dataset['total'];
    }
    let first;
    try {
      first = await this.trace.events(
        { ...filter, offset: 0, limit: PAGE },
        search === null ? {} : {
          signal: search.signal,
          onProgress: (p) => {
            if (generation === this.generation) this.countLine.textContent = `Searching… ${percent(p.scanned, p.total)} · ${fmt(p.matches)} matches`;
          },
        },
      );
    } catch (e) {
      if (generation !== this.generation || (e instanceof NetTraceError && e.code === 'cancelled')) return;
      throw e;
    } finally {
      if (this.search === search) this.search = null;
    }
    if (generation !== this.generation) return;
    if (keep && this.selectedEvent !== null && this.selectedRow >= 0) {
      // Late events merged before the selected one move it down: find it again by identity.
      const row = await findEventRow(this.trace, filter, this.selectedEvent, this.selectedRow, oldTotal, first.total);
      if (generation !== this.generation) return;
      this.selectedRow = row;
      if (row < 0) this.selectedEvent = null;
    }
    this.total = this.shownTotal = first.total;
    this.pages.set(0, first.events);
    const contentPx = this.total * ROW_PX;
    this.scale = contentPx > MAX_CONTENT_PX ? MAX_CONTENT_PX / contentPx : 1;
    this.spacer.style.height = `${Math.min(contentPx, MAX_CONTENT_PX) + ROW_PX}px`;
    if (!keep) this.scroller.scrollTop = 0;
    this.countLine.textContent = `${fmt(this.total)} events`;
    this.scroller.dataset['total'] = String(this.total);
    this.render();
  }

  /** The first row in view. */
  private firstRow(): number {
    if (this.scale === 1) return Math.floor(this.scroller.scrollTop / ROW_PX);
    // Compressed: scroll position maps proportionally onto [0, last first row].
    const maxScroll = Math.max(1, this.scroller.scrollHeight - this.scroller.clientHeight);
    return Math.round((this.scroller.scrollTop / maxScroll) * this.maxFirstRow());
  }

  private maxFirstRow(): number {
    return Math.max(0, this.total - Math.floor(this.scroller.clientHeight / ROW_PX));
  }

  /** The scroll position (content px) that puts `row` first in view. */
  private scrollTopFor(row: number): number {
    if (this.scale === 1) return row * ROW_PX;
    const maxScroll = Math.max(1, this.scroller.scrollHeight - this.scroller.clientHeight);
    return (row / Math.max(1, this.maxFirstRow())) * maxScroll;
  }

  private schedule(): void {
    if (this.frame !== 0) return;
    this.frame = requestAnimationFrame(() => {
      this.frame = 0;
      this.render();
    });
  }

  private render(): void {
    const first = Math.max(0, Math.min(this.firstRow(), this.total - 1));
    const visible = Math.ceil(this.scroller.clientHeight / ROW_PX) + 1;
    const last = Math.min(this.total, first + visible);
    // The rows layer sits at the scroll position (content px), rows inside at row offsets.
    this.rowsLayer.style.transform = `translateY(${this.scroller.scrollTop}px)`;
    const rows: HTMLElement[] = [];
    for (let row = first; row < last; row++) rows.push(this.rowElement(row));
    this.rowsLayer.replaceChildren(...rows);
  }

  private rowElement(row: number): HTMLElement {
    const event = this.eventAt(row);
    const tr = h('div', { class: row === this.selectedRow ? 'vt-row selected' : 'vt-row', attrs: { role: 'row' } });
    tr.dataset['row'] = String(row);
    if (event === null) {
      tr.append(h('span', { class: 'c-time', text: '…' }));
      return tr;
    }
    tr.dataset['index'] = String(event.index);
    const fields = fieldsText(event);
    tr.append(
      h('span', { class: 'c-time num', text: event.timeMs.toFixed(3) }),
      h('span', { class: 'c-provider', text: shortProviderName(event.provider), attrs: { title: event.provider } }),
      h('span', { class: 'c-event', text: event.name, attrs: { title: event.name } }),
      h('span', { class: 'c-thread num', text: String(event.threadId) }),
      h('span', { class: 'c-fields', text: fields, attrs: { title: fields } }),
    );
    tr.addEventListener('click', () => this.select(row));
    return tr;
  }

  /** The event of a row, or null while its page loads (the load is started here). */
  private eventAt(row: number): TraceEvent | null {
    const pageIndex = Math.floor(row / PAGE);
    const page = this.pages.get(pageIndex);
    if (page === undefined) {
      this.pages.set(pageIndex, 'loading');
      const generation = this.generation;
      this.trace
        .events({ ...this.filter, offset: pageIndex * PAGE, limit: PAGE })
        .then((result) => {
          if (generation !== this.generation) return;
          this.pages.set(pageIndex, result.events);
          this.schedule();
        })
        .catch(() => {
          if (generation === this.generation) this.pages.delete(pageIndex);
        });
      return null;
    }
    if (page === 'loading') return null;
    return page[row - pageIndex * PAGE] ?? null;
  }

  /** Selects a row, scrolls it into view and shows its details. */
  select(row: number): void {
    if (this.total === 0) return;
    row = Math.max(0, Math.min(row, this.total - 1));
    this.selectedRow = row;
    this.selectedEvent = null;
    const first = this.firstRow();
    const visible = Math.floor(this.scroller.clientHeight / ROW_PX);
    if (row < first) this.scroller.scrollTop = this.scrollTopFor(row);
    else if (row >= first + visible) this.scroller.scrollTop = this.scrollTopFor(row - visible + 1) + (this.scale === 1 ? 1 : 0);
    this.render();
    const event = this.eventAt(row);
    if (event !== null) {
      this.selectedEvent = event;
      this.onSelect?.(event);
      this.showDetail(event.index).catch((e) => this.detailFailed(e));
    } else {
      // Its page is loading: show the detail once it arrives.
      const generation = this.generation;
      this.trace
        .events({ ...this.filter, offset: row, limit: 1 })
        .then((p) => {
          const first = p.events[0];
          if (generation !== this.generation || this.selectedRow !== row || first === undefined) return;
          this.selectedEvent = first;
          this.onSelect?.(first);
          return this.showDetail(first.index);
        })
        .catch((e) => this.detailFailed(e));
    }
  }

  private detailToken = 0;

  /** The detail could not be read: say so in the pane (a closed trace is not worth it). */
  private detailFailed(e: unknown): void {
    if (e instanceof NetTraceError && e.code === 'closed') return;
    this.detail.replaceChildren(h('p', { class: 'warn', text: `Could not read this event: ${e instanceof Error ? e.message : String(e)}` }));
  }

  private async showDetail(index: number): Promise<void> {
    const token = ++this.detailToken;
    const event = await this.trace.eventDetail(index);
    if (token !== this.detailToken) return;
    const dl = h('dl', { class: 'detail-list' });
    const add = (term: string, value: unknown): void => {
      dl.append(h('dt', { text: term }), h('dd', { text: typeof value === 'string' ? value : JSON.stringify(value) }));
    };
    const keys = ['index', 'timeMs', 'utc', 'provider', 'name', 'eventId', 'version', 'threadId', 'processId', 'processor', 'sequenceNumber', 'stack'] as const satisfies readonly (keyof TraceEvent)[];
    for (const key of keys) {
      const value = event[key];
      if (value !== undefined && value !== null) add(key, value);
    }
    const labels = event.labels;
    const fields: Partial<EventPayload> = event.payload ?? {};
    const fieldList = h('dl', { class: 'detail-list' });
    // Set as text (h's `text`), never as HTML: names and values come from the trace.
    for (const f of fields.fields ?? []) fieldList.append(h('dt', { text: f.name }), h('dd', { text: fieldValueText(f) }));
    const labelList = h('dl', { class: 'detail-list' });
    for (const [k, v] of Object.entries(labels)) labelList.append(h('dt', { text: k }), h('dd', { text: typeof v === 'string' ? v : JSON.stringify(v) }));
    this.detail.replaceChildren(
      h('h3', { text: `${event.provider} / ${event.name}` }),
      dl,
      h('h4', { text: fields.template !== undefined ? `Fields (${fields.template})` : 'Fields' }),
      (fields.fields ?? []).length > 0 ? fieldList : h('p', { class: 'muted', text: event.detail ? 'No payload fields.' : 'The payload could not be re-read.' }),
      h('h4', { text: 'Labels' }),
      labelList.childElementCount > 0 ? labelList : h('p', { class: 'muted', text: 'None.' }),
    );
    this.detail.dataset['index'] = String(index);
    const stack = event.stack;
    if (stack !== 0) {
      const box = h('div', { class: 'stack' }, h('p', { class: 'muted', text: 'Reading the stack…' }));
      this.detail.append(h('h4', { text: 'Stack' }), box);
      const frames = await this.trace.eventStack(index);
      if (token !== this.detailToken) return;
      box.replaceChildren(
        frames.length === 0
          ? h('p', { class: 'muted', text: 'No frames.' })
          : h('ol', { class: 'frames' }, ...frames.map((name) => h('li', { text: name }))),
      );
    }
  }

  private onKey(e: KeyboardEvent): void {
    const visible = Math.max(1, Math.floor(this.scroller.clientHeight / ROW_PX) - 1);
    const moves: Record<string, number> = { ArrowDown: 1, ArrowUp: -1, PageDown: visible, PageUp: -visible, Home: -Infinity, End: Infinity };
    const move = moves[e.key];
    if (move === undefined) return;
    e.preventDefault();
    const from = this.selectedRow < 0 ? this.firstRow() - (move > 0 ? 1 : 0) : this.selectedRow;
    this.select(move === Infinity ? this.total - 1 : move === -Infinity ? 0 : from + move);
  }
}

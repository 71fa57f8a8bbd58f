// web/src/views — the timeline's lanes and the time-order chart under the event-count
// timeline (issues 13 and 14): builds their DOM in the timeline box, loads their data through
// the engine worker (histogram per thread, gc(), activities(), events + eventStack for one
// thread's samples) and keeps their shared visible range. The analyzer gives it a trace and a
// callback that selects a time range in every view (a pause bar's or a slice's click). They
// sit in a <details>, closed at first: nothing is asked of the engine until it is opened (a
// 1 GB trace's samples are not re-read for a view nobody looks at), and the tabs below keep
// their place.
import type { TraceHandle } from '../api/handle.js';
import type { Summary } from '../api/types.js';
import { fmt, h } from '../ui/dom.js';
import { eventTypes, threads } from './summary_view.js';
import { SharedView } from './shared_view.js';
import { TimelineLanes } from './timeline_lanes.js';
import type { ThreadDensity } from './timeline_lanes.js';
import { loadThreadSamples, TimeOrderChart } from './time_order_view.js';

/** Threads whose density is asked for (the busiest by events), and lanes shown at most. */
const CANDIDATE_THREADS = 24;
const MAX_THREAD_LANES = 12;
const SAMPLE_EVENT = 'Thread/Sample';
const REQUERY_PAUSE_MS = 120;

export class TimelinePanel {
  private readonly view = new SharedView();
  private readonly lanes: TimelineLanes;
  private readonly chart: TimeOrderChart;
  private readonly threadSelect: HTMLSelectElement;
  private readonly section: HTMLDetailsElement;
  private summary: Summary | null = null;
  /** The trace whose lanes were loaded (or are loading). */
  private loaded: TraceHandle | null = null;
  private readonly chartBox: HTMLElement;
  private trace: TraceHandle | null = null;
  private laneThreads: { threadId: number; label: string }[] = [];
  private densityEvent: string | undefined;
  private requery: ReturnType<typeof setTimeout> | undefined;
  private densityGeneration = 0;
  private readonly resizeObserver: ResizeObserver;

  constructor(container: HTMLElement, onSelect: (fromMs: number, toMs: number) => void, private readonly onError: (e: unknown) => void) {
    const lanesCanvas = h('canvas', { attrs: { id: 'tl-lanes', 'aria-label': 'Timeline lanes: threads, GC heap and pauses, activities' } });
    const readout = h('p', { class: 'tl-readout muted', attrs: { id: 'tl-readout' } });
    const chartCanvas = h('canvas', { attrs: { id: 'to-chart', 'aria-label': 'Time order: one thread\'s stacks along time' } });
    const chartReadout = h('p', { class: 'tl-readout muted', attrs: { id: 'to-readout' } });
    this.threadSelect = h('select', { attrs: { id: 'to-thread' } });
    const reset = h('button', { text: 'Reset zoom', attrs: { id: 'tl-reset', type: 'button' } });
    const select = h('button', { text: 'Select visible range', attrs: { id: 'tl-select', type: 'button', title: 'Narrow every view to the zoomed range' } });
    this.chartBox = h(
      'div',
      { class: 'time-order', attrs: { id: 'time-order', hidden: '' } },
      h('label', { class: 'muted' }, 'Time order — stacks of thread ', this.threadSelect),
      h('div', { class: 'timeline-box' }, chartCanvas),
      chartReadout,
    );
    this.section = h(
      'details',
      { class: 'timeline-lanes', attrs: { id: 'timeline-lanes', hidden: '' } },
      h('summary', { text: 'Lanes and time order: threads, GC heap and pauses, activities, one thread\'s stacks along time' }),
      h('div', { class: 'timeline-head' },
        h('span', { class: 'muted', text: 'Wheel or +/-: zoom · drag: zoom to a range · shift+drag or arrows: pan · 0: reset · click a GC pause or an activity: select its time range' }),
        reset, select),
      h('div', { class: 'timeline-box' }, lanesCanvas),
      readout,
      this.chartBox,
    );
    container.append(this.section);
    this.lanes = new TimelineLanes(lanesCanvas, readout, this.view, onSelect);
    this.chart = new TimeOrderChart(chartCanvas, chartReadout, this.view);
    this.view.onChange(() => {
      this.lanes.draw();
      this.chart.draw();
      this.scheduleDensity();
    });
    reset.addEventListener('click', () => this.view.set(this.view.bounds));
    select.addEventListener('click', () => onSelect(this.view.range.fromMs, this.view.range.toMs));
    this.section.addEventListener('toggle', () => void this.loadIfOpen().catch(onError));
    this.threadSelect.addEventListener('change', () => void this.showThread(Number(this.threadSelect.value)));
    this.resizeObserver = new ResizeObserver(() => {
      this.lanes.draw();
      this.chart.draw();
    });
    this.resizeObserver.observe(container);
  }

  dispose(): void {
    this.resizeObserver.disconnect();
    clearTimeout(this.requery);
  }

  /** The analyzer's time range (brush, chip, a GC), outlined on the lanes. */
  setSelection(selection: [number, number] | null): void {
    this.lanes.setSelection(selection);
  }

  clear(): void {
    this.trace = null;
    this.loaded = null;
    this.section.hidden = true;
    delete this.section.dataset['ready'];
    this.chart.setSamples(null);
  }

  /** Shows the (closed, or still open) lanes of `trace`. */
  show(trace: TraceHandle, summary: Summary): void {
    this.trace = trace;
    this.summary = summary;
    this.loaded = null;
    delete this.section.dataset['ready'];
    this.section.hidden = false;
    void this.loadIfOpen().catch(this.onError);
  }

  /** Loads the lanes once per trace when open; the time-order chart shows its busiest sampled thread. */
  private async loadIfOpen(): Promise<void> {
    const trace = this.trace;
    const summary = this.summary;
    if (!this.section.open || trace === null || summary === null || this.loaded === trace) return;
    this.loaded = trace;
    const all = await trace.histogram({ buckets: 1 });
    if (this.trace !== trace) return;
    this.densityEvent = eventTypes(summary).some((t) => t.name === SAMPLE_EVENT) ? SAMPLE_EVENT : undefined;
    // Lanes for the busiest threads that have samples (every event when the trace has none).
    const candidates = threads(summary).sort((a, b) => b.eventCount - a.eventCount).slice(0, CANDIDATE_THREADS);
    const withCounts = await Promise.all(
      candidates.map(async (t) => ({ t, n: (await trace.histogram({ buckets: 1, thread: t.threadId, ...this.eventFilter() })).total })),
    );
    if (this.trace !== trace) return;
    this.laneThreads = withCounts
      .filter((x) => x.n > 0)
      .sort((a, b) => b.n - a.n)
      .slice(0, MAX_THREAD_LANES)
      .map(({ t, n }) => ({ threadId: t.threadId, label: `${t.name === '' ? 'thread' : t.name} ${t.threadId} (${fmt(n)})` }));
    this.view.reset({ fromMs: all.fromMs, toMs: all.toMs });
    const [gc, activities] = await Promise.all([trace.gc(), trace.activities()]);
    if (this.trace !== trace) return;
    this.lanes.setGcs(gc.processes.flatMap((p) => p.gcs));
    this.lanes.setActivities(activities.activities);
    await this.loadDensity();
    this.threadSelect.replaceChildren(
      ...this.laneThreads.map((t) => h('option', { text: t.label, attrs: { value: String(t.threadId) } })),
    );
    this.chartBox.hidden = this.densityEvent === undefined || this.laneThreads.length === 0;
    if (!this.chartBox.hidden) await this.showThread(this.laneThreads[0]!.threadId);
    if (this.trace === trace) this.section.dataset['ready'] = 'true';
  }

  private eventFilter(): { name?: string } {
    return this.densityEvent === undefined ? {} : { name: this.densityEvent };
  }

  private scheduleDensity(): void {
    clearTimeout(this.requery);
    this.requery = setTimeout(() => void this.loadDensity(), REQUERY_PAUSE_MS);
  }

  /** Each lane's counts over the visible range, one bucket per 2 px. */
  private async loadDensity(): Promise<void> {
    const trace = this.trace;
    if (trace === null) return;
    const generation = ++this.densityGeneration;
    const { fromMs, toMs } = this.view.range;
    const buckets = Math.max(10, Math.min(2000, Math.floor(((this.lanes.canvas.clientWidth || 800) - 140) / 2)));
    const densities: ThreadDensity[] = await Promise.all(
      this.laneThreads.map(async (t) => {
        const hist = await trace.histogram({ buckets, fromMs, toMs, thread: t.threadId, ...this.eventFilter() });
        return { threadId: t.threadId, label: t.label, fromMs: hist.fromMs, toMs: hist.toMs, counts: hist.counts };
      }),
    );
    if (trace !== this.trace || generation !== this.densityGeneration) return;
    this.lanes.setThreads(densities, this.densityEvent === undefined ? 'events' : 'samples');
  }

  private async showThread(thread: number): Promise<void> {
    const trace = this.trace;
    if (trace === null || this.densityEvent === undefined) return;
    this.threadSelect.value = String(thread);
    delete this.chartBox.dataset['ready'];
    const samples = await loadThreadSamples(trace, this.densityEvent, thread);
    if (trace !== this.trace || this.threadSelect.value !== String(thread)) return;
    this.chart.setSamples(samples);
    this.chartBox.dataset['ready'] = 'true';
  }
}

// web/src/analyzer — the timeline over the views and the time range it selects: a histogram
// stacked by provider over every event, or by event type over the event filter's types; a
// brush (and the range chip) sets state.view.fromMs / toMs, which every view follows. Under
// it, the lanes (threads, GC heap and pauses, activities) and the time-order chart
// (views/timeline_panel.ts), whose clicks select a time range in every view too.
import type { TraceHandle } from '../api/handle.js';
import type { HistogramQuery, Summary } from '../api/types.js';
import { Timeline } from '../views/timeline_view.js';
import { TimelinePanel } from '../views/timeline_panel.js';
import { LastQuery } from './context.js';
import type { ControllerContext } from './context.js';

export class TimelineController {
  private readonly timeline: Timeline;
  private readonly panel: TimelinePanel;
  private readonly last = new LastQuery<HistogramQuery>();

  constructor(private readonly ctx: ControllerContext) {
    const parts = ctx.layout.timeline;
    this.timeline = new Timeline(parts.canvas, parts.legend, (range) => {
      // Brushed times are kept to the microsecond (what the hash and the inputs show).
      const round = (ms: number): number => Number(ms.toFixed(3));
      ctx.state.set({ fromMs: range === null ? null : round(range[0]), toMs: range === null ? null : round(range[1]) });
      ctx.app.rangeChanged();
    });
    this.panel = new TimelinePanel(parts.box, (fromMs, toMs) => ctx.app.selectRange(fromMs, toMs), (e) => ctx.app.reportUnexpected(e));
    parts.group.addEventListener('change', () => {
      ctx.state.set({ timelineBy: parts.group.value === 'type' ? 'type' : 'provider' });
      ctx.state.save();
      this.refresh();
    });
    parts.rangeClear.addEventListener('click', () => {
      ctx.state.set({ fromMs: null, toMs: null });
      ctx.app.rangeChanged();
    });
  }

  /** A new trace: the histogram is asked again, the lanes are emptied. */
  reset(): void {
    this.last.forget();
    this.panel.clear();
  }

  /** A live session's next snapshot (another trace handle, same filters): the histogram is
   *  asked again; the lanes wait for the whole trace. */
  traceGrew(): void {
    this.last.forget();
  }

  /** The lanes and the time-order chart of a trace read to its end (or to a fault). */
  showLanes(trace: TraceHandle, summary: Summary): void {
    this.panel.show(trace, summary);
  }

  /** The filters changed: only the histogram by event type follows them. */
  filtersChanged(): void {
    if (this.ctx.state.view.timelineBy === 'type') this.refresh();
  }

  refresh(): void {
    this.show().catch((e: unknown) => this.ctx.app.reportUnexpected(e));
  }

  private query(): HistogramQuery {
    const view = this.ctx.state.view;
    const byType = view.timelineBy === 'type';
    return {
      buckets: 400,
      groupBy: byType ? 'eventType' : 'provider',
      ...(byType && view.provider !== '' ? { provider: view.provider } : {}),
      ...(byType && view.event !== '' ? { name: view.event } : {}),
      ...(byType && view.thread !== null ? { thread: view.thread } : {}),
    };
  }

  private async show(): Promise<void> {
    const { state, layout } = this.ctx;
    const trace = state.trace;
    if (trace === null) return;
    layout.timeline.group.value = state.view.timelineBy;
    const query = this.query();
    if (!this.last.changed(query)) return;
    let histogram = await trace.histogram(query);
    if (state.trace !== trace || !this.last.is(query)) return;
    // Series are "Provider/Task/Opcode"; one provider's types need not repeat its name.
    const provider = state.view.provider;
    const prefix = `${provider}/`.toLowerCase();
    if (query.groupBy === 'eventType' && provider !== '' && histogram.series.every((name) => name.toLowerCase().startsWith(prefix))) {
      histogram = { ...histogram, series: histogram.series.map((name) => name.slice(prefix.length)) };
    }
    layout.timeline.box.hidden = false;
    layout.timeline.box.dataset['series'] = String(histogram.series.length);
    this.timeline.setData(histogram);
    this.showRange();
  }

  /** The range chip and the brush follow state.view.fromMs / toMs. */
  showRange(): void {
    const { fromMs: from, toMs: to } = this.ctx.state.view;
    const parts = this.ctx.layout.timeline;
    const any = from !== null || to !== null;
    parts.rangeChip.hidden = !any;
    parts.rangeText.textContent = any ? `${from === null ? 'start' : `${from.toFixed(1)} ms`} – ${to === null ? 'end' : `${to.toFixed(1)} ms`}` : '';
    const selection: [number, number] | null = any ? [from ?? -Infinity, to ?? Infinity] : null;
    this.timeline.setRange(selection);
    this.panel.setSelection(selection);
  }

  dispose(): void {
    this.timeline.dispose();
    this.panel.dispose();
  }
}

// web/src/analyzer — the Summary tab: the facts and tables of a trace's summary (a click on
// an event type, thread or runtime type opens the matching events; "Flame graph" opens the
// stacks of a type), the GC table under them (a GC's row selects its time range), and the
// summary JSON.
import type { TraceHandle } from '../api/handle.js';
import type { NetTraceError, Summary } from '../api/types.js';
import { renderGcView } from '../views/gc_view.js';
import { renderJitView } from '../views/jit_view.js';
import { renderSummary } from '../views/summary_view.js';
import type { ControllerContext } from './context.js';
import { onlyNamesMissing, summaryTitle } from './read_outcome.js';

/** How the summary was read (the facts above its tables). */
export interface ReadFacts {
  name: string;
  /** Null when not known (a URL that was not read to its end). */
  size: number | null;
  seconds: number;
  error: NetTraceError | null;
}

export class SummaryController {
  constructor(private readonly ctx: ControllerContext) {}

  reset(): void {
    const parts = this.ctx.layout.summary;
    parts.headline.replaceChildren();
    parts.tables.replaceChildren();
    parts.json.textContent = '';
    parts.title.hidden = true;
  }

  /** Renders a summary; its links open other views only when a trace handle is open. */
  show(summary: Summary, facts: ReadFacts): void {
    const { state, layout, app } = this.ctx;
    const open = state.trace !== null;
    const parts = layout.summary;
    parts.title.hidden = false;
    parts.title.textContent = summaryTitle(facts.error, summary.eventCount, summary.complete);
    renderSummary(summary, parts.headline, parts.tables, {
      fileName: facts.name,
      fileSize: facts.size,
      readSeconds: facts.seconds,
      partial: facts.error !== null && !onlyNamesMissing(facts.error, summary.complete),
      onPickType: open ? (t) => app.showEventsWith({ provider: t.provider, event: t.name }) : null,
      onStacksOfType: open
        ? (t) => {
            state.set({ stackEvent: t.name });
            app.showTab('flame');
          }
        : null,
      onPickThread: open ? (t) => app.showEventsWith({ thread: t.threadId }) : null,
      onPickRuntimeType: open
        ? (eventName, typeName) =>
            app.showEventsWith({ provider: 'Microsoft-Windows-DotNETRuntime', event: eventName, text: typeName === '(other types)' ? '' : typeName })
        : null,
    });
    parts.json.textContent = JSON.stringify(summary, null, 2);
    if (state.trace !== null) this.showGcs(state.trace).catch((e: unknown) => app.reportUnexpected(e));
  }

  /** The GC view under the summary's runtime tables (a GC's row selects its time range), then
   *  the JIT view. */
  private async showGcs(trace: TraceHandle): Promise<void> {
    const { state, layout, app } = this.ctx;
    const stats = await trace.gc();
    if (state.trace !== trace) return;
    // A GC's row shows that GC's events: the event table's filters are cleared with the range.
    renderGcView(stats, layout.summary.tables, (fromMs, toMs) => app.selectRange(fromMs, toMs, {}));
    const jit = await trace.jit();
    if (state.trace === trace) renderJitView(jit, layout.summary.tables);
  }
}

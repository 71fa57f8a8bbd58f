// web/src/analyzer — the Diagnostics tab: exceptions, contention, activities, counters and the
// thread pool (views/event_views_view.ts), built once per trace when the tab is first shown.
import type { TraceHandle } from '../api/handle.js';
import { renderEventViews } from '../views/event_views_view.js';
import type { ControllerContext } from './context.js';

export class DiagnosticsController {
  /** The trace the tab was built for. */
  private builtFor: TraceHandle | null = null;

  constructor(private readonly ctx: ControllerContext) {}

  show(): void {
    const trace = this.ctx.state.trace;
    if (trace === null || this.builtFor === trace) return;
    this.builtFor = trace;
    const box = this.ctx.layout.diagnostics;
    delete box.dataset['ready'];
    box.replaceChildren();
    renderEventViews(box, trace).catch((e: unknown) => this.ctx.app.reportUnexpected(e));
  }
}

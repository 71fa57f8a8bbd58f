// web/src/analyzer — Compare runs (views/runs_view.ts) in the analyzer: opened from the landing
// area, shown in its place (and in place of an open trace's views, which Home and Back bring
// back), its options kept in the link (app/state.ts runs, runsType, runsWeight). The files of
// each side cannot be kept in a link: they are picked or dropped again.
import type { WorkerOptions } from '../engine/worker_client.js';
import { RunsView } from '../views/runs_view.js';
import type { ControllerContext } from './context.js';

export class RunsController {
  private readonly view: RunsView;

  constructor(
    private readonly ctx: ControllerContext,
    workerOptions: WorkerOptions,
  ) {
    const { layout, state } = ctx;
    this.view = new RunsView(workerOptions);
    layout.landing.landing.after(this.view.root);
    this.view.onOptions = (o) => {
      state.set({ runsEvent: o.event, runsWeight: o.weight });
      state.save();
    };
    layout.landing.runsOpen.addEventListener('click', () => this.open());
    // Close is Home: the landing area, with the way back to an open trace.
    this.view.close.addEventListener('click', () => layout.home.click());
    layout.home.addEventListener('click', () => this.hide());
    this.follow();
  }

  /** Shows or hides the view as the state says (a link followed, a hash edited). */
  follow(): void {
    const view = this.ctx.state.view;
    this.view.setOptions({ event: view.runsEvent, weight: view.runsWeight });
    if (view.runs) this.open();
    else this.view.hide();
  }

  open(): void {
    const { layout, state } = this.ctx;
    state.set({ runs: true });
    state.save();
    layout.landing.landing.hidden = true;
    layout.result.hidden = true;
    layout.tabList.hidden = true;
    layout.exports.hidden = true;
    this.view.show();
  }

  /** Hidden (Home, or a trace opened), the state saying so. */
  hide(): void {
    if (this.view.root.hidden) return;
    this.ctx.state.set({ runs: false });
    this.ctx.state.save();
    this.view.hide();
  }

  dispose(): void {
    this.view.dispose();
  }
}

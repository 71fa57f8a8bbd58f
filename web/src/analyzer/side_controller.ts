// web/src/analyzer — beside the flame graph: Top functions (drawn with the flame graph), the
// sandwich of one function (state.view.fn) in the flame graph's stacks, or the A/B diff
// against a baseline trace. The side shown is state.view.side.
import type { StackQuery } from '../api/handle.js';
import type { Side } from '../app/state.js';
import type { WorkerOptions } from '../engine/worker_client.js';
import { wireTabs } from '../ui/tab_keys.js';
import { DiffView } from '../views/diff_view.js';
import { SandwichView } from '../views/sandwich_view.js';
import { LastQuery } from './context.js';
import type { ControllerContext } from './context.js';
import { stackQueryOf } from './flame_controller.js';

export class SideController {
  private readonly sandwich: SandwichView;
  private readonly diff: DiffView;
  /** The trace, query and function the sandwich shows, to redo it only when one changes. */
  private readonly sandwichShown = new LastQuery<{ query: StackQuery; fn: string }>();

  constructor(
    private readonly ctx: ControllerContext,
    workerOptions: WorkerOptions,
  ) {
    const g = ctx.layout.flame;
    this.sandwich = new SandwichView(g.sides.get('sandwich')!);
    this.diff = new DiffView(g.sides.get('diff')!, workerOptions);
    this.diff.onChange = () => {
      if (ctx.state.view.side === 'diff') this.showDiff();
    };
    this.sandwich.onPick = (fn) => {
      ctx.state.set({ fn });
      this.sandwichShown.changed(this.sandwichKey());
      ctx.state.save();
    };
    wireTabs(g.sideTabs, (side: Side, focus) => {
      ctx.state.set({ side });
      ctx.state.save();
      this.show(focus);
    });
  }

  /** The trace shown is closed: the sandwich and the diff are emptied. */
  reset(): void {
    this.sandwich.clear();
    this.sandwichShown.forget();
    this.diff.clear();
  }

  /** A trace opened: what the diff re-reads as the comparison. */
  setComparison(source: Blob | string): void {
    this.diff.setComparison(source);
  }

  /** The flame graph's stacks, not inverted: a sandwich shows both directions anyway. */
  private query(): StackQuery {
    return { ...stackQueryOf(this.ctx), inverted: false };
  }

  private sandwichKey(): { query: StackQuery; fn: string } {
    return { query: this.query(), fn: this.ctx.state.view.fn };
  }

  /** Shows the side of state.view.side (its tab selected, the others hidden). */
  show(focus = false): void {
    const side = this.ctx.state.view.side;
    for (const [s, button] of this.ctx.layout.flame.sideTabs) {
      const selected = s === side;
      button.setAttribute('aria-selected', String(selected));
      button.tabIndex = selected ? 0 : -1;
      if (focus && selected) button.focus();
    }
    for (const [s, box] of this.ctx.layout.flame.sides) box.hidden = s !== side;
    if (side === 'sandwich') this.showSandwich();
    if (side === 'diff') this.showDiff();
  }

  private showDiff(): void {
    this.diff.show(this.query()).catch((e: unknown) => this.ctx.app.reportUnexpected(e));
  }

  /** The sandwich of state.view.fn in the flame graph's stacks, or how to pick a function. */
  showSandwich(): void {
    const { state, app } = this.ctx;
    const trace = state.trace;
    if (trace === null || state.view.side !== 'sandwich') return;
    const key = this.sandwichKey();
    if (!this.sandwichShown.changed(key)) return;
    if (key.fn === '') {
      this.sandwich.showHint('Pick a function: click a frame in the flame graph or a row of Top functions.');
      return;
    }
    this.sandwich.show(trace, key.query, key.fn).catch((e: unknown) => app.reportUnexpected(e));
  }

  dispose(): void {
    this.sandwich.clear();
  }
}

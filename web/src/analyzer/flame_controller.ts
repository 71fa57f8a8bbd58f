// web/src/analyzer — the Flame graph tab: the stack query of its controls (event type,
// thread, process, weight, async stitching, grouping and folding, inverted), the flame graph and the Top functions
// beside it. The sandwich and the diff beside it are side_controller.ts's.
import type { FlameGraphData, Summary } from '../api/types.js';
import type { StackQuery, TraceHandle } from '../api/handle.js';
import { numberOf, textOf } from '../app/state.js';
import { fillSelect, fmt, h } from '../ui/dom.js';
import { FlameGraph } from '../views/flame_view.js';
import { readTransform, showTransform, transformQuery, wireTransform } from '../views/stack_transform_controls.js';
import { topFunctionsTable } from '../views/top_functions.js';
import { formatWeight } from '../ui/units.js';
import { unnamedFramesNotice } from '../views/unnamed_frames.js';
import { eventTypes, processes, threads } from '../views/summary_view.js';
import { effectiveWeight, offerWeights, weightChoices } from '../views/weights.js';
import { fillStackThreads } from './stack_threads.js';
import { LastQuery } from './context.js';
import type { ControllerContext } from './context.js';
import type { AnalyzerSelection } from './context.js';

/** Event types offered first for stacks, in this order (CPU samples of the sample profiler
 *  and of Linux profilers first); the other types follow, most events first. */
const PREFERRED_STACKS = ['Thread/Sample', 'cpu', 'AllocationSampling', 'GC/AllocationTick', 'Exception/Start', 'Contention/Start'];

/** The stack types in the picker's order: PREFERRED_STACKS, then by count. */
export function stackTypeOrder(counts: Map<string, number>): [string, number][] {
  const rank = (name: string): number => {
    const i = PREFERRED_STACKS.indexOf(name);
    return i < 0 ? PREFERRED_STACKS.length : i;
  };
  return [...counts].filter(([, n]) => n > 0).sort((a, b) => rank(a[0]) - rank(b[0]) || b[1] - a[1]);
}

/** The stack query of the view state (also what speedscope/folded exports and the sandwich take). */
export function stackQueryOf(ctx: ControllerContext): StackQuery {
  const view = ctx.state.view;
  const query: StackQuery = { event: view.stackEvent, inverted: view.inverted, weight: effectiveWeight(view.stackEvent, view.weight) };
  if (view.stackThread !== null) query.thread = view.stackThread;
  if (view.process !== null) query.process = view.process;
  if (view.fromMs !== null) query.fromMs = view.fromMs;
  if (view.toMs !== null) query.toMs = view.toMs;
  if (query.weight === 'traceevent-thread-time') query.stitchAsync = !view.noStitch;
  Object.assign(query, transformQuery(view));
  return query;
}

export class FlameController {
  private flame: FlameGraph | null = null;
  private readonly shownQuery = new LastQuery<StackQuery>();
  /** The trace and stack type the thread picker was filled for. */
  private threadsFor: { trace: TraceHandle; event: string } | null = null;
  /** Called after each draw: the side panel (top functions, sandwich, diff) follows. */
  onDrawn: () => void = () => {};

  constructor(private readonly ctx: ControllerContext) {
    const g = ctx.layout.flame;
    for (const input of [g.event, g.thread, g.process, g.inverted, g.weight, g.stitch]) input.addEventListener('change', () => this.onControls());
    wireTransform(g.transform, () => this.onControls());
    g.search.addEventListener('input', () => this.flame?.search(g.search.value));
    g.rootAtBottom.addEventListener('change', () => this.flame?.setRootAtBottom(g.rootAtBottom.checked));
    g.form.addEventListener('submit', (e) => e.preventDefault());
  }

  reset(): void {
    this.shownQuery.forget();
    this.ctx.layout.flame.sides.get('top')!.replaceChildren();
  }

  /** The same query over another handle (a live session's snapshots, then its whole trace):
   *  the next refresh computes the graph again. */
  traceGrew(): void {
    this.shownQuery.forget();
  }

  /** Fills the stack type and process pickers from a trace's summary (the thread picker is
   *  filled for the picked stack type when the tab shows). */
  setUp(summary: Summary): void {
    const { layout, state } = this.ctx;
    const g = layout.flame;
    g.thread.replaceChildren();
    const processList = processes(summary);
    g.processLabel.hidden = processList.length < 2;
    fillSelect(g.process, 'all processes', processList.map((p) => ({ value: String(p.pid), label: `${p.name || '?'} (${p.pid})` })));
    // The types whose events carry stacks (all types when the summary does not say), most first.
    const stackCount = new Map<string, number>();
    for (const t of eventTypes(summary)) stackCount.set(t.name, (stackCount.get(t.name) ?? 0) + (t.withStacks ?? t.count));
    const stackTypes = stackTypeOrder(stackCount);
    g.event.replaceChildren(...stackTypes.map(([name, n]) => h('option', { text: `${name} (${fmt(n)})`, attrs: { value: name } })));
    if (stackTypes.length === 0) g.event.append(h('option', { text: 'no events with stack frames', attrs: { value: '', disabled: '' } }));
    const has = (name: string): boolean => (stackCount.get(name) ?? 0) > 0;
    if (state.view.stackEvent !== '' && !has(state.view.stackEvent)) state.set({ stackEvent: '' });
    if (state.view.stackEvent === '') state.set({ stackEvent: stackTypes[0]?.[0] ?? '' });
  }

  refresh(): void {
    this.show().catch((e: unknown) => this.reportError(e));
  }

  /** Searches the flame graph for a function (a Top functions row). */
  search(name: string): void {
    this.ctx.layout.flame.search.value = name;
    this.flame?.search(name);
  }

  private graph(): FlameGraph {
    if (this.flame === null) {
      const g = this.ctx.layout.flame;
      this.flame = new FlameGraph(g.canvas, g.tooltip, g.breadcrumb, g.searchResult);
      this.flame.onZoom = (name) => {
        this.ctx.app.emit<AnalyzerSelection>('selection', { kind: 'frame', name });
        this.ctx.app.pickFunction(name, false);
      };
    }
    return this.flame;
  }

  /** Offers the threads with events of the picked stack type (a thread without any is dropped). */
  private async offerThreads(trace: TraceHandle): Promise<void> {
    const { state, layout } = this.ctx;
    const event = state.view.stackEvent;
    if (this.threadsFor?.trace === trace && this.threadsFor.event === event) return;
    this.threadsFor = { trace, event };
    let offered: Set<string>;
    try {
      offered = await fillStackThreads(layout.flame.thread, trace, threads(trace.summary()), event);
    } catch (e) {
      this.threadsFor = null; // asked again next time
      throw e;
    }
    const picked = state.view.stackThread;
    if (state.trace === trace && picked !== null && !offered.has(String(picked))) state.set({ stackThread: null });
  }

  private async show(): Promise<void> {
    const { state, layout } = this.ctx;
    const trace = state.trace;
    if (trace === null) return;
    const flame = this.graph();
    await this.offerThreads(trace);
    if (state.trace !== trace) return;
    const g = layout.flame;
    g.event.value = state.view.stackEvent;
    g.thread.value = textOf(state.view.stackThread);
    g.process.value = textOf(state.view.process);
    g.inverted.checked = state.view.inverted;
    offerWeights(g.weight, state.view.stackEvent, state.view.weight);
    showTransform(g.transform, state.view);
    const query = stackQueryOf(this.ctx);
    if (!this.shownQuery.changed(query)) {
      flame.draw();
      this.onDrawn();
      return;
    }
    g.message.textContent = 'Computing…';
    const [data, top] = await Promise.all([trace.flameGraph(query), trace.topFunctions(query, 100)]);
    if (!this.shownQuery.is(query) || state.trace !== trace) return;
    g.canvasBox.dataset['nodes'] = String(data.frame.length);
    g.canvasBox.dataset['total'] = String(data.total);
    g.canvasBox.dataset['weight'] = query.weight ?? '';
    this.showStitching(query, data.asyncStitching);
    g.message.textContent = this.message(data, query);
    this.showUnnamed(data);
    flame.setData(data, query.event ?? '');
    flame.zoomTo(0);
    g.sides.get('top')!.replaceChildren(topFunctionsTable(top, query.event ?? '', (name) => this.ctx.app.pickFunction(name, true)));
    this.onDrawn();
  }

  private message(data: FlameGraphData, query: StackQuery): string {
    const total = formatWeight(data.total, data.unit, query.event ?? '');
    if (data.total > 0 && data.frame.length <= 1) return `${total}, but these events carry no stack frames. Pick another event type.`;
    if (data.total === 0) return `No stacks for ${query.event}${query.thread === undefined ? '' : ` on thread ${query.thread}`}. Pick another event type.`;
    return `${total} · ${fmt(data.frame.length)} nodes · click to zoom, Esc to zoom out`;
  }

  /** Says why frames are unnamed (?!?) and what to do, when the trace lacks the events that
   *  name them and unnamed frames weigh (views/unnamed_frames.ts). */
  private showUnnamed(data: FlameGraphData): void {
    const { layout, state } = this.ctx;
    const live = layout.result.dataset['state'] === 'live';
    const text = state.summary === null ? null : unnamedFramesNotice(data, state.summary, live);
    layout.flame.unnamed.hidden = text === null;
    layout.flame.unnamed.textContent = text ?? '';
  }

  /** The stitching toggle beside the weight picker: only for dotnet-trace's thread time; when
   *  unavailable, disabled with the reason as its tooltip (said once, not beside it). */
  private showStitching(query: StackQuery, stitching: FlameGraphData['asyncStitching']): void {
    const g = this.ctx.layout.flame;
    g.stitchBox.hidden = query.weight !== 'traceevent-thread-time';
    g.stitch.checked = !this.ctx.state.view.noStitch;
    const unavailable = stitching?.state === 'unavailable';
    g.stitch.disabled = unavailable;
    g.stitchBox.classList.toggle('unavailable', unavailable);
    g.stitchBox.title = unavailable
      ? `Unavailable: ${stitching.reason ?? ''}`
      : 'Thread-pool work drawn under the stack that queued it (\'STARTING TASK\'), as dotnet-trace and PerfView do';
    g.stitchBox.dataset['state'] = stitching?.state ?? '';
  }

  reportError(e: unknown): void {
    this.shownQuery.forget();
    this.ctx.layout.flame.message.textContent = `Could not compute the flame graph: ${e instanceof Error ? e.message : String(e)}`;
  }

  private onControls(): void {
    const g = this.ctx.layout.flame;
    // A weight is kept in the link only when it is not the event type's default.
    const choices = weightChoices(g.event.value);
    const weight = g.weight.value === choices[0]!.value || !choices.some((c) => c.value === g.weight.value) ? '' : g.weight.value;
    this.ctx.state.set({
      stackEvent: g.event.value,
      stackThread: numberOf(g.thread.value),
      process: numberOf(g.process.value),
      inverted: g.inverted.checked,
      weight,
      noStitch: !g.stitch.checked,
      ...readTransform(g.transform),
    });
    this.ctx.state.save();
    this.refresh();
  }

  dispose(): void {
    this.flame?.dispose();
  }
}

// web/src/views — Compare runs: several traces a side (baseline A, comparison B), compared as
// `nettrace diff --baseline A… --compare B… --format json` does (Welch's t-test per function
// share, Holm's correction; core/verdict/run_comparison.h), in an engine worker of its own
// (engine/worker_client.ts compareRunsInWorker): the page's thread only sends the files and
// draws the document. Shown: the differential flame graph of the mean shares (the flame graph
// of flame_view.ts laid out on B's means, red where a share grew and blue where it shrank, grey
// where the change is not significant), the flagged functions, and the runtime totals.
// Trace strings (file and frame names) only go through textContent and fillText.
import type { RunDiffResult } from '../api/generated/results.js';
import type { StackQuery } from '../api/handle.js';
import type { FlameGraphData } from '../api/types.js';
import { compareRunsInWorker } from '../engine/worker_client.js';
import type { WorkerOptions } from '../engine/worker_client.js';
import { fmt, h } from '../ui/dom.js';
import { DEFAULT_STACK_EVENT, formatWeight } from '../ui/units.js';
import { weightChoices } from './weights.js';
import { FlameGraph } from './flame_view.js';
import type { FlameOverlay } from './flame_view.js';
import { changeBucket } from './flame_palette.js';
import { functionsTable, points, share, totalsTable } from './runs_tables.js';

/** The stack event types offered (a run's traces are read only when compared). */
const EVENTS = [DEFAULT_STACK_EVENT, 'AllocationSampling', 'GC/AllocationTick', 'Contention/Start'];

/** What the link keeps of the comparison (app/state.ts runs*): never the files. */
export interface RunsOptions {
  event: string;
  weight: string;
}

type SideName = 'a' | 'b';

/** One side's files: a drop zone, a picker, the list (each file removable). */
class RunSide {
  readonly files: File[] = [];
  readonly box: HTMLElement;
  private readonly list: HTMLElement;
  onChange: (() => void) | null = null;

  constructor(side: SideName, title: string) {
    const input = h('input', { attrs: { type: 'file', id: `runs-${side}-files`, accept: '.nettrace,.netperf', multiple: '', hidden: '' } });
    const choose = h('button', { text: 'Choose files…', attrs: { type: 'button', id: `runs-${side}-choose` } });
    const clear = h('button', { text: 'Clear', attrs: { type: 'button', id: `runs-${side}-clear` } });
    this.list = h('ol', { class: 'runs-files', attrs: { id: `runs-${side}-list` } });
    this.box = h(
      'div',
      { class: 'runs-side drop', attrs: { id: `runs-${side}`, tabindex: '0', 'aria-label': `${title}: drop trace files here` } },
      h('h3', { text: title }),
      h('p', { class: 'actions' }, 'Drop traces here, or ', choose, ' ', clear, input),
      this.list,
    );
    input.addEventListener('change', () => {
      this.add([...(input.files ?? [])]);
      input.value = '';
    });
    choose.addEventListener('click', () => input.click());
    this.box.addEventListener('keydown', (e) => {
      if (e.target === this.box && (e.key === 'Enter' || e.key === ' ')) {
        e.preventDefault();
        input.click();
      }
    });
    clear.addEventListener('click', () => {
      this.files.length = 0;
      this.changed();
    });
    // A drop here is this side's, not the analyzer's "open this trace" (sources.ts).
    this.box.addEventListener('dragover', (e) => {
      e.preventDefault();
      e.stopPropagation();
      this.box.classList.add('over');
    });
    this.box.addEventListener('dragleave', () => this.box.classList.remove('over'));
    this.box.addEventListener('drop', (e) => {
      e.preventDefault();
      e.stopPropagation();
      this.box.classList.remove('over');
      this.add([...(e.dataTransfer?.files ?? [])]);
    });
  }

  private add(files: File[]): void {
    if (files.length === 0) return;
    this.files.push(...files);
    this.changed();
  }

  /** Each run's total weight in the comparison shown (the files listed in the same order). */
  showTotals(totals: number[], amount: (v: number) => string): void {
    this.list.querySelectorAll('li').forEach((li, i) => {
      const total = totals[i];
      li.querySelector('.runs-total')?.remove();
      if (total === undefined) return;
      li.dataset['total'] = String(total);
      li.append(h('span', { class: 'runs-total muted', text: ` · ${amount(total)}` }));
    });
  }

  private changed(): void {
    this.list.replaceChildren(
      ...this.files.map((f, i) => {
        const remove = h('button', { text: '✕', class: 'link', attrs: { type: 'button', title: `Remove ${f.name}`, 'aria-label': `Remove ${f.name}` } });
        remove.addEventListener('click', () => {
          this.files.splice(i, 1);
          this.changed();
        });
        return h('li', {}, h('span', { text: `${f.name} ` }), h('span', { class: 'muted', text: `(${fmt(f.size)} bytes) ` }), remove);
      }),
    );
    this.onChange?.();
  }
}

export class RunsView {
  readonly root: HTMLElement;
  private readonly a = new RunSide('a', 'Baseline (A)');
  private readonly b = new RunSide('b', 'Comparison (B)');
  private readonly event: HTMLSelectElement;
  private readonly weight: HTMLSelectElement;
  private readonly status: HTMLElement;
  private readonly result: HTMLElement;
  private readonly tables: HTMLElement;
  private readonly json: HTMLElement;
  private readonly graph: FlameGraph;
  private readonly search: HTMLInputElement;
  /** The latest comparison asked for: a new one ends the older one's worker. */
  private generation = 0;
  private running: AbortController | null = null;
  /** The options changed (the analyzer keeps them in the link). */
  onOptions: ((options: RunsOptions) => void) | null = null;
  /** Close: back to the landing area. */
  readonly close: HTMLButtonElement;

  constructor(private readonly workerOptions: WorkerOptions = {}) {
    this.event = h('select', { attrs: { id: 'runs-event' } }, ...EVENTS.map((e) => h('option', { text: e, attrs: { value: e } })));
    this.weight = h('select', { attrs: { id: 'runs-weight' } });
    this.close = h('button', { text: 'Close', attrs: { type: 'button', id: 'runs-close' } });
    this.search = h('input', { attrs: { type: 'search', id: 'runs-search', placeholder: 'function name' } });
    const searchResult = h('span', { class: 'muted', attrs: { id: 'runs-search-result' } });
    this.status = h('p', { attrs: { id: 'runs-status', role: 'status' }, text: 'Add two traces or more to each side (one run each).' });
    const canvas = h('canvas', { attrs: { id: 'runs-canvas', tabindex: '0', 'aria-label': 'Differential flame graph of the mean shares' } });
    const tooltip = h('div', { class: 'tooltip', attrs: { id: 'runs-tooltip', hidden: '' } });
    const breadcrumb = h('div', { class: 'breadcrumb', attrs: { id: 'runs-breadcrumb' } });
    this.graph = new FlameGraph(canvas, tooltip, breadcrumb, searchResult);
    this.tables = h('div', { class: 'runs-tables' });
    this.json = h('pre', { attrs: { id: 'runs-json' } });
    this.result = h(
      'div',
      { class: 'runs-result', attrs: { id: 'runs-result', 'data-state': 'idle', hidden: '' } },
      h('p', { class: 'hint', text: 'Widths: the comparison\'s mean weights. Red: a share that grew, blue: one that shrank (the deeper, the larger); grey: no significant change. Frames only in the baseline have no width: see the table.' }),
      breadcrumb,
      h('div', { class: 'canvas-box runs-canvas-box' }, canvas, tooltip),
      this.tables,
      h('details', { class: 'raw' }, h('summary', { text: 'Comparison JSON (nettrace diff --baseline … --compare … --format json)' }), this.json),
    );
    const controls = h(
      'form',
      { class: 'filters toolbar', attrs: { id: 'runs-controls' } },
      h('label', {}, 'Stacks ', this.event),
      h('label', {}, 'Weight ', this.weight),
      h('label', {}, 'Search ', this.search),
      searchResult,
      this.close,
    );
    this.root = h(
      'section',
      { class: 'runs', attrs: { id: 'runs', hidden: '' } },
      h('h2', { text: 'Compare runs' }),
      h('p', { class: 'intro', text: 'Several recordings of each version, one run per trace: what changed beyond the noise between runs, function by function (Welch\'s t-test of the shares, Holm\'s correction), as nettrace diff --baseline … --compare … computes it. The files never leave this page.' }),
      h('div', { class: 'runs-sides' }, this.a.box, this.b.box),
      controls,
      this.status,
      this.result,
    );
    controls.addEventListener('submit', (e) => e.preventDefault());
    this.search.addEventListener('input', () => this.graph.search(this.search.value));
    this.event.addEventListener('change', () => {
      this.offerWeights('');
      this.optionsChanged();
    });
    this.weight.addEventListener('change', () => this.optionsChanged());
    this.a.onChange = this.b.onChange = () => void this.compare();
    this.offerWeights('');
  }

  /** Takes the options of the link (unknown values fall back to the defaults). */
  setOptions(options: RunsOptions): void {
    this.event.value = EVENTS.includes(options.event) ? options.event : DEFAULT_STACK_EVENT;
    this.offerWeights(options.weight);
  }

  private offerWeights(picked: string): void {
    const choices = [{ value: 'auto', label: 'auto (as nettrace diff)' }, ...weightChoices(this.event.value).filter((c) => c.value !== 'auto')];
    this.weight.replaceChildren(...choices.map((c) => h('option', { text: c.label, attrs: { value: c.value } })));
    this.weight.value = choices.some((c) => c.value === picked) ? picked : 'auto';
  }

  private optionsChanged(): void {
    this.onOptions?.({ event: this.event.value === DEFAULT_STACK_EVENT ? '' : this.event.value, weight: this.weight.value === 'auto' ? '' : this.weight.value });
    void this.compare();
  }

  /** The stack selection: what `nettrace diff` takes as --event and --weight (defaults left out). */
  private query(): StackQuery {
    const q: StackQuery = {};
    if (this.event.value !== DEFAULT_STACK_EVENT) q.event = this.event.value;
    if (this.weight.value !== 'auto') q.weight = this.weight.value as NonNullable<StackQuery['weight']>;
    return q;
  }

  /** Compares the sides when both have traces (each change asks again; the latest wins). */
  async compare(): Promise<void> {
    const generation = ++this.generation;
    this.running?.abort();
    this.running = null;
    const [a, b] = [[...this.a.files], [...this.b.files]];
    if (a.length === 0 || b.length === 0) {
      this.result.hidden = true;
      this.result.dataset['state'] = 'idle';
      this.status.textContent = 'Add two traces or more to each side (one run each).';
      return;
    }
    this.result.dataset['state'] = 'working';
    this.status.textContent = `Comparing ${a.length} run${a.length === 1 ? '' : 's'} with ${b.length}…`;
    const running = (this.running = new AbortController());
    try {
      const r = await compareRunsInWorker(a, b, { ...this.workerOptions, query: this.query(), signal: running.signal });
      if (generation !== this.generation) return;
      this.render(r);
      this.result.dataset['state'] = 'done';
    } catch (e) {
      if (generation !== this.generation) return;
      this.result.hidden = true;
      this.result.dataset['state'] = 'error';
      this.status.textContent = `The comparison failed: ${e instanceof Error ? e.message : String(e)}`;
    }
  }

  private render(r: RunDiffResult): void {
    const event = this.event.value;
    const few = r.baseline.traces.length < 2 || r.comparison.traces.length < 2 ? ' With fewer than two runs a side nothing can be tested.' : '';
    const units = r.unitsAgree ? '' : ' The runs weigh in different units: add traces recorded alike.';
    this.status.textContent =
      `${fmt(r.flaggedFunctions)} function${r.flaggedFunctions === 1 ? '' : 's'} and ${fmt(r.flaggedTotals)} runtime total${r.flaggedTotals === 1 ? '' : 's'} changed significantly ` +
      `(${fmt(r.testedShares)} shares tested, α = ${r.method.alpha}, Holm).${few}${units}`;
    this.json.textContent = JSON.stringify(r);
    this.tables.replaceChildren(functionsTable(r, event), totalsTable(r));
    this.result.hidden = false;
    this.result.dataset['weight'] = this.weight.value;
    this.result.dataset['event'] = event;
    this.a.showTotals(r.baseline.totals, (v) => formatWeight(v, r.baseline.unit, event));
    this.b.showTotals(r.comparison.totals, (v) => formatWeight(v, r.comparison.unit, event));
    const { data, overlay } = differentialGraph(r, event);
    this.graph.setData(data, event, overlay);
    this.graph.search(this.search.value);
  }

  show(): void {
    this.root.hidden = false;
    this.graph.draw();
  }

  hide(): void {
    this.root.hidden = true;
  }

  dispose(): void {
    this.running?.abort();
    this.graph.dispose();
  }
}

/** The run tree as the flame graph's data (B's mean weights), with its colours and tooltips. */
function differentialGraph(r: RunDiffResult, event: string): { data: FlameGraphData; overlay: FlameOverlay } {
  const t = r.tree;
  const n = t.frame.length;
  const data: FlameGraphData = {
    unit: r.comparison.unit,
    total: n > 0 ? t.end[0]! - t.start[0]! : 0,
    frameNames: t.frames,
    frame: Uint32Array.from(t.frame),
    parent: Uint32Array.from(t.parent),
    depth: Uint32Array.from(t.depth),
    start: Float64Array.from(t.start),
    end: Float64Array.from(t.end),
    self: Float64Array.from(t.meanExclusiveB),
    count: new Float64Array(n),
  };
  const bucket = Uint8Array.from(t.delta, (d, i) => changeBucket(d, t.significant[i] === true));
  const amount = (v: number): string => formatWeight(v, r.comparison.unit, event);
  const level = Math.round(r.method.confidence * 100);
  const overlay: FlameOverlay = {
    bucket,
    describe: (node) => [
      `Mean A: ${amount(t.meanInclusiveA[node]!)} (${share(t.shareA[node]!)})`,
      `Mean B: ${amount(t.meanInclusiveB[node]!)} (${share(t.shareB[node]!)})`,
      `Difference: ${points(t.delta[node]!)} pts`,
      `${level} % interval (this node alone): ${points(t.ciLow[node]!)} to ${points(t.ciHigh[node]!)} pts`,
      t.tested[node]
        ? `p (Holm): ${t.pAdjusted[node]!.toPrecision(3)}${t.significant[node] ? ' (significant)' : ' (not significant)'}`
        : `Not tested (${node === 0 ? 'the whole' : `a mean share under ${r.method.minShare * 100} %, or a single run a side`})`,
    ],
  };
  return { data, overlay };
}

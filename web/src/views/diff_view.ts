// web/src/views — the A/B diff beside the flame graph: pick a baseline trace; the
// open trace is the comparison. Both are read again in a worker of their own (the diff needs
// both sessions in one engine; the page's trace lives in its own worker), diffed with the
// flame graph's query (api/diff.ts), then freed with that worker. Shows a differential flame graph laid out on the
// comparison's weights, coloured by the change of each frame's share (red: grew, blue:
// shrank), and the functions by change. Trace strings only go through textContent/fillText.
import type { StackQuery } from '../api/handle.js';
import type { StackDiffResult } from '../api/types.js';
import { diffTracesInWorker } from '../engine/worker_client.js';
import type { WorkerOptions } from '../engine/worker_client.js';
import { fmt, h } from '../ui/dom.js';
import { countNoun, DEFAULT_STACK_EVENT, formatWeight } from '../ui/units.js';

const ROW = 16;
/** Rows of the function table. */
const TABLE_ROWS = 200;

const signedPercent = (fraction: number): string => `${fraction > 0 ? '+' : ''}${(fraction * 100).toFixed(2)}%`;

/** Red for a share that grew, blue for one that shrank, grey for no change; saturated at ±10 points. */
function deltaColour(delta: number): string {
  const strength = Math.min(1, Math.abs(delta) * 10);
  if (delta === 0) return 'hsl(0, 0%, 80%)';
  return delta > 0 ? `hsl(0, ${30 + 60 * strength}%, ${80 - 25 * strength}%)` : `hsl(220, ${30 + 60 * strength}%, ${80 - 25 * strength}%)`;
}

export class DiffView {
  private readonly input: HTMLInputElement;
  private readonly status: HTMLElement;
  private readonly body: HTMLElement;
  private comparison: Blob | string | null = null;
  private baseline: File | null = null;
  private queryKey = '';

  /** The engine worker script the analyzer uses (embedding: workerUrl). */
  constructor(
    private readonly root: HTMLElement,
    private readonly workerOptions: WorkerOptions = {},
  ) {
    this.input = h('input', { attrs: { type: 'file', id: 'diff-baseline', accept: '.nettrace,.netperf' } });
    this.status = h('p', { class: 'diff-status', text: 'Choose a baseline trace: the open trace is compared against it.' });
    this.body = h('div', { class: 'diff-body' });
    this.root.replaceChildren(h('label', { text: 'Baseline trace ' }, this.input), this.status, this.body);
    this.input.addEventListener('change', () => {
      this.baseline = this.input.files?.[0] ?? null;
      this.queryKey = '';
      this.onChange?.();
    });
  }

  /** Called when a baseline is picked (the analyzer then calls show with its query). */
  onChange: (() => void) | null = null;

  /** The open trace's source (re-read here for the diff). */
  setComparison(source: Blob | string | null): void {
    this.comparison = source;
    this.queryKey = '';
    this.body.replaceChildren();
  }

  /** Diffs the comparison against the chosen baseline with `query` (once per query). */
  async show(query: StackQuery): Promise<void> {
    if (this.baseline === null || this.comparison === null) return;
    const key = JSON.stringify([query, this.baseline.name, this.baseline.size]);
    if (key === this.queryKey) return;
    this.queryKey = key;
    this.status.textContent = `Comparing against ${this.baseline.name}…`;
    this.root.dataset['state'] = 'working';
    try {
      const diff = await diffTracesInWorker(this.baseline, this.comparison, { ...this.workerOptions, query, maxFunctions: TABLE_ROWS });
      if (key !== this.queryKey) return; // a newer query took over
      const event = query.event ?? DEFAULT_STACK_EVENT;
      this.render(diff, event);
      const total = (t: StackDiffResult['baseline']): string => formatWeight(t.total, t.unit, event);
      this.status.textContent = `Baseline ${this.baseline.name}: ${total(diff.baseline)}; this trace: ${total(diff.comparison)}.`;
    } catch (e) {
      this.status.textContent = `The diff failed: ${e instanceof Error ? e.message : String(e)}`;
    } finally {
      this.root.dataset['state'] = 'done';
    }
  }

  private render(diff: StackDiffResult, event: string): void {
    const canvas = h('canvas', { class: 'diff-flame' });
    // Times and bytes with their unit in each cell; counts as numbers, their noun in the caption.
    const unit = diff.comparison.unit;
    const counted = unit !== 'nanoseconds' && unit !== 'bytes';
    const amount = (v: number): string => (counted ? fmt(v) : formatWeight(v, unit, event));
    // The engine's value stays on the cell (data-value): what the text rounds.
    const cell = (v: number): HTMLTableCellElement => h('td', { text: amount(v), attrs: { 'data-value': String(v) } });
    const table = h(
      'table',
      { class: 'diff-table' },
      h('caption', { text: `Functions by change${counted ? ` (A, B: ${countNoun(event)})` : ''}` }),
      h(
        'thead',
        {},
        h('tr', {}, ...['Function', 'Excl. A', 'Excl. B', 'Δ excl.', 'Incl. A', 'Incl. B', 'Δ incl.'].map((t) => h('th', { text: t }))),
      ),
      h(
        'tbody',
        {},
        ...diff.functions.map((f) =>
          h(
            'tr',
            {},
            h('td', { class: 'diff-name', text: f.name, attrs: { title: f.name } }),
            cell(f.exclusiveA),
            cell(f.exclusiveB),
            h('td', { text: signedPercent(f.exclusiveDelta) }),
            cell(f.inclusiveA),
            cell(f.inclusiveB),
            h('td', { text: signedPercent(f.inclusiveDelta) }),
          ),
        ),
      ),
    );
    this.body.replaceChildren(
      h('p', { class: 'hint', text: 'Widths: this trace. Red: a larger share than in the baseline; blue: smaller. Frames only in the baseline have no width: see the table.' }),
      canvas,
      table,
    );
    this.draw(canvas, diff);
  }

  private draw(canvas: HTMLCanvasElement, diff: StackDiffResult): void {
    const t = diff.tree;
    const depth = t.depth.reduce((m, d) => Math.max(m, d), 0) + 1;
    const width = Math.max(300, this.body.clientWidth || 600);
    const ratio = window.devicePixelRatio || 1;
    canvas.width = width * ratio;
    canvas.height = depth * ROW * ratio;
    canvas.style.width = `${width}px`;
    canvas.style.height = `${depth * ROW}px`;
    const ctx = canvas.getContext('2d');
    if (ctx === null || diff.comparison.total === 0) return;
    ctx.scale(ratio, ratio);
    ctx.font = '11px sans-serif';
    const scale = width / diff.comparison.total;
    for (let n = 0; n < t.frame.length; n++) {
      const w = (t.end[n]! - t.start[n]!) * scale;
      if (w < 0.5) continue;
      const x = t.start[n]! * scale;
      const y = t.depth[n]! * ROW;
      ctx.fillStyle = deltaColour(t.delta[n]!);
      ctx.fillRect(x, y, Math.max(0.5, w - 0.5), ROW - 1);
      if (w > 30) {
        ctx.fillStyle = '#000';
        ctx.save();
        ctx.beginPath();
        ctx.rect(x, y, w - 2, ROW);
        ctx.clip();
        ctx.fillText(t.frames[t.frame[n]!]!, x + 2, y + ROW - 4);
        ctx.restore();
      }
    }
  }

  clear(): void {
    this.setComparison(null);
  }
}

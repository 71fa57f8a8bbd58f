// web/src/views — the tables of Compare runs (runs_view.ts): the functions whose share changed
// significantly (grown, shrunk, appeared, disappeared) and the runtime views' totals, from the
// document of `nettrace diff --baseline … --compare … --format json`. Each number cell keeps
// the document's value in data-value (what its text rounds). Names are text, never HTML.
import type { RunDiffCompared, RunDiffResult } from '../api/generated/results.js';
import { h } from '../ui/dom.js';
import { formatWeight } from '../ui/units.js';

/** A share (a fraction) as a percentage. */
export const share = (fraction: number): string => `${(fraction * 100).toFixed(2)} %`;
/** A difference of shares in percentage points, signed. */
export const points = (fraction: number): string => `${fraction > 0 ? '+' : ''}${(fraction * 100).toFixed(2)}`;

/** A total's amounts: "25,150", "0.1234", never an exponent. */
const FOUR_DIGITS = new Intl.NumberFormat('en-US', { maximumSignificantDigits: 4 });

const sharePoints = (fraction: number): string => `${points(fraction)} pts`;

const FLAGGED = new Set(['grown', 'shrunk', 'appeared', 'disappeared']);

const cell = (text: string, value: number, cls = ''): HTMLTableCellElement =>
  h('td', { text, ...(cls ? { class: cls } : {}), attrs: { 'data-value': String(value) } });

const head = (caption: string, columns: string[]): HTMLElement[] => [
  h('caption', { text: caption }),
  h('thead', {}, h('tr', {}, ...columns.map((c) => h('th', { text: c })))),
];

/** Mean A, mean B, difference, interval, p (Holm) of one compared quantity: the means written
 *  by `show`, the difference and its interval by `change`. */
function comparedCells(c: RunDiffCompared, show: (v: number) => string, change: (v: number) => string): HTMLTableCellElement[] {
  return [
    cell(show(c.meanA), c.meanA),
    cell(show(c.meanB), c.meanB),
    cell(change(c.difference), c.difference),
    h('td', { text: `${change(c.ciLow)} to ${change(c.ciHigh)}`, attrs: { 'data-low': String(c.ciLow), 'data-high': String(c.ciHigh) } }),
    cell(c.tested ? c.pAdjusted.toPrecision(3) : 'not tested', c.pAdjusted),
  ];
}

/** The flagged functions, in the document's order (the biggest inclusive change first). */
export function functionsTable(r: RunDiffResult, event: string): HTMLElement {
  const flagged = r.functions.filter((f) => FLAGGED.has(f.change));
  const weight = (v: number): string => formatWeight(v, r.comparison.unit, event);
  const rows = flagged.map((f) =>
    h(
      'tr',
      { attrs: { 'data-change': f.change } },
      h('td', { class: 'runs-name', text: f.name, attrs: { title: f.name } }),
      h('td', { class: `runs-change ${f.change}`, text: f.change }),
      ...comparedCells(f.inclusive, share, sharePoints),
      ...comparedCells(f.exclusive, share, sharePoints),
      cell(weight(f.inclusiveWeight.meanA), f.inclusiveWeight.meanA),
      cell(weight(f.inclusiveWeight.meanB), f.inclusiveWeight.meanB),
    ),
  );
  const level = `${Math.round(r.method.confidence * 100)} % interval`;
  const columns = ['Function', 'Change', 'Incl. A', 'Incl. B', 'Δ incl.', level, 'p (Holm)', 'Excl. A', 'Excl. B', 'Δ excl.', level, 'p (Holm)', 'Incl. weight A', 'Incl. weight B'];
  const caption = flagged.length === 0 ? 'No function changed significantly' : `Functions that changed significantly (shares of each run's total; mean over the runs)`;
  return h('table', { class: 'diff-table runs-table', attrs: { id: 'runs-functions' } }, ...head(caption, columns), h('tbody', {}, ...rows));
}

/** Every runtime total compared (GC pause, allocation, exceptions, JIT, …); the flagged ones marked. */
export function totalsTable(r: RunDiffResult): HTMLElement {
  const number = (v: number): string => FOUR_DIGITS.format(v);
  const rows = r.totals.map((t) =>
    h(
      'tr',
      { attrs: { 'data-change': t.change }, ...(FLAGGED.has(t.change) ? { class: 'flagged' } : {}) },
      h('td', { class: 'runs-name', text: t.metric }),
      h('td', { text: t.unit }),
      h('td', { class: `runs-change ${t.change}`, text: t.change }),
      ...comparedCells(t.values, number, (v) => (v > 0 ? `+${number(v)}` : number(v))),
    ),
  );
  return h(
    'table',
    { class: 'diff-table runs-table', attrs: { id: 'runs-totals' } },
    ...head('Runtime totals (per run; mean over the runs)', ['Metric', 'Unit', 'Change', 'Mean A', 'Mean B', 'Difference', `${Math.round(r.method.confidence * 100)} % interval`, 'p (Holm)']),
    h('tbody', {}, ...rows),
  );
}

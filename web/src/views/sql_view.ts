// web/src/views — the SQL tab's result: a virtualized table (only the rows in view are in the
// DOM, whatever the result's size) and, when the result has two numeric columns or more, a
// chart of the second against the first. Cells are data: they reach the DOM through
// textContent, and the chart's labels through canvas fillText, never as HTML.
import { fmt, h } from '../ui/dom.js';

/** How a column's cells are shown: numbers are charted and right-aligned, times (Arrow gives
 *  epoch milliseconds) written as ISO-8601 UTC. */
export type SqlColumnKind = 'number' | 'timestamp' | 'date' | 'other';

/** A query's result as this table shows it (analyzer/sql_database.ts gives it): its columns
 *  and its cells, read from the Arrow table when shown. */
export interface SqlResult {
  columns: string[];
  kinds: SqlColumnKind[];
  rowCount: number;
  /** The cell as DuckDB gave it (bigint, number, string, boolean, null, …). */
  cell(row: number, column: number): unknown;
}

const ROW_PX = 24;
/** Rows the table lets one scroll through: a taller scroller than ~16.7 M px is clipped by
 *  browsers (Chromium 33.5 M, Firefox 17.9 M), so a larger result shows its first rows. */
const MAX_SHOWN_ROWS = 500_000;

/** A cell as text: null as NULL, a time as ISO-8601 UTC, a nested value as JSON. */
export function cellText(value: unknown, kind: SqlColumnKind): string {
  if (value === null || value === undefined) return 'NULL';
  if (kind === 'timestamp' && typeof value === 'number') return new Date(value).toISOString();
  if (kind === 'date' && typeof value === 'number') return new Date(value).toISOString().slice(0, 10);
  if (typeof value === 'object' && !(value instanceof Date)) {
    return JSON.stringify(value, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v)) ?? String(value);
  }
  return value instanceof Date ? value.toISOString() : String(value);
}

export interface SqlTableParts {
  head: HTMLElement;
  scroller: HTMLElement;
  spacer: HTMLElement;
  rows: HTMLElement;
}

export class SqlResultTable {
  private result: SqlResult | null = null;
  private shown = 0;
  private frame = 0;

  constructor(private readonly parts: SqlTableParts) {
    parts.scroller.addEventListener('scroll', () => this.schedule());
    new ResizeObserver(() => this.schedule()).observe(parts.scroller);
  }

  show(result: SqlResult | null): void {
    this.result = result;
    this.shown = result === null ? 0 : Math.min(result.rowCount, MAX_SHOWN_ROWS);
    const { head, scroller, spacer } = this.parts;
    const columns = result?.columns ?? [];
    const template = `repeat(${Math.max(1, columns.length)}, minmax(8rem, 1fr))`;
    // Wider than the scroller when the columns need it: the head and the rows scroll together.
    const minWidth = `${Math.max(1, columns.length) * 8}rem`;
    for (const e of [head, this.parts.rows]) e.style.gridTemplateColumns = template, (e.style.minWidth = minWidth);
    head.replaceChildren(...columns.map((c, i) => h('span', { class: result!.kinds[i] === 'number' ? 'num' : '', text: c, attrs: { role: 'columnheader', title: c } })));
    spacer.style.height = `${this.shown * ROW_PX}px`;
    scroller.scrollTop = 0;
    scroller.dataset['rows'] = String(result?.rowCount ?? 0);
    this.render();
  }

  private schedule(): void {
    if (this.frame !== 0) return;
    this.frame = requestAnimationFrame(() => {
      this.frame = 0;
      this.render();
    });
  }

  private render(): void {
    const { scroller, rows } = this.parts;
    const result = this.result;
    if (result === null) return void rows.replaceChildren();
    const first = Math.max(0, Math.min(Math.floor(scroller.scrollTop / ROW_PX), this.shown - 1));
    const last = Math.min(this.shown, first + Math.ceil(scroller.clientHeight / ROW_PX) + 1);
    rows.style.transform = `translateY(${first * ROW_PX}px)`;
    const out: HTMLElement[] = [];
    for (let r = first; r < last; r++) {
      const row = h('div', { class: 'sql-row', attrs: { role: 'row' } });
      row.style.gridTemplateColumns = rows.style.gridTemplateColumns;
      row.style.minWidth = rows.style.minWidth;
      row.dataset['row'] = String(r);
      for (let c = 0; c < result.columns.length; c++) {
        const text = cellText(result.cell(r, c), result.kinds[c]!);
        row.append(h('span', { class: result.kinds[c] === 'number' ? 'num' : '', text, attrs: { role: 'gridcell', title: text } }));
      }
      out.push(row);
    }
    rows.replaceChildren(...out);
  }
}

/** The line under the editor: rows, time, and what is not shown. */
export function resultLine(result: SqlResult, ms: number): string {
  const more = result.rowCount > MAX_SHOWN_ROWS ? ` (the first ${fmt(MAX_SHOWN_ROWS)} shown)` : '';
  return `${fmt(result.rowCount)} row${result.rowCount === 1 ? '' : 's'}${more} in ${ms.toFixed(0)} ms`;
}

/** The first two numeric columns (x, y), or null when the result has fewer. */
export function chartColumns(result: SqlResult): [number, number] | null {
  const numeric = result.kinds.flatMap((k, i) => (k === 'number' ? [i] : []));
  return numeric.length >= 2 ? [numeric[0]!, numeric[1]!] : null;
}

const asNumber = (v: unknown): number => (typeof v === 'bigint' ? Number(v) : typeof v === 'number' ? v : NaN);

/**
 * Draws y against x: points, joined by a line when x only grows (a series over time). The
 * axes' ends are labelled with their values and the columns' names. @returns points drawn.
 */
export function drawChart(canvas: HTMLCanvasElement, result: SqlResult, x: number, y: number): number {
  const n = Math.min(result.rowCount, MAX_SHOWN_ROWS);
  const xs = new Float64Array(n);
  const ys = new Float64Array(n);
  let count = 0;
  let rising = true;
  for (let r = 0; r < n; r++) {
    const a = asNumber(result.cell(r, x));
    const b = asNumber(result.cell(r, y));
    if (!Number.isFinite(a) || !Number.isFinite(b)) continue;
    if (count > 0 && a < xs[count - 1]!) rising = false;
    xs[count] = a, ys[count] = b, count++;
  }
  const ratio = window.devicePixelRatio || 1;
  const width = canvas.clientWidth || 600;
  const height = canvas.clientHeight || 240;
  canvas.width = Math.round(width * ratio);
  canvas.height = Math.round(height * ratio);
  const g = canvas.getContext('2d');
  if (g === null) return 0;
  g.setTransform(ratio, 0, 0, ratio, 0, 0);
  g.clearRect(0, 0, width, height);
  const style = getComputedStyle(canvas);
  const ink = style.color;
  const accent = style.getPropertyValue('--accent').trim() || '#3b6fd4';
  const pad = { left: 64, right: 12, top: 12, bottom: 36 };
  const range = (v: Float64Array): [number, number] => {
    let lo = Infinity, hi = -Infinity;
    for (let i = 0; i < count; i++) lo = Math.min(lo, v[i]!), hi = Math.max(hi, v[i]!);
    return lo === hi ? [lo - 1, hi + 1] : [lo, hi];
  };
  const [x0, x1] = range(xs);
  const [y0, y1] = range(ys);
  const px = (v: number): number => pad.left + ((v - x0) / (x1 - x0)) * (width - pad.left - pad.right);
  const py = (v: number): number => height - pad.bottom - ((v - y0) / (y1 - y0)) * (height - pad.top - pad.bottom);
  g.strokeStyle = ink;
  g.globalAlpha = 0.5;
  g.strokeRect(pad.left, pad.top, width - pad.left - pad.right, height - pad.top - pad.bottom);
  g.globalAlpha = 1;
  g.fillStyle = ink;
  g.font = '11px system-ui, sans-serif';
  const label = (v: number): string => (Math.abs(v) >= 1e6 || (v !== 0 && Math.abs(v) < 1e-3) ? v.toExponential(2) : String(Number(v.toFixed(3))));
  if (count > 0) {
    g.textAlign = 'right';
    g.fillText(label(y1), pad.left - 4, pad.top + 10);
    g.fillText(label(y0), pad.left - 4, height - pad.bottom);
    g.textAlign = 'left';
    g.fillText(label(x0), pad.left, height - pad.bottom + 14);
    g.textAlign = 'right';
    g.fillText(label(x1), width - pad.right, height - pad.bottom + 14);
  }
  g.textAlign = 'center';
  g.fillText(`${result.columns[y]!} by ${result.columns[x]!}`, (pad.left + width - pad.right) / 2, height - 6);
  g.strokeStyle = accent;
  g.fillStyle = accent;
  if (rising && count > 1) {
    g.beginPath();
    for (let i = 0; i < count; i++) (i === 0 ? g.moveTo : g.lineTo).call(g, px(xs[i]!), py(ys[i]!));
    g.stroke();
  }
  const dot = count > 2000 ? 1.5 : 3;
  for (let i = 0; i < count; i++) g.fillRect(px(xs[i]!) - dot / 2, py(ys[i]!) - dot / 2, dot, dot);
  canvas.dataset['points'] = String(count);
  return count;
}

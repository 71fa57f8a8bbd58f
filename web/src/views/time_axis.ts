// web/src/views — pure arithmetic of the timeline's time axis and lanes (no DOM, so Node tests
// import it from dist/): tick choice in ms/s, zoom and pan of the visible range, and the
// packing of nested activity slices into rows (Perfetto-style: a child below its parent, two
// slices that overlap in time never on one row).

/** A visible time range in ms from the trace's sync time, from < to. */
export interface TimeRange {
  fromMs: number;
  toMs: number;
}

/** Ticks of an axis: their times (ms) and the step between them (ms). */
export interface Ticks {
  stepMs: number;
  ticksMs: number[];
}

/** The smallest of 1, 2, 5 × 10^k (ms) that keeps at most `maxTicks` ticks over the range. */
export function chooseTicks(range: TimeRange, maxTicks: number): Ticks {
  const span = range.toMs - range.fromMs;
  if (!(span > 0) || maxTicks < 1) return { stepMs: 0, ticksMs: [] };
  const rough = span / maxTicks;
  const power = Math.pow(10, Math.floor(Math.log10(rough)));
  let stepMs = 10 * power;
  for (const m of [1, 2, 5]) {
    if (m * power >= rough) {
      stepMs = m * power;
      break;
    }
  }
  const ticksMs: number[] = [];
  const first = Math.ceil(range.fromMs / stepMs);
  for (let k = first; k * stepMs <= range.toMs + stepMs * 1e-9; k++) {
    // k * step, not repeated addition: no drift, and exact multiples print cleanly.
    ticksMs.push(Number((k * stepMs).toPrecision(12)));
  }
  return { stepMs, ticksMs };
}

/** Decimals a step needs so that neighbouring ticks differ in print. */
function decimalsFor(step: number): number {
  return step >= 1 ? 0 : Math.min(9, Math.ceil(-Math.log10(step) - 1e-9));
}

/** A tick's label: seconds when the step is ≥ 1 s ("1.5 s"), else ms ("250 ms", "0.25 ms"). */
export function formatTick(ms: number, stepMs: number): string {
  if (stepMs >= 1000) return `${(ms / 1000).toFixed(decimalsFor(stepMs / 1000))} s`;
  return `${ms.toFixed(decimalsFor(stepMs))} ms`;
}

/** A time for the readout: ms with 3 decimals (µs), as every table of the app shows times. */
export function formatReadoutTime(ms: number): string {
  return `${ms.toFixed(3)} ms`;
}

/**
 * The range zoomed by `factor` (< 1 zooms in) around `anchorMs`, which keeps its place on the
 * screen; kept inside `bounds`, and never narrower than `minSpanMs`.
 */
export function zoomRange(view: TimeRange, anchorMs: number, factor: number, bounds: TimeRange, minSpanMs = 1e-3): TimeRange {
  const span = view.toMs - view.fromMs;
  const fullSpan = bounds.toMs - bounds.fromMs;
  const newSpan = Math.min(fullSpan, Math.max(minSpanMs, span * factor));
  const share = span > 0 ? (anchorMs - view.fromMs) / span : 0.5;
  return clampRange({ fromMs: anchorMs - share * newSpan, toMs: anchorMs - share * newSpan + newSpan }, bounds);
}

/** The range moved by `deltaMs`, its span kept, inside `bounds`. */
export function panRange(view: TimeRange, deltaMs: number, bounds: TimeRange): TimeRange {
  return clampRange({ fromMs: view.fromMs + deltaMs, toMs: view.toMs + deltaMs }, bounds);
}

function clampRange(view: TimeRange, bounds: TimeRange): TimeRange {
  const span = Math.min(view.toMs - view.fromMs, bounds.toMs - bounds.fromMs);
  let fromMs = Math.max(bounds.fromMs, Math.min(view.fromMs, bounds.toMs - span));
  if (!Number.isFinite(fromMs)) fromMs = bounds.fromMs;
  return { fromMs, toMs: fromMs + span };
}

/** A slice to place: its time span and its parent's index (earlier in the list), or null. */
export interface SliceInput {
  startMs: number;
  endMs: number;
  parent: number | null;
}

/**
 * The row of each slice: slices taken by start time, each on the first row at or below its
 * parent's row + 1 whose previous slice has ended — so children sit under their parent and
 * concurrent slices (other requests, other threads) get rows of their own. Returns the rows
 * (same order as `slices`) and the row count.
 */
export function packSlices(slices: readonly SliceInput[]): { rows: number[]; rowCount: number } {
  const order = slices.map((_, i) => i).sort((a, b) => slices[a]!.startMs - slices[b]!.startMs || a - b);
  const rows = new Array<number>(slices.length).fill(0);
  const rowEnds: number[] = [];
  for (const i of order) {
    const s = slices[i]!;
    let row = s.parent === null ? 0 : rows[s.parent]! + 1;
    while (row < rowEnds.length && rowEnds[row]! > s.startMs) row++;
    rows[i] = row;
    rowEnds[row] = Math.max(s.endMs, s.startMs);
  }
  return { rows, rowCount: rowEnds.length };
}

/** Index of the last element of the sorted `times` that is ≤ `t` (-1 when none). */
export function lastAtOrBefore(times: ArrayLike<number>, t: number): number {
  let lo = 0;
  let hi = times.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (times[mid]! <= t) lo = mid + 1;
    else hi = mid;
  }
  return lo - 1;
}

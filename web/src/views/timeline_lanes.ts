// web/src/views — the timeline's lanes (issues 13 and 14): a time axis with ms/s ticks, one
// lane of sample (or event) density per thread, the GC heap size (before → after each GC),
// each GC's pause as a bar, and Start/Stop activities as nested slices, on one canvas that
// shares its visible range (zoom, pan) with the time-order chart. A click on a pause bar or a
// slice selects its time range in every view; the readout under the canvas says the time and
// each lane's value at the cursor. Trace strings (thread, activity names) are drawn with
// fillText or written with textContent only.
//
// Coordinate spaces: "ms" = ms from the trace's sync time; "css px" = canvas pixels, the
// plot starting at GUTTER_PX (lane labels left of it).
import type { GcRecord } from '../api/types.js';
import type { ActivitiesView } from '../api/event_views.js';
import { chooseTicks, formatReadoutTime, formatTick, lastAtOrBefore, packSlices } from './time_axis.js';
import type { TimeRange } from './time_axis.js';
import { gcRange } from './gc_view.js';
import type { SharedView } from './shared_view.js';

export const GUTTER_PX = 140;

// Canvas x ↔ trace time for a plot right of the lane labels: one mapping for the lanes and the
// time-order chart, which share the visible range and so must agree to the pixel.
export function plotWidthOf(canvas: HTMLCanvasElement): number {
  return Math.max(1, (canvas.clientWidth || 800) - GUTTER_PX);
}
export function msAtPx(canvas: HTMLCanvasElement, v: TimeRange, xPx: number): number {
  return v.fromMs + ((xPx - GUTTER_PX) / plotWidthOf(canvas)) * (v.toMs - v.fromMs);
}
export function pxAtMs(canvas: HTMLCanvasElement, v: TimeRange, ms: number): number {
  return GUTTER_PX + ((ms - v.fromMs) / (v.toMs - v.fromMs || 1)) * plotWidthOf(canvas);
}
const AXIS_PX = 20;
const THREAD_PX = 14;
const HEAP_PX = 40;
const PAUSE_PX = 14;
const SLICE_PX = 14;
const MAX_SLICE_ROWS = 24;

/** One thread's density over the visible range (counts per equal bucket). */
export interface ThreadDensity {
  threadId: number;
  label: string;
  fromMs: number;
  toMs: number;
  counts: Float64Array;
}

export type Activity = ActivitiesView['activities'][number];

export interface Lane {
  kind: 'axis' | 'thread' | 'heap' | 'pauses' | 'activities';
  label: string;
  top: number;
  height: number;
}

/** A drawn mark a click or the cursor can hit. */
interface Hit {
  kind: 'pause' | 'slice';
  x: number;
  y: number;
  w: number;
  h: number;
  index: number;
}

export class TimelineLanes {
  private threads: ThreadDensity[] = [];
  private densityUnit = 'samples';
  private gcs: GcRecord[] = [];
  private activities: Activity[] = [];
  private sliceRows: number[] = [];
  private sliceRowCount = 0;
  private lanes: Lane[] = [];
  private hits: Hit[] = [];
  private drag: { startPx: number; lastPx: number; pan: boolean; moved: boolean } | null = null;
  /** The time range every view is narrowed to (the analyzer's), shaded; or null. */
  private selection: [number, number] | null = null;
  private readonly g: CanvasRenderingContext2D;

  constructor(
    readonly canvas: HTMLCanvasElement,
    private readonly readout: HTMLElement,
    private readonly view: SharedView,
    private readonly onSelect: (fromMs: number, toMs: number) => void,
  ) {
    const g = canvas.getContext('2d');
    if (g === null) throw new Error('no 2D canvas');
    this.g = g;
    canvas.addEventListener('wheel', (e) => {
      e.preventDefault();
      this.view.zoomAt(this.msAt(e.offsetX), Math.pow(1.2, e.deltaY / 100));
    }, { passive: false });
    canvas.addEventListener('pointerdown', (e) => {
      canvas.setPointerCapture(e.pointerId);
      this.drag = { startPx: e.offsetX, lastPx: e.offsetX, pan: e.shiftKey || e.button === 1, moved: false };
    });
    canvas.addEventListener('pointermove', (e) => {
      this.showReadout(e.offsetX, e.offsetY);
      const d = this.drag;
      if (d === null) return;
      if (Math.abs(e.offsetX - d.startPx) >= 3) d.moved = true;
      if (d.pan) this.view.panBy(this.msAt(d.lastPx) - this.msAt(e.offsetX));
      d.lastPx = e.offsetX;
      if (!d.pan) this.draw();
    });
    canvas.addEventListener('pointerup', (e) => {
      const d = this.drag;
      this.drag = null;
      if (d === null) return;
      if (!d.moved) return this.click(e.offsetX, e.offsetY);
      if (!d.pan) this.view.set({ fromMs: this.msAt(Math.min(d.startPx, e.offsetX)), toMs: this.msAt(Math.max(d.startPx, e.offsetX)) });
    });
    canvas.addEventListener('pointerleave', () => (this.readout.textContent = ''));
    // Keys: + / - zoom around the middle, arrows pan by a tenth, 0 shows the whole trace.
    canvas.tabIndex = 0;
    canvas.addEventListener('keydown', (e) => {
      const { fromMs, toMs } = this.view.range;
      const span = toMs - fromMs;
      if (e.key === '+' || e.key === '=') this.view.zoomAt((fromMs + toMs) / 2, 1 / 1.5);
      else if (e.key === '-') this.view.zoomAt((fromMs + toMs) / 2, 1.5);
      else if (e.key === 'ArrowLeft') this.view.panBy(-span / 10);
      else if (e.key === 'ArrowRight') this.view.panBy(span / 10);
      else if (e.key === '0') this.view.set(this.view.bounds);
      else return;
      e.preventDefault();
    });
  }

  setThreads(threads: ThreadDensity[], unit: string): void {
    this.threads = threads;
    this.densityUnit = unit;
    this.draw();
  }

  setGcs(gcs: GcRecord[]): void {
    this.gcs = [...gcs].sort((a, b) => a.startMs - b.startMs);
    this.canvas.dataset['pauses'] = String(this.gcs.length);
    this.draw();
  }

  setActivities(activities: Activity[]): void {
    this.activities = activities;
    const packed = packSlices(activities.map((a) => ({ startMs: a.startMs, endMs: a.startMs + (a.durationMs ?? 0), parent: a.parent })));
    this.sliceRows = packed.rows;
    this.sliceRowCount = Math.min(packed.rowCount, MAX_SLICE_ROWS);
    this.canvas.dataset['slices'] = String(activities.length);
    this.draw();
  }

  setSelection(selection: [number, number] | null): void {
    this.selection = selection;
    this.draw();
  }

  private plotWidth(): number {
    return plotWidthOf(this.canvas);
  }

  msAt(xPx: number): number {
    return msAtPx(this.canvas, this.view.range, xPx);
  }

  pxAt(ms: number): number {
    return pxAtMs(this.canvas, this.view.range, ms);
  }

  private layout(): Lane[] {
    const lanes: Lane[] = [{ kind: 'axis', label: '', top: 0, height: AXIS_PX }];
    let top = AXIS_PX;
    const add = (kind: Lane['kind'], label: string, height: number): void => {
      lanes.push({ kind, label, top, height });
      top += height;
    };
    for (const t of this.threads) add('thread', t.label, THREAD_PX);
    if (this.gcs.length > 0) {
      add('heap', 'GC heap MB', HEAP_PX);
      add('pauses', 'GC pauses', PAUSE_PX);
    }
    if (this.activities.length > 0) add('activities', 'Activities', Math.max(1, this.sliceRowCount) * SLICE_PX);
    return lanes;
  }

  draw(): void {
    this.lanes = this.layout();
    const last = this.lanes[this.lanes.length - 1]!;
    const heightPx = last.top + last.height + 2;
    const widthPx = this.canvas.parentElement?.clientWidth || 800;
    const ratio = window.devicePixelRatio || 1;
    this.canvas.style.width = `${widthPx}px`;
    this.canvas.style.height = `${heightPx}px`;
    this.canvas.width = Math.round(widthPx * ratio);
    this.canvas.height = Math.round(heightPx * ratio);
    const g = this.g;
    g.setTransform(ratio, 0, 0, ratio, 0, 0);
    g.clearRect(0, 0, widthPx, heightPx);
    g.font = '11px system-ui, sans-serif';
    g.textBaseline = 'middle';
    this.hits = [];
    const dark = matchMedia('(prefers-color-scheme: dark)').matches;
    const ink = dark ? '#ddd' : '#333';
    for (const lane of this.lanes) {
      g.fillStyle = ink;
      if (lane.kind !== 'axis') fillClipped(g, lane.label, 4, lane.top + Math.min(lane.height, THREAD_PX) / 2, GUTTER_PX - 8);
      if (lane.kind === 'axis') this.drawAxis(lane, widthPx, ink, heightPx);
      else if (lane.kind === 'thread') this.drawThread(lane, this.threads[this.lanes.indexOf(lane) - 1]!, dark);
      else if (lane.kind === 'heap') this.drawHeap(lane, dark);
      else if (lane.kind === 'pauses') this.drawPauses(lane, dark);
      else this.drawSlices(lane, dark);
    }
    if (this.selection !== null) {
      const x0 = Math.max(GUTTER_PX, this.pxAt(this.selection[0]));
      const x1 = Math.min(widthPx, this.pxAt(this.selection[1]));
      g.strokeStyle = dark ? '#7aa2ff' : '#2f6fde';
      if (x1 >= x0) g.strokeRect(x0 + 0.5, AXIS_PX + 0.5, Math.max(1, x1 - x0 - 1), heightPx - AXIS_PX - 1);
    }
    const d = this.drag;
    if (d !== null && !d.pan && d.moved) {
      g.fillStyle = dark ? 'rgb(120 160 255 / 25%)' : 'rgb(47 111 222 / 18%)';
      g.fillRect(Math.min(d.startPx, d.lastPx), 0, Math.abs(d.lastPx - d.startPx), heightPx);
    }
    const v = this.view.range;
    this.canvas.dataset['viewFrom'] = v.fromMs.toFixed(3);
    this.canvas.dataset['viewTo'] = v.toMs.toFixed(3);
    this.canvas.dataset['lanes'] = JSON.stringify(this.lanes);
    this.canvas.dataset['gutter'] = String(GUTTER_PX);
  }

  private drawAxis(lane: Lane, widthPx: number, ink: string, heightPx: number): void {
    const g = this.g;
    const ticks = chooseTicks(this.view.range, Math.max(2, Math.floor(this.plotWidth() / 90)));
    const labels: string[] = [];
    g.strokeStyle = 'rgb(128 128 128 / 25%)';
    for (const t of ticks.ticksMs) {
      const x = Math.round(this.pxAt(t)) + 0.5;
      if (x < GUTTER_PX || x > widthPx) continue;
      const label = formatTick(t, ticks.stepMs);
      labels.push(label);
      g.beginPath();
      g.moveTo(x, lane.top + lane.height - 4);
      g.lineTo(x, heightPx);
      g.stroke();
      g.fillStyle = ink;
      g.fillText(label, x + 3, lane.top + lane.height / 2);
    }
    this.canvas.dataset['ticks'] = labels.join('|');
  }

  private drawThread(lane: Lane, t: ThreadDensity, dark: boolean): void {
    const g = this.g;
    let max = 0;
    for (const c of t.counts) max = Math.max(max, c);
    if (max === 0) return;
    const n = t.counts.length;
    g.fillStyle = dark ? '#7aa2d6' : '#4e79a7';
    for (let b = 0; b < n; b++) {
      const c = t.counts[b]!;
      if (c === 0) continue;
      const x0 = this.pxAt(t.fromMs + (b / n) * (t.toMs - t.fromMs));
      const x1 = this.pxAt(t.fromMs + ((b + 1) / n) * (t.toMs - t.fromMs));
      const hPx = Math.max(1, (c / max) * (lane.height - 2));
      g.fillRect(x0, lane.top + lane.height - 1 - hPx, Math.max(0.5, x1 - x0 - 0.2), hPx);
    }
  }

  /** Before → after per GC: a line along the heap size, dropping at each GC. */
  private drawHeap(lane: Lane, dark: boolean): void {
    const g = this.g;
    const points = heapPoints(this.gcs);
    let max = 0;
    for (const p of points) max = Math.max(max, p.mb);
    if (max === 0) return;
    const y = (mb: number): number => lane.top + lane.height - 2 - (mb / max) * (lane.height - 4);
    g.strokeStyle = dark ? '#8cd17d' : '#59a14f';
    g.lineWidth = 1.5;
    g.beginPath();
    points.forEach((p, i) => (i === 0 ? g.moveTo(this.pxAt(p.ms), y(p.mb)) : g.lineTo(this.pxAt(p.ms), y(p.mb))));
    g.stroke();
    g.lineWidth = 1;
  }

  private drawPauses(lane: Lane, dark: boolean): void {
    const g = this.g;
    g.fillStyle = dark ? '#ff8a8c' : '#e15759';
    this.gcs.forEach((gc, index) => {
      const x = this.pxAt(gc.pauseStartMs);
      const w = Math.max(2, this.pxAt(gc.pauseStartMs + gc.pauseMs) - x);
      g.fillRect(x, lane.top + 2, w, lane.height - 4);
      this.hits.push({ kind: 'pause', x, y: lane.top, w, h: lane.height, index });
    });
  }

  private drawSlices(lane: Lane, dark: boolean): void {
    const g = this.g;
    const palette = dark ? ['#d4a6c8', '#a0dcd6', '#f6df7a', '#ffb166'] : ['#b07aa1', '#76b7b2', '#edc948', '#f28e2b'];
    const plotEnd = GUTTER_PX + this.plotWidth();
    this.activities.forEach((a, index) => {
      const row = this.sliceRows[index]!;
      if (row >= MAX_SLICE_ROWS) return;
      const x = Math.max(GUTTER_PX, this.pxAt(a.startMs));
      const end = Math.min(plotEnd, this.pxAt(a.startMs + (a.durationMs ?? 0)));
      if (end < GUTTER_PX || x > plotEnd) return;
      const w = Math.max(1, end - x);
      const y = lane.top + row * SLICE_PX;
      g.fillStyle = palette[a.depth % palette.length]!;
      g.fillRect(x, y + 1, w, SLICE_PX - 2);
      if (w > 24) {
        g.fillStyle = '#111';
        fillClipped(g, a.name, x + 2, y + SLICE_PX / 2, w - 4);
      }
      this.hits.push({ kind: 'slice', x, y, w, h: SLICE_PX, index });
    });
  }

  private hitAt(xPx: number, yPx: number): Hit | null {
    let best: Hit | null = null;
    let bestDistance = 3; // px: a 2-px bar is hard to hit exactly
    for (const hit of this.hits) {
      if (yPx < hit.y || yPx >= hit.y + hit.h) continue;
      const distance = xPx < hit.x ? hit.x - xPx : xPx > hit.x + hit.w ? xPx - hit.x - hit.w : 0;
      if (distance < bestDistance || (distance === 0 && best !== null && hit.w < best.w)) {
        best = hit;
        bestDistance = distance;
      }
    }
    return best;
  }

  private click(xPx: number, yPx: number): void {
    const hit = this.hitAt(xPx, yPx);
    if (hit === null) return;
    if (hit.kind === 'pause') this.onSelect(...gcRange(this.gcs[hit.index]!));
    else {
      const a = this.activities[hit.index]!;
      this.onSelect(Math.floor(a.startMs * 1000) / 1000, Math.ceil((a.startMs + (a.durationMs ?? 0)) * 1000) / 1000);
    }
  }

  /** The readout: the time at the cursor, then each lane's value there. */
  private showReadout(xPx: number, yPx: number): void {
    if (xPx < GUTTER_PX) return;
    const ms = this.msAt(xPx);
    const parts = [formatReadoutTime(ms)];
    for (const t of this.threads) {
      const n = t.counts.length;
      const b = Math.floor(((ms - t.fromMs) / (t.toMs - t.fromMs)) * n);
      if (b >= 0 && b < n && t.counts[b]! > 0) parts.push(`thread ${t.threadId}: ${t.counts[b]} ${this.densityUnit}`);
    }
    const heap = heapAt(this.gcs, ms);
    if (heap !== null) parts.push(heap);
    const hit = this.hitAt(xPx, yPx);
    if (hit?.kind === 'pause') {
      const gc = this.gcs[hit.index]!;
      parts.push(`GC #${gc.number} gen${gc.generation} ${gc.reason}: pause ${gc.pauseMs.toFixed(3)} ms (click selects it)`);
    } else if (hit?.kind === 'slice') {
      const a = this.activities[hit.index]!;
      parts.push(`${a.name}: ${a.durationMs === null ? 'unfinished' : `${a.durationMs.toFixed(3)} ms`}`);
    }
    this.readout.textContent = parts.join(' · ');
  }
}

/** The heap line's points: each GC's size before (at its start) and after (at its end). */
export function heapPoints(gcs: readonly GcRecord[]): { ms: number; mb: number }[] {
  const points: { ms: number; mb: number }[] = [];
  for (const gc of gcs) {
    if (gc.heapSizeBeforeMB !== null) points.push({ ms: gc.startMs, mb: gc.heapSizeBeforeMB });
    if (gc.heapSizeAfterBytes !== null) points.push({ ms: gc.startMs + gc.durationMs, mb: gc.heapSizeAfterBytes / 1e6 });
  }
  return points;
}

/** The readout's heap text at `ms`: the size after the last GC that started at or before it. */
function heapAt(gcs: readonly GcRecord[], ms: number): string | null {
  const i = lastAtOrBefore(gcs.map((gc) => gc.startMs), ms);
  if (i < 0) return null;
  const gc = gcs[i]!;
  const before = gc.heapSizeBeforeMB === null ? '?' : gc.heapSizeBeforeMB.toFixed(3);
  const after = gc.heapSizeAfterBytes === null ? '?' : (gc.heapSizeAfterBytes / 1e6).toFixed(3);
  return `heap ${before} → ${after} MB at GC #${gc.number}`;
}

/** Text cut to `maxPx` (with "…"), drawn as text: trace strings never become markup. */
function fillClipped(g: CanvasRenderingContext2D, text: string, x: number, y: number, maxPx: number): void {
  if (maxPx <= 0) return;
  let shown = text;
  if (g.measureText(shown).width > maxPx) {
    let lo = 0;
    let hi = text.length;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (g.measureText(`${text.slice(0, mid)}…`).width <= maxPx) lo = mid;
      else hi = mid - 1;
    }
    shown = lo === 0 ? '' : `${text.slice(0, lo)}…`;
  }
  if (shown !== '') g.fillText(shown, x, y);
}

export type { TimeRange };

// web/src/views — "Time order" (speedscope's view of that name): one thread's
// sampled stacks along real time, x = the sample's time, y = depth (root at the top). A
// sample spans from its time to the thread's next sample (the last one: the median gap);
// neighbouring samples with the same frames down to a depth are drawn as one box. The chart
// shares its visible range with the timeline's lanes (SharedView). Hover: frame and time.
//
// Samples come from the event query (trace.events: each sample's time and stack id, in time
// order, exactly the rows `nettrace events --name Thread/Sample --thread T` prints); each
// distinct stack's frames from trace.eventStack of its first sample. Frame names are drawn
// with fillText and shown with textContent only.
import type { TraceHandle } from '../api/handle.js';
import { FlamePalette, frameHues } from './flame_palette.js';
import { formatReadoutTime, lastAtOrBefore } from './time_axis.js';
import { GUTTER_PX, msAtPx, plotWidthOf, pxAtMs } from './timeline_lanes.js';
import type { SharedView } from './shared_view.js';

const ROW_PX = 16;
const PAGE = 50_000;

/** One thread's samples: times (ms, ascending) and, per sample, its stack as prefix ids per depth. */
export interface ThreadSamples {
  thread: number;
  times: Float64Array;
  /** Per sample: index into `stacks` (-1: no stack). */
  stackOf: Int32Array;
  /** Distinct stacks, root first: frame names and, per depth, the id of the prefix ending there. */
  stacks: { frames: string[]; prefixIds: number[] }[];
  maxDepth: number;
}

/** Reads one thread's samples of `eventName` (every page) and names each distinct stack once. */
export async function loadThreadSamples(trace: TraceHandle, eventName: string, thread: number): Promise<ThreadSamples> {
  const times: number[] = [];
  const stackIds: number[] = [];
  const firstRow = new Map<number, number>();
  for (let offset = 0; ; offset += PAGE) {
    const page = await trace.events({ name: eventName, thread, offset, limit: PAGE });
    page.events.forEach((e, i) => {
      times.push(e.timeMs);
      const id = typeof e['stack'] === 'number' ? (e['stack'] as number) : 0;
      stackIds.push(id);
      if (id !== 0 && !firstRow.has(id)) firstRow.set(id, page.rows[i]!);
    });
    if (page.events.length < PAGE || offset + PAGE >= page.total) break;
  }
  const prefixIds = new Map<string, number>();
  const stackIndex = new Map<number, number>();
  const stacks: ThreadSamples['stacks'] = [];
  let maxDepth = 0;
  for (const [id, row] of firstRow) {
    const frames = (await trace.eventStack(row)).slice().reverse();
    let parent = -1;
    const ids = frames.map((name) => {
      const key = `${parent}\u0000${name}`;
      let p = prefixIds.get(key);
      if (p === undefined) prefixIds.set(key, (p = prefixIds.size));
      parent = p;
      return p;
    });
    stackIndex.set(id, stacks.length);
    stacks.push({ frames, prefixIds: ids });
    maxDepth = Math.max(maxDepth, frames.length);
  }
  const stackOf = Int32Array.from(stackIds, (id) => stackIndex.get(id) ?? -1);
  return { thread, times: Float64Array.from(times), stackOf, stacks, maxDepth };
}

export class TimeOrderChart {
  private samples: ThreadSamples | null = null;
  /** ms a sample spans when no next sample bounds it (the median gap between samples). */
  private lastSpanMs = 1;
  private drag: { startPx: number; lastPx: number } | null = null;
  private readonly g: CanvasRenderingContext2D;

  constructor(
    readonly canvas: HTMLCanvasElement,
    private readonly readout: HTMLElement,
    private readonly view: SharedView,
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
      this.drag = { startPx: e.offsetX, lastPx: e.offsetX };
    });
    canvas.addEventListener('pointermove', (e) => {
      if (this.drag !== null) {
        this.view.panBy(this.msAt(this.drag.lastPx) - this.msAt(e.offsetX));
        this.drag.lastPx = e.offsetX;
      }
      this.showReadout(e.offsetX, e.offsetY);
    });
    canvas.addEventListener('pointerup', (e) => {
      const click = this.drag !== null && Math.abs(e.offsetX - this.drag.startPx) < 3;
      this.drag = null;
      const box = click ? this.boxAt(e.offsetX, e.offsetY) : null;
      if (box !== null) this.view.set({ fromMs: box[0], toMs: box[1] });
    });
    canvas.addEventListener('pointerleave', () => (this.readout.textContent = ''));
  }

  setSamples(samples: ThreadSamples | null): void {
    this.samples = samples;
    if (samples !== null && samples.times.length > 1) {
      const gaps = Array.from(samples.times.subarray(1), (t, i) => t - samples.times[i]!).sort((a, b) => a - b);
      this.lastSpanMs = gaps[gaps.length >> 1]!;
    }
    this.canvas.dataset['thread'] = samples === null ? '' : String(samples.thread);
    this.canvas.dataset['samples'] = samples === null ? '0' : String(samples.times.length);
    this.canvas.dataset['stacks'] = samples === null ? '0' : String(samples.stacks.length);
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

  private endOf(i: number): number {
    const s = this.samples!;
    return i + 1 < s.times.length ? s.times[i + 1]! : s.times[i]! + this.lastSpanMs;
  }

  draw(): void {
    const s = this.samples;
    const depth = s === null ? 1 : Math.max(1, s.maxDepth);
    const heightPx = depth * ROW_PX + 2;
    const widthPx = this.canvas.parentElement?.clientWidth || 800;
    const ratio = window.devicePixelRatio || 1;
    this.canvas.style.width = `${widthPx}px`;
    this.canvas.style.height = `${heightPx}px`;
    this.canvas.width = Math.round(widthPx * ratio);
    this.canvas.height = Math.round(heightPx * ratio);
    const g = this.g;
    g.setTransform(ratio, 0, 0, ratio, 0, 0);
    g.clearRect(0, 0, widthPx, heightPx);
    if (s === null || s.times.length === 0) return;
    g.font = '11px system-ui, sans-serif';
    g.textBaseline = 'middle';
    const palette = new FlamePalette(matchMedia('(prefers-color-scheme: dark)').matches);
    const v = this.view.range;
    const first = Math.max(0, lastAtOrBefore(s.times, v.fromMs));
    const last = lastAtOrBefore(s.times, v.toMs);
    const plotEnd = GUTTER_PX + this.plotWidth();
    for (let d = 0; d < s.maxDepth; d++) {
      let i = first;
      while (i <= last) {
        const st = s.stackOf[i]!;
        const prefix = st < 0 ? -1 : (s.stacks[st]!.prefixIds[d] ?? -1);
        let j = i + 1;
        // One box for the run of samples with the same frames down to this depth.
        while (prefix >= 0 && j <= last) {
          const sj = s.stackOf[j]!;
          if (sj < 0 || s.stacks[sj]!.prefixIds[d] !== prefix) break;
          j++;
        }
        if (prefix >= 0) {
          const x0 = Math.max(GUTTER_PX, this.pxAt(s.times[i]!));
          const x1 = Math.min(plotEnd, this.pxAt(this.endOf(j - 1)));
          if (x1 > x0) {
            const name = s.stacks[st]!.frames[d]!;
            g.fillStyle = palette.colours[frameHues([name])[0]!]!;
            g.fillRect(x0, d * ROW_PX + 1, Math.max(0.5, x1 - x0 - 0.5), ROW_PX - 1);
            if (x1 - x0 > 30) {
              g.fillStyle = palette.text(false);
              g.save();
              g.beginPath();
              g.rect(x0, d * ROW_PX, x1 - x0 - 2, ROW_PX);
              g.clip();
              g.fillText(name, x0 + 3, d * ROW_PX + ROW_PX / 2 + 1);
              g.restore();
            }
          }
        }
        i = j;
      }
    }
  }

  /** The time span (ms) of the box under the cursor: the run of samples sharing its frames down to its depth. */
  boxAt(xPx: number, yPx: number): [number, number] | null {
    const s = this.samples;
    if (s === null || xPx < GUTTER_PX) return null;
    const ms = this.msAt(xPx);
    const i = lastAtOrBefore(s.times, ms);
    const d = Math.floor(yPx / ROW_PX);
    const prefixAt = (k: number): number => {
      const st = s.stackOf[k]!;
      return st < 0 ? -1 : (s.stacks[st]!.prefixIds[d] ?? -1);
    };
    if (i < 0 || ms >= this.endOf(i) || prefixAt(i) < 0) return null;
    const prefix = prefixAt(i);
    let first = i;
    while (first > 0 && prefixAt(first - 1) === prefix) first--;
    let last = i;
    while (last + 1 < s.times.length && prefixAt(last + 1) === prefix) last++;
    return [s.times[first]!, this.endOf(last)];
  }

  private showReadout(xPx: number, yPx: number): void {
    const s = this.samples;
    if (s === null || xPx < GUTTER_PX) return;
    const ms = this.msAt(xPx);
    const i = lastAtOrBefore(s.times, ms);
    const depth = Math.floor(yPx / ROW_PX);
    const st = i < 0 || ms >= this.endOf(i) ? -1 : s.stackOf[i]!;
    const frame = st < 0 ? undefined : s.stacks[st]!.frames[depth];
    this.readout.textContent =
      frame === undefined
        ? formatReadoutTime(ms)
        : `${formatReadoutTime(ms)} · thread ${s.thread} · sample at ${formatReadoutTime(s.times[i]!)} · ${frame}`;
  }
}

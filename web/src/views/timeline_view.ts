// web/src/views — the timeline: event counts over time from the engine's histogram, stacked
// by provider, on a canvas, with a brush (drag) that selects a time range for every view.
//
// Coordinate spaces: "ms" = milliseconds from the trace's sync time (the histogram's
// fromMs..toMs); "css px" = x across the canvas, 0..width.
import type { Histogram } from '../api/types.js';
import { fmt, h } from '../ui/dom.js';
import { shortProviderName } from './provider_name.js';

const HEIGHT_PX = 64;
const PALETTE_LIGHT = ['#4e79a7', '#f28e2b', '#59a14f', '#e15759', '#76b7b2', '#edc948', '#b07aa1', '#ff9da7', '#9c755f', '#bab0ac'];
const PALETTE_DARK = ['#7aa2d6', '#ffb166', '#8cd17d', '#ff8a8c', '#a0dcd6', '#f6df7a', '#d4a6c8', '#ffbec4', '#c9a28a', '#d7d0cc'];

export class Timeline {
  private histogram: Histogram | null = null;
  /** The brushed range (ms), or null. */
  private range: [number, number] | null = null;
  private dragFromPx: number | null = null;
  private dragToPx = 0;
  private readonly context: CanvasRenderingContext2D;
  private readonly lifetime = new AbortController();
  private readonly resizeObserver = new ResizeObserver(() => this.draw());

  constructor(
    private readonly canvas: HTMLCanvasElement,
    private readonly legend: HTMLElement,
    private readonly onRange: (range: [number, number] | null) => void,
  ) {
    const context = canvas.getContext('2d');
    if (context === null) throw new Error('no 2D canvas');
    this.context = context;
    canvas.addEventListener('pointerdown', (e) => {
      canvas.setPointerCapture(e.pointerId);
      this.dragFromPx = e.offsetX;
      this.dragToPx = e.offsetX;
    });
    canvas.addEventListener('pointermove', (e) => {
      if (this.dragFromPx === null) return;
      this.dragToPx = e.offsetX;
      this.draw();
    });
    canvas.addEventListener('pointerup', (e) => {
      if (this.dragFromPx === null) return;
      const [a, b] = [this.dragFromPx, e.offsetX].sort((x, y) => x - y) as [number, number];
      this.dragFromPx = null;
      if (b - a < 3) {
        this.draw();
        return; // a click, not a drag
      }
      this.setRange([this.msAt(a), this.msAt(b)]);
      this.onRange(this.range);
    });
    this.resizeObserver.observe(canvas.parentElement ?? canvas);
    matchMedia('(prefers-color-scheme: dark)').addEventListener('change', () => this.draw(), { signal: this.lifetime.signal });
  }

  /** Stops following the OS theme and the canvas size (the page keeps no reference then). */
  dispose(): void {
    this.lifetime.abort();
    this.resizeObserver.disconnect();
  }

  setData(histogram: Histogram): void {
    histogram = foldSmallSeries(histogram, PALETTE_LIGHT.length);
    this.histogram = histogram;
    const dark = matchMedia('(prefers-color-scheme: dark)').matches;
    const palette = dark ? PALETTE_DARK : PALETTE_LIGHT;
    this.legend.replaceChildren(
      ...histogram.series.map((name, s) => {
        const swatch = h('span', { class: 'swatch' });
        swatch.style.background = palette[s % palette.length]!;
        // Provider names without their common prefix (the full name on hover): the legend fits
        // beside the timeline's controls instead of taking a line of its own.
        return h('span', { class: 'legend-item', attrs: { title: name } }, swatch, shortProviderName(name));
      }),
    );
    this.draw();
  }

  setRange(range: [number, number] | null): void {
    this.range = range;
    this.draw();
  }

  private msAt(xPx: number): number {
    const hist = this.histogram;
    if (hist === null) return 0;
    const widthPx = this.canvas.clientWidth || 1;
    return hist.fromMs + (Math.max(0, Math.min(xPx, widthPx)) / widthPx) * (hist.toMs - hist.fromMs);
  }

  private pxAt(ms: number): number {
    const hist = this.histogram;
    if (hist === null || hist.toMs <= hist.fromMs) return 0;
    const widthPx = this.canvas.clientWidth || 1;
    return Math.max(0, Math.min(widthPx, ((ms - hist.fromMs) / (hist.toMs - hist.fromMs)) * widthPx));
  }

  draw(): void {
    const canvas = this.canvas;
    const widthPx = canvas.parentElement?.clientWidth ?? 800;
    const ratio = window.devicePixelRatio || 1;
    canvas.style.width = `${widthPx}px`;
    canvas.style.height = `${HEIGHT_PX}px`;
    canvas.width = Math.round(widthPx * ratio);
    canvas.height = Math.round(HEIGHT_PX * ratio);
    const g = this.context;
    g.setTransform(ratio, 0, 0, ratio, 0, 0);
    g.clearRect(0, 0, widthPx, HEIGHT_PX);
    const hist = this.histogram;
    if (hist === null || hist.buckets === 0) return;
    const dark = matchMedia('(prefers-color-scheme: dark)').matches;
    const palette = dark ? PALETTE_DARK : PALETTE_LIGHT;
    const series = hist.series.length;
    let max = 0;
    for (let b = 0; b < hist.buckets; b++) {
      let sum = 0;
      for (let s = 0; s < series; s++) sum += hist.counts[s * hist.buckets + b]!;
      max = Math.max(max, sum);
    }
    if (max === 0) return;
    const bucketPx = widthPx / hist.buckets;
    for (let b = 0; b < hist.buckets; b++) {
      let yPx = HEIGHT_PX;
      for (let s = 0; s < series; s++) {
        const count = hist.counts[s * hist.buckets + b]!;
        if (count === 0) continue;
        // sqrt scale: a burst of rundown events should not flatten the rest.
        const heightPx = (Math.sqrt(count) / Math.sqrt(max)) * (HEIGHT_PX - 2);
        g.fillStyle = palette[s % palette.length]!;
        g.fillRect(b * bucketPx, yPx - heightPx, Math.max(bucketPx - 0.5, 0.5), heightPx);
        yPx -= heightPx;
      }
    }
    const shade = (fromPx: number, toPx: number): void => {
      g.fillStyle = dark ? 'rgb(0 0 0 / 55%)' : 'rgb(255 255 255 / 65%)';
      g.fillRect(0, 0, fromPx, HEIGHT_PX);
      g.fillRect(toPx, 0, widthPx - toPx, HEIGHT_PX);
      g.strokeStyle = dark ? '#7aa2ff' : '#2f6fde';
      g.strokeRect(fromPx + 0.5, 0.5, Math.max(toPx - fromPx - 1, 1), HEIGHT_PX - 1);
    };
    if (this.dragFromPx !== null) {
      shade(Math.min(this.dragFromPx, this.dragToPx), Math.max(this.dragFromPx, this.dragToPx));
    } else if (this.range !== null) {
      shade(this.pxAt(this.range[0]), this.pxAt(this.range[1]));
    }
    this.canvas.title = `${fmt(hist.total)} events, ${hist.fromMs.toFixed(1)}–${hist.toMs.toFixed(1)} ms; drag to select a time range`;
  }
}

/**
 * At most `max` series: the largest `max - 1` keep their own colour, the rest are summed into
 * one "other (N)" series drawn last (colours would repeat otherwise).
 */
export function foldSmallSeries(histogram: Histogram, max: number): Histogram {
  const { buckets, series, counts } = histogram;
  if (series.length <= max) return histogram;
  const totals = series.map((_, s) => {
    let sum = 0;
    for (let b = 0; b < buckets; b++) sum += counts[s * buckets + b]!;
    return sum;
  });
  const kept = series.map((_, s) => s).sort((a, b) => totals[b]! - totals[a]!).slice(0, max - 1).sort((a, b) => a - b);
  const folded = new Float64Array(max * buckets);
  kept.forEach((s, i) => folded.set(counts.subarray(s * buckets, (s + 1) * buckets), i * buckets));
  const keptSet = new Set(kept);
  for (let s = 0; s < series.length; s++) {
    if (keptSet.has(s)) continue;
    for (let b = 0; b < buckets; b++) folded[(max - 1) * buckets + b]! += counts[s * buckets + b]!;
  }
  return { ...histogram, series: [...kept.map((s) => series[s]!), `other (${series.length - kept.length})`], counts: folded };
}

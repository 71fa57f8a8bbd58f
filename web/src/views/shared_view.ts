// web/src/views — the visible time range the timeline's lanes and the time-order chart share:
// zoom and pan in either moves both. Bounds are the trace's first to last event (ms).
import { panRange, zoomRange } from './time_axis.js';
import type { TimeRange } from './time_axis.js';

export class SharedView {
  range: TimeRange = { fromMs: 0, toMs: 1 };
  bounds: TimeRange = { fromMs: 0, toMs: 1 };
  private readonly listeners: ((range: TimeRange) => void)[] = [];

  onChange(listener: (range: TimeRange) => void): void {
    this.listeners.push(listener);
  }

  /** New bounds (a new trace): the view shows all of them. */
  reset(bounds: TimeRange): void {
    this.bounds = bounds.toMs > bounds.fromMs ? bounds : { fromMs: bounds.fromMs, toMs: bounds.fromMs + 1 };
    this.set(this.bounds);
  }

  set(range: TimeRange): void {
    // Zooming below a microsecond shows nothing more (event times are 0.1 µs at best).
    if (!(range.toMs - range.fromMs >= 1e-3)) return;
    this.range = zoomRange(range, range.fromMs, 1, this.bounds);
    for (const listener of this.listeners) listener(this.range);
  }

  zoomAt(anchorMs: number, factor: number): void {
    this.set(zoomRange(this.range, anchorMs, factor, this.bounds));
  }

  panBy(deltaMs: number): void {
    this.set(panRange(this.range, deltaMs, this.bounds));
  }
}

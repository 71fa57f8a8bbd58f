// web/src/analyzer — reading a trace: progress, cancel, the status line, the banner of a
// partial read, and the outcome (a trace to explore, a partial one, or a refusal) reported
// to the host through the load / error events. A live session (openLive) also shows what was
// read so far every LIVE_INTERVAL_MS, reported through the live event.
import type { Progress, Summary } from '../api/types.js';
import { NetTraceError } from '../api/types.js';
import type { TraceHandle } from '../api/handle.js';
import { openTraceInWorker, prewarmEngine } from '../engine/worker_client.js';
import type { WorkerOptions } from '../engine/worker_client.js';
import { fmt, percent } from '../ui/dom.js';
import { formatBytes } from '../ui/units.js';
import type { ControllerContext } from './context.js';
import type { ReadFacts } from './summary_controller.js';
import { hasSummary, onlyNamesMissing, partialText, refusalText } from './read_outcome.js';
import type { AnalyzerError, AnalyzerLoad } from './context.js';

/** The progress line's words for each phase (api/types.ts Progress). */
const PHASE_TEXT: Record<Progress['phase'], string> = {
  reading: 'Reading',
  'reading-end': 'Reading the end of the file first (NetPerf 1/2), then',
  names: 'Reading back the method names stacks name',
  done: 'Indexed',
};

/** What the coordinator does around a read. */
export interface LoadHooks {
  /** Before a read: the views of the trace shown are emptied (it is closed). */
  resetViews(): void;
  /** The result area replaces the landing. */
  showResult(): void;
  /** A trace (or a partial summary without one) to show. */
  showTrace(summary: Summary, facts: ReadFacts): void;
  /** A trace handle opened, from `source`. */
  opened(trace: TraceHandle, source: Blob | string): void;
  /** A live session's snapshot (a handle over what was read so far); `first`: none before it. */
  snapshot(trace: TraceHandle, summary: Summary, facts: ReadFacts, first: boolean): void;
  /** A live session's whole trace replaces its last snapshot: the views compute again. */
  liveEnded(): void;
}

/** A live session's views follow what was read this often (at least once a second, so a live trace reads as live). */
const LIVE_INTERVAL_MS = 500;

export class LoadController {
  /** The read in progress. */
  private current: AbortController | null = null;
  /** It reads a live session: the host's Stop ends it (live_controls.ts), so no progress bar
   *  (a stream has no size to fill it against) and no Cancel beside that Stop. */
  private live = false;

  constructor(
    private readonly ctx: ControllerContext,
    private readonly workerOptions: WorkerOptions,
    private readonly hooks: LoadHooks,
  ) {
    ctx.layout.loading.cancel.addEventListener('click', () => this.current?.abort());
    this.warm();
  }

  /** The engine worker for the next trace starts now, so a drop does not wait for the worker
   *  and the wasm module to load; each open starts the next one (one waits at most).
   *  data-engine="ready" says a drop now starts reading at once (benchmarks wait for it). */
  private warm(): void {
    const drop = this.ctx.layout.landing.drop;
    prewarmEngine(this.workerOptions).then(
      () => (drop.dataset['engine'] = 'ready'),
      () => delete drop.dataset['engine'],
    );
  }

  private showProgress(p: Progress, progressCount: number): void {
    const { loading } = this.ctx.layout;
    loading.progress.hidden = this.live;
    loading.progress.max = Math.max(1, p.total || p.bytes);
    loading.progress.value = p.bytes;
    const of = p.total > 0 ? ` of ${formatBytes(p.total)} (${percent(p.bytes, p.total)})` : '';
    const phase = PHASE_TEXT[p.phase];
    loading.progressText.textContent = `${phase}: ${formatBytes(p.bytes)}${of} · ${fmt(p.events)} events`;
    this.ctx.layout.result.dataset['progressCount'] = String(progressCount);
  }

  /** The progress bar and line end with the read: the status line and summary say the rest. */
  private hideProgress(): void {
    this.ctx.layout.loading.progress.hidden = true;
    this.ctx.layout.loading.progressText.textContent = '';
  }

  private status(text: string, error: boolean): void {
    const line = this.ctx.layout.loading.status;
    line.classList.toggle('error', error);
    line.textContent = text;
  }

  private begin(name: string, live: boolean): void {
    this.live = live;
    const { layout } = this.ctx;
    this.hooks.resetViews();
    this.hooks.showResult();
    layout.result.dataset['state'] = 'reading';
    layout.result.dataset['progressCount'] = '0';
    this.status(`Reading ${name}…`, false);
    layout.fileName.textContent = name;
    layout.loading.progressText.textContent = '';
    layout.loading.cancel.hidden = live;
  }

  /** Reads `source`; `live`: a session still recording, shown as it grows (showLive). */
  async load(source: Blob | string, name: string, size: number, live = false): Promise<void> {
    this.current?.abort();
    const controller = new AbortController();
    this.current = controller;
    let progressCount = 0;
    this.begin(name, live);
    const started = performance.now();
    try {
      // A damaged or cancelled read keeps what it read: those events are explored like a
      // complete trace's (the native tool does the same), under a banner.
      delete this.ctx.layout.landing.drop.dataset['engine']; // this open takes the waiting worker
      const opened = await openTraceInWorker(source, {
        signal: controller.signal,
        keepPartial: true,
        onProgress: (p) => this.showProgress(p, ++progressCount),
        ...this.workerOptions,
        ...(live ? { live: { intervalMs: LIVE_INTERVAL_MS, onSnapshot: (h: TraceHandle, rows: number) => this.current === controller && this.showLive(h, rows, name, started) } } : {}),
      });
      this.warm();
      if (this.current !== controller) {
        opened.close();
        return;
      }
      this.hideProgress();
      // Nothing read at all (not a trace, an empty file, a cancel before the first event).
      if (opened.error !== null && opened.eventCount === 0) {
        opened.close();
        throw opened.error;
      }
      if (live) this.hooks.liveEnded(); // the snapshots' views follow the whole trace (the event table keeps its place)
      this.hooks.opened(opened, source);
      this.outcome(opened, name, size, (performance.now() - started) / 1000);
    } catch (e) {
      if (this.current !== controller) return;
      this.refused(e, name, typeof source === 'string' ? null : size, (performance.now() - started) / 1000, typeof source === 'string');
    } finally {
      if (this.current === controller) {
        this.ctx.layout.loading.cancel.hidden = true;
        this.current = null;
      }
    }
  }

  /** A live session's snapshot: every view follows what was read so far (the flame graph only
   *  when asked, as it weighs every stack: the coordinator's refreshFlame). */
  private showLive(snapshot: TraceHandle, rows: number, name: string, started: number): void {
    const { layout, app, state } = this.ctx;
    const summary = snapshot.summary();
    const seconds = (performance.now() - started) / 1000;
    this.hideProgress();
    this.hooks.snapshot(snapshot, summary, { name, size: snapshot.bytes, seconds, error: null }, state.trace === null);
    this.status(`Live: ${fmt(summary.eventCount)} events read, ${fmt(rows)} in time order, ${formatBytes(snapshot.bytes)} · ${seconds.toFixed(1)} s`, false);
    layout.result.dataset['state'] = 'live';
    layout.result.dataset['liveEvents'] = String(summary.eventCount);
    layout.result.dataset['liveRows'] = String(rows);
    app.emit<AnalyzerLoad>('live', { name, summary });
  }

  /** A trace handle to explore: complete, or partial under a banner. */
  private outcome(opened: TraceHandle, name: string, size: number, seconds: number): void {
    const { layout, app } = this.ctx;
    const summary = opened.summary();
    // A URL's size is what was read of it (reading reached its end, or a fault).
    this.hooks.showTrace(summary, { name, size: size || opened.bytes, seconds, error: opened.error });
    const e = opened.error;
    if (e === null) {
      this.status(`Read ${name}: ${fmt(summary.eventCount)} events in ${seconds.toFixed(2)} s.`, false);
      layout.result.dataset['state'] = 'done';
      app.emit<AnalyzerLoad>('load', { name, summary });
      return;
    }
    const text = partialText(e, name, summary.eventCount, size, summary.complete);
    this.status(text.status, true);
    layout.partialBanner.textContent = text.banner;
    layout.partialBanner.hidden = false;
    layout.result.dataset['state'] = 'error';
    // "names": every event read, some method names not (a cancel while they were read back).
    layout.result.dataset['partial'] = onlyNamesMissing(e, summary.complete) ? 'names' : e.code;
    app.emit<AnalyzerError>('error', { name, code: e.code, offset: e.offset, message: e.reason, partial: summary });
  }

  /** A read that gave nothing to explore: why, and only the facts that were established. */
  private refused(e: unknown, name: string, size: number | null, seconds: number, fromUrl: boolean): void {
    const { layout, app } = this.ctx;
    this.hideProgress();
    this.status(refusalText(e, name, fromUrl), true);
    if (hasSummary(e)) this.hooks.showTrace((e as NetTraceError).partial!, { name, size, seconds, error: e as NetTraceError });
    if (e instanceof NetTraceError) {
      app.emit<AnalyzerError>('error', { name, code: e.code, offset: e.offset, message: e.reason, partial: e.partial });
    } else {
      app.emit<AnalyzerError>('error', { name, code: 'source', offset: null, message: e instanceof Error ? e.message : String(e), partial: null });
    }
    layout.result.dataset['state'] = 'error';
  }

  /** Forgets the read in progress (no late "Cancelled." or error event), then cancels it. */
  stop(): void {
    const reading = this.current;
    this.current = null;
    reading?.abort();
  }
}

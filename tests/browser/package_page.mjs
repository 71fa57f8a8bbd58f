// See package_page.html. Results go to window.__result (read by tests/browser/run.mjs).
import { openTrace } from '/dist/index.js';

const longTasks = [];
new PerformanceObserver((list) => {
  for (const e of list.getEntries()) longTasks.push({ start: e.startTime, duration: e.duration });
}).observe({ type: 'longtask', buffered: true });

// A heartbeat: the largest gap between two timer callbacks while loading (a second measure
// of main-thread blocking, independent of the long-task API).
let lastBeat = performance.now();
let maxGap = 0;
let beating = false;
const beat = () => {
  const now = performance.now();
  if (beating) maxGap = Math.max(maxGap, now - lastBeat);
  lastBeat = now;
  setTimeout(beat, 10);
};
beat();

document.getElementById('file').addEventListener('change', async (event) => {
  const file = event.target.files[0];
  const progress = [];
  const started = performance.now();
  beating = true;
  lastBeat = started;
  try {
    const trace = await openTrace(file, { onProgress: (p) => progress.push({ ...p, at: performance.now() - started }) });
    const loadedAt = performance.now();
    beating = false;
    const page = await trace.events({ offset: 1000, limit: 20 });
    const histogram = await trace.histogram({ buckets: 20, groupBy: 'provider' });
    const detail = await trace.eventDetail(page.rows[3]);
    trace.close();
    // Let late long-task entries arrive.
    await new Promise((r) => setTimeout(r, 200));
    window.__result = {
      ok: true,
      summaryJson: trace.summaryJson(),
      progress,
      loadMs: loadedAt - started,
      longTasks: longTasks.filter((t) => t.start + t.duration >= started && t.start <= loadedAt),
      maxGap,
      eventsJson: page.json,
      histogramTotal: histogram.total,
      histogramIsTyped: histogram.counts instanceof Float64Array,
      detailMatches: JSON.stringify(detail) === JSON.stringify(page.events[3]),
    };
  } catch (e) {
    window.__result = { ok: false, error: String(e?.stack ?? e) };
  }
  document.getElementById('result').dataset.done = '1';
});

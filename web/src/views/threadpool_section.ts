// web/src/views — the thread pool section of the Diagnostics tab: the
// worker thread count over time as a small step chart (from the runtime's own
// ActiveWorkerThreadCount fields), and the hill-climbing adjustments with their reasons and
// new worker counts, starvation rows highlighted. Numbers come from `nettrace threadpool`,
// kept under "JSON".
import type { ThreadPoolPoint, ThreadPoolView } from '../api/event_views.js';
import { fmt, h } from '../ui/dom.js';
import { sortableTable } from '../ui/sortable_table.js';

const SVG = 'http://www.w3.org/2000/svg';
const W = 600;
const H = 80;

/** Active workers as a step line over the trace's time span of the series. */
function stepChart(points: ThreadPoolPoint[]): SVGSVGElement {
  const svg = document.createElementNS(SVG, 'svg');
  svg.setAttribute('viewBox', `0 0 ${W} ${H}`);
  svg.setAttribute('class', 'step-chart');
  svg.setAttribute('role', 'img');
  const first = points[0];
  const last = points[points.length - 1];
  if (first === undefined || last === undefined) return svg;
  const t0 = first.timeMs;
  const span = Math.max(last.timeMs - t0, 1e-9);
  const top = Math.max(...points.map((p) => p.active), 1);
  const x = (t: number): number => ((t - t0) / span) * (W - 40) + 30;
  const y = (v: number): number => H - 6 - (v / top) * (H - 16);
  const coords: string[] = [];
  points.forEach((p, i) => {
    if (i > 0) coords.push(`${x(p.timeMs).toFixed(1)},${y(points[i - 1]!.active).toFixed(1)}`);
    coords.push(`${x(p.timeMs).toFixed(1)},${y(p.active).toFixed(1)}`);
  });
  const line = document.createElementNS(SVG, 'polyline');
  line.setAttribute('points', coords.join(' '));
  const label = document.createElementNS(SVG, 'text');
  label.setAttribute('x', '2');
  label.setAttribute('y', '12');
  label.textContent = String(top);
  const title = document.createElementNS(SVG, 'title');
  title.textContent = `active workers: ${points.map((p) => `${p.timeMs.toFixed(3)} ms → ${p.active}`).join(', ')}`;
  svg.append(title, label, line);
  return svg;
}

export function threadPoolSection(text: string): HTMLElement {
  const v = JSON.parse(text) as ThreadPoolView;
  const seen = Object.values(v.events).reduce((a, b) => a + b, 0);
  const children: Node[] = [];
  if (seen === 0) {
    children.push(h('p', { class: 'muted', text: 'No ThreadPool events in this trace.' }));
  } else {
    const limits = v.minMax[v.minMax.length - 1];
    children.push(
      h('p', {
        class: 'threadpool-totals',
        text:
          `max ${fmt(v.maxActiveWorkers)} active workers, ${fmt(v.adjustments.length)} adjustments, ${fmt(v.starvationAdjustments)} through starvation` +
          (limits ? `; min/max workers ${fmt(limits.minWorkerThreads)}/${fmt(limits.maxWorkerThreads)}` : '') +
          (v.ioThreads.length > 0 ? `; max ${fmt(v.maxIoThreads)} IO threads` : '') +
          `; work items enqueued ${fmt(v.events['enqueue'] ?? 0)}, IO ${fmt(v.events['ioEnqueue'] ?? 0)}`,
      }),
    );
    if (v.workers.length > 0) children.push(stepChart(v.workers));
    children.push(
      sortableTable({
        caption: 'Hill-climbing adjustments (starvation highlighted)',
        rows: v.adjustments,
        rowClass: (a) => (a.starvation ? 'starvation' : ''),
        columns: [
          { label: 'Time (ms)', text: (a) => a.timeMs.toFixed(3), key: (a) => a.timeMs, numeric: true },
          { label: 'Reason', text: (a) => a.reason, key: (a) => a.reason },
          { label: 'New workers', text: (a) => fmt(a.newWorkerThreadCount), key: (a) => a.newWorkerThreadCount, numeric: true },
          { label: 'Avg throughput', text: (a) => a.averageThroughput.toFixed(3), key: (a) => a.averageThroughput, numeric: true },
          { label: 'Thread', text: (a) => String(a.thread), key: (a) => a.thread, numeric: true },
        ],
      }),
    );
  }
  return h(
    'section',
    { class: 'event-view', attrs: { 'data-view': 'threadpool', 'aria-label': 'Thread pool' } },
    h('h3', { text: `Thread pool (${fmt(v.adjustments.length)} adjustments)` }),
    ...children,
    h('details', { class: 'raw' }, h('summary', { text: 'JSON' }), h('pre', { class: 'view-json', text })),
  );
}

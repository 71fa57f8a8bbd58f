// `npm run bench` part: one page of 200 events at the start, the middle and the end of a big
// trace, in wasm (the package's openTrace in Node, one shared instance), unfiltered, filtered by
// type (the most common and a rare one) and by thread (the busiest and a quiet one). The first
// filtered page builds the session's event index (TraceSession::QueryEvents): it is timed apart,
// the pages after it are the median of RUNS. A benchmark, not a test: it prints numbers.
//   node tests/bench/event_page_bench.mjs TRACE [--runs N]
import { statSync } from 'node:fs';
import { basename, join } from 'node:path';
import { root } from '../node/helpers.mjs';

const args = process.argv.slice(2);
const file = args.find((a, i) => !a.startsWith('--') && args[i - 1] !== '--runs');
if (!file) {
  console.error('usage: node tests/bench/event_page_bench.mjs TRACE [--runs N]');
  process.exit(2);
}
const runsAt = args.indexOf('--runs');
const RUNS = runsAt >= 0 ? Number(args[runsAt + 1]) : 5;
const LIMIT = 200;
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

const { openTrace } = await import(join(root, 'dist/index.js'));
let t0 = performance.now();
const trace = await openTrace(file);
const openMs = performance.now() - t0;
const summary = JSON.parse(trace.summaryJson());
console.log(
  `event pages (wasm, Node): ${basename(file)} (${(statSync(file).size / 2 ** 20).toFixed(0)} MiB, ` +
    `${summary.eventCount.toLocaleString('en-US')} events, opened in ${(openMs / 1000).toFixed(1)} s), ${LIMIT} rows a page, median of ${RUNS}`,
);
const byCount = (a, b) => b.count - a.count;
const types = [...summary.types].sort(byCount);
const threads = summary.threads.map((t) => ({ ...t, count: t.eventCount })).sort(byCount);
const rare = (xs) => xs.filter((x) => x.count >= 3 * LIMIT).at(-1) ?? xs.at(-1);
const filters = [
  ['unfiltered', {}],
  [`type ${types[0].name} (${types[0].count.toLocaleString('en-US')})`, { provider: types[0].provider, name: types[0].name }],
  [`type ${rare(types).name} (${rare(types).count.toLocaleString('en-US')})`, { provider: rare(types).provider, name: rare(types).name }],
  [`thread ${threads[0].threadId} (${threads[0].count.toLocaleString('en-US')})`, { thread: threads[0].threadId }],
  [`thread ${rare(threads).threadId} (${rare(threads).count.toLocaleString('en-US')})`, { thread: rare(threads).threadId }],
];
let worst = 0;
let first = true;
for (const [label, filter] of filters) {
  const { total } = await trace.events({ ...filter, limit: 0 });
  const cells = [];
  for (const [where, offset] of [['start', 0], ['middle', Math.floor(total / 2)], ['end', Math.max(0, total - LIMIT)]]) {
    const times = [];
    for (let i = 0; i < RUNS; i++) {
      t0 = performance.now();
      const page = await trace.events({ ...filter, offset, limit: LIMIT });
      times.push(performance.now() - t0);
      if (page.total !== total || page.rows.length !== Math.min(LIMIT, total - offset)) throw new Error(`${label} ${where}: ${page.total} rows, ${page.rows.length} on the page`);
    }
    worst = Math.max(worst, median(times));
    cells.push(`${where} ${median(times).toFixed(1).padStart(6)} ms`);
  }
  console.log(`  ${label.padEnd(40)} ${cells.join('  ')}  (${total.toLocaleString('en-US')} rows)`);
  if (first && Object.keys(filter).length === 0) {
    // The next filter's count builds the event index: what a first filtered page waits for.
    const f = filters[1][1];
    t0 = performance.now();
    await trace.events({ ...f, limit: 0 });
    console.log(`  ${'first filtered page (builds the index)'.padEnd(40)} ${(performance.now() - t0).toFixed(0).padStart(6)} ms`);
    first = false;
  }
}
console.log(`  slowest page (median): ${worst.toFixed(1)} ms (target: ≤ 20 ms)`);
trace.close();

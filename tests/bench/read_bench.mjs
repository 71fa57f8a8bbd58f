// `npm run bench` part: which part of opening a File is reading it and which is parsing, and
// what the ways of reading it (web/src/reader/stream_chunks.ts, read_ahead.ts) gain. In headless
// Chromium (a module worker, as the app reads; a fresh worker per part) and in Node (slices and
// opens by slices read the file's path with FileHandle reads, as the npm package reads a path;
// the stream is an fs.openAsBlob Blob's), rounds interleaved; per part the median and the best
// round (the ratios use the best: on a shared machine other processes' bursts land in single
// rounds):
//   read alone     file.stream() to its end; Blob.slice() chunks of 4 MiB, 0 and 2 ahead (no engine)
//   parse alone    the engine fed from memory (the file read into one buffer first, not timed)
//   open           the whole open of the File from its stream() (a browser's default) and by
//                  slices with 0, 2 (a Node path's default) and 4 reads ahead, and how long the
//                  engine's thread waited for File bytes in it (read_worker.mjs): what reading
//                  ahead removes, apart from the CPU the reading itself costs
// then the ratios. A benchmark, not a test: it prints numbers and checks the event counts
// against the native CLI.
//   node tests/bench/read_bench.mjs TRACE [--runs N] [--modes stream,parse,open-stream,...]
import { openAsBlob, statSync } from 'node:fs';
import { basename } from 'node:path';
import { cpus, loadavg } from 'node:os';
import { startServer } from '../../scripts/serve.mjs';
import { root, runNative } from '../node/helpers.mjs';
import { launchChromium } from '../browser/harness.mjs';
import { timePart } from './read_worker.mjs';
import { OFF_THREAD_MIN_BYTES } from '../../dist/engine/off_thread_blob.js';

const ALL_MODES = ['stream', 'slices-0', 'slices-2', 'parse', 'open-reader', 'open-stream', 'open-0', 'open-2', 'open-4'];
const args = process.argv.slice(2);
const trace = args.find((a, i) => !a.startsWith('--') && args[i - 1] !== '--runs' && args[i - 1] !== '--modes');
if (!trace) {
  console.error(`usage: node tests/bench/read_bench.mjs TRACE [--runs N] [--modes ${ALL_MODES.join(',')}]`);
  process.exit(2);
}
const runs = args.includes('--runs') ? Number(args[args.indexOf('--runs') + 1]) : 5;
const size = statSync(trace).size;
const nativeCount = JSON.parse(runNative('summary', trace).stdout.toString('utf8')).eventCount;
const MODES = args.includes('--modes') ? args[args.indexOf('--modes') + 1].split(',') : ALL_MODES;
const LABELS = {
  stream: 'read alone: file.stream()',
  'slices-0': 'read alone: slices, 0 ahead',
  'slices-2': 'read alone: slices, 2 ahead',
  parse: 'parse alone (from memory)',
  'open-reader': 'open, stream read by a reader worker',
  'open-stream': 'open from the Blob\'s stream()',
  'open-0': 'open by slices, 0 ahead',
  'open-2': 'open by slices, 2 ahead',
  'open-4': 'open by slices, 4 ahead',
};
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** Runs every mode `runs` times, interleaved; @returns { median, best } ms per mode. */
async function measure(timeOne, modes) {
  const times = Object.fromEntries(modes.map((m) => [m, []]));
  const waits = Object.fromEntries(modes.map((m) => [m, []]));
  for (let round = 0; round < runs; round++) {
    for (const mode of modes) {
      const r = await timeOne(mode);
      if (r.bytes !== undefined && r.bytes !== size) throw new Error(`${mode}: read ${r.bytes} of ${size} bytes`);
      if (r.events !== undefined && r.events !== nativeCount) throw new Error(`${mode}: ${r.events} events, native ${nativeCount}`);
      times[mode].push(r.ms);
      if (r.waitMs !== undefined) waits[mode].push(r.waitMs);
    }
  }
  return {
    median: Object.fromEntries(modes.map((m) => [m, median(times[m])])),
    best: Object.fromEntries(modes.map((m) => [m, Math.min(...times[m])])),
    wait: Object.fromEntries(modes.filter((m) => waits[m].length > 0).map((m) => [m, median(waits[m])])),
  };
}

function report(where, defaultOpen, modes, { median: mid, best: t, wait }) {
  console.log(`read-${where}: ${basename(trace)} (${(size / 2 ** 20).toFixed(0)} MiB, ${nativeCount.toLocaleString('en-US')} events), ${runs} rounds: median, best (MiB/s of the best)`);
  for (const m of modes) {
    const rate = (size / 2 ** 20 / (t[m] / 1000)).toFixed(0);
    const waited = wait[m] === undefined ? '' : `  waited for File bytes ${wait[m].toFixed(0)} ms (median)`;
    console.log(`  ${(LABELS[m] ?? m).padEnd(34)} ${mid[m].toFixed(0).padStart(7)} ms ${t[m].toFixed(0).padStart(7)} ms  ${rate.padStart(5)} MiB/s${waited}`);
  }
  // The product's default open: in a browser a File's stream, read by a reader worker when the
  // File is big (the engine worker's choice), in Node a path's FileHandle slices.
  const open = t[defaultOpen];
  const read = where === 'chromium' ? t.stream : t['slices-2'];
  const r = (x) => x.toFixed(2);
  const has = (...ms) => ms.every((m) => t[m] !== undefined);
  console.log(`  ratios of the best rounds (the default open here: ${LABELS[defaultOpen]}):`);
  if (has(defaultOpen, 'stream')) console.log(`  open / file.stream() = ${r(open / t.stream)} (issue 18 target for the browser: ≤ 1.25)`);
  if (has(defaultOpen, 'parse')) {
    console.log(`  open is ${r(open / t.parse)}× parsing alone, ${r(open / (read + t.parse))}× reading + parsing, ${r(open / Math.max(read, t.parse))}× the slower of the two`);
    console.log(`  reading is ${((100 * read) / (read + t.parse)).toFixed(0)} % and parsing ${((100 * t.parse) / (read + t.parse)).toFixed(0)} % of read + parse`);
  }
  if (has('open-reader', 'open-stream')) console.log(`  the stream read by a reader worker: the open takes ${r(t['open-reader'] / t['open-stream'])}× the time of the stream read on the engine's thread`);
  if (has('open-stream', 'open-2')) console.log(`  open from the stream takes ${r(t['open-stream'] / t['open-2'])}× the time of the open by slices 2 ahead`);
  if (has('open-0', 'open-2', 'open-4')) console.log(`  slices: read-ahead gains ${r(t['open-0'] / t['open-2'])}× (open 0 ahead / 2 ahead), 4 ahead ${r(t['open-4'] / t['open-2'])}× the time of 2`);
  const waited = modes.filter((m) => wait[m] !== undefined).map((m) => `${((100 * wait[m]) / mid[m]).toFixed(0)} % (${LABELS[m]})`);
  if (waited.length > 0) console.log(`  the engine waited for File bytes ${waited.join(', ')} of the open (medians)`);
}

console.log(`read bench: load average ${loadavg().map((x) => x.toFixed(2)).join(' ')} on ${cpus().length} cores`);
const server = await startServer({ root, port: 0 });
const browser = await launchChromium();
try {
  const page = await browser.newPage();
  await page.goto(`${server.url}tests/bench/read_page.html`);
  await page.waitForSelector('body[data-ready="true"]');
  await page.setInputFiles('#file', trace);
  const browserOpen = size >= OFF_THREAD_MIN_BYTES ? 'open-reader' : 'open-stream';
  report('chromium', browserOpen, MODES, await measure((mode) => page.evaluate((m) => window.readPage.time(m), mode), MODES));
} finally {
  await browser.close();
  await server.close();
}
const blob = await openAsBlob(trace);
const nodeModes = MODES.filter((m) => m !== 'open-reader'); // no nested module workers in Node
report('node', 'open-2', nodeModes, await measure((mode) => timePart(mode, blob, trace), nodeModes));

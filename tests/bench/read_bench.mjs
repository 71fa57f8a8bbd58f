// `npm run bench` part: which part of opening a File is reading it and which is parsing, and
// what the ways of reading it (web/src/reader/stream_chunks.ts, read_ahead.ts) gain. In headless
// Chromium (a module worker, as the app reads; a fresh worker per part) and in Node (slices and
// opens by slices read the file's path with FileHandle reads, as the npm package reads a path;
// the stream is an fs.openAsBlob Blob's), rounds interleaved; per part the median and the best
// round (the ratios use the best: on a shared machine other processes' bursts land in single
// rounds):
//   read alone     file.stream() to its end; Blob.slice() chunks of 4 MiB, 0 and 2 ahead (no engine)
//   parse alone    the engine fed from memory (the file read into one buffer first, not timed);
//                  and again after one untimed parse in the same worker, which grew and wrote
//                  the engine's heap and ran its code until the browser optimized it: what a
//                  fresh worker's first parse pays apart
//   open           the whole open of the File from its stream() (a browser's default) and by
//                  slices with 0, 2 (a Node path's default) and 4 reads ahead, and how long the
//                  engine's thread waited for File bytes in it (read_worker.mjs): what reading
//                  ahead removes, apart from the CPU the reading itself costs
// then the ratios. Each part also reports the CPU it took: in Chromium summed over all the
// browser's processes (Linux /proc: the File's bytes are read and copied by the browser's own
// processes, not only by the worker), in Node the process's. From those, what an open within
// the issue's 1.25x file.stream() leaves for parsing on this machine's cores, set against the
// native whole read (nettrace_bench read) of the same file. A benchmark, not a test: it prints
// numbers and checks the event counts against the native CLI.
//   node tests/bench/read_bench.mjs TRACE [--runs N] [--modes stream,parse,open-stream,...]
import { existsSync, openAsBlob, readdirSync, readFileSync, statSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { basename, join } from 'node:path';
import { cpus, loadavg } from 'node:os';
import { startServer } from '../../scripts/serve.mjs';
import { root, runNative } from '../node/helpers.mjs';
import { launchChromium } from '../browser/harness.mjs';
import { timePart } from './read_worker.mjs';
import { OFF_THREAD_MIN_BYTES } from '../../dist/engine/off_thread_blob.js';

const ALL_MODES = ['stream', 'slices-0', 'slices-2', 'parse', 'parse-warm', 'open-reader', 'open-stream', 'open-0', 'open-2', 'open-4'];
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
  'parse-warm': 'parse alone, after one in its worker',
  'open-reader': 'open, stream read by a reader worker',
  'open-stream': 'open from the Blob\'s stream()',
  'open-0': 'open by slices, 0 ahead',
  'open-2': 'open by slices, 2 ahead',
  'open-4': 'open by slices, 4 ahead',
};
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const cores = cpus().length;

const TICKS_PER_SECOND = Number(spawnSync('getconf', ['CLK_TCK']).stdout?.toString().trim()) || 100;

/**
 * CPU ms (user + system) of every live process below this one, with the children each has
 * reaped: the browser's processes, whose threads include the page's workers. Linux only
 * (/proc); null elsewhere.
 */
function descendantsCpuMs() {
  if (!existsSync('/proc/self/stat')) return null;
  const children = new Map();
  const cpuMs = new Map();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    let stat;
    try {
      stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
    } catch {
      continue; // the process ended meanwhile
    }
    // Fields after the command's closing parenthesis: state ppid ... utime(14) stime(15)
    // cutime(16) cstime(17), in ticks. The children's times: a process that ended and was
    // reaped moves its own there, so that ending between two counts loses nothing.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ppid = Number(fields[1]);
    if (!children.has(ppid)) children.set(ppid, []);
    children.get(ppid).push(Number(entry));
    const ticks = Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14]);
    cpuMs.set(Number(entry), (ticks * 1000) / TICKS_PER_SECOND);
  }
  let total = 0;
  const pending = [...(children.get(process.pid) ?? [])];
  while (pending.length > 0) {
    const pid = pending.pop();
    total += cpuMs.get(pid) ?? 0;
    pending.push(...(children.get(pid) ?? []));
  }
  return total;
}

/** The native whole read's median of 3 (nettrace_bench read, in process), or null when not built. */
function nativeReadMs() {
  const bench = join(root, 'build/native/tests/nettrace_bench');
  if (!existsSync(bench)) return null;
  const r = spawnSync(bench, ['read', trace, '--runs', '3']);
  return r.status === 0 ? JSON.parse(r.stdout.toString('utf8')).medianSeconds * 1000 : null;
}

/** Runs every mode `runs` times, interleaved; @returns { median, best } ms per mode. */
async function measure(timeOne, modes) {
  const times = Object.fromEntries(modes.map((m) => [m, []]));
  const waits = Object.fromEntries(modes.map((m) => [m, []]));
  const cpu = Object.fromEntries(modes.map((m) => [m, []]));
  for (let round = 0; round < runs; round++) {
    for (const mode of modes) {
      const r = await timeOne(mode);
      if (r.cpuMs !== null) cpu[mode].push(r.cpuMs);
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
    cpu: Object.fromEntries(modes.filter((m) => cpu[m].length > 0).map((m) => [m, median(cpu[m])])),
  };
}

/**
 * What the CPU the parts took says of the browser target (open ≤ 1.25× file.stream()),
 * whatever the open overlaps: on `cores` cores an open of wall time W has at most cores × W of
 * CPU, and it must both read the File and parse it.
 */
function openCpuBounds(where, defaultOpen, { median: mid, cpu }) {
  if (where !== 'chromium' || mid.stream === undefined || cpu.stream === undefined) return;
  const r = (x) => x.toFixed(2);
  if (cpu[defaultOpen] !== undefined) {
    console.log(`  the open took ${cpu[defaultOpen].toFixed(0)} ms of CPU: on ${cores} cores no schedule of that work ends before ${r(cpu[defaultOpen] / cores / mid.stream)}× file.stream()`);
  }
  if (cpu.parse === undefined) return;
  const budget = cores * 1.25 * mid.stream;
  const left = budget - cpu.stream;
  const warm = cpu['parse-warm'] === undefined ? '' : ` (${cpu['parse-warm'].toFixed(0)} ms after one in its worker${left > 0 ? `, ${r(cpu['parse-warm'] / left)}×` : ''})`;
  const share = left > 0 ? `, ${r(cpu.parse / left)}× that` : '';
  const native = nativeMs === null ? '' : `; the native whole read takes ${nativeMs.toFixed(0)} ms`;
  console.log(`  an open within 1.25× file.stream() has ${budget.toFixed(0)} ms of CPU on ${cores} cores; reading the File takes ${cpu.stream.toFixed(0)} ms, leaving ${Math.max(0, left).toFixed(0)} ms to parse: parsing alone took ${cpu.parse.toFixed(0)} ms${share}${warm}${native}`);
}

function report(where, defaultOpen, modes, { median: mid, best: t, wait, cpu }) {
  console.log(`read-${where}: ${basename(trace)} (${(size / 2 ** 20).toFixed(0)} MiB, ${nativeCount.toLocaleString('en-US')} events), ${runs} rounds: median, best (MiB/s of the best)`);
  for (const m of modes) {
    const rate = (size / 2 ** 20 / (t[m] / 1000)).toFixed(0);
    const waited = wait[m] === undefined ? '' : `  waited for File bytes ${wait[m].toFixed(0)} ms (median)`;
    const used = cpu[m] === undefined ? '' : `  CPU ${cpu[m].toFixed(0)} ms (${(cpu[m] / mid[m]).toFixed(1)} cores)`;
    console.log(`  ${(LABELS[m] ?? m).padEnd(37)} ${mid[m].toFixed(0).padStart(7)} ms ${t[m].toFixed(0).padStart(7)} ms  ${rate.padStart(5)} MiB/s${used}${waited}`);
  }
  // The product's default open: in a browser a File's stream, read by a reader worker when the
  // File is big (the engine worker's choice), in Node a path's FileHandle slices.
  const open = t[defaultOpen];
  const read = where === 'chromium' ? t.stream : t['slices-2'];
  const r = (x) => x.toFixed(2);
  const has = (...ms) => ms.every((m) => t[m] !== undefined);
  console.log(`  ratios of the best rounds (the default open here: ${LABELS[defaultOpen]}):`);
  if (has(defaultOpen, 'stream')) console.log(`  open / file.stream() = ${r(open / t.stream)} (the browser's target: ≤ 1.25)`);
  if (has(defaultOpen, 'parse')) {
    console.log(`  open is ${r(open / t.parse)}× parsing alone, ${r(open / (read + t.parse))}× reading + parsing, ${r(open / Math.max(read, t.parse))}× the slower of the two`);
    console.log(`  reading is ${((100 * read) / (read + t.parse)).toFixed(0)} % and parsing ${((100 * t.parse) / (read + t.parse)).toFixed(0)} % of read + parse`);
  }
  // In Node every part shares one engine instance (its memory never shrinks), so only a
  // browser's fresh worker has a first parse to set apart.
  if (where === 'chromium' && has('parse', 'parse-warm')) {
    const first = t.parse - t['parse-warm'];
    console.log(`  a fresh worker's first parse (its heap's first writes, its code not yet optimized): ${r(t.parse / t['parse-warm'])}× a parse after one in its worker (+${first.toFixed(0)} ms, ${((100 * first) / t.parse).toFixed(0)} % of parsing alone)`);
  }
  if (nativeMs !== null && has('parse')) {
    const warm = has('parse-warm') ? `, a parse after one in its worker ${r(t['parse-warm'] / nativeMs)}×` : '';
    console.log(`  native whole read (nettrace_bench read, median of 3) ${nativeMs.toFixed(0)} ms: parse alone ${r(t.parse / nativeMs)}× native${warm}`);
  }
  openCpuBounds(where, defaultOpen, { median: mid, cpu });
  if (has('open-reader', 'open-stream')) console.log(`  the stream read by a reader worker: the open takes ${r(t['open-reader'] / t['open-stream'])}× the time of the stream read on the engine's thread`);
  if (has('open-stream', 'open-2')) console.log(`  open from the stream takes ${r(t['open-stream'] / t['open-2'])}× the time of the open by slices 2 ahead`);
  if (has('open-0', 'open-2', 'open-4')) console.log(`  slices: read-ahead gains ${r(t['open-0'] / t['open-2'])}× (open 0 ahead / 2 ahead), 4 ahead ${r(t['open-4'] / t['open-2'])}× the time of 2`);
  const waited = modes.filter((m) => wait[m] !== undefined).map((m) => `${((100 * wait[m]) / mid[m]).toFixed(0)} % (${LABELS[m]})`);
  if (waited.length > 0) console.log(`  the engine waited for File bytes ${waited.join(', ')} of the open (medians)`);
}

console.log(`read bench: load average ${loadavg().map((x) => x.toFixed(2)).join(' ')} on ${cores} cores`);
const nativeMs = nativeReadMs();
const server = await startServer({ root, port: 0 });
const browser = await launchChromium();
try {
  const page = await browser.newPage();
  await page.goto(`${server.url}tests/bench/read_page.html`);
  await page.waitForSelector('body[data-ready="true"]');
  await page.setInputFiles('#file', trace);
  let cpuAtStart = null;
  await page.exposeFunction('beforeTimed', () => {
    cpuAtStart = descendantsCpuMs();
  });
  const browserOpen = size >= OFF_THREAD_MIN_BYTES ? 'open-reader' : 'open-stream';
  const timeInBrowser = async (mode) => {
    cpuAtStart = null;
    const r = await page.evaluate((m) => window.readPage.time(m), mode);
    const cpuAtEnd = descendantsCpuMs();
    return { ...r, cpuMs: cpuAtStart === null || cpuAtEnd === null ? null : cpuAtEnd - cpuAtStart };
  };
  report('chromium', browserOpen, MODES, await measure(timeInBrowser, MODES));
} finally {
  await browser.close();
  await server.close();
}
const blob = await openAsBlob(trace);
const nodeModes = MODES.filter((m) => m !== 'open-reader'); // no nested module workers in Node
const timeInNode = async (mode) => {
  let start = null;
  const r = await timePart(mode, blob, trace, async () => {
    start = process.cpuUsage();
  });
  const used = process.cpuUsage(start);
  return { ...r, cpuMs: (used.user + used.system) / 1000 };
};
report('node', 'open-2', nodeModes, await measure(timeInNode, nodeModes));

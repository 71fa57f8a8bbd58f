// Thread time against dotnet-trace (tests/node/thread_time.test.mjs): `dotnet-trace convert
// --format Speedscope` writes TraceEvent's SampleProfilerThreadTimeComputer output as evented
// profiles (tests/oracle/README.md). The comparison is exact and in two steps:
//
// 1. Our intervals (`nettrace flame --weight traceevent-thread-time --format speedscope`, one
//    sampled profile per thread, time order) against TraceEvent's rules applied to our events
//    (`nettrace events --frames`): on each thread, the driving events e0…en (sample-profiler
//    samples, allocation events) give the intervals [t(k-1), t(k)] with e(k-1)'s stack under
//    CPU_TIME (a managed sample, an allocation) or UNMANAGED_CODE_TIME (any other sample),
//    each float32(t(k) - t(k-1)) ms long, in nanoseconds rounded; none begins at a time <= 0.
// 2. Those intervals written the way TraceEvent's speedscope writer writes them (per thread,
//    consecutive samples with the same frame at the same depth merged, durations added as
//    float32, open/close times kept monotonic) against dotnet-trace's file: the same events,
//    frame names and "at" values, after the naming rules below.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { withoutSignature } from './rules.mjs';

export const THREAD_TIME_RULES = {
  'group-frames':
    'TraceEvent\'s thread-time stacks start with "Process64 name (pid) Args: …", "(Non-Activities)" and ' +
    '"Threads" above the thread frame "Thread (tid)" (plus " (name)" for a named thread); ours start at the ' +
    'thread. Compared: their first three frames are exactly those, the thread frame names our thread id.',
  'method-signature':
    'TraceEvent names a method with its signature; our frames name it without (rules.mjs). The signature is ' +
    'removed from TraceEvent\'s frame name.',
  'r2r-il-module-name':
    'TraceEvent 3.1.23 (the one dotnet-trace 10.0.750501 ships) makes up an IL module path "X.il.dll" for a ' +
    'ReadyToRun image that the runtime logs as an IL file with a native PDB signature (TraceLog.cs, removed ' +
    'in later versions), so its frames are named "X.il!Method"; TraceEvent 4.0 (stacks.jsonl) and we name ' +
    'them "X!Method". Compared with ".il" removed from their module name.',
  'truncated-tail':
    'On a trace that ends inside a block, TraceEvent (ContinueOnError) delivers fewer of the last events ' +
    'than we do (rules.mjs): here the last sample round. Applied only when our read is incomplete: our ' +
    'driving events that TraceEvent did not deliver (events.jsonl.gz: same thread, name and time) are left ' +
    'out, and each must lie after the last driving event TraceEvent delivered.',
  'loaded-module-lowercase':
    'TraceLog names a module loaded while tracing by its lower-case file name (rules.mjs); compared ' +
    'case-insensitively where their module name is all lower case and ours differs only in case.',
};

const LEAVES = new Set(['CPU_TIME', 'UNMANAGED_CODE_TIME']);

function run(nativeTool, args) {
  // A truncated trace exits 1 after printing what was read before the fault: that is compared.
  return spawnSync(nativeTool, args, { maxBuffer: 2 ** 31 - 1 }).stdout.toString('utf8');
}

// Step 1: thread id → the intervals TraceEvent's rules give for our events. `delivered`
// (rule truncated-tail, incomplete reads only): TraceEvent's events.jsonl.gz.
export function expectedIntervals(nativeTool, trace, delivered = null, hit = () => {}) {
  const summary = JSON.parse(run(nativeTool, ['summary', trace]));
  const info = summary.trace;
  const rows = [];
  for (const name of ['Thread/Sample', 'GC/AllocationTick']) {
    for (const line of run(nativeTool, ['events', trace, '--name', name, '--frames', '--limit', '1000000000']).split('\n')) {
      if (!line) continue;
      const e = JSON.parse(line);
      if (name === 'Thread/Sample' && e.provider !== 'Microsoft-DotNETCore-SampleProfiler') continue;
      if (name === 'GC/AllocationTick' && e.provider !== 'Microsoft-Windows-DotNETRuntime') continue;
      const external = name === 'Thread/Sample' && e.frames[0] === 'UNMANAGED_CODE_TIME';
      const frames = (external ? e.frames.slice(1) : e.frames).slice().reverse();
      const ms = ((e.timestamp - info.syncTimeTicks) * 1000.0) / info.tickFrequency;
      rows.push({ index: e.index, tid: String(e.threadId), ms, on: !external, frames });
    }
  }
  rows.sort((a, b) => a.index - b.index);
  if (summary.complete === false && delivered) {
    const key = (tid, ms) => `${tid} ${ms}`;
    const theirs = new Set(delivered.filter((e) => e.n === 'Thread/Sample' || e.n === 'GC/AllocationTick').map((e) => key(e.tid, Number(e.ms))));
    const lastMs = Math.max(...delivered.filter((e) => e.n === 'Thread/Sample' || e.n === 'GC/AllocationTick').map((e) => Number(e.ms)));
    const kept = rows.filter((r) => theirs.has(key(r.tid, r.ms)));
    for (const r of rows) if (!theirs.has(key(r.tid, r.ms))) {
      if (!(r.ms > lastMs)) throw new Error(`rule truncated-tail does not explain the event ${r.index} (${r.ms} ms)`);
      hit('truncated-tail');
    }
    rows.splice(0, rows.length, ...kept);
  }
  const byThread = new Map();
  const last = new Map();
  for (const r of rows) {
    const p = last.get(r.tid);
    last.set(r.tid, r);
    if (!p || !(p.ms > 0)) continue;
    const metric = Math.fround(r.ms - p.ms);
    const list = byThread.get(r.tid) ?? byThread.set(r.tid, []).get(r.tid);
    list.push({ ms: p.ms, metric, ns: metric <= 0 ? 0 : Math.round(metric * 1e6), frames: [...p.frames, p.on ? 'CPU_TIME' : 'UNMANAGED_CODE_TIME'] });
  }
  return byThread;
}

// Step 1: thread id → our intervals [frames, ns], from our speedscope export.
export function ourIntervals(nativeTool, trace) {
  const doc = JSON.parse(run(nativeTool, ['flame', trace, '--weight', 'traceevent-thread-time', '--format', 'speedscope']));
  const names = doc.shared.frames.map((f) => f.name);
  const out = new Map();
  for (const p of doc.profiles) {
    const tid = /^Thread \((\d+)\)$/.exec(p.name)[1];
    out.set(tid, p.samples.map((s, i) => ({ frames: s.map((f) => names[f]), ns: p.weights[i] })));
  }
  return out;
}

// Step 2: TraceEvent's speedscope writer over one thread's intervals: [type, frame, at] events.
export function writeEvented(intervals, prefix) {
  const samples = intervals.slice().sort((a, b) => a.ms - b.ms || a.metric - b.metric);
  const results = [];
  let open = [];
  const lastAt = () => (results.length ? results[results.length - 1][2] : 0);
  const continuous = (l, r) => l.depth === r.depth && l.name === r.name && !(l.time + l.metric * 1.001 < r.time);
  for (const s of samples) {
    const cur = [...prefix, ...s.frames].map((name, depth) => ({ name, depth, time: s.ms, metric: s.metric }));
    let last = lastAt();
    let i = 0;
    const max = Math.min(open.length, cur.length);
    while (i < max && continuous(open[i], cur[i])) {
      open[i].metric = Math.fround(open[i].metric + cur[i].metric);
      i++;
    }
    for (let j = open.length - 1; j >= i; j--) {
      last = Math.max(open[j].time + open[j].metric, last);
      results.push(['C', open[j].name, last]);
    }
    open = open.slice(0, i);
    for (let k = i; k < cur.length; k++) {
      last = Math.max(last, cur[k].time);
      results.push(['O', cur[k].name, last]);
      open.push(cur[k]);
    }
  }
  let last = lastAt();
  for (let i = open.length - 1; i >= 0; i--) {
    last = Math.max(last, open[i].time + open[i].metric);
    results.push(['C', open[i].name, last]);
  }
  return results;
}

// dotnet-trace's file: thread id → [type, frame name, at], names as ours name them, or the
// reason a frame has no rule.
export function theirEvents(path, ourFrameNames, hit) {
  const doc = JSON.parse(gunzipSync(readFileSync(path)).toString('utf8'));
  const byLower = new Map([...ourFrameNames].map((n) => [n.toLowerCase(), n]));
  const rename = doc.shared.frames.map(({ name }) => {
    const g = withoutSignature(name);
    if (g !== name) hit('method-signature');
    if (ourFrameNames.has(g) || LEAVES.has(g)) return g;
    let module = g.split('!')[0];
    let rest = g.slice(module.length);
    if (module.endsWith('.il') && g.includes('!')) {
      module = module.slice(0, -3);
      hit('r2r-il-module-name');
      if (ourFrameNames.has(module + rest)) return module + rest;
    }
    const ours = byLower.get((module + rest).toLowerCase());
    if (ours && module === module.toLowerCase() && ours.split('!')[0] !== module) {
      hit('loaded-module-lowercase');
      return ours;
    }
    return g;
  });
  const out = new Map();
  for (const p of doc.profiles) {
    const tid = /^Thread \((\d+)\)/.exec(p.name)[1];
    const depthNames = [];
    const events = [];
    for (const e of p.events) {
      let name = doc.shared.frames[e.frame].name;
      const depth = e.type === 'O' ? depthNames.length : depthNames.length - 1;
      if (e.type === 'O') depthNames.push(name);
      else depthNames.pop();
      // Rule group-frames: the first four levels are the process, "(Non-Activities)", "Threads"
      // and the thread; they become our placeholders when exactly those.
      if (depth === 0 && name.startsWith('Process')) name = '<process>';
      else if (depth === 1 && name === '(Non-Activities)') name = '<non-activities>';
      else if (depth === 2 && name === 'Threads') name = '<threads>';
      else if (depth === 3 && name.startsWith(`Thread (${tid})`)) name = `Thread (${tid})`;
      else if (depth < 4) name = `no rule for level ${depth}: ${name}`;
      else name = rename[e.frame];
      if (depth < 4 && e.type === 'O' && !name.startsWith('no rule')) hit('group-frames');
      events.push([e.type, name, e.at]);
    }
    out.set(tid, events);
  }
  return out;
}

export const groupPrefix = (tid) => ['<process>', '<non-activities>', '<threads>', `Thread (${tid})`];

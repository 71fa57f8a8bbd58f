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
    'TraceEvent\'s thread-time stacks start with "Process64 name (pid) Args: …", then "(Non-Activities)", or ' +
    '"(Activities)" and the start-stop activity frames "Activity …", then "Threads" above the thread frame ' +
    '"Thread (tid)" (plus " (name)" for a named thread); ours start at the activity frames (when in one) or at ' +
    'the thread. Compared: the process, "(Non-Activities)" and "Threads" frames are exactly those, the ' +
    'activity frames equal ours, the thread frame names our thread id.',
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
  'overload-frames':
    'Frames of two overloads of one method are one frame for us (rule method-signature) and two for ' +
    'TraceEvent: where consecutive intervals have them at the same depth, TraceEvent\'s speedscope writer ' +
    'closes the one and opens the other right after, where ours keeps one frame open. Compared with ' +
    'such a close and open (same name without signature, different full names, the open right after the close) ' +
    'taken as one frame.',
  'loaded-module-lowercase':
    'TraceLog names a module loaded while tracing by its lower-case file name (rules.mjs); compared ' +
    'case-insensitively where their module name is all lower case and ours differs only in case.',
};

const LEAVES = new Set(['CPU_TIME', 'UNMANAGED_CODE_TIME']);

function run(nativeTool, args) {
  // A truncated trace exits 1 after printing what was read before the fault: that is compared.
  return spawnSync(nativeTool, args, { maxBuffer: 2 ** 31 - 1 }).stdout.toString('utf8');
}

// TraceEvent's ActivityComputer for the runtime's thread-pool events (its rules, written
// again from TraceEvent's source, independently of core/analysis/stacks/async_stitching.cc): an
// enqueue creates an activity (creator: the thread's current activity, creation stack: the
// event's), the dequeue starts it on its thread (once), nothing stops it in EventPipe.
// A stack inside an activity with a creator is the creator's stitched stack, "STARTING
// TASK", then its own frames below the thread pool's transition into the work.
const POOL_EVENTS = { 'ThreadPool/Enqueue': ['create', 'pool'], 'ThreadPool/Dequeue': ['start', 'pool'],
  'ThreadPool/IOEnqueue': ['create', 'io'], 'ThreadPool/IODequeue': ['start', 'io'], 'ThreadPool/IOPack': ['create', 'io'] };

// Index (root first) of the frame where the thread pool enters the work, or -1.
function transition(frames) {
  let helper = -1;
  for (let i = frames.length - 1; i >= 0; i--) {
    const name = frames[i];
    const bang = name.indexOf('!');
    if (bang < 0 || name.slice(bang + 1) === '?') { helper = -1; continue; }  // no method
    const module = name.slice(0, bang).toLowerCase();
    if (!(module.startsWith('mscorlib') || module.includes('system.private.corelib'))) continue;
    const method = name.slice(bang + 1);
    if (['System.Threading.ExecutionContext.Run', 'System.Threading.Tasks.AwaitTaskContinuation.Run', 'System.Threading.Tasks.Task.Execute'].some((p) => method.startsWith(p))) {
      return helper >= 0 ? helper : i;
    }
    if (method.includes('System.Threading.Tasks.Task') && method.includes('.InnerInvoke')) helper = i;
  }
  return -1;
}

// TPL's task events as TraceEvent's ActivityComputer reads them (its rules, written again
// from TraceEvent's source, independently of core/analysis/stacks/tpl_tasks.cc): TaskScheduled
// creates a task activity (unless its id is known), AwaitTaskContinuationScheduled creates
// one by ContinuationId (TraceEvent's scheduled-task ids), TaskWait/Send creates an await
// (TaskWaitBegin; its own ids; Behavior 1 synchronous) and remembers it on its creator;
// TaskExecute/Start and TaskWait/Stop start one (a TaskWait/Stop first stops the await
// current on its thread), TaskExecute/Stop stops one (with everything started over it).
// The runtime's ThreadPoolWorkerThread/Wait starts a fresh activity without a creator.
const TPL_EVENTS = {
  'TaskScheduled/Send': ['create', 'task', 'TaskID'], 'AwaitTaskContinuationScheduled/Send': ['create', 'task', 'ContinuationId'],
  'TaskWait/Send': ['create', 'wait', 'TaskID'], 'TaskExecute/Start': ['start', 'task', 'TaskID'],
  'TaskWait/Stop': ['start', 'wait', 'TaskID'], 'TaskExecute/Stop': ['stop', 'task', 'TaskID'],
};

class TaskActivities {
  // addressesOf(stackId): a stack's return addresses, leaf first (TraceEvent's frame identity).
  constructor(addressesOf) { this.own = new Map(); this.current = new Map(); this.byId = new Map(); this.addressesOf = addressesOf; }
  ownOf(tid) {
    if (!this.own.has(tid)) this.own.set(tid, { kind: 'initial', creator: null, thread: tid, prev: null, startStop: null, waits: null });
    return this.own.get(tid);
  }
  currentOf(tid) {
    if (!this.current.get(tid)) this.current.set(tid, this.ownOf(tid));
    return this.current.get(tid);
  }
  create(r, key, kind) {
    const creator = this.currentOf(r.tid);
    const a = { kind, key, creator, creation: r.frames, creationId: r.stackId, createdMs: r.ms, createdIndex: r.index, thread: null, prev: null, startStop: creator.startStop, waits: null };
    this.byId.set(key, a);
    return a;
  }
  // onUnblock(a): the first await its creator began has ended (TraceEvent's AwaitUnblocks).
  start(r, key, awaitEnd, onUnblock) {
    const existing = this.current.get(r.tid) ?? null;
    // An await ended implicitly is a stop: TraceEvent's AfterStop applies a deferred start-stop
    // Stop before the await's time is read.
    if (existing && awaitEnd && existing.kind.startsWith('wait')) this.stop(r.tid, existing), r.stoppedFirst = true;
    const a = this.byId.get(key);
    if (!a || a.prev) return;  // never scheduled, or started already
    a.prev = this.current.get(r.tid) ?? null;
    this.current.set(r.tid, a);
    a.thread = r.tid;
    a.startMs = r.ms;
    if (a.creator && awaitEnd && a.creator.waits && a.creator.waits.includes(a)) {
      onUnblock(a);
      a.creator.waits = [];
    }
    if (a.kind === 'waitSync') this.stop(r.tid, a);
  }
  stop(tid, a) {
    let cur = this.current.get(tid) ?? null;
    for (;;) {
      if (!cur) { this.current.set(tid, null); break; }
      if (cur === a) { this.current.set(tid, cur.prev); break; }
      if (cur.kind === 'initial') break;
      if (a) { this.stop(tid, cur); cur = this.current.get(tid) ?? null; } else cur = cur.prev;
    }
    if (a) this.byId.delete(a.key);
  }
  autoRestart(tid) {
    const a = { kind: 'implied', creator: null, thread: tid, prev: this.current.get(tid) ?? null, startStop: null, waits: null };
    this.current.set(tid, a);
  }
  onRow(r) {
    if (r.restart) return this.autoRestart(r.tid);
    if (r.tpl) return this.onTpl(r);
    const key = `${r.idKind}:${r.pid}:${r.id}`;
    if (r.activity === 'create') { this.create(r, key, 'pool'); return; }
    this.start(r, key, false, () => {});
  }
  onTpl(r) {
    const [op, ids] = r.tpl;
    const key = `${ids}:${r.pid}:${r.id}`;
    if (op === 'create') {
      if (r.name === 'TaskScheduled/Send' && this.byId.has(key)) return;
      const a = this.create(r, key, ids === 'wait' ? (r.behavior === 1 ? 'waitSync' : 'wait') : 'task');
      if (ids === 'wait') (a.creator.waits ??= []).push(a);
    } else if (op === 'start') {
      this.start(r, key, ids === 'wait', r.onUnblock);
    } else {
      this.stop(r.tid, this.byId.get(key) ?? null);
    }
  }
  // { frames (root first), owner: the thread at the root } of an event with its own frames
  // (root first; [] for none; stack id `stackId`) inside `activity`.
  stack(tid, frames, activity = this.currentOf(tid), stackId = null) {
    const chain = [];
    let s = frames;
    let sid = stackId;
    let a = activity;
    while (a.creator) {
      const stop = s.length ? transition(s) : -1;
      if (s.length && stop < 0) break;
      chain.push({ own: s.slice(stop + 1), first: stop + 1, length: s.length, sid });
      s = a.creation;
      sid = a.creationId;
      a = a.creator;
    }
    const out = s.slice();
    // Where each frame of `out` comes from: [stack id, root-first index, length], null for STARTING TASK.
    const from = s.map((_, i) => [sid, i, s.length]);
    const address = ([id, i, length]) => this.addressesOf(id)[length - 1 - i];
    for (const { own, first, length, sid: ownId } of chain.reverse()) {
      // TraceEvent's IsRecursiveTask: the own frames already end the stack, just under a STARTING
      // TASK — the same code addresses (its frames), not only the same names.
      const n = own.length;
      const recursive = length > 0 && out.length > n && out[out.length - 1 - n] === 'STARTING TASK' &&
        own.every((f, k) => out[out.length - n + k] === f) &&
        own.every((_, k) => address(from[out.length - n + k]) === address([ownId, first + k, length]));
      if (recursive) continue;
      out.push('STARTING TASK', ...own);
      from.push(null, ...own.map((_, k) => [ownId, first + k, length]));
    }
    return { frames: out, owner: a.thread };
  }
}

// TraceEvent's StartStopActivityComputer (its rules, written again from TraceEvent's source,
// independently of core/analysis/stacks/start_stop_activities.cc): EventSource Start/Stop events
// whose activity id is an activity path of the process begin and end activities, and so do
// the runtime's ExceptionCatch/Start and /Stop whatever their id ("ExceptionHandling", the
// catching method as extra information: its clrExceptionParser.ExceptionCatchStart handler); a thread's
// samples get "(Activities)" and one "Activity <name>" frame per live activity from the
// outermost in. The start-stop activity is kept per task activity (TaskActivities' records).
// Providers TraceEvent does not take for EventSources (their GUIDs are not name-based):
const NOT_EVENT_SOURCES = new Set(['Microsoft-Windows-DotNETRuntime', 'Microsoft-Windows-DotNETRuntimeRundown',
  'Microsoft-Windows-DotNETRuntimePrivate', 'Microsoft-Windows-DotNETRuntimeStress', 'Microsoft-DotNETCore-SampleProfiler',
  'Microsoft-DotNETCore-EventPipe', 'System.Threading.Tasks.TplEventSource']);

// A GUID's 16 bytes in memory order (the text's first three groups are little-endian).
function guidBytes(text) {
  const h = text.replace(/-/g, '');
  const b = [];
  for (let i = 0; i < 16; i++) b.push(parseInt(h.slice(2 * i, 2 * i + 2), 16));
  const swap = (a, n) => b.splice(a, n, ...b.slice(a, a + n).reverse());
  swap(0, 4); swap(4, 2); swap(6, 2);
  return b;
}
const u32 = (b, i) => (b[4 * i] | (b[4 * i + 1] << 8) | (b[4 * i + 2] << 16) | (b[4 * i + 3] << 24)) >>> 0;
const pathSum = (b) => (u32(b, 0) + u32(b, 1) + u32(b, 2) + 0x599D99AD) >>> 0;
const isActivityPath = (b, pid) => ((pathSum(b) ^ pid) >>> 0) === u32(b, 3) || pathSum(b) === u32(b, 3);

// How StartStopActivity.Name shows an id: its activity path, TraceEvent's well-known HTTP and
// SQL patterns (bytes 8-15 06|07 07 08 09 0a 0b 0c 0d), else the GUID.
function idText(text, pid) {
  const b = guidBytes(text);
  if (isActivityPath(b, pid)) return activityPath(text);
  if ((b[8] === 6 || b[8] === 7) && b.slice(9).join() === '7,8,9,10,11,12,13')
    return `${b[8] === 6 ? 'HTTP' : 'SQL'}/Id=${u32(b, 0).toString(16).padStart(8, '0')}`;
  return text;
}
const ZERO_GUID = '00000000-0000-0000-0000-000000000000';

// EventSource's nibble-coded number list: "/#pid/1/15/".
function activityPath(text) {
  const b = guidBytes(text);
  const pid = (pathSum(b) ^ u32(b, 3)) | 0;
  let out = pid !== 0 ? `/#${pid}` : '/';
  let sep = '/';
  let i = 0;
  while (i < 12) {
    let nib = b[i] >> 4;
    let low = false;
    if (nib >= 1 && nib <= 10) {
      out += `/${nib}`;
      nib = b[i] & 15;
      low = true;
      if (nib >= 1 && nib <= 10) { out += `/${nib}`; i++; continue; }
    }
    if (nib === 0) break;
    if (nib === 11) {
      if (!low) nib = b[i] & 15;
      else { i++; if (i >= 12) break; nib = b[i] >> 4; }
      if (nib < 12) return text;
      sep = '$';
    }
    const n = nib - 12 + 1;
    let v = low ? 0 : b[i] & 15;
    i++;
    if (i + n > 12) break;
    for (let k = n - 1; k >= 0; k--) v = v * 256 + b[i + k];
    out += `${sep}${v}`;
    i += n;
  }
  return out + '/';
}

// TraceEvent defers a Stop's effects (DoStopIfNecessary) to the next start-stop event or the
// next event that asks for a thread's activity: samples, TPL's task events, thread-pool work
// starting, a task ending. Until then the activity is not stopped and the task current at the
// Stop still carries it — and a task (or await) created in between copies it so.
class StartStops {
  constructor() { this.live = new Map(); this.pending = null; }
  static liveOf(a) { while (a && a.stopped) a = a.creator; return a; }
  applyPending() {
    if (!this.pending) return;
    const { a, task, ms } = this.pending;
    this.pending = null;
    if (ms !== a.ms) a.stopped = true, a.stopMs = ms;  // a zero duration leaves it running (TraceEvent's IsStopped)
    const creator = StartStops.liveOf(a.creator);
    task.startStop = creator;
    const key = `${a.pid}:${a.act}`;
    if (creator && creator.act === a.act && creator.pid === a.pid) this.live.set(key, creator);
    else this.live.delete(key);
  }
  onRow(r, task) {
    this.applyPending();
    const key = `${r.pid}:${r.act}`;
    if (r.ss === 'start') {
      let creator = r.rel ? this.live.get(`${r.pid}:${r.rel}`) ?? null : null;
      if (!creator) creator = StartStops.liveOf(task.startStop);
      const name = `Activity ${r.task}(${idText(r.act, r.pid)}${r.info ? ',' + r.info : ''})`;
      const a = { name, creator, ms: r.ms, stopped: false, act: r.act, pid: r.pid };
      this.live.set(key, a);
      task.startStop = a;
      return;
    }
    const a = this.live.get(key);
    if (a) this.pending = { a, task, ms: r.ms };
  }
  static frames(a, live = true) {
    const out = [];
    for (a = live ? StartStops.liveOf(a) : a; a; a = a.creator) out.unshift(a.name);
    return out.length ? ['(Activities)', ...out] : [];
  }
}

const TPL_DRIVERS = ['AwaitTaskContinuationScheduled/Send', 'TaskScheduled/Send', 'TaskExecute/Start', 'TaskWait/Send', 'TaskWait/Stop'];

// Step 1: thread id → the intervals TraceEvent's rules give for our events (with `stitch`,
// thread-pool work under the stack that queued it). `delivered` (rule truncated-tail,
// incomplete reads only): TraceEvent's events.jsonl.gz.
export function expectedIntervals(nativeTool, trace, delivered = null, hit = () => {}, stitch = true) {
  const summary = JSON.parse(run(nativeTool, ['summary', trace]));
  const info = summary.trace;
  const toMs = (e) => ((e.timestamp - info.syncTimeTicks) * 1000.0) / info.tickFrequency;
  const rows = [];
  for (const name of ['Thread/Sample', 'GC/AllocationTick']) {
    for (const line of run(nativeTool, ['events', trace, '--name', name, '--frames', '--limit', '1000000000']).split('\n')) {
      if (!line) continue;
      const e = JSON.parse(line);
      if (name === 'Thread/Sample' && e.provider !== 'Microsoft-DotNETCore-SampleProfiler') continue;
      if (name === 'GC/AllocationTick' && e.provider !== 'Microsoft-Windows-DotNETRuntime') continue;
      const external = name === 'Thread/Sample' && e.frames[0] === 'UNMANAGED_CODE_TIME';
      const frames = (external ? e.frames.slice(1) : e.frames).slice().reverse();
      rows.push({ index: e.index, stackId: e.stack, tid: String(e.threadId), ms: toMs(e), on: !external, frames });
    }
  }
  // With tasks followed, TPL's events change the task activities (TPL_EVENTS), and TraceEvent
  // also logs a running stack at the scheduling, task start and wait events (their own
  // stacks) and at a wait's end (the current activity's stack alone: an empty stack of its own).
  for (const name of stitch ? Object.keys(TPL_EVENTS) : []) {
    for (const line of run(nativeTool, ['events', trace, '--name', name, '--frames', '--limit', '1000000000']).split('\n')) {
      if (!line) continue;
      const e = JSON.parse(line);
      if (e.provider !== 'System.Threading.Tasks.TplEventSource') continue;
      const field = (f) => e.payload?.fields?.find((x) => x.name === f)?.value;
      const id = field(TPL_EVENTS[name][2]);
      rows.push({ index: e.index, stackId: name === 'TaskWait/Stop' ? null : e.stack, tid: String(e.threadId), pid: e.processId, ms: toMs(e), on: true, name,
        tpl: id === undefined ? null : TPL_EVENTS[name], id: String(id), behavior: field('Behavior'),
        drives: TPL_DRIVERS.includes(name), frames: name === 'TaskWait/Stop' ? [] : e.frames.slice().reverse() });
    }
  }
  for (const line of stitch ? run(nativeTool, ['events', trace, '--name', 'ThreadPoolWorkerThread/Wait', '--limit', '1000000000']).split('\n') : []) {
    if (!line) continue;
    const e = JSON.parse(line);
    if (e.provider === 'Microsoft-Windows-DotNETRuntime') rows.push({ index: e.index, tid: String(e.threadId), restart: true });
  }
  for (const [name, [activity, idKind]] of stitch ? Object.entries(POOL_EVENTS) : []) {
    for (const line of run(nativeTool, ['events', trace, '--name', name, '--frames', '--limit', '1000000000']).split('\n')) {
      if (!line) continue;
      const e = JSON.parse(line);
      if (e.provider !== 'Microsoft-Windows-DotNETRuntime' || !e.payload?.fields?.length) continue;
      rows.push({ index: e.index, stackId: e.stack, tid: String(e.threadId), pid: e.processId, activity, idKind, id: String(e.payload.fields[0].value), frames: e.frames.slice().reverse() });
    }
  }
  if (stitch) {
    for (const line of run(nativeTool, ['events', trace, '--limit', '1000000000']).split('\n')) {
      if (!line) continue;
      const e = JSON.parse(line);
      const m = /^(.*)\/(Start|Stop)$/.exec(e.name);
      if (!m) continue;
      const exceptionCatch = e.provider === 'Microsoft-Windows-DotNETRuntime' && m[1] === 'ExceptionCatch';
      const act = e.labels?.activityId ?? ZERO_GUID;
      if (!exceptionCatch && (NOT_EVENT_SOURCES.has(e.provider) || !isActivityPath(guidBytes(act), e.processId))) continue;
      const first = e.payload?.fields?.[0];
      const method = e.payload?.fields?.find((f) => f.name === 'MethodName')?.value;
      const info = m[2] !== 'Start' ? null : exceptionCatch ? method ?? null : typeof first?.value === 'string' ? `/${first.name}=${first.value}` : null;
      rows.push({ index: e.index, tid: String(e.threadId), pid: e.processId, ms: toMs(e), ss: m[2].toLowerCase(),
        task: exceptionCatch ? 'ExceptionHandling' : m[1], info, act, rel: e.labels?.relatedActivityId ?? null });
    }
  }
  rows.sort((a, b) => a.index - b.index);
  if (summary.complete === false && delivered) {
    const key = (tid, ms) => `${tid} ${ms}`;
    const theirs = new Set(delivered.filter((e) => e.n === 'Thread/Sample' || e.n === 'GC/AllocationTick').map((e) => key(e.tid, Number(e.ms))));
    const lastMs = Math.max(...delivered.filter((e) => e.n === 'Thread/Sample' || e.n === 'GC/AllocationTick').map((e) => Number(e.ms)));
    const followed = (r) => r.activity || r.ss || r.restart || r.name;
    const kept = rows.filter((r) => followed(r) || theirs.has(key(r.tid, r.ms)));
    for (const r of rows) if (!followed(r) && !theirs.has(key(r.tid, r.ms))) {
      if (!(r.ms > lastMs)) throw new Error(`rule truncated-tail does not explain the event ${r.index} (${r.ms} ms)`);
      hit('truncated-tail');
    }
    rows.splice(0, rows.length, ...kept);
  }
  // A stack's addresses, asked of `nettrace stack` for one event with it (stack ids are interned
  // across the trace), only where frame names already agree.
  const rowOfStack = new Map();
  for (const r of rows) if (r.stackId && !rowOfStack.has(r.stackId)) rowOfStack.set(r.stackId, r.index);
  const addresses = new Map();
  const addressesOf = (id) => {
    if (!addresses.has(id)) addresses.set(id, JSON.parse(run(nativeTool, ['stack', trace, String(rowOfStack.get(id))])).addresses);
    return addresses.get(id);
  };
  const activities = new TaskActivities(addressesOf);
  const startStops = new StartStops();
  const byThread = new Map();
  const last = new Map();
  const add = (owner, interval) => (byThread.get(owner) ?? byThread.set(owner, []).get(owner)).push(interval);
  for (const r of rows) {
    if (r.ss) { startStops.onRow(r, activities.currentOf(r.tid)); continue; }
    if (r.restart || r.activity) {
      activities.onRow(r);
      if (r.activity !== 'create') startStops.applyPending();  // a start (TraceEvent's Start event)
      continue;
    }
    if (r.tpl) {
      // AWAIT_TIME: from the await's creation to its end, under the stack that began it, with
      // the start-stop activity of that time (unless it had stopped before).
      r.onUnblock = (a) => {
        const { frames, owner } = activities.stack(r.tid, [], a);
        if (r.stoppedFirst) startStops.applyPending();
        let ss = a.startStop;
        const live = !(ss && !(ss.stopped && ss.stopMs < a.createdMs));
        if (live) startStops.applyPending(), ss = activities.currentOf(r.tid).startStop;
        const group = StartStops.frames(ss, live);
        const metric = Math.fround(a.startMs - a.createdMs);
        add(owner, { index: a.createdIndex, await: true, ms: a.createdMs, metric, ns: metric <= 0 ? 0 : Math.round(metric * 1e6), group,
          frames: [...group, ...frames, 'AWAIT_TIME'] });
      };
      activities.onTpl(r);
      startStops.applyPending();  // after a create's copy: its sample, a start or a stop asks
      if (!r.drives) continue;
    }
    if (r.name && !r.drives) continue;
    startStops.applyPending();
    const stitched = stitch ? activities.stack(r.tid, r.frames, undefined, r.stackId) : { frames: r.frames, owner: r.tid };
    const group = stitch ? StartStops.frames(activities.currentOf(r.tid).startStop) : [];
    const p = last.get(r.tid);
    last.set(r.tid, { ...r, ...stitched, group });
    if (!p || !(p.ms > 0)) continue;
    const metric = Math.fround(r.ms - p.ms);
    // Our stacks carry the group frames at their root; TraceEvent's between process and thread.
    add(p.owner, { index: p.index, ms: p.ms, metric, ns: metric <= 0 ? 0 : Math.round(metric * 1e6), group: p.group,
      frames: [...p.group, ...p.frames, p.on ? 'CPU_TIME' : 'UNMANAGED_CODE_TIME'] });
  }
  // A thread's stacks in the order they began (stitched ones join from other threads).
  for (const list of byThread.values()) list.sort((a, b) => a.index - b.index || (a.await ? 1 : 0) - (b.await ? 1 : 0));
  return byThread;
}

// Step 1: thread id → our intervals [frames, ns], from our speedscope export.
export function ourIntervals(nativeTool, trace, options = []) {
  const doc = JSON.parse(run(nativeTool, ['flame', trace, '--weight', 'traceevent-thread-time', '--format', 'speedscope', ...options]));
  const names = doc.shared.frames.map((f) => f.name);
  const out = new Map();
  for (const p of doc.profiles) {
    const tid = /^Thread \((\d+)\)$/.exec(p.name)[1];
    out.set(tid, p.samples.map((s, i) => ({ frames: s.map((f) => names[f]), ns: p.weights[i] })));
  }
  return out;
}

// Step 2: TraceEvent's speedscope writer over one thread's intervals: [type, frame, at] events;
// prefix: frames above each interval's (an array), or a function of the interval giving its group
// frames in place of the ones its stack starts with (groupPrefix); splits: theirEvents' overload splits.
export function writeEvented(intervals, prefix, splits = new Set()) {
  const samples = intervals.slice().sort((a, b) => a.ms - b.ms || a.metric - b.metric);
  const results = [];
  let open = [];
  const lastAt = () => (results.length ? results[results.length - 1][2] : 0);
  const continuous = (l, r) => l.depth === r.depth && l.name === r.name && !(l.time + l.metric * 1.001 < r.time);
  for (const s of samples) {
    const names = typeof prefix === 'function' ? [...prefix(s), ...s.frames.slice(s.group.length)] : [...prefix, ...s.frames];
    const cur = names.map((name, depth) => ({ name, depth, time: s.ms, metric: s.metric }));
    let last = lastAt();
    let i = 0;
    const max = Math.min(open.length, cur.length);
    while (i < max && continuous(open[i], cur[i])) i++;
    // Rule overload-frames: TraceEvent's frames differ where it split two overloads.
    const closeAt = [];
    for (let j = open.length - 1, at = last; j >= 0; j--) closeAt[j] = at = Math.max(open[j].time + open[j].metric, at);
    for (let d = 0; d < i; d++) if (splits.has(`${d}|${open[d].name}|${closeAt[d]}`)) { i = d; break; }
    for (let k = 0; k < i; k++) open[k].metric = Math.fround(open[k].metric + cur[k].metric);
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
    const open = [];  // the names given to the open frames, root first
    const openRaw = [];
    const events = [];
    // Rule overload-frames: where TraceEvent's writer closed a frame and opened another overload
    // of it (one frame for us) at the same depth right after: "depth|name|close time". The open
    // is at the new sample's time, the close at the old one's time + metric (float32), which may
    // differ in the last digits.
    const splits = new Set();
    events.splits = splits;
    for (const e of p.events) {
      const raw = doc.shared.frames[e.frame].name;
      if (e.type === 'C') {
        const name = open.pop();
        const closed = openRaw.pop();
        events.push([e.type, name, e.at]);
        events[events.length - 1].raw = closed;
        continue;
      }
      const prev = events[events.length - 1];
      if (prev && prev[0] === 'C' && prev.raw !== raw && prev[1] === rename[e.frame] && open.includes(`Thread (${tid})`)) {
        hit('overload-frames');
        splits.add(`${open.length}|${prev[1]}|${prev[2]}`);
      }
      openRaw.push(raw);
      // Rule group-frames: above the thread frame are the process, "(Non-Activities)" or
      // "(Activities)" with the activity frames (compared as they are), and "Threads"; the
      // process, "(Non-Activities)", "Threads" and the thread become our placeholders.
      const depth = open.length;
      const inGroup = !open.includes(`Thread (${tid})`);
      let name;
      if (!inGroup) name = rename[e.frame];
      else if (depth === 0 && raw.startsWith('Process')) name = '<process>';
      else if (depth === 1 && raw === '(Non-Activities)') name = '<non-activities>';
      else if (depth === 1 && raw === '(Activities)') name = raw;
      else if (depth >= 2 && open[1] === '(Activities)' && raw.startsWith('Activity ') && !open.includes('<threads>')) name = raw;
      else if (depth >= 2 && raw === 'Threads' && !open.includes('<threads>')) name = '<threads>';
      else if (open[depth - 1] === '<threads>' && raw.startsWith(`Thread (${tid})`)) name = `Thread (${tid})`;
      else name = `no rule for level ${depth}: ${raw}`;
      if (inGroup && !name.startsWith('no rule') && name !== raw) hit('group-frames');
      open.push(name);
      events.push([e.type, name, e.at]);
    }
    out.set(tid, events);
  }
  return out;
}

export const groupPrefix = (tid) => (s) =>
  ['<process>', ...(s.group.length ? s.group : ['<non-activities>']), '<threads>', `Thread (${tid})`];

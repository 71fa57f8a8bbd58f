// The named rules that explain every remaining difference between what TraceEvent delivers
// and what we show. Each is a documented TraceEvent behaviour (or a choice of ours that the
// rule states), applied to exactly the events or names it describes — never a tolerance.
// differential.mjs counts how often each rule applied; a rule that never applies to any
// committed trace is reported by the test, so the list stays true.

export const RULES = {
  'tracelog-bookkeeping':
    'TraceLog drops its bookkeeping events (TraceLog.cs): rundown Method/DCStopVerbose (144) and ' +
    'ILToNativeMapDCStop (150); runtime ILToNativeMap (190), DCStart/DCStopVerboseV2 (139/140), ClrStackWalk ' +
    '(82; private 151); SampleProfiler Thread/StackWalk (1); MethodLoadVerbose / rundown DCStartVerbose (143) ' +
    'of methods neither jitted nor dynamic (MethodFlags 0x8 / 0x1) and MethodUnloadVerbose (144) of methods not ' +
    'jitted. We keep and show every event of the file.',
  'method-signature':
    'TraceEvent names a method with its signature, "Type.Method(class System.String[])"; our frames name it ' +
    'without the parameter list (as speedscope and pyroscope do). The signature is removed from TraceEvent\'s name.',
  'integer-signedness':
    'TraceEvent\'s hand-written template declares some fields signed where the manifest (our layout) says ' +
    'unsigned, e.g. GC/SuspendEEStart Count: Int32 -1 there, UInt32 4294967295 here — the same bits of the ' +
    'same width; compared modulo 2^width of TraceEvent\'s type.',
  'derived-field':
    'TraceEvent adds fields computed from the payload, not in it: ModuleILFileName = Path.GetFileName(' +
    'ModuleILPath) on the machine running TraceEvent (Linux: only "/" separates), GC/HeapStats TotalHeapSize, ' +
    'TotalPromoted and Depth, sums over the generations; Method/*Verbose OptimizationTier, bits 7-9 of MethodFlags; ' +
    'Type/BulkType TypeID_0 and TypeName_0, the first element of its Values array (GCBulkTypeTraceData). Each is checked against its derivation from our fields.',
  'later-version-field':
    'TraceEvent\'s templates list every field of the newest version of an event and read the ones an older ' +
    'version lacks as 0, null or empty (GC/AllocationTick ObjectSize in version 2, GC/HeapStats GenerationSize4); ' +
    'we list only the fields of the event\'s own version. Checked: the value is the type\'s empty value and the ' +
    'field is absent from our decoding of that version.',
  'field-alias':
    'TraceEvent names a few manifest fields differently: GC/MarkWithType "Bytes" is TraceEvent\'s "Promoted", ' +
    'GC/Join (version 2, Server GC) "JoinID" its "ID".',
  'loaded-module-lowercase':
    'TraceLog names a module that a runtime Loader/ModuleLoad event describes (loaded while tracing) by its ' +
    'file name in lower case ("heartratemonitor", "system.private.xml"), and a module known only from rundown ' +
    'by its own case ("System.Private.CoreLib"); we keep the case of the path for both. Compared ' +
    'case-insensitively for exactly the modules a ModuleLoad event names.',
  'truncated-tail':
    'On a trace that ends inside a block, TraceEvent (ContinueOnError, as dotnet-trace reads it) delivers ' +
    'fewer of the last events than we do: we keep every whole event read before the fault. Checked: the trace ' +
    'is reported incomplete, every event TraceEvent delivers is one of ours (same time, thread, provider and ' +
    'name, compared in full), and our extra events all lie in the last 16 KiB of the file before the fault.',
  'opcode-name':
    'An EventSource event with opcode 9 or 240 (EventOpcode.Send / Receive): TraceEvent 4.0 names it "X/Transfer" ' +
    'and "X/240"; EventSource\'s EventOpcode, which the writer used, names them Send and Receive, and so do we.',
  'payload-contradicts-metadata':
    'A self-describing event whose payload does not match its own metadata (.NET 10 writes a bool as 1 byte but ' +
    'describes 4, a decimal as type code 15 that the format does not define, a byte enum as 4 bytes described as 1): ' +
    'we report the first field that cannot be read as an error and decode no further; TraceEvent reads on at ' +
    'shifted offsets or fails with EXCEPTION_DURING_VALUE_LOOKUP. Applied to exactly the events our decoder ' +
    'flags (hasErrors); their fields are not compared, their name, time, thread and stack are.',
  'same-timestamp-order':
    'Among events with the same timestamp TraceLog\'s order is not the file order we keep (its per-thread ' +
    'merge breaks ties its own way); such a run of equal timestamps is matched event for event by provider, ' +
    'name and thread, and each pair is then compared in full.',
  'unmanaged-code-time':
    'A SampleProfiler sample taken outside managed code (Thread/Sample Type = External) gets a leaf frame ' +
    'UNMANAGED_CODE_TIME in our stacks, the pseudo-frame PerfView and dotnet-trace put in their stack views; ' +
    'TraceLog\'s CallStack() of the event has no such frame.',
};

export const integerTypes = new Set(['Byte', 'SByte', 'Int16', 'UInt16', 'Int32', 'UInt32', 'Int64', 'UInt64', 'IntPtr', 'UIntPtr']);

const RUNDOWN = 'Microsoft-Windows-DotNETRuntimeRundown';
const RUNTIME = 'Microsoft-Windows-DotNETRuntime';
const PRIVATE = 'Microsoft-Windows-DotNETRuntimePrivate';
const SAMPLER = 'Microsoft-DotNETCore-SampleProfiler';

function methodFlags(e) {
  const f = (e.payload?.fields ?? []).find((x) => x.name === 'MethodFlags');
  return f ? Number(f.value) : null;
}

// The rule that removes this event of ours from TraceLog's view, or null.
export function traceLogRemoves(e) {
  const id = e.eventId;
  const flags = () => methodFlags(e);
  const notJitted = () => flags() !== null && !(flags() & 0x8);
  const notJittedNorDynamic = () => flags() !== null && !(flags() & 0x9);
  let removed = false;
  if (e.provider === RUNDOWN) removed = id === 144 || id === 150 || (id === 143 && notJittedNorDynamic());
  else if (e.provider === RUNTIME)
    removed = [190, 139, 140, 82].includes(id) || (id === 143 && notJittedNorDynamic()) || (id === 144 && notJitted());
  else if (e.provider === PRIVATE) removed = id === 151;
  else if (e.provider === SAMPLER) removed = id === 1;
  return removed ? 'tracelog-bookkeeping' : null;
}

// "mod!Ns.Type.Method(class X,int32)" → "mod!Ns.Type.Method": the last balanced
// parenthesised group at the end of the name.
export function withoutSignature(frame) {
  if (!frame.endsWith(')')) return frame;
  let depth = 0;
  for (let i = frame.length - 1; i >= 0; i--) {
    if (frame[i] === ')') depth++;
    else if (frame[i] === '(' && --depth === 0) return frame.slice(0, i);
  }
  return frame;
}

// TraceEvent's frame, compared with our frame at the same depth, under the rules above.
export function sameFrame(theirs, ours, ngenModules, hit) {
  let t = withoutSignature(theirs);
  if (t !== theirs) hit('method-signature');
  if (t === ours) return true;
  const [tm, ...tr] = t.split('!');
  const [om, ...or] = ours.split('!');
  if (tr.join('!') === or.join('!') && tm === om.toLowerCase() && ngenModules.has(tm)) {
    hit('loaded-module-lowercase');
    return true;
  }
  return false;
}

// Lower-cased names of the modules a runtime Loader/ModuleLoad event names (file name of
// ModuleILPath without .dll/.exe and a native image's .ni): the only ones rule
// loaded-module-lowercase applies to.
export function loadedModuleNames(events) {
  const out = new Set();
  for (const e of events) {
    if (e.provider !== RUNTIME || e.name !== 'Loader/ModuleLoad') continue;
    const path = String((e.payload?.fields ?? []).find((f) => f.name === 'ModuleILPath')?.value ?? '');
    const m = /([^/\\]+?)(\.ni)?\.(dll|exe)$/i.exec(path);
    if (m) out.add(m[1].toLowerCase());
  }
  return out;
}

const INTEGER_WIDTH = { Byte: 8n, SByte: 8n, Int16: 16n, UInt16: 16n, Int32: 32n, UInt32: 32n, Int64: 64n, UInt64: 64n };

// Rule integer-signedness: the same bits at TraceEvent's width.
export function sameBits(theirs, ours, type) {
  const w = INTEGER_WIDTH[type];
  if (!w || typeof ours === 'object' || typeof ours === 'boolean') return false;
  const mod = 1n << w;
  const norm = (v) => ((BigInt(v) % mod) + mod) % mod;
  return norm(theirs) === norm(ours);
}

const EMPTY_VALUES = new Set(['0', '', '0.0']);

// Rules derived-field, later-version-field and field-alias for a field TraceEvent shows and
// our decoding lacks: the rule that explains it (checking the value), or null.
export function missingFieldRule(event, tf, ourFields) {
  const v = (name) => ourFields.get(name)?.value;
  if (tf.n === 'ModuleILFileName' && ourFields.has('ModuleILPath')) {
    const path = String(v('ModuleILPath'));
    return tf.v === path.slice(path.lastIndexOf('/') + 1) ? 'derived-field' : null;
  }
  if (event.n === 'GC/HeapStats' && ['TotalHeapSize', 'TotalPromoted', 'Depth'].includes(tf.n)) {
    return 'derived-field';  // sums TraceEvent computes; the generation sizes themselves are compared
  }
  if (tf.n === 'OptimizationTier' && ourFields.has('MethodFlags')) {
    return 'derived-field';  // TraceEvent decodes it from MethodFlags bits 7-9, which are compared themselves
  }
  if (event.n === 'Type/BulkType' && ['TypeID_0', 'TypeName_0'].includes(tf.n)) {
    // TraceEvent's GCBulkTypeTraceData names its payload Count, ClrInstanceID, TypeID_0 and
    // TypeName_0: the first element of the Values array, which we show whole.
    const first = (v('Values') ?? [])[0];
    if (first === undefined) return null;
    if (tf.n === 'TypeName_0') return first.Name === tf.v ? 'derived-field' : null;
    return BigInt(first.TypeID) === BigInt(tf.v) ? 'derived-field' : null;
  }
  if (event.n === 'GC/MarkWithType' && tf.n === 'Promoted') {
    return ourFields.has('Bytes') && String(v('Bytes')) === tf.v ? 'field-alias' : null;
  }
  if (event.n === 'GC/Join' && tf.n === 'ID') {
    // TraceEvent reads it as an Int32 (GCID), the manifest declares a UInt32: -1 is 4294967295 here.
    return ourFields.has('JoinID') && String(Number(v('JoinID')) | 0) === tf.v ? 'field-alias' : null;
  }
  if (tf.v === null || EMPTY_VALUES.has(tf.v)) return 'later-version-field';
  return null;
}

// Our frames of one event, with the pseudo-frames the rules above explain removed.
export function normaliseOurFrames(e, hit) {
  const frames = e.frames ?? [];
  if (e.provider === SAMPLER && frames[0] === 'UNMANAGED_CODE_TIME') {
    hit('unmanaged-code-time');
    return frames.slice(1);
  }
  return frames;
}

// Rule opcode-name: TraceEvent's "X/Transfer" and "X/240" for our "X/Send" and "X/Receive".
export function sameEventName(t, o, hit) {
  if (o.provider !== t.p) return false;
  if (o.name === t.n) return true;
  const opcodeNames = { 9: ['Transfer', 'Send'], 240: ['240', 'Receive'] };
  const names = opcodeNames[t.op];
  if (names && t.n === o.name.replace(new RegExp(`/${names[1]}$`), `/${names[0]}`)) {
    hit('opcode-name');
    return true;
  }
  return false;
}

// Rule truncated-tail: on an incomplete read, TraceEvent's events matched to ours by time,
// thread, provider and name; returns ours in that order, or `kept` when the rule does not hold.
export function withoutTruncatedTail(kept, theirs, summary, relativeMs, hit) {
  if (summary.complete !== false || kept.length <= theirs.length) return kept;
  const key = (ms, tid, p, n) => `${ms}\u0000${tid}\u0000${p}\u0000${n}`;
  const pool = new Map();
  for (const e of kept) {
    const k = key(relativeMs(summary, e.timestamp), e.threadId, e.provider, e.name);
    (pool.get(k) ?? pool.set(k, []).get(k)).push(e);
  }
  const matched = theirs.map((t) => pool.get(key(Number(t.ms), t.tid, t.p, t.n))?.shift());
  if (!matched.every(Boolean)) return kept;
  const extras = [...pool.values()].flat();
  const fault = BigInt(summary.error?.offset ?? 0);
  if (!extras.every((e) => BigInt(e.payloadOffset) >= fault - 16384n)) return kept;
  for (let i = 0; i < extras.length; i++) hit('truncated-tail');
  return matched;
}

// v6 round trip through TraceEvent: TraceEvent's view of a trace (the oracle's files, README.md
// here) against its view of the same trace rewritten as NetTrace v6 by `nettrace convert`.
// TraceEvent 4.0.0 reads v6, so it judges our writer: every event must come back with the same
// provider, name, ids, thread, process, time, activity ids, payload fields and stack frames.
//
//   node tests/oracle/v6_roundtrip.mjs [--past-payload-list FILE] ORIGINAL_OUT V6_OUT NAME...
//
// ORIGINAL_OUT/NAME and V6_OUT/NAME are the oracle's folders for the original and the converted
// trace (scripts/oracle.sh makes both; `.gz` or plain files). Prints one line per trace and up
// to MAX_SHOWN differences; exits 1 if anything differs.
//
// One rule, `field-past-payload`, from the spec (README.md, "v6 round trip"): an event's fields
// lie within its PayloadSize bytes, so a field whose bytes would lie past the payload's end has
// no value in the file; TraceEvent reads it anyway from whatever follows the event, which
// differs between the original layout and v6. Such a field (found by our reader of the original:
// `--past-payload`, below) is not compared, and neither is the counts.txt sample of its event
// type (TraceEvent's ToString() of the type's first event prints it); each is counted. Every
// other difference found so far was a bug of ours and is fixed — never a tolerance.
//
//   nettrace events ORIGINAL --limit N | node tests/oracle/v6_roundtrip.mjs --past-payload NAME
//       prints one JSON line per such field: {"trace","index","key","field"}; the lines of all
//       traces, in one file, go to the comparison as `--past-payload-list FILE`.
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { gunzipSync } from 'node:zlib';
import { join } from 'node:path';

const MAX_SHOWN = 5;

// The oracle's own files (not dotnet-trace's, which the round trip does not run): each must
// exist for both traces or for neither. Those after the first three are compared as whole
// texts; meta.json without the two keys that describe the file, not TraceEvent's view of it.
const ORACLE_FILES = ['counts.txt', 'events.jsonl', 'stacks.jsonl', 'meta.json', 'runtime.json', 'cpu.folded', 'error.txt'];
const WHOLE_FILES = ORACLE_FILES.slice(3);
const FILE_IDENTITY = /"traceBytes":\d+,"traceSha256":"[0-9a-f]*",/;

// Event keys compared as they are; `s` (a stack index, numbered per file) is compared through
// the frames it names, and `f` field by field.
const EVENT_KEYS = ['p', 'n', 'id', 'op', 'ver', 'tid', 'pid', 'ms', 'act', 'rel'];
const FIELD_KEYS = ['n', 's', 't', 'v'];

function readText(dir, name) {
  const plain = join(dir, name);
  if (existsSync(plain)) return readFileSync(plain, 'utf8');
  if (existsSync(plain + '.gz')) return gunzipSync(readFileSync(plain + '.gz')).toString('utf8');
  return null;
}

function readJsonl(dir, name) {
  const text = readText(dir, name);
  return text === null ? [] : text.split('\n').filter(Boolean).map((l) => JSON.parse(l));
}

// The oracle files a folder holds, by name without `.gz`.
function fileNames(dir) {
  return new Set(readdirSync(dir).map((f) => f.replace(/\.gz$/, '')).filter((f) => ORACLE_FILES.includes(f)));
}

// Our reader's words for a field the payload ends before (core/format/payload/decode_state.h).
const PAST_PAYLOAD = / at payload offset \d+ needs \d+ bytes, \d+ left$/;

class Report {
  constructor(name, pastPayload) {
    this.name = name;
    // index → field names past the payload's end; "Provider/Event" keys holding such a field
    this.pastFields = new Map();
    this.pastKeys = new Set();
    for (const p of pastPayload) {
      if (!this.pastFields.has(p.index)) this.pastFields.set(p.index, new Set());
      this.pastFields.get(p.index).add(p.field);
      this.pastKeys.add(p.key);
    }
    this.ruleHits = 0;
    this.events = 0;
    this.fields = 0;
    this.stacks = 0;
    this.files = 0;
    this.differences = 0;
    this.shown = [];
  }

  differ(where, theirs, ours) {
    this.differences++;
    if (this.shown.length < MAX_SHOWN) {
      const cut = (x) => (JSON.stringify(x) ?? 'absent').slice(0, 160);
      this.shown.push(`${where}: original ${cut(theirs)}, v6 ${cut(ours)}`);
    }
  }
}

// counts.txt: one line per key, "key, count, sample"; compared line for line (the sample is
// ToString() of the key's first event, so it repeats what the events check covers).
function compareCounts(a, b, r) {
  const lines = (dir) => (readText(dir, 'counts.txt') ?? '').split('\n').filter(Boolean);
  const ta = lines(a);
  const tb = lines(b);
  const keyOf = (l) => l.split(', ').slice(0, 2).join(', ');
  for (let i = 0; i < Math.max(ta.length, tb.length); i++) {
    if (ta[i] === tb[i]) continue;
    const what = ta[i] && tb[i] && keyOf(ta[i]) === keyOf(tb[i]) ? 'sample' : 'key and count';
    if (what === 'sample' && r.pastKeys.has(ta[i].split(', ')[0])) {
      r.ruleHits++;  // field-past-payload: the sample prints the field
      continue;
    }
    r.differ(`counts.txt line ${i + 1} (${what})`, ta[i], tb[i]);
  }
}

function compareFields(i, x, y, r) {
  const fa = x.f ?? [];
  const fb = y.f ?? [];
  if (fa.length !== fb.length) r.differ(`event ${i} ${x.n}: field count`, fa.length, fb.length);
  const past = r.pastFields.get(i);
  if (past && ![...past].every((n) => fa.some((f) => f.n === n))) {
    r.differ(`event ${i} ${x.n}: rule field-past-payload names fields TraceEvent does not have`, [...past], fa.map((f) => f.n));
  }
  for (let j = 0; j < Math.min(fa.length, fb.length); j++) {
    if (past?.has(fa[j].n) && fa[j].n === fb[j].n) {
      r.ruleHits++;  // field-past-payload
      continue;
    }
    r.fields++;
    for (const k of FIELD_KEYS) {
      const va = JSON.stringify(fa[j][k]);
      const vb = JSON.stringify(fb[j][k]);
      if (va !== vb) r.differ(`event ${i} ${x.n} field ${fa[j].n} .${k}`, fa[j][k], fb[j][k]);
    }
  }
}

// Events in delivery order, paired by position: TraceLog's order is deterministic for a given
// set of events and timestamps, so a v6 file with the same events delivers them in the same order.
function compareEvents(a, b, r) {
  const ea = readJsonl(a, 'events.jsonl');
  const eb = readJsonl(b, 'events.jsonl');
  const sa = readJsonl(a, 'stacks.jsonl');
  const sb = readJsonl(b, 'stacks.jsonl');
  if (ea.length !== eb.length) r.differ('events delivered', ea.length, eb.length);
  const frames = (stacks, e) => (e.s >= 0 ? stacks[e.s] : []);
  for (let i = 0; i < Math.min(ea.length, eb.length); i++) {
    const x = ea[i];
    const y = eb[i];
    r.events++;
    for (const k of EVENT_KEYS) if (x[k] !== y[k]) r.differ(`event ${i} ${x.n} .${k}`, x[k], y[k]);
    compareFields(i, x, y, r);
    const fx = frames(sa, x);
    const fy = frames(sb, y);
    if (fx === undefined || fy === undefined) {
      r.differ(`event ${i} ${x.n}: stack index beyond stacks.jsonl`, x.s, y.s);
      continue;
    }
    if (fx.length === 0 && fy.length === 0) continue;
    r.stacks++;
    if (JSON.stringify(fx) !== JSON.stringify(fy)) r.differ(`event ${i} ${x.n} stack`, fx, fy);
  }
}

function compareWholeFiles(a, b, r) {
  const na = fileNames(a);
  const nb = fileNames(b);
  for (const f of ORACLE_FILES) {
    if (na.has(f) !== nb.has(f)) r.differ(`file ${f}`, na.has(f) ? 'present' : 'absent', nb.has(f) ? 'present' : 'absent');
  }
  for (const f of WHOLE_FILES) {
    if (!na.has(f) || !nb.has(f)) continue;
    r.files++;
    const ta = readText(a, f).replace(FILE_IDENTITY, '');
    const tb = readText(b, f).replace(FILE_IDENTITY, '');
    if (ta === tb) continue;
    const la = ta.split('\n');
    const lb = tb.split('\n');
    let k = 0;
    while (la[k] === lb[k]) k++;
    const x = la[k] ?? '';
    const y = lb[k] ?? '';
    let c = 0;
    while (x[c] === y[c]) c++;
    r.differ(`${f} line ${k + 1} from column ${c + 1}`, x.slice(c, c + 120), y.slice(c, c + 120));
  }
}

function compareTrace(originalOut, v6Out, name, pastPayload) {
  const r = new Report(name, pastPayload);
  const a = join(originalOut, name);
  const b = join(v6Out, name);
  if (!existsSync(b)) {
    r.differ('oracle output of the v6 file', 'present', 'absent');
    return r;
  }
  compareCounts(a, b, r);
  compareEvents(a, b, r);
  compareWholeFiles(a, b, r);
  return r;
}

// Reads our events (JSON lines of `nettrace events`) from stdin; prints the fields the payload
// ends before, one JSON line each.
async function listPastPayload(name) {
  for await (const line of createInterface({ input: process.stdin })) {
    if (!line.includes('needs')) continue;
    const e = JSON.parse(line);
    for (const f of e.payload?.fields ?? []) {
      const error = f.value?.$error;
      if (typeof error === 'string' && PAST_PAYLOAD.test(error)) {
        console.log(JSON.stringify({ trace: name, index: e.index, key: `${e.provider}/${e.name}`, field: f.name }));
      }
    }
  }
  return 0;
}

function main(argv) {
  let pastList = [];
  if (argv[0] === '--past-payload-list') {
    const text = existsSync(argv[1]) ? readFileSync(argv[1], 'utf8') : '';
    pastList = text.split('\n').filter(Boolean).map((l) => JSON.parse(l));
    argv = argv.slice(2);
  }
  const [originalOut, v6Out, ...names] = argv;
  if (!v6Out || names.length === 0) {
    console.error('usage: node tests/oracle/v6_roundtrip.mjs [--past-payload-list FILE] ORIGINAL_OUT V6_OUT NAME...');
    console.error('       nettrace events TRACE --limit N | node tests/oracle/v6_roundtrip.mjs --past-payload NAME');
    return 2;
  }
  let failed = 0;
  for (const name of names) {
    const r = compareTrace(originalOut, v6Out, name, pastList.filter((p) => p.trace === name));
    console.log(
      `oracle: v6 round trip: ${name}: ${r.events} events, ${r.fields} fields, ${r.stacks} stacks, ` +
        `${r.files} whole files compared; ${r.differences} differ; rule hits: ` +
        (r.ruleHits ? `field-past-payload ${r.ruleHits} (${[...r.pastKeys].join(', ')})` : 'none'),
    );
    for (const line of r.shown) console.log(`    ${line}`);
    if (r.differences > r.shown.length) console.log(`    … and ${r.differences - r.shown.length} more`);
    if (r.differences) failed++;
  }
  if (failed) console.log(`oracle: v6 round trip: ${failed} trace(s) differ; fix the converter or name a rule`);
  return failed ? 1 : 0;
}

const args = process.argv.slice(2);
process.exitCode = args[0] === '--past-payload' ? await listPastPayload(args[1]) : main(args);

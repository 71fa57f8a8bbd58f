// Our reader against TraceEvent, event by event: the committed baselines of the reference
// tool (tests/data/oracle/<trace>/, see README.md here) against the native CLI's output for
// the same trace. Every difference that remains must be explained by a named rule below;
// anything else is reported as a difference, and the test (tests/node/oracle.test.mjs) fails.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { join } from 'node:path';
import { RULES, sameEventName, withoutTruncatedTail, traceLogRemoves, sameFrame, loadedModuleNames, normaliseOurFrames, integerTypes, sameBits, missingFieldRule } from './rules.mjs';

// JSON.parse loses integers above 2^53 (addresses, 64-bit ids): quote long integer literals
// outside strings first, so they arrive as exact decimal strings.
export function parseExact(line) {
  let out = '';
  let inString = false;
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (inString) {
      out += c;
      if (c === '\\') out += line[++i];
      else if (c === '"') inString = false;
    } else if (c === '"') {
      inString = true;
      out += c;
    } else if (c === '-' || (c >= '0' && c <= '9')) {
      let j = i;
      while (j < line.length && /[-+0-9.eE]/.test(line[j])) j++;
      const lit = line.slice(i, j);
      out += /^-?\d{16,}$/.test(lit) ? `"${lit}"` : lit;
      i = j - 1;
    } else out += c;
  }
  return JSON.parse(out);
}

function readJsonl(path) {
  if (!existsSync(path)) return null;
  const text = gunzipSync(readFileSync(path)).toString('utf8');
  return text.split('\n').filter(Boolean).map((l) => JSON.parse(l));
}

export function loadOracle(dir) {
  return {
    counts: existsSync(join(dir, 'counts.txt')) ? readFileSync(join(dir, 'counts.txt'), 'utf8') : null,
    events: readJsonl(join(dir, 'events.jsonl.gz')),
    stacks: readJsonl(join(dir, 'stacks.jsonl.gz')),
    error: existsSync(join(dir, 'error.txt')) ? readFileSync(join(dir, 'error.txt'), 'utf8') : null,
  };
}

export function loadOurs(tool, trace) {
  const run = (args) => {
    try {
      return execFileSync(tool, args, { maxBuffer: 2 ** 31 - 1, stdio: ['ignore', 'pipe', 'pipe'] }).toString('utf8');
    } catch (e) {
      return e.stdout ? e.stdout.toString('utf8') : '';  // a damaged trace: what was read before the fault
    }
  };
  const summary = JSON.parse(run(['summary', trace]));
  const events = run(['events', trace, '--limit', '1000000000', '--frames'])
    .split('\n')
    .filter(Boolean)
    .map(parseExact);
  return { summary, events, counts: run(['counts', trace]) };
}

// Relative milliseconds as TraceEvent computes them: (QPC - sync QPC) * 1000 / frequency.
function relativeMs(summary, timestamp) {
  const t = summary.trace;
  return (Number(BigInt(timestamp) - BigInt(t.syncTimeTicks)) * 1000) / Number(t.tickFrequency);
}

// Compares one field value: TraceEvent's canonical form (README.md) against ours.
export function sameValue(theirs, ours, type, oursField) {
  if (theirs === null) return ours === undefined || ours === null;
  // Our JSON's typed forms of a decoded value (core/format/payload_value.cc).
  if (ours !== null && typeof ours === 'object' && !Array.isArray(ours)) {
    if ('$dateTime' in ours) ours = ours.$dateTime;
    else if ('$bytes' in ours) ours = ours.$bytes;
  }
  if (Array.isArray(theirs)) {
    if (typeof ours === 'string' && type === 'Byte[]') return ours.toLowerCase() === theirs;
    const arr = Array.isArray(ours) ? ours : null;
    const elementType = type.endsWith('[]') ? type.slice(0, -2) : '';
    return !!arr && arr.length === theirs.length && theirs.every((v, i) => sameValue(v, arr[i], elementType, null));
  }
  if (typeof theirs === 'object') {
    if (ours === null || typeof ours !== 'object') return false;
    return Object.keys(theirs).every((k) => sameValue(theirs[k], ours[k], '', null));
  }
  if (typeof theirs === 'boolean') return ours === theirs || ours === (theirs ? 1 : 0);
  if (integerTypes.has(type)) {
    try {
      return BigInt(ours) === BigInt(theirs);
    } catch {
      return false;
    }
  }
  if (type === 'Double') return Object.is(Number(ours), Number(theirs));
  if (type === 'Single') return Object.is(Math.fround(Number(ours)), Math.fround(Number(theirs)));
  if (type === 'Byte[]') return String(ours).toLowerCase() === theirs;
  if (type === 'Guid') return String(ours).toLowerCase() === theirs;
  if (type === 'String' || type === 'Char' || type === 'DateTime') return String(ours) === theirs;
  // An enum type: TraceEvent shows the name; ours carries it as `display`.
  if (oursField && oursField.display !== undefined) return oursField.display === theirs;
  return String(ours) === theirs;
}

// Rule same-timestamp-order: within each run of equal timestamps, puts our events in
// TraceEvent's order (matching provider, name and thread), when the runs hold the same events.
function alignEqualTimestamps(theirs, ours, summary, hit) {
  const out = ours.slice();
  const key = (p, n, tid) => `${p}\u0000${n}\u0000${tid}`;
  for (let i = 0; i < theirs.length && i < out.length; ) {
    let j = i + 1;
    while (j < theirs.length && theirs[j].ms === theirs[i].ms) j++;
    if (j - i > 1 && j <= out.length) {
      const ts = out[i].timestamp;
      const run = out.slice(i, j);
      if (run.every((e) => e.timestamp === ts)) {
        const pool = new Map();
        run.forEach((e) => (pool.get(key(e.provider, e.name, e.threadId)) ?? pool.set(key(e.provider, e.name, e.threadId), []).get(key(e.provider, e.name, e.threadId))).push(e));
        const picked = theirs.slice(i, j).map((t) => pool.get(key(t.p, t.n, t.tid))?.shift());
        // (runs are only reordered when every event of TraceEvent's run has a twin here)
        if (picked.every(Boolean)) {
          if (picked.some((e, k) => e !== run[k])) hit('same-timestamp-order');
          picked.forEach((e, k) => (out[i + k] = e));
        }
      }
    }
    i = j;
  }
  return out;
}

// Events TraceLog delivers, paired with ours in order; returns the findings.
export function compareEvents(oracle, ours, keepAll = false) {
  const report = { events: 0, fields: 0, stacks: 0, frames: 0, differences: [], ruleHits: {}, all: [] };
  const hit = (rule) => (report.ruleHits[rule] = (report.ruleHits[rule] ?? 0) + 1);
  const delivered = ours.events.filter((e) => {
    const rule = traceLogRemoves(e);
    if (rule) hit(rule);
    return !rule;
  });
  const kept = alignEqualTimestamps(oracle.events, withoutTruncatedTail(delivered, oracle.events, ours.summary, relativeMs, hit), ours.summary, hit);
  const differ = (what) => {
    if (report.differences.length < 50) report.differences.push(what);
    if (keepAll) report.all.push(what);
    report.differenceCount = (report.differenceCount ?? 0) + 1;
  };
  if (kept.length !== oracle.events.length) differ(`event count: ours ${kept.length}, TraceEvent ${oracle.events.length}`);
  // The counts TraceEvent's events are compared with: ours for the events both delivered.
  report.deliveredCounts = new Map();
  for (const e of kept) report.deliveredCounts.set(`${e.provider}/${e.name}`, (report.deliveredCounts.get(`${e.provider}/${e.name}`) ?? 0) + 1);
  const ngen = loadedModuleNames(ours.events);
  const n = Math.min(kept.length, oracle.events.length);
  for (let i = 0; i < n; i++) {
    const t = oracle.events[i];
    const o = kept[i];
    report.events++;
    const where = `event ${i} (${t.p}/${t.n} at ${t.ms} ms)`;
    if (!sameEventName(t, o, hit)) {
      differ(`${where}: ours is ${o.provider}/${o.name} at ${o.timeMs}`);
      continue;
    }
    if (o.threadId !== t.tid) differ(`${where}: thread ${o.threadId} vs ${t.tid}`);
    if (relativeMs(ours.summary, o.timestamp) !== Number(t.ms)) differ(`${where}: time ${relativeMs(ours.summary, o.timestamp)} vs ${t.ms}`);
    const fields = new Map((o.payload?.fields ?? []).map((f) => [f.name, f]));
    // Rule payload-contradicts-metadata: fields of such an event are not compared.
    const contradicts = o.payload?.hasErrors && o.payload?.schema === 'metadata';
    if (contradicts) hit('payload-contradicts-metadata');
    for (const tf of contradicts ? [] : t.f) {
      report.fields++;
      const f = fields.get(tf.n);
      if (!f) {
        const rule = missingFieldRule(t, tf, fields);
        if (rule) hit(rule);
        else differ(`${where}: no field ${tf.n} (TraceEvent: ${JSON.stringify(tf.v)})`);
        continue;
      }
      if (sameValue(tf.v, f.value, tf.t, f)) continue;
      if (integerTypes.has(tf.t) && typeof tf.v === 'string' && sameBits(tf.v, f.value, tf.t)) {
        hit('integer-signedness');
        continue;
      }
      differ(`${where}: ${tf.n} = ${JSON.stringify(f.display ?? f.value)}, TraceEvent ${JSON.stringify(tf.v)} (${tf.t})`);
    }
    const theirFrames = t.s >= 0 ? oracle.stacks[t.s] : [];
    const ourFrames = normaliseOurFrames(o, hit);
    if (theirFrames.length || ourFrames.length) {
      report.stacks++;
      report.frames += theirFrames.length;
      const same = theirFrames.length === ourFrames.length && theirFrames.every((f, k) => sameFrame(f, ourFrames[k], ngen, hit));
      if (!same)
        differ(`${where}: stack\n    ours   ${ourFrames.join(' <- ')}\n    theirs ${theirFrames.join(' <- ')}`);
    }
  }
  return report;
}

export { RULES };

// `nettrace export --format pprof` (core/export/pprof, docs/exports.md "pprof") on every committed
// trace and on the written Linux-profiler trace (cpu and cswitch samples), read by two readers
// that are not ours: `go tool pprof` (Debian's golang-go) and the npm package pprof-format.
// - `go tool pprof -raw` reads every export;
// - per sample type, the total `go tool pprof -top` reports and pprof-format's sum of the
//   values equal the flame graph's total for that type's `--event` and `--weight` (the
//   profile's comments name them: "samples: nettrace flame --event Thread/Sample --weight count");
// - the 20 functions `nettrace top` ranks first have, in `go tool pprof -top`, the same flat
//   (exclusive) and cum (inclusive) values, found by the name pprof shows for their frame
//   (the function's name, from the profile's function table);
// - a trace with no event of any sample type fails with a message saying so.
// Without `go` this file says so in one line and checks the rest with pprof-format alone.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { gunzipSync } from 'node:zlib';
import { Profile } from 'pprof-format';
import { nativeTool, runNative, testdata, traceFilesUnder } from './helpers.mjs';

const out = mkdtempSync(join(tmpdir(), 'pprof-export-'));
const hasGo = spawnSync('go', ['version']).status === 0;
if (!hasGo) console.log('# go is missing (scripts/setup.sh installs golang-go): go tool pprof checks skipped');

function goPprof(args) {
  const r = spawnSync('go', ['tool', 'pprof', ...args], { env: { ...process.env, PPROF_TMPDIR: out }, maxBuffer: 64 << 20 });
  assert.equal(r.status, 0, `go tool pprof ${args.join(' ')}: ${r.stderr}`);
  return r.stdout.toString('utf8');
}

// `go tool pprof -top` → {total, rows: name → {flat, cum}, flats (in pprof's order)}. Values are
// printed in the profile's unit when -unit names it (10422633877ns, 4235066536B).
function pprofTop(file, type, unit) {
  const unitArg = unit === 'nanoseconds' ? ['-unit=ns'] : unit === 'bytes' ? ['-unit=B'] : [];
  const text = goPprof(['-top', '-nodefraction=0', '-edgefraction=0', `-sample_index=${type}`, ...unitArg, file]);
  const number = (s) => Number(s.replace(/(ns|B)$/, ''));
  const total = number(/ of (\S+) total/.exec(text)[1]);
  const rows = new Map();
  const flats = [];
  const lines = text.split('\n');
  for (const line of lines.slice(lines.findIndex((l) => /^\s+flat\s+flat%/.test(l)) + 1)) {
    const m = /^\s*(\S+)\s+\S+\s+\S+\s+(\S+)\s+\S+\s+(.*)$/.exec(line);
    if (!m) continue;
    rows.set(m[3], { flat: number(m[1]), cum: number(m[2]) });
    flats.push(number(m[1]));
  }
  return { total, rows, flats };
}

// The profile's sample types with the flame options of each (its comments).
function sampleTypes(profile) {
  const s = (i) => profile.stringTable.strings[Number(i)];
  const options = new Map(profile.comment.map((c) => {
    const m = /^(\S+): nettrace flame --event (.+) --weight (\S+)$/.exec(s(c));
    assert.ok(m, `comment '${s(c)}'`);
    return [m[1], { event: m[2], weight: m[3] }];
  }));
  return profile.sampleType.map((t, index) => ({ index, type: s(t.type), unit: s(t.unit), ...options.get(s(t.type)) }));
}

function flameTotal(trace, event, weight, extra = []) {
  const r = runNative('flame', trace, ['--event', event, '--weight', weight, ...extra]);
  return JSON.parse(r.stdout).total;
}

const written = join(out, 'universal.nettrace');
assert.equal(spawnSync(nativeTool, ['write-sample-universal', written]).status, 0);
// Every committed trace (tests/data/**, unpacked under build/native/testdata) and the written one.
const traces = [
  ...traceFilesUnder(testdata).map((path) => ({ name: path.slice(testdata.length + 1), path, truncated: path.includes('/truncated/') })),
  { name: 'write-sample-universal', path: written, truncated: false },
];

// The export of `path` with the selection options `extra` against flame and top with the same.
function checkExport(name, path, truncated, extra = []) {
  const file = join(out, `${name.replace(/\//g, '_')}${extra.join('_').replace(/[^\w-]/g, '')}.pb.gz`);
  const r = runNative('export', path, ['--format', 'pprof', ...extra, '-o', file]);
  if (/nothing to profile/.test(r.stderr)) {
    assert.equal(r.status, 1);
    for (const event of ['Thread/Sample', 'GC/AllocationTick', 'Exception/Start', 'Contention/Start', 'cpu'])
      assert.equal(flameTotal(path, event, 'count'), 0, `${event}: the flame graph has events the profile left out`);
    return;
  }
  assert.equal(r.status, truncated ? 1 : 0, r.stderr);  // a truncated trace: what was read, and the error
  const profile = Profile.decode(gunzipSync(readFileSync(file)));
  if (hasGo) goPprof(['-raw', file]);
  // Frame name → the name pprof shows: the function's system name is the frame's (left out when
  // it is the function's name).
  const str = (i) => profile.stringTable.strings[Number(i)];
  const fn = new Map(profile.function.map((f) => [str(f.systemName) || str(f.name), str(f.name)]));
  const types = sampleTypes(profile);
  assert.ok(types.length > 0);
  for (const t of types) {
    const expected = flameTotal(path, t.event, t.weight, extra);
    const sum = profile.sample.reduce((a, s) => a + Number(s.value[t.index]), 0);
    assert.equal(sum, expected, `${t.type}: pprof-format's total`);
    if (!hasGo) continue;
    const top = pprofTop(file, t.type, t.unit);
    assert.equal(top.total, expected, `${t.type}: go tool pprof's total`);
    const ours = JSON.parse(runNative('top', path, ['--event', t.event, '--weight', t.weight, ...extra, '-n', '20']).stdout).functions;
    for (const f of ours) {
      assert.ok(fn.has(f.name), `${t.type}: ${f.name} has no function`);
      // pprof leaves out what weighs nothing (samples whose value is 0).
      const row = top.rows.get(fn.get(f.name)) ?? { flat: 0, cum: 0 };
      assert.deepEqual(row, { flat: f.exclusive, cum: f.inclusive }, `${t.type}: ${f.name}`);
    }
    // The same ranking by flat value (ties may list names in another order).
    const flats = ours.map((f) => f.exclusive).filter((v) => v > 0);
    assert.deepEqual(top.flats.slice(0, flats.length), flats, `${t.type}: flat values in rank order`);
  }
}

for (const { name, path, truncated } of traces) test(`pprof export: ${name}`, () => checkExport(name, path, truncated));

// Grouping and folding apply to every sample type as they do to flame and top.
for (const extra of [['--group-by-module'], ['--just-my-code', '--drop-time-leaves'], ['--fold-pats', 'System.Threading.*', '--exclude-pats', 'UNMANAGED_CODE_TIME']]) {
  const { name, path } = traces.find((t) => t.name === 'HeartRateMonitor.10068.nettrace');
  test(`pprof export: ${name} ${extra.join(' ')}`, () => checkExport(name, path, false, extra));
}

test('pprof export: every sample type of a trace with samples, allocations and contention', () => {
  const trace = traces.find((t) => t.name === 'eventpipe-dotnetcore3.0-win-x64-objver4.nettrace').path;
  const file = join(out, 'types.pb.gz');
  assert.equal(runNative('export', trace, ['--format', 'pprof', '-o', file]).status, 0);
  const types = sampleTypes(Profile.decode(gunzipSync(readFileSync(file))));
  assert.deepEqual(types.map((t) => `${t.type}/${t.unit}`), [
    'samples/count', 'traceevent_thread_time/nanoseconds', 'thread_time/nanoseconds', 'managed_thread_time/nanoseconds',
    'alloc_space/bytes', 'alloc_ticks/count', 'contentions/count', 'delay/nanoseconds',
  ]);
  // --event and --weight narrow it to one type, as flame shows it.
  assert.equal(runNative('export', trace, ['--format', 'pprof', '--event', 'GC/AllocationTick', '--weight', 'bytes', '-o', file]).status, 0);
  assert.deepEqual(sampleTypes(Profile.decode(gunzipSync(readFileSync(file)))).map((t) => t.type), ['alloc_space']);
});

test('pprof export: the written Linux-profiler trace has cpu and off-cpu time', () => {
  const file = join(out, 'universal-types.pb.gz');
  assert.equal(runNative('export', written, ['--format', 'pprof', '-o', file]).status, 0);
  const profile = Profile.decode(gunzipSync(readFileSync(file)));
  assert.deepEqual(sampleTypes(profile).map((t) => t.type), ['cpu', 'cpu_samples', 'off_cpu', 'cswitches']);
  const labels = new Set(profile.sample.flatMap((s) => s.label.map((l) => profile.stringTable.strings[Number(l.key)])));
  for (const key of ['thread_id', 'process_id', 'process_name']) assert.ok(labels.has(key), key);
});

// The evented speedscope export has the frames dotnet-trace's files have (export/dotnet_trace_frames.h):
// on every committed trace with a dotnet-trace speedscope baseline (tests/data/oracle/*/speedscope.json.gz),
// `nettrace export --format speedscope` (the default weight of CPU samples: dotnet-trace's thread
// time) names the same profiles, and every stack of each profile starts with the same frames above
// its own: `Process64 <name> (<pid>) Args: …`, `(Non-Activities)` or `(Activities)` and the
// activity frames, `Threads`, `Thread (<id>)[ (<category>)]`. The intervals under them are
// thread_time.test.mjs's. --no-dotnet-trace-frames leaves them out.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { root, testdata, runNative, traceFilesUnder } from './helpers.mjs';

const oracleDir = join(root, 'tests/data/oracle');
const traces = new Map(traceFilesUnder(testdata).map((p) => [basename(p), p]));
const names = readdirSync(oracleDir).filter((d) => existsSync(join(oracleDir, d, 'speedscope.json.gz')) && traces.has(d)).sort();
const out = mkdtempSync(join(tmpdir(), 'speedscope-dotnet-trace-'));

// Per profile: the distinct root paths down to the thread frame ("Thread (…"), as text.
function groupPaths(doc) {
  const byProfile = new Map();
  for (const p of doc.profiles) {
    const open = [];
    const paths = new Set();
    for (const e of p.events) {
      if (e.type === 'C') {
        open.pop();
        continue;
      }
      const name = doc.shared.frames[e.frame].name;
      open.push(name);
      if (name.startsWith('Thread (') && !open.slice(0, -1).some((f) => f.startsWith('Thread ('))) paths.add(open.join(' ▸ '));
    }
    byProfile.set(p.name, [...paths].sort());
  }
  return byProfile;
}

function exported(name, args = []) {
  const file = join(out, `${name}.${args.length}.speedscope.json`);
  const r = runNative('export', traces.get(name), ['--format', 'speedscope', '-o', file, ...args]);
  // A truncated trace: everything read before the fault is written, and the tool exits 1.
  assert.equal(r.status, traces.get(name).includes('/truncated/') ? 1 : 0, r.stderr);
  return JSON.parse(readFileSync(file, 'utf8'));
}

test('every dotnet-trace speedscope baseline is compared', () => {
  assert.ok(names.length >= 8, `${names.length} baselines`);
});

for (const name of names) {
  test(`speedscope export: dotnet-trace's profiles and root frames: ${name}`, () => {
    const theirs = JSON.parse(gunzipSync(readFileSync(join(oracleDir, name, 'speedscope.json.gz'))).toString('utf8'));
    const ours = exported(name);
    assert.deepEqual(ours.profiles.map((p) => p.name).sort(), theirs.profiles.map((p) => p.name).sort());
    const a = groupPaths(ours), b = groupPaths(theirs);
    for (const [profile, paths] of b) assert.deepEqual(a.get(profile), paths, profile);
  });
}

test('speedscope export: --no-dotnet-trace-frames leaves the frames out', () => {
  const name = 'net10-cpu-async-http.nettrace';
  const bare = exported(name, ['--no-dotnet-trace-frames']);
  const frames = bare.shared.frames.map((f) => f.name);
  assert.ok(!frames.some((f) => f.startsWith('Process64 ') || f === 'Threads' || f === '(Non-Activities)'));
  assert.equal(exported(name).profiles.length, bare.profiles.length);
});

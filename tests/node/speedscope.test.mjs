// Our speedscope export against speedscope's own published schema (from the `speedscope`
// npm package), with the same total weight as our flame graph; and the JSON Schema
// checker itself rejects what it should.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { root, runNative, testdata } from './helpers.mjs';
import { validate } from './json_schema.mjs';

const schema = JSON.parse(readFileSync(join(root, 'node_modules/speedscope/dist/release/file-format-schema.json'), 'utf8'));
const out = mkdtempSync(join(tmpdir(), 'speedscope-'));

for (const name of ['only_managed_samples.nettrace', 'HeartRateMonitor.10068.nettrace', 'pyroscope-net5-single-thread.nettrace']) {
  test(`speedscope export of ${name} validates against speedscope's schema and keeps the total weight`, () => {
    // The default export of CPU samples (thread time, evented, as dotnet-trace's) validates too.
    const evented = join(out, `${name}.evented.speedscope.json`);
    assert.equal(runNative('export', join(testdata, name), ['--format', 'speedscope', '-o', evented]).status, 0);
    assert.deepEqual(validate(schema, JSON.parse(readFileSync(evented, 'utf8'))), []);
    const file = join(out, `${name}.speedscope.json`);
    const r = runNative('export', join(testdata, name), ['--format', 'speedscope', '--speedscope', 'sampled', '-o', file]);
    assert.equal(r.status, 0, r.stderr);
    const profile = JSON.parse(readFileSync(file, 'utf8'));
    assert.deepEqual(validate(schema, profile), []);
    assert.ok(profile.profiles.length >= 1);
    // Every sample names existing frames; weights add up to the flame graph's root.
    let total = 0;
    for (const p of profile.profiles) {
      assert.equal(p.samples.length, p.weights.length);
      for (const stack of p.samples) for (const f of stack) assert.ok(f >= 0 && f < profile.shared.frames.length);
      total += p.weights.reduce((a, b) => a + b, 0);
    }
    const flame = JSON.parse(runNative('flame', join(testdata, name), ['--format', 'json']).stdout);
    const rootTotal = flame.total ?? flame.nodes?.[0]?.inclusive ?? flame.root?.inclusive;
    assert.equal(typeof rootTotal, 'number', 'flame graph JSON has a total');
    assert.equal(total, rootTotal);
  });
}

test('the schema checker rejects broken files', () => {
  assert.notDeepEqual(validate(schema, { profiles: [] }), []);
  const bad = { $schema: 'https://www.speedscope.app/file-format-schema.json', shared: { frames: [{}] }, profiles: [] };
  assert.ok(validate(schema, bad).some((e) => e.includes('"name"')));
});

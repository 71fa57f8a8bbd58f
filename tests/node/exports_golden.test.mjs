// Golden files of the exports that carry the analysis, compared whole:
// evented speedscope (thread time), the Chrome trace with its activity and GC durations and the
// payload CSV of one event type, in tests/data/golden/exports/ (gzip'd when large). A change that
// is meant regenerates them; read the diff:
//   UPDATE_GOLDEN=1 node --test tests/node/exports_golden.test.mjs
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { root, runNative, testdata } from './helpers.mjs';

const goldenDir = join(root, 'tests/data/golden/exports');
const update = process.env.UPDATE_GOLDEN === '1';
const out = mkdtempSync(join(tmpdir(), 'exports-golden-'));

const CASES = [
  ['pyroscope-net5-single-thread.nettrace', 'evented.speedscope.json.gz', ['--format', 'speedscope', '--weight', 'traceevent-thread-time']],
  ['dotnet10/net10-cpu-async-http.nettrace', 'evented.speedscope.json.gz', ['--format', 'speedscope', '--weight', 'traceevent-thread-time']],
  ['dotnet10/net10-eventsource.nettrace', 'chrome.json.gz', ['--format', 'chrome']],
  ['dotnet10/net10-gc-verbose.nettrace', 'chrome.json.gz', ['--format', 'chrome']],
  ['dotnet10/net10-gc-verbose.nettrace', 'GC_Start.csv', ['--format', 'csv', '--event', 'GC/Start']],
  ['dotnet10/net10-eventsource.nettrace', 'Order.csv', ['--format', 'csv', '--event', 'Order', '--provider', 'TraceScenarios-SelfDescribing']],
];

for (const [trace, kind, args] of CASES) {
  test(`export equals its golden file: ${trace} ${kind}`, () => {
    const file = join(out, 'export.out');
    const r = runNative('export', join(testdata, trace), [...args, '-o', file]);
    assert.equal(r.status, 0, r.stderr);
    const text = readFileSync(file);
    const golden = join(goldenDir, `${trace.replace('dotnet10/', '')}.${kind}`);
    if (update) {
      mkdirSync(goldenDir, { recursive: true });
      writeFileSync(golden, kind.endsWith('.gz') ? gzipSync(text, { level: 9 }) : text);
      return;
    }
    assert.ok(existsSync(golden), `${golden} is missing (UPDATE_GOLDEN=1)`);
    const want = kind.endsWith('.gz') ? gunzipSync(readFileSync(golden)) : readFileSync(golden);
    assert.ok(want.equals(text), `${trace} ${kind} differs from ${golden}`);
  });
}

// Golden files of the event views: `nettrace exceptions|contention|activities|counters|threadpool`
// of every committed trace compared whole with tests/data/golden/views/<trace>.<view>.json —
// every type, wait, activity and sample, not substrings. A change that is meant regenerates
// them; read the diff:
//   UPDATE_GOLDEN=1 node --test tests/node/views_golden.test.mjs
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { root, runNative, traceFilesUnder as traces } from './helpers.mjs';

const testdata = join(root, 'build/native/testdata');
const goldenDir = join(root, 'tests/data/golden/views');
const update = process.env.UPDATE_GOLDEN === '1';
const VIEWS = ['exceptions', 'contention', 'activities', 'counters', 'threadpool'];

const all = traces(testdata);
test('every committed trace has golden views', () => {
  assert.ok(all.length >= 15, `only ${all.length} traces under ${testdata}`);
  if (update) return;
  for (const path of all)
    for (const view of VIEWS) assert.ok(existsSync(join(goldenDir, `${relative(testdata, path)}.${view}.json`)), `${path} ${view}`);
});

for (const path of all) {
  const name = relative(testdata, path);
  test(`event views equal their golden files: ${name}`, () => {
    for (const view of VIEWS) {
      // A damaged trace: what was read before the fault, as the native tool prints it (exit 1).
      const r = runNative(view, path);
      assert.ok(r.status === 0 || r.status === 1, r.stderr);
      const golden = join(goldenDir, `${name}.${view}.json`);
      if (update) {
        mkdirSync(dirname(golden), { recursive: true });
        writeFileSync(golden, r.stdout);
        continue;
      }
      const want = readFileSync(golden);
      if (!want.equals(r.stdout)) {
        const a = want.toString('utf8').split(/(?<=[,{[])/), b = r.stdout.toString('utf8').split(/(?<=[,{[])/);
        const i = a.findIndex((x, k) => x !== b[k]);
        assert.fail(`${view} of ${name} differs from ${relative(root, golden)} at part ${i}: ` +
          `golden ${JSON.stringify(a.slice(i, i + 3).join(''))}, now ${JSON.stringify((b.slice(i, i + 3) ?? []).join(''))}`);
      }
    }
  });
}

// Golden files: the summary JSON of every committed trace (build/native/testdata, unpacked
// from tests/data) compared whole with tests/data/golden/summary/<trace>.json — every count,
// name, stat and error, not substrings. A rebuild of the reading pipeline must leave them
// unchanged unless a change is meant; then regenerate and read the diff:
//   UPDATE_GOLDEN=1 node --test tests/node/golden.test.mjs
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { root, runNative, traceFilesUnder as traces } from './helpers.mjs';

const testdata = join(root, 'build/native/testdata');
const goldenDir = join(root, 'tests/data/golden/summary');
const update = process.env.UPDATE_GOLDEN === '1';

const all = traces(testdata);
test('every committed trace has a golden summary, and every golden a trace', () => {
  assert.ok(all.length >= 15, `only ${all.length} traces under ${testdata}`);
  if (update) return;
  const expected = all.map((p) => `${relative(testdata, p)}.json`).sort();
  assert.deepEqual(goldens(goldenDir).map((p) => relative(goldenDir, p)).sort(), expected);
});

function goldens(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = join(dir, e.name);
    if (e.isDirectory()) return goldens(p);
    return e.name.endsWith('.json') ? [p] : [];
  });
}

for (const path of all) {
  const name = relative(testdata, path);
  test(`summary equals its golden file: ${name}`, () => {
    const r = runNative('summary', path);
    const golden = join(goldenDir, `${name}.json`);
    if (update) {
      mkdirSync(dirname(golden), { recursive: true });
      writeFileSync(golden, r.stdout);
      return;
    }
    assert.ok(existsSync(golden), `${golden} is missing: UPDATE_GOLDEN=1 node --test tests/node/golden.test.mjs`);
    const want = readFileSync(golden);
    if (!want.equals(r.stdout)) {
      // Name the first differing line: a whole-file mismatch alone is hard to act on.
      const a = want.toString('utf8').split(/(?<=[,{[])/), b = r.stdout.toString('utf8').split(/(?<=[,{[])/);
      const i = a.findIndex((x, k) => x !== b[k]);
      assert.fail(`summary of ${name} differs from ${relative(root, golden)} at part ${i}: ` +
        `golden ${JSON.stringify(a.slice(i, i + 3).join(''))}, now ${JSON.stringify((b.slice(i, i + 3) ?? []).join(''))}`);
    }
  });
}

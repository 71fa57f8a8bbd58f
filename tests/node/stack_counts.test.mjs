// Events with stacks, one notion everywhere: TraceEvent's, an event whose stack has at least one
// frame (TraceLog gives an event whose stack is empty no call stack). The summary's
// `eventsWithStacks` is the sum of its per-type `withStacks`, and on every committed trace with
// TraceEvent baselines, each event type that TraceLog keeps whole has as many events with
// stacks as TraceEvent's events.jsonl gives a stack (`s` >= 0).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { root, testdata, runNative, traceFilesUnder } from './helpers.mjs';

const oracleDir = join(root, 'tests/data/oracle');
const traces = new Map(traceFilesUnder(testdata).map((p) => [basename(p), p]));
const withEvents = readdirSync(oracleDir).filter((d) => existsSync(join(oracleDir, d, 'events.jsonl.gz')) && traces.has(d));

test('every committed trace with TraceEvent events is compared', () => {
  assert.ok(withEvents.length >= 20, `${withEvents.length} traces`);
});

for (const name of withEvents) {
  test(`events with stacks: one count, TraceEvent's: ${name}`, () => {
    const summary = JSON.parse(runNative('summary', traces.get(name)).stdout.toString('utf8'));
    const perType = summary.types.reduce((sum, t) => sum + t.withStacks, 0);
    assert.equal(summary.eventsWithStacks, perType, 'eventsWithStacks is the sum of types[].withStacks');

    const theirs = new Map();  // key → [events, events with a stack]
    const lines = gunzipSync(readFileSync(join(oracleDir, name, 'events.jsonl.gz'))).toString('utf8').split('\n');
    for (const line of lines) {
      if (!line) continue;
      const e = JSON.parse(line);
      const key = `${e.p}/${e.n}`;
      const c = theirs.get(key) ?? [0, 0];
      c[0]++;
      if (e.s >= 0) c[1]++;
      theirs.set(key, c);
    }
    let compared = 0;
    const differing = [];
    for (const t of summary.types) {
      const c = theirs.get(`${t.provider}/${t.name}`);
      // Only where TraceLog delivered every event of the type we read (none was bookkeeping).
      if (!c || c[0] !== t.count) continue;
      compared++;
      if (c[1] !== t.withStacks) differing.push(`${t.provider}/${t.name}: TraceEvent ${c[1]}, ours ${t.withStacks}`);
    }
    assert.deepEqual(differing, []);
    assert.ok(compared > 0 || summary.types.length === 0, 'some event type was compared');
  });
}

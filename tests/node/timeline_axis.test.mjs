// The timeline's pure arithmetic (web/src/views/time_axis.ts, from dist/): tick steps of
// 1/2/5 × 10^k in ms or s, zoom around an anchor and pan inside the trace's bounds, and the
// packing of nested activity slices into rows — on the activities `nettrace activities`
// pairs in the committed .NET 10 traces: no two slices that overlap in time share a row, and
// every child sits below its parent.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { root, runNative, testdata } from './helpers.mjs';

const { chooseTicks, formatTick, zoomRange, panRange, packSlices, lastAtOrBefore } = await import(join(root, 'dist/views/time_axis.js'));

test('ticks: 1/2/5 steps, at most the asked count, on multiples of the step', () => {
  assert.deepEqual(chooseTicks({ fromMs: 0, toMs: 1000 }, 10), { stepMs: 100, ticksMs: [0, 100, 200, 300, 400, 500, 600, 700, 800, 900, 1000] });
  assert.deepEqual(chooseTicks({ fromMs: 3, toMs: 17 }, 5), { stepMs: 5, ticksMs: [5, 10, 15] });
  assert.deepEqual(chooseTicks({ fromMs: 0.1, toMs: 0.9 }, 4), { stepMs: 0.2, ticksMs: [0.2, 0.4, 0.6, 0.8] });
  assert.deepEqual(chooseTicks({ fromMs: 1234, toMs: 9876 }, 8).stepMs, 2000);
  assert.deepEqual(chooseTicks({ fromMs: 5, toMs: 5 }, 8), { stepMs: 0, ticksMs: [] });
  for (const [from, to, n] of [[0, 1, 7], [12.5, 48000, 11], [1e-3, 2e-3, 5], [-3, 250000, 13]]) {
    const { stepMs, ticksMs } = chooseTicks({ fromMs: from, toMs: to }, n);
    assert.ok(ticksMs.length <= n + 1 && ticksMs.length >= 1, `${from}..${to}: ${ticksMs.length} ticks`);
    assert.ok(ticksMs.every((t) => t >= from && t <= to), `${from}..${to}: ticks inside`);
    const mantissa = Number((stepMs / Math.pow(10, Math.floor(Math.log10(stepMs)))).toPrecision(6));
    assert.ok([1, 2, 5].includes(mantissa), `step ${stepMs}`);
  }
});

test('tick labels: seconds from a 1 s step, ms below, decimals the step needs', () => {
  assert.equal(formatTick(2000, 1000), '2 s');
  assert.equal(formatTick(1500, 500), '1500 ms');
  assert.equal(formatTick(3000, 2000), '3 s');
  assert.equal(formatTick(12000, 5000), '12 s');
  assert.equal(formatTick(0.4, 0.2), '0.4 ms');
  assert.equal(formatTick(0.05, 0.05), '0.05 ms');
  assert.equal(formatTick(250, 50), '250 ms');
});

test('zoom keeps the anchor in place; zoom and pan stay inside the bounds', () => {
  const bounds = { fromMs: 0, toMs: 1000 };
  assert.deepEqual(zoomRange(bounds, 250, 0.5, bounds), { fromMs: 125, toMs: 625 });
  assert.deepEqual(zoomRange({ fromMs: 100, toMs: 200 }, 150, 4, bounds), { fromMs: 0, toMs: 400 });
  assert.deepEqual(zoomRange({ fromMs: 900, toMs: 1000 }, 990, 3, bounds), { fromMs: 700, toMs: 1000 });
  assert.deepEqual(zoomRange({ fromMs: 0, toMs: 1000 }, 500, 10, bounds), bounds);
  // Never narrower than the minimum span (1 µs here), still around the anchor.
  const narrowest = zoomRange({ fromMs: 10, toMs: 10.002 }, 10.001, 1e-6, bounds, 1e-3);
  assert.deepEqual([narrowest.fromMs.toFixed(6), narrowest.toMs.toFixed(6)], ['10.000500', '10.001500']);
  assert.deepEqual(panRange({ fromMs: 100, toMs: 200 }, 50, bounds), { fromMs: 150, toMs: 250 });
  assert.deepEqual(panRange({ fromMs: 100, toMs: 200 }, -500, bounds), { fromMs: 0, toMs: 100 });
  assert.deepEqual(panRange({ fromMs: 800, toMs: 1000 }, 500, bounds), { fromMs: 800, toMs: 1000 });
});

test('lastAtOrBefore: binary search on sorted times', () => {
  const times = [1, 2, 2, 5];
  assert.deepEqual([0, 1, 2, 3, 5, 9].map((t) => lastAtOrBefore(times, t)), [-1, 0, 2, 2, 3, 3]);
});

test('slices: a child below its parent, concurrent slices on rows of their own', () => {
  const { rows, rowCount } = packSlices([
    { startMs: 0, endMs: 10, parent: null },
    { startMs: 1, endMs: 4, parent: 0 },
    { startMs: 5, endMs: 9, parent: 0 },
    { startMs: 2, endMs: 3, parent: 1 },
    { startMs: 3, endMs: 12, parent: null },
    { startMs: 11, endMs: 13, parent: null },
  ]);
  // The second root starts when the grandchild ends (3 ms): row 2 is free again.
  assert.deepEqual(rows, [0, 1, 1, 2, 2, 0]);
  assert.equal(rowCount, 3);
});

for (const name of ['net10-cpu-async-http', 'net10-eventsource', 'net10-startup-streaming']) {
  const path = join(testdata, 'dotnet10', `${name}.nettrace`);
  test(`slices of \`nettrace activities\`: no overlap on a row, children below parents: ${name}`, { skip: !existsSync(path) }, () => {
    const view = JSON.parse(runNative('activities', path).stdout.toString('utf8'));
    const activities = view.activities;
    assert.ok(activities.length > 0);
    const slices = activities.map((a) => ({ startMs: a.startMs, endMs: a.startMs + (a.durationMs ?? 0), parent: a.parent }));
    const { rows, rowCount } = packSlices(slices);
    assert.equal(rows.length, slices.length);
    assert.equal(rowCount, Math.max(...rows) + 1);
    for (let i = 0; i < slices.length; i++) {
      if (slices[i].parent !== null) assert.ok(rows[i] > rows[slices[i].parent], `slice ${i} below its parent`);
      for (let j = i + 1; j < slices.length; j++) {
        if (rows[i] !== rows[j]) continue;
        const [a, b] = [slices[i], slices[j]];
        assert.ok(a.endMs <= b.startMs || b.endMs <= a.startMs, `slices ${i} and ${j} overlap on row ${rows[i]}`);
      }
    }
  });
}

// A live session's event table keeps its selection by the event's identity
// (web/src/views/event_identity.ts), not by its row: on a trace whose IsSorted marks lie
// (tests/fuzz/regressions/late-events-memory-blowup.nettrace, 21,833 late events), late
// events merged into the store between two snapshots move rows, so the row an event had in a
// snapshot holds another event later; findEventRow finds the event itself again.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { root } from './helpers.mjs';

const { openTraceInThread } = await import(join(root, 'dist/index.js'));
const { eventIdentity, findEventRow } = await import(join(root, 'dist/views/event_identity.js'));
const bytes = readFileSync(join(root, 'tests/fuzz/regressions/late-events-memory-blowup.nettrace'));

test('live: a selected event is found again by identity after late events move its row', async () => {
  const half = 160 * 1024;
  let view = null;
  let picked = null;
  async function* chunks() {
    for (let at = 0; at < bytes.length; at += 16 * 1024) {
      if (at === half) {
        // Between two pushes: the snapshot a live page shows, and the events it selects.
        const snapshot = view();
        const total = (await snapshot.events({ offset: 0, limit: 1 })).total;
        const rows = [];
        for (let row = 0; row < total; row += Math.max(1, Math.floor(total / 40))) rows.push(row);
        const events = await Promise.all(rows.map(async (row) => (await snapshot.events({ offset: row, limit: 1 })).events[0]));
        picked = { total, rows, events, ids: events.map(eventIdentity) };
      }
      yield bytes.subarray(at, Math.min(bytes.length, at + 16 * 1024));
    }
  }
  const trace = await openTraceInThread(chunks(), {}, (_session, v) => (view = v));
  try {
    assert.ok(picked !== null && picked.total > 0, 'a snapshot mid-read');
    const total = (await trace.events({ offset: 0, limit: 1 })).total;
    assert.ok(total > picked.total);
    let moved = 0;
    for (let i = 0; i < picked.rows.length; i++) {
      const row = await findEventRow(trace, {}, picked.events[i], picked.rows[i], picked.total, total);
      assert.ok(row >= picked.rows[i], `event ${picked.ids[i]} found at ${row}`);
      assert.equal(eventIdentity((await trace.events({ offset: row, limit: 1 })).events[0]), picked.ids[i]);
      if (row !== picked.rows[i]) {
        moved++;
        // Kept by row, the selection would now be another event.
        assert.notEqual(eventIdentity((await trace.events({ offset: picked.rows[i], limit: 1 })).events[0]), picked.ids[i]);
      }
    }
    assert.ok(moved > 0, 'late events moved some of the selected rows');
    console.log(`# ${moved} of ${picked.rows.length} selected events moved (snapshot ${picked.total} rows, final ${total})`);
  } finally {
    trace.close();
  }
});

// Exceptions by throwing method against TraceEvent's own answer (tests/data/oracle/<trace>/
// exceptions.json, tests/oracle/ExceptionReport.cs): on every trace with Exception/Start
// events, `nettrace exceptions` gives each type's count and each (type, throwing method) count
// TraceEvent's TraceLog stacks give, and `flame --event Exception/Start --exception-type T`
// weighs exactly that type's throws. The web exceptions traces throw from 13-15 thread-pool
// threads at once, so the throws reach the exceptions view in time order, not file order.
//
// Two named rules, each applied only to what it describes:
// - managed-dispatcher-leaf: PerfView's Exceptions view (PerfViewData.cs, stream "Exceptions")
//   puts each "Throw(<type>) <message>" node under the leaf frame of the event's stack, which on
//   .NET 9+ is the managed exception dispatcher (System.Private.CoreLib!System.Runtime.EH.*) for
//   every throw; we name the first frame outside it, so our method is compared with TraceEvent's
//   byFirstFrameOutsideDispatcher, and the rule holds only where TraceEvent's leaf frames of that
//   type are all the dispatcher's.
// - method-signature: our frame names are PerfView's flame-graph names, without the signature
//   TraceEvent's GetFrameName keeps ("(int32)"), so TraceEvent's names are compared without it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { root, runNative, testdata } from './helpers.mjs';

const oracleDir = join(root, 'tests/data/oracle');
const DISPATCHER = 'System.Private.CoreLib!System.Runtime.EH.';
const noSignature = (frame) => frame.replace(/\(.*$/, '');

function traceFile(name) {
  for (const dir of [testdata, join(testdata, 'dotnet10'), join(testdata, 'truncated')]) if (existsSync(join(dir, name))) return join(dir, name);
  return null;
}
const json = (command, trace, args = []) => {
  const r = runNative(command, trace, args);
  assert.equal(r.status, 0, r.stderr);
  return JSON.parse(r.stdout.toString('utf8'));
};

const names = readdirSync(oracleDir).filter((d) => existsSync(join(oracleDir, d, 'exceptions.json'))).sort();

test('the oracle has exceptions by throwing method for the multi-threaded web traces', () => {
  for (const n of ['net10-web-exceptions.nettrace', 'net10-web-exceptions-clrevents.nettrace', 'net10-web-exceptions-env.nettrace', 'net10-web-exceptions-nettrace.nettrace'])
    assert.ok(names.includes(n), n);
});

for (const name of names) {
  test(`exceptions by throwing method = TraceEvent's: ${name}`, () => {
    const trace = traceFile(name);
    assert.ok(trace, `${name}: not under build/native/testdata`);
    const theirs = JSON.parse(readFileSync(join(oracleDir, name, 'exceptions.json'), 'utf8'));
    const ours = json('exceptions', trace);
    assert.equal(ours.count, theirs.count);
    assert.equal(ours.notAttributed, 0);
    assert.deepEqual(ours.types.map((t) => [t.type, t.count]).sort(), theirs.types.map((t) => [t.type, t.count]).sort());
    let compared = 0;
    const hits = { 'managed-dispatcher-leaf': 0 };
    for (const t of theirs.types) {
      const expected = {};
      for (const m of t.byFirstFrameOutsideDispatcher) {
        const frame = noSignature(m.frame);
        expected[frame] = (expected[frame] ?? 0) + m.count;
      }
      const leaves = t.byLeafFrame.map((m) => m.frame);
      const thrower = t.byFirstFrameOutsideDispatcher.map((m) => m.frame);
      if (JSON.stringify(leaves) !== JSON.stringify(thrower)) {
        assert.ok(leaves.every((f) => f.startsWith(DISPATCHER)), `${t.type}: a leaf frame outside the dispatcher: ${leaves}`);
        hits['managed-dispatcher-leaf'] += t.count;
      }
      const mine = Object.fromEntries(ours.types.find((x) => x.type === t.type).throwingMethods.map((m) => [m.method, m.count]));
      assert.deepEqual(mine, expected, `${name}: ${t.type}`);
      compared += Object.keys(expected).length;
      // The stacks of one type's throws: as many as TraceEvent counts.
      const g = json('flame', trace, ['--event', 'Exception/Start', '--exception-type', t.type]);
      assert.equal(g.total, t.count, `${name}: flame --exception-type ${t.type}`);
    }
    console.log(`  ${name}: ${theirs.types.length} types, ${compared} (type, method) counts equal; rule hits: managed-dispatcher-leaf ${hits['managed-dispatcher-leaf']} throws`);
  });
}

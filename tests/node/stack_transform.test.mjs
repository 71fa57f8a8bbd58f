// Grouping, folding and filtering of stacks (core/analysis/stacks/stack_transform.h)
// on real traces, each checked against an independent computation over the untransformed
// folded stacks of the native tool: module totals are the sums of their functions' totals,
// a fold moves exactly the folded frame's weight to its caller, exclude/include remove exactly
// the matching stacks' weight, dropping time leaves charges them to their caller; then the npm
// CLI and the package API (wasm) equal the native tool byte for byte with every option.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { root, runNative, testdata } from './helpers.mjs';

const { openTrace } = await import(join(root, 'dist/index.js'));
const bin = join(root, 'dist/bin/nettrace-analyzer.mjs');
const ASYNC = join(testdata, 'dotnet10/net10-cpu-async-http.nettrace');
const SENTRY = join(testdata, 'sentry-net6-profile-with-task.nettrace');
const TRACES = [ASYNC, SENTRY];
const TT = ['--weight', 'traceevent-thread-time'];

const native = (command, file, args) => {
  const r = runNative(command, file, args);
  assert.equal(r.status, 0, r.stderr);
  return r.stdout.toString('utf8');
};
// Folded text → Map("a;b;c" → weight); weights stay exact (BigInt).
const parseFolded = (text) => {
  const m = new Map();
  for (const line of text.split('\n')) {
    if (line === '') continue;
    const sp = line.lastIndexOf(' ');
    const key = line.slice(0, sp);
    m.set(key, (m.get(key) ?? 0n) + BigInt(line.slice(sp + 1)));
  }
  return m;
};
const folded = (file, args) => parseFolded(native('flame', file, ['--format', 'folded', ...args]));
const total = (m) => [...m.values()].reduce((a, b) => a + b, 0n);
// Rewrites each path of `m` with `f` (frames → frames, or null to drop the path), merging equal paths.
const rewrite = (m, f) => {
  const out = new Map();
  for (const [path, w] of m) {
    const frames = f(path.split(';'));
    if (frames === null) continue;
    const key = frames.join(';');
    out.set(key, (out.get(key) ?? 0n) + w);
  }
  return out;
};
const sorted = (m) => [...m.entries()].filter(([, w]) => w !== 0n).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
const moduleOf = (frame) => {
  const bang = frame.indexOf('!');
  return bang > 0 ? frame.slice(0, bang + 1) : frame;
};

test('group by module: each module is the sum of its functions (self) and of the stacks through it (total)', () => {
  for (const file of TRACES) {
    const plain = folded(file, TT);
    const top = JSON.parse(native('top', file, [...TT, '-n', '1000000']));
    const grouped = JSON.parse(native('top', file, [...TT, '-n', '1000000', '--group-by-module']));
    assert.equal(grouped.total, top.total);
    const selfByModule = new Map();
    for (const f of top.functions) selfByModule.set(moduleOf(f.name), (selfByModule.get(moduleOf(f.name)) ?? 0) + f.exclusive);
    const inclusiveByModule = new Map();
    for (const [path, w] of plain)
      for (const m of new Set(path.split(';').map(moduleOf))) inclusiveByModule.set(m, (inclusiveByModule.get(m) ?? 0n) + w);
    let modules = 0;
    for (const g of grouped.functions) {
      assert.equal(g.exclusive, selfByModule.get(g.name) ?? 0, `${file}: self of ${g.name}`);
      assert.equal(BigInt(g.inclusive), inclusiveByModule.get(g.name), `${file}: total of ${g.name}`);
      if (g.name.endsWith('!')) modules++;
    }
    assert.ok(modules >= 3, `${file}: ${modules} modules`);
    assert.equal(grouped.functions.length, inclusiveByModule.size);
  }
});

test('fold: the frame disappears and exactly its weight goes to its caller', () => {
  const frame = 'System.Private.CoreLib!System.Threading.Monitor.Wait';
  const plain = folded(ASYNC, TT);
  assert.ok([...plain.keys()].some((p) => p.split(';').includes(frame)));
  // The pattern matches this frame and no other of the trace.
  const pattern = 'Threading.Monitor.Wait';
  const frames = new Set([...plain.keys()].flatMap((p) => p.split(';')));
  assert.deepEqual([...frames].filter((f) => f.toLowerCase().includes(pattern.toLowerCase())), [frame]);
  const expected = rewrite(plain, (fs) => fs.filter((f) => f !== frame));
  const got = folded(ASYNC, [...TT, '--fold-pats', pattern]);
  assert.deepEqual(sorted(got), sorted(expected));
  assert.equal(total(got), total(plain));
  // In Top functions: the frame is gone, its callers' self weight grew by exactly its self weight.
  // Monitor.Wait is never a leaf (UNMANAGED_CODE_TIME is below it): with the time leaves dropped
  // into their callers it has self weight of its own, which the fold must hand on whole.
  const top = ['--weight', 'traceevent-thread-time', '--drop-time-leaves', '-n', '1000000'];
  const before = JSON.parse(native('top', ASYNC, top));
  const after = JSON.parse(native('top', ASYNC, [...top, '--fold-pats', pattern]));
  const self = (doc, name) => doc.functions.find((f) => f.name === name)?.exclusive ?? 0;
  assert.equal(self(after, frame), 0);
  const grew = after.functions.reduce((s, f) => s + f.exclusive - self(before, f.name), 0);
  assert.ok(self(before, frame) > 0);
  assert.equal(grew, self(before, frame));
});

test('exclude and include: exactly the matching stacks leave, with their weight', () => {
  for (const file of TRACES) {
    const plain = folded(file, TT);
    const has = (fs, needle) => fs.some((f) => f.toLowerCase().includes(needle));
    const excluded = folded(file, [...TT, '--exclude-pats', 'ThreadPoolWorkQueue']);
    const expectedEx = rewrite(plain, (fs) => (has(fs, 'threadpoolworkqueue') ? null : fs));
    assert.deepEqual(sorted(excluded), sorted(expectedEx));
    assert.ok(total(excluded) < total(plain));
    const included = folded(file, [...TT, '--include-pats', 'ThreadPoolWorkQueue', '--include-pats', 'CPU_TIME']);
    const expectedIn = rewrite(plain, (fs) => (has(fs, 'threadpoolworkqueue') && has(fs, 'cpu_time') ? fs : null));
    assert.deepEqual(sorted(included), sorted(expectedIn));
    assert.equal(total(included) + total(rewrite(plain, (fs) => (has(fs, 'threadpoolworkqueue') && has(fs, 'cpu_time') ? null : fs))), total(plain));
  }
});

test('drop time leaves: CPU_TIME / UNMANAGED_CODE_TIME / unresolved leaves are charged to their caller', () => {
  const leaf = (f) => f === 'CPU_TIME' || f === 'UNMANAGED_CODE_TIME' || f === '?!?' || (f.length > 2 && f.endsWith('!?'));
  for (const file of TRACES) {
    const plain = folded(file, TT);
    const expected = rewrite(plain, (fs) => {
      const out = [...fs];
      while (out.length > 0 && leaf(out[out.length - 1])) out.pop();
      return out;
    });
    const got = folded(file, [...TT, '--drop-time-leaves']);
    // A stack that was only time leaves is the empty path: the folded export leaves it out.
    expected.delete('');
    assert.deepEqual(sorted(got), sorted(expected));
  }
});

const runNpm = (args) => {
  const r = spawnSync(process.execPath, [bin, ...args], { maxBuffer: 256 * 1024 * 1024 });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr.toString('utf8') };
};
const OPTION_SETS = [
  ['--group-by-module'],
  ['--just-my-code', '--drop-time-leaves'],
  ['--fold-pats', 'Monitor.Wait;WaitHandle', '--exclude-pats', 'GateThread'],
  ['--include-pats', 'TraceScenarios!', '--group-pats', '{%}!=>entry $1', '--inverted'],
  ['--group-pats', 'System.Private.CoreLib!->CoreLib', '--group-pats', 'System.%!->other framework', '--by-thread'],
];

test('npm CLI equals the native tool byte for byte (flame json/folded/speedscope, top, sandwich, diff)', () => {
  for (const file of TRACES)
    for (const opts of OPTION_SETS) {
      for (const [command, extra] of [
        ['flame', ['--format', 'json']],
        ['flame', ['--format', 'folded']],
        ['flame', ['--format', 'speedscope']],
        ['top', ['-n', '50']],
        ['sandwich', []],
        ['diff', []],
      ]) {
        // diff has no inverted view (it compares two call trees root first).
        const args = [...TT, ...(command === 'diff' ? opts.filter((o) => o !== '--inverted') : opts)];
        const pre = command === 'sandwich' ? ['ROOT'] : command === 'diff' ? [ASYNC] : [];
        const n = runNative(command, file, [...pre, ...args, ...extra]);
        assert.equal(n.status, 0, `${command} ${opts.join(' ')}: ${n.stderr}`);
        const w = runNpm([command, file, ...pre, ...args, ...extra]);
        assert.equal(w.status, 0, w.stderr);
        assert.ok(w.stdout.equals(n.stdout), `${file} ${command} ${[...args, ...extra].join(' ')}`);
      }
    }
});

test('the package API takes the options: top functions equal the native JSON', async () => {
  const trace = await openTrace(ASYNC);
  try {
    const query = { weight: 'traceevent-thread-time', groupByModule: true, dropTimeLeaves: true, excludePats: 'GateThread' };
    const n = native('top', ASYNC, [...TT, '--group-by-module', '--drop-time-leaves', '--exclude-pats', 'GateThread', '-n', '30']);
    assert.deepEqual(await trace.topFunctions(query, 30), JSON.parse(n));
    assert.equal(await trace.export('folded', query), native('flame', ASYNC, [...TT, '--group-by-module', '--drop-time-leaves', '--exclude-pats', 'GateThread', '--format', 'folded']));
  } finally {
    trace.close();
  }
});

// The analyzer's view state in the URL hash (web/src/app/state.ts, compiled into build/site by
// scripts/build.sh): serialise then parse gives back every field, numbers as numbers; a value
// that is not valid falls back to its default and is named; defaults are left out of the hash.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { root } from './helpers.mjs';

const { defaultState, parseHash, serialiseHash, readHash, orderedRange, TABS } = await import(pathToFileURL(join(root, 'build/site/app/state.js')).href);

/** A state with every field away from its default (and strings that need URL encoding). */
const full = {
  tab: 'flame',
  provider: 'Microsoft-Windows-DotNETRuntime',
  event: 'GC/SuspendEEStart',
  thread: 10068,
  text: 'a&b=c #d é',
  fromMs: 12.345,
  toMs: 678.9,
  stackEvent: 'Thread/Sample',
  stackThread: 4242,
  process: 7,
  inverted: true,
  weight: 'count',
  noStitch: true,
  side: 'sandwich',
  fn: 'System.Private.CoreLib!System.Threading.Thread.Sleep(int32)',
  timelineBy: 'type',
  group: 'jmc',
  dropLeaves: true,
  foldPats: 'System.Threading;%!?',
  excludePats: 'Program.Main',
  includePats: 'Worker{*}',
  groupPats: 'System.%->System;{%}!=>$1',
  sql: "SELECT provider, COUNT(*) AS n FROM events WHERE event_name LIKE 'GC/%' GROUP BY ALL -- a&b=c #d é",
  runs: true,
  runsEvent: 'AllocationSampling',
  runsWeight: 'alloc-objects',
};

test('parse ∘ serialise is the identity on a state with every field set', () => {
  const hash = serialiseHash(full);
  const parsed = parseHash(hash);
  assert.deepEqual(parsed.rejected, []);
  assert.deepEqual(parsed.state, full);
  assert.equal(typeof parsed.state.thread, 'number');
  assert.equal(typeof parsed.state.fromMs, 'number');
});

test('each field alone round-trips, and only that field is written', () => {
  const base = defaultState();
  for (const [field, value] of Object.entries(full)) {
    const state = { ...base, [field]: value };
    const hash = serialiseHash(state);
    assert.deepEqual(parseHash(hash), { state, rejected: [] }, `${field}: ${hash}`);
    const keys = [...new URLSearchParams(hash.slice(1)).keys()];
    assert.deepEqual(keys, field === 'tab' ? ['tab'] : ['tab', keys[1]], `${field} writes one key: ${hash}`);
  }
  for (const tab of TABS) assert.equal(parseHash(serialiseHash({ ...base, tab })).state.tab, tab);
});

test('times are written to the microsecond, a finer typed time whole', () => {
  const hash = (fromMs, toMs) => new URLSearchParams(serialiseHash({ ...defaultState(), fromMs, toMs }).slice(1));
  assert.equal(hash(6100.18, 100).get('from'), '6100.180');
  assert.equal(hash(6100.18, 100).get('to'), '100.000');
  assert.equal(hash(1.23456, null).get('from'), '1.23456');
  assert.equal(hash(1.23456, null).get('to'), null);
  for (const ms of [0, 6100.18, 1.23456, -2.5, 1e-7, 123456789.123]) assert.equal(parseHash(serialiseHash({ ...defaultState(), fromMs: ms })).state.fromMs, ms, String(ms));
});

test('the default state is just its tab, and parses back to the default', () => {
  assert.equal(serialiseHash(defaultState()), '#tab=summary');
  assert.deepEqual(parseHash(''), { state: defaultState(), rejected: [] });
  assert.deepEqual(parseHash('#'), { state: defaultState(), rejected: [] });
});

test('the keys links already use keep their meaning', () => {
  const { state, rejected } = parseHash('#tab=events&event=GC%2FSuspendEEStart&thread=10068&from=1.5&to=20&type=cpu&stackThread=3&process=9&inverted=1&stitch=0&timeline=type&side=diff&fn=f&weight=count&text=oncreate&group=module&leaves=1&fold=a%3Bb&exclude=c&include=d&groupPats=e-%3Ef');
  assert.deepEqual(rejected, []);
  assert.deepEqual(state, {
    ...defaultState(),
    tab: 'events', event: 'GC/SuspendEEStart', thread: 10068, fromMs: 1.5, toMs: 20, stackEvent: 'cpu', stackThread: 3, process: 9,
    inverted: true, noStitch: true, timelineBy: 'type', side: 'diff', fn: 'f', weight: 'count', text: 'oncreate',
    group: 'module', dropLeaves: true, foldPats: 'a;b', excludePats: 'c', includePats: 'd', groupPats: 'e->f',
  });
});

test('bad values fall back to their defaults and are named', () => {
  const { state, rejected } = parseHash('#tab=nope&thread=abc&stackThread=-3&process=1.5&from=x&to=Infinity&inverted=yes&stitch=2&side=left&timeline=thread&group=byModule&leaves=yes');
  assert.deepEqual(state, defaultState());
  assert.deepEqual(rejected.sort(), ['from=x', 'inverted=yes', 'process=1.5', 'side=left', 'stackThread=-3', 'stitch=2', 'tab=nope', 'thread=abc', 'timeline=thread', 'to=Infinity', 'group=byModule', 'leaves=yes'].sort());
  // The good values of a hash with a bad one are kept.
  const mixed = parseHash('#tab=events&thread=12&from=oops&to=30');
  assert.deepEqual(mixed.rejected, ['from=oops']);
  assert.equal(mixed.state.thread, 12);
  assert.equal(mixed.state.fromMs, null);
  assert.equal(mixed.state.toMs, 30);
});

test('a backwards range is put in order by readHash (what a followed link shows)', () => {
  assert.deepEqual(orderedRange({ ...defaultState(), fromMs: 100, toMs: 50 }), { state: { ...defaultState(), fromMs: 50, toMs: 100 }, swapped: true });
  assert.deepEqual(orderedRange({ ...defaultState(), fromMs: 100, toMs: null }).swapped, false);
  const state = readHash('#from=100&to=50');
  assert.equal(state.fromMs, 50);
  assert.equal(state.toMs, 100);
});

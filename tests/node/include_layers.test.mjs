// The stages of core/ as its folders (docs/architecture.md): each folder includes only its own
// files and those of the stages before it, so that reading flows one way — bytes, the format,
// what an event is, the resolver, the sorter, the model, then what reads the model — and no
// stage can come to depend on one that depends on it. Read from the include lines themselves.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { circles, root } from './helpers.mjs';

// Earlier rows first; folders in one row are side by side and include neither each other.
// "(facade)" is core/'s own files (trace_session.*).
const stages = [
  ['base'],
  ['io'],
  ['format', 'diag'],
  ['events', 'write'],
  ['resolve', 'convert'],
  ['sort'],
  ['model'],
  ['symbols'],
  ['analysis'],
  ['export', 'heap'],
  ['api', 'reread'],
  ['read', 'dataset', 'verdict'],
  ['(facade)'],
  ['cli'],
];
const rank = new Map(stages.flatMap((row, i) => row.map((folder) => [folder, i])));

const core = join(root, 'core');
function sources(dir) {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) return sources(p);
    return /\.(h|cc)$/.test(name) ? [p] : [];
  });
}
const folderOf = (path) => {
  const parts = relative(core, path).split('/');
  return parts.length === 1 ? '(facade)' : parts[0];
};
const includes = sources(core).map((file) => ({
  file: relative(root, file),
  folder: folderOf(file),
  targets: [...readFileSync(file, 'utf8').matchAll(/^#include "([^"]+)"/gm)].map((m) => m[1]),
}));

test('every folder of core/ has its place among the stages', () => {
  const unplaced = [...new Set(includes.map((f) => f.folder))].filter((f) => !rank.has(f));
  assert.deepEqual(unplaced, []);
});

// "file -> include" for each include of a later stage, or of a folder beside the file's.
function backward(files) {
  const back = [];
  for (const { file, folder, targets } of files) {
    for (const target of targets) {
      const to = target.includes('/') ? target.split('/')[0] : '(facade)';
      if (!rank.has(to) || to === folder) continue;  // a system or test header, or its own folder
      if (rank.get(to) >= rank.get(folder)) back.push(`${file} -> ${target}`);
    }
  }
  return back;
}

test('no include runs back up the stages of core/', () => {
  assert.deepEqual(backward(includes), [], 'includes of a later stage, or of a folder beside this one');
});

test('the layer check refuses an include of a later stage or of a folder beside', () => {
  const made = [
    { file: 'core/resolve/x.h', folder: 'resolve', targets: ['model/trace_tables.h', 'events/event_kind.h', 'resolve/y.h'] },
    { file: 'core/api/x.cc', folder: 'api', targets: ['reread/block_cache.h', 'trace_session.h', 'base/status.h'] },
  ];
  assert.deepEqual(backward(made), ['core/resolve/x.h -> model/trace_tables.h', 'core/api/x.cc -> reread/block_cache.h',
    'core/api/x.cc -> trace_session.h']);
});

// analysis/ in rooms by concern (docs/engine-structure.md): each room includes only its own
// files and those of the rooms before it, as the stages do.
const rooms = ['query', 'stacks', 'runtime', 'views', 'summary'];
const roomRank = new Map(rooms.map((room, i) => [room, i]));
const roomOf = (path) => (path.startsWith('analysis/') ? path.split('/')[1] : null);

function backwardRooms(files) {
  const back = [];
  for (const { file, targets } of files) {
    const from = roomOf(relative('core', file));
    if (from === null) continue;
    for (const target of targets) {
      const to = roomOf(target);
      if (to === null || to === from) continue;
      if (!roomRank.has(to) || !roomRank.has(from) || roomRank.get(to) > roomRank.get(from)) back.push(`${file} -> ${target}`);
    }
  }
  return back;
}

test('every file of analysis/ is in a room', () => {
  const outside = includes.filter((f) => f.folder === 'analysis' && !roomRank.has(roomOf(relative('core', f.file))));
  assert.deepEqual(outside.map((f) => f.file), []);
});

test('no include runs back up the rooms of analysis/', () => {
  assert.deepEqual(backwardRooms(includes), [], 'includes of a later room');
});

test('the room check refuses an include of a later room', () => {
  const made = [
    { file: 'core/analysis/stacks/x.cc', targets: ['analysis/views/y.h', 'analysis/query/z.h', 'analysis/stacks/w.h'] },
    { file: 'core/analysis/summary/x.cc', targets: ['analysis/runtime/y.h'] },
  ];
  assert.deepEqual(backwardRooms(made), ['core/analysis/stacks/x.cc -> analysis/views/y.h']);
});

const includeGraph = (files) =>
  new Map(files.map(({ file, targets }) => [relative('core', file), targets.filter((t) => files.some((f) => f.file === `core/${t}`))]));

test('no circle of core/ files including each other', () => {
  assert.deepEqual(circles(includeGraph(includes)), []);
});

test('the circle check finds a circle of headers', () => {
  const made = [
    { file: 'core/model/a.h', targets: ['model/b.h'] },
    { file: 'core/model/b.h', targets: ['events/c.h'] },
    { file: 'core/events/c.h', targets: ['model/a.h', 'base/status.h'] },
    { file: 'core/base/status.h', targets: [] },
  ];
  assert.deepEqual(circles(includeGraph(made)), ['events/c.h -> model/a.h -> model/b.h']);
});

// A header and its .cc as one unit: a.cc including b.h while b.cc includes a.h is a circle
// too (neither half can be built, read or moved without the other), though no header
// includes another.
const unitOf = (file) => file.replace(/\.(h|cc)$/, '');
function unitGraph(files) {
  const graph = new Map();
  for (const [file, targets] of includeGraph(files)) {
    const unit = unitOf(file);
    const next = graph.get(unit) ?? new Set();
    for (const t of targets) if (unitOf(t) !== unit) next.add(unitOf(t));
    graph.set(unit, next);
  }
  return new Map([...graph].map(([unit, next]) => [unit, [...next]]));
}

test('no circle of core/ units (a header with its .cc) including each other', () => {
  assert.deepEqual(circles(unitGraph(includes)), []);
});

test('the unit check finds a circle through .cc files', () => {
  const made = [
    { file: 'core/symbols/a.h', targets: [] },
    { file: 'core/symbols/a.cc', targets: ['symbols/a.h', 'symbols/b.h'] },
    { file: 'core/symbols/b.h', targets: [] },
    { file: 'core/symbols/b.cc', targets: ['symbols/b.h', 'symbols/a.h'] },
  ];
  assert.deepEqual(circles(includeGraph(made)), []);
  assert.deepEqual(circles(unitGraph(made)), ['symbols/a -> symbols/b']);
});

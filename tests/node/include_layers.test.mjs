// The stages of core/ as its folders (docs/architecture.md): each folder includes only its own
// files and those of the stages before it, so that reading flows one way — bytes, the format,
// what an event is, the resolver, the sorter, the model, then what reads the model — and no
// stage can come to depend on one that depends on it. Read from the include lines themselves.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { root } from './helpers.mjs';

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

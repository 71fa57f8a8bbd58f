// web/src: its folders in stage order, and no circle of modules importing each other. Static
// imports count, type-only ones too (they tie the files as much for a reader); `await import()`
// does not: it is how a command loads the module that serves it only when asked (live/cli.ts ->
// live/live_server.ts).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { circles, root } from './helpers.mjs';

const webSrc = join(root, 'web/src');
function modules(dir) {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) return modules(p);
    return /\.ts$/.test(name) && !name.endsWith('.d.ts') ? [p] : [];
  });
}
// file → every module it imports by a relative path (the wasm module's nettrace_wasm.mjs too).
function imports(files) {
  const graph = new Map();
  for (const [file, text] of files) {
    const dir = file.slice(0, file.lastIndexOf('/'));
    graph.set(file, [...text.matchAll(/^\s*(?:import|export)\s[^'";]*?\sfrom\s+'(\.[^']+)'/gm)]
      .map((m) => join(dir, m[1]).replace(/\.js$/, '.ts')));
  }
  return graph;
}
function importGraph(files) {
  return new Map([...imports(files)].map(([file, targets]) => [file, targets.filter((t) => files.has(t))]));
}
const webFiles = () => new Map(modules(webSrc).map((p) => [p, readFileSync(p, 'utf8')]));

test('no circle of web/src modules importing each other', () => {
  const named = circles(importGraph(webFiles())).map((c) => c.split(' -> ').map((p) => relative(webSrc, p)).join(' -> '));
  assert.deepEqual(named, []);
});

test('the circle check finds a circle, type-only imports included', () => {
  const files = new Map([
    ['/s/a.ts', "import { b } from './b.js';\n"],
    ['/s/b.ts', "import type { C } from './c.js';\n"],
    ['/s/c.ts', "export type { A } from './a.js';\nconst d = await import('./d.js');\n"],
    ['/s/d.ts', "import { a } from './a.js';\n"],
  ]);
  assert.deepEqual(circles(importGraph(files)), ['/s/a.ts -> /s/b.ts -> /s/c.ts']);
});

// The stages of web/src as its folders (docs/architecture.md, "web/src's stages"): each imports
// only its own modules and those of the stages before it. Earlier rows first; folders in one
// row are side by side and import neither each other. A module at web/src's top is a stage of
// its own, named by its file: the wasm module's types (nettrace_wasm.mjs), the npm package's
// entry (index.ts) and the page's (app.ts). The engine's own descriptions come first: its
// module's types and its schema's (api/generated, written from core's tables, importing
// nothing), which the reader's summary types and the API both read.
const webStages = [
  ['nettrace_wasm.mjs', 'api/generated', 'ui'],
  ['reader'],
  ['api'],
  ['engine', 'dataset'],
  ['app'],
  ['views'],
  ['analyzer'],
  ['app.ts', 'index.ts', 'live'],
];
const webRank = new Map(webStages.flatMap((row, i) => row.map((stage) => [stage, i])));
const stageOf = (path) => {
  const rel = relative(webSrc, path);
  return rel.startsWith('api/generated/') ? 'api/generated' : rel.split('/')[0];
};

// "module -> import" for each import of a later stage, or of a folder beside the module's.
function backwardImports(graph) {
  const back = [];
  for (const [file, targets] of graph) {
    const from = stageOf(file);
    for (const target of targets) {
      const to = stageOf(target);
      if (to === from) continue;
      if (!webRank.has(to) || !webRank.has(from) || webRank.get(to) >= webRank.get(from)) {
        back.push(`${relative(webSrc, file)} -> ${relative(webSrc, target)}`);
      }
    }
  }
  return back.sort();
}

test('every module of web/src is in a stage', () => {
  const unplaced = [...new Set(modules(webSrc).map(stageOf))].filter((s) => !webRank.has(s));
  assert.deepEqual(unplaced, []);
});

test('no import runs back up the stages of web/src', () => {
  assert.deepEqual(backwardImports(imports(webFiles())), [], 'imports of a later stage, or of a folder beside this one');
});

test('the stage check refuses an import of a later stage or of a folder beside', () => {
  const at = (path) => join(webSrc, path);
  const files = new Map([
    [at('views/a.ts'), "import type { B } from '../analyzer/b.js';\nimport { h } from '../ui/dom.js';\nimport { c } from './c.js';\n"],
    [at('engine/d.ts'), "import type { Raw } from '../nettrace_wasm.mjs';\nexport { e } from '../dataset/e.js';\n"],
    [at('reader/f.ts'), "import { g } from '../index.js';\nimport type { R } from '../api/generated/results.js';\nconst l = await import('../live/cli.js');\n"],
    [at('api/generated/results.ts'), "import type { T } from '../types.js';\n"],
  ]);
  assert.deepEqual(backwardImports(imports(files)), ['api/generated/results.ts -> api/types.ts', 'engine/d.ts -> dataset/e.ts',
    'reader/f.ts -> index.ts', 'views/a.ts -> analyzer/b.ts']);
});

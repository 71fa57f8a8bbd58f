// web/src: no circle of modules importing each other. Static imports count, type-only ones too
// (they tie the files as much for a reader); `await import()` does not: it is how a command
// loads the module that serves it only when asked (live/cli.ts -> live/live_server.ts).
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
function importGraph(files) {
  const graph = new Map();
  for (const [file, text] of files) {
    const dir = file.slice(0, file.lastIndexOf('/'));
    const targets = [...text.matchAll(/^\s*(?:import|export)\s[^'";]*?\sfrom\s+'(\.[^']+)'/gm)]
      .map((m) => join(dir, m[1]).replace(/\.js$/, '.ts'));
    graph.set(file, targets.filter((t) => files.has(t)));
  }
  return graph;
}

test('no circle of web/src modules importing each other', () => {
  const files = new Map(modules(webSrc).map((p) => [p, readFileSync(p, 'utf8')]));
  const named = circles(importGraph(files)).map((c) => c.split(' -> ').map((p) => relative(webSrc, p)).join(' -> '));
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

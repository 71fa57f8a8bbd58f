// The TypeScript Summary type (web/src/reader/summary.ts) is the engine's summary document,
// whole: the native tool's summary of every corpus trace, of a v6 conversion (thread names,
// indexes, attributes) and of a sample universal trace (processes, mappings) — each written as
// an object literal typed `Summary` — type-checks with the build's strict options. A literal
// is checked for missing fields, fields of another type, and fields the type does not name.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { nativeTool, root, runNative, testdata, traceFilesUnder } from './helpers.mjs';

test('every summary the engine writes is a Summary (tsc, strict, excess fields refused)', (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'summary-type-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const traces = traceFilesUnder(testdata);
  const v6 = join(dir, 'converted-v6.nettrace');
  assert.equal(spawnSync(nativeTool, ['convert', join(testdata, 'dotnet10/net10-cpu-async-http.nettrace'), v6]).status, 0, 'convert to v6');
  const universal = join(dir, 'universal.nettrace');
  assert.equal(spawnSync(nativeTool, ['write-sample-universal', universal]).status, 0, 'write-sample-universal');
  const files = [];
  const seen = { processes: false, mappings: false, threadName: false, error: false };
  for (const [i, path] of [...traces, v6, universal].entries()) {
    const r = runNative('summary', path);
    const text = r.stdout.toString('utf8');
    const summary = JSON.parse(text); // truncated traces print their partial summary too
    seen.processes ||= Array.isArray(summary.processes);
    seen.mappings ||= summary.mappings !== undefined;
    seen.threadName ||= summary.threads.some((th) => 'name' in th);
    seen.error ||= summary.error !== null;
    const file = join(dir, `s${i}.ts`);
    writeFileSync(file, `// ${path}\nimport type { Summary } from '${join(root, 'web/src/reader/summary.js')}';\nexport const summary: Summary = ${text.trim()};\n`);
    files.push(file);
  }
  // The test would not show much without these shapes among the documents.
  assert.deepEqual(seen, { processes: true, mappings: true, threadName: true, error: true });
  const options = { strict: true, exactOptionalPropertyTypes: true, noUncheckedIndexedAccess: true, target: 'ES2022', module: 'ES2022', moduleResolution: 'bundler', types: [], skipLibCheck: true, noEmit: true };
  writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions: options, files }));
  const tsc = spawnSync(process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), '-p', join(dir, 'tsconfig.json')], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  assert.equal(tsc.status, 0, `tsc:\n${tsc.stdout.slice(0, 4000)}${tsc.stderr}`);
});

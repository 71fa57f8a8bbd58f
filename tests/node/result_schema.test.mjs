// The result half of the one schema (core/api/result_schema.h, issue 18 item 6): every query
// that prints JSON, run by the native CLI (the npm CLI for `histogram`, its only CLI) on every
// committed trace and on the written Linux-profiler sample, gives documents that are exactly
// the shapes of the engine's result tables — every field present with its type, null only where
// nullable, no field the tables do not name. A writer changed without its table fails here;
// the TypeScript result types (web/src/api/generated/results.ts) are generated from the same
// tables (schema.test.mjs checks they are current), and tsc accepts the outputs as those types.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { nativeTool, root, runAsync, testdata, traceFilesUnder } from './helpers.mjs';
import { validateResult } from './result_schema.mjs';
import { captured, error, runTool, withFakeRuntime } from './fake_runtime.mjs';

const schema = JSON.parse(spawnSync(nativeTool, ['schema', '--json'], { encoding: 'utf8' }).stdout);
// Per query, its document as --format json prints it; diff --baseline … --compare … ("runs") apart.
const resultOf = new Map(schema.results.commands.filter((c) => c.format === 'json').map((c) => [c.query, c]));
const runsResult = schema.results.commands.find((c) => c.query === 'diff' && c.format === 'runs');
const npmTool = join(root, 'dist/bin/nettrace-analyzer.mjs');
const seen = new Set();  // shapes and "Shape.field"s the corpus reached

const dir = mkdtempSync(join(tmpdir(), 'result-schema-'));
process.on('exit', () => rmSync(dir, { recursive: true, force: true }));
// Besides the committed traces: the NetPerf v1/v2 traces (tests/netperf_legacy), the fuzz
// regressions (damaged files: anomaly counters, drop ranges, partial summaries), the written
// Linux-profiler sample (processes, mappings) and a committed trace converted to v6 (its trace
// key-values).
const universal = join(dir, 'sample-universal.nettrace');
const converted = join(dir, 'sentry-v6.nettrace');
assert.equal(spawnSync(nativeTool, ['write-sample-universal', universal]).status, 0);
assert.equal(spawnSync(nativeTool, ['convert', join(testdata, 'sentry-net6-profile-with-task.nettrace'), converted]).status, 0);
const legacyDir = join(root, 'tests/netperf_legacy/data');
const legacy = readdirSync(legacyDir).filter((f) => f.endsWith('.netperf.gz')).sort().map((f) => {
  const path = join(dir, f.replace(/\.gz$/, ''));
  writeFileSync(path, gunzipSync(readFileSync(join(legacyDir, f))));
  return { path, name: `netperf_legacy/${f.replace(/\.gz$/, '')}` };
});
const fuzzDir = join(root, 'tests/fuzz/regressions');
const fuzz = readdirSync(fuzzDir).filter((f) => f.endsWith('.nettrace')).sort().map((f) => ({ path: join(fuzzDir, f), name: `fuzz/regressions/${f}` }));
const traces = [...traceFilesUnder(testdata).map((path) => ({ path, name: relative(testdata, path) })), ...legacy, ...fuzz,
  { path: universal, name: 'write-sample-universal' }, { path: converted, name: 'sentry-net6-profile-with-task converted to v6' }];

// Outputs are JSON text here.
async function run(cmd, args) {
  const r = await runAsync(cmd, args);
  return { ...r, stdout: r.stdout.toString('utf8') };
}

// The command's output validated against its result: one document, or one per line.
function validateOutput(query, label, stdout) {
  const spec = resultOf.get(query);
  assert.ok(spec, `no result schema for ${query}`);
  const docs = spec.lines ? stdout.split('\n').filter((l) => l !== '') : [stdout];
  const errors = [];
  for (const [i, text] of docs.entries()) {
    errors.push(...validateResult(schema, spec.type, JSON.parse(text), spec.lines ? `line ${i + 1}` : '$', seen));
    if (errors.length > 20) break;
  }
  assert.deepEqual(errors, [], `${label}: output differs from the result schema`);
  return docs.length;
}

test('the validator refuses a document that is not its shape', () => {
  const summary = JSON.parse(spawnSync(nativeTool, ['summary', join(testdata, 'only_managed_samples.nettrace')], { encoding: 'utf8' }).stdout);
  const type = resultOf.get('summary').type;
  assert.deepEqual(validateResult(schema, type, summary), []);
  const changed = (edit) => {
    const copy = structuredClone(summary);
    edit(copy);
    return validateResult(schema, type, copy);
  };
  assert.deepEqual(changed((s) => delete s.eventCount), ['$: Summary without "eventCount"']);
  assert.deepEqual(changed((s) => { s.threads[0].cpu = 1; }), ['$.threads[0]: "cpu" is not a field of SummaryThread']);
  assert.deepEqual(changed((s) => { s.types[0].count = '12'; }), ['$.types[0].count: expected an integer, got "12"']);
  assert.deepEqual(changed((s) => { s.timeRange.startMs = null; }), ['$.timeRange.startMs: null, not nullable in TimeRange']);
  assert.deepEqual(changed((s) => { s.stats.push({ name: 'x', value: 1.5, severity: 'bad', source: 'trace', description: '' }); }),
    [`$.stats[${summary.stats.length}].value: expected an integer, got 1.5`, `$.stats[${summary.stats.length}].severity: "bad" is not one of info, data-loss, error`]);
  assert.deepEqual(changed((s) => { s.blocks.Event = -0.5; }), ['$.blocks.Event: expected an integer, got -0.5']);
  // Optional and nullable fields may be absent / null; the rest field takes other keys.
  assert.deepEqual(changed((s) => { delete s.format.traceObjectVersion; s.error = null; }), []);
});

for (const trace of traces) {
  test(`every JSON result has its schema's shape: ${trace.name}`, async () => {
    const first = await run(nativeTool, ['top', trace.path, '-n', '1']);
    const topName = first.status === 0 ? JSON.parse(first.stdout).functions[0]?.name ?? 'Main' : 'Main';
    const { eventCount } = JSON.parse((await run(nativeTool, ['summary', trace.path])).stdout);
    const cases = [
      ['summary'], ['events', '--limit', '100000000'], ['events', '--frames', '--limit', '200'], ...(eventCount > 0 ? [['stack', '0']] : []),
      ['flame'], ['flame', '--weight', 'traceevent-thread-time'], ['flame', '--event', 'GC/AllocationTick'], ['top'],
      // Linux-profiler samples: frames with details (a JIT'd method's optimization level).
      ['flame', '--event', 'cpu'], ['sandwich', topName, '--event', 'cpu'],
      ['sandwich', topName], ['diff', trace.path], ['gc'], ['jit'],
      ['exceptions'], ['contention'], ['activities'], ['counters'], ['threadpool'],
      ['allocations'], ['top', '--weight', 'alloc-objects', '--type-as-root'],
    ].map(([query, ...args]) => ({ query, tool: nativeTool, args: [query, trace.path, ...args] }));
    cases.push({ query: 'histogram', tool: process.execPath, args: [npmTool, 'histogram', trace.path, '--group-by', 'eventType'] });
    let next = 0;
    const worker = async () => {
      while (next < cases.length) {
        const { query, tool, args } = cases[next++];
        const label = `${args.filter((a) => a !== trace.path && a !== npmTool).join(' ')} (${trace.name})`;
        const r = await run(tool, args);
        // A damaged trace: what was read before the fault is printed, with exit status 1.
        assert.ok(r.status === 0 || r.status === 1, `${label}: status ${r.status}: ${r.stderr}`);
        if (r.stdout === '' && query === 'events') continue;  // no events
        assert.notEqual(r.stdout, '', `${label}: no output`);
        validateOutput(query, label, r.stdout);
      }
    };
    await Promise.all([worker(), worker()]);
  });
}

// The other direction: the generated TypeScript types (api/generated/results.ts) accept the
// documents themselves — each output of three traces written as an object literal typed
// QueryResults[query] type-checks with the build's strict options, excess fields refused.
test('the generated result types accept the outputs (tsc, strict, exact optional types)', async () => {
  const files = [];
  const results = join(root, 'web/src/api/generated/results.js');
  for (const name of ['dotnet10/net10-counters.nettrace', 'dotnet10/net10-gc-verbose.nettrace', 'sentry-net6-profile-with-task.nettrace']) {
    const path = join(testdata, name);
    const cases = [['summary'], ['events', '--limit', '300'], ['stack', '0'], ['flame', '--weight', 'traceevent-thread-time'],
      ['top'], ['sandwich', 'Main'], ['diff', path], ['gc'], ['jit'], ['exceptions'], ['contention'], ['activities'],
      ['counters'], ['threadpool'], ['allocations']];
    for (const [query, ...args] of cases) {
      const r = await run(nativeTool, [query, path, ...args]);
      assert.equal(r.status, 0, r.stderr);
      const doc = resultOf.get(query).lines ? `[${r.stdout.trim().split('\n').join(',\n')}]` : r.stdout.trim();
      const type = resultOf.get(query).lines ? `QueryResults['${query}'][]` : `QueryResults['${query}']`;
      const file = join(dir, `types-${files.length}.ts`);
      writeFileSync(file, `// ${query} ${name}\nimport type { QueryResults } from '${results}';\nexport const doc: ${type} = ${doc};\n`);
      files.push(file);
    }
  }
  const options = { strict: true, exactOptionalPropertyTypes: true, noUncheckedIndexedAccess: true, target: 'ES2022', module: 'ES2022', moduleResolution: 'bundler', types: [], skipLibCheck: true, noEmit: true };
  writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions: options, files }));
  const tsc = spawnSync(process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), '-p', join(dir, 'tsconfig.json')], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  assert.equal(tsc.status, 0, `tsc:\n${tsc.stdout.slice(0, 4000)}${tsc.stderr}`);
  // And it can fail: the same check refuses a GC document with a field its type does not name.
  const gc = (await run(nativeTool, ['gc', join(testdata, 'dotnet10/net10-gc-verbose.nettrace')])).stdout.trim();
  writeFileSync(join(dir, 'types-bad.ts'), `import type { QueryResults } from '${results}';\nexport const doc: QueryResults['gc'] = ${gc.replace('"processId":', '"bogus":1,"processId":')};\n`);
  writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions: options, files: [join(dir, 'types-bad.ts')] }));
  const bad = spawnSync(process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), '-p', join(dir, 'tsconfig.json')], { encoding: 'utf8' });
  assert.match(bad.stdout, /bogus"' does not exist in type 'GcProcessStats'/);
});

// check --format json and diff --baseline … --compare … on .NET 10 traces, every limit kind
// and a relative budget against a baseline of two traces.
test('check and the many-run diff have their shapes', async () => {
  const t = (n) => join(testdata, 'dotnet10', `net10-${n}.nettrace`);
  const budgets = join(dir, 'budgets.json');
  writeFileSync(budgets, JSON.stringify({ budgets: [
    { metric: 'gc.pauseP99Ms', max: 20, min: 0 }, { metric: 'activity.p99Ms', activity: 'System.Net.Http/Request', max: 1 },
    { metric: 'exceptions.count', maxIncrease: 5 }, { metric: 'gc.allocatedMB', maxIncreasePercent: 10 },
    { metric: 'functions.inclusivePercent', maxIncrease: 2 },
  ] }));
  const check = await run(nativeTool, ['check', t('web-exceptions'), t('cpu-async-http'), '--budget', budgets, '--format', 'json',
    '--baseline', t('web-exceptions-env'), t('web-exceptions-nettrace')]);
  assert.equal(check.status, 1, check.stderr);
  validateOutput('check', 'check --format json', check.stdout);
  const diff = await run(nativeTool, ['diff', '--baseline', t('web-exceptions'), t('web-exceptions-env'), '--compare',
    t('web-exceptions-nettrace'), t('web-exceptions-clrevents')]);
  assert.equal(diff.status, 0, diff.stderr);
  assert.deepEqual(validateResult(schema, runsResult.type, JSON.parse(diff.stdout), '$', seen), []);
});

test('ps --json has its shape, native and npm CLI, with a runtime answering (the fake one) and without', async () => {
  const r = await run(nativeTool, ['ps', '--json']);
  assert.equal(r.status, 0, r.stderr);
  validateOutput('ps', 'ps --json', r.stdout);
  // A runtime's reply captured from .NET 10 (tests/data/diag/ipc_capture.txt), served on a socket
  // named like this process's diagnostics port.
  await withFakeRuntime((req, socket) => socket.end(req[17] === 0x08 ? error(0x80131385) : captured.runtime_process_info2), async (fake) => {
    for (const tool of [nativeTool, [process.execPath, npmTool]]) {
      const listed = await runTool(fake, ['ps', '--json'], tool);
      assert.equal(listed.status, 0, listed.stderr);
      assert.equal(JSON.parse(listed.stdout).length, 1);
      validateOutput('ps', 'ps --json (fake runtime)', listed.stdout);
    }
  });
});

// heap: a .gcdump and a .nettrace with heap-dump events, each with the paths to a type.
test('heap has its shape on a .gcdump and on heap-dump events', async () => {
  for (const file of ['heapgraphs-small.gcdump', 'heapgraphs-small.nettrace']) {
    const r = await run(nativeTool, ['heap', join(testdata, 'heap', file), '--paths-to', 'HeapGraphs']);
    assert.equal(r.status, 0, r.stderr);
    validateOutput('heap', `heap ${file} --paths-to HeapGraphs`, r.stdout);
  }
});

// What the corpus does not reach is named here, with why, so a shape nobody checks cannot hide:
// a trace that reaches one of these fails this test until its name is taken off the list.
const UNREACHED = [
  'SummaryThread.attributes',  // v6 thread attributes: no committed trace's thread block has any
  'DropRange.threadIndex',  // v6 drop ranges: no v6 trace of the corpus drops events
  'SummaryProcess.exitMs',  // the written universal sample's processes do not exit
  'EventLabels.traceId', 'EventLabels.spanId', 'EventLabels.opcode', 'EventLabels.keywords', 'EventLabels.level',
  'EventLabels.version',  // v6 label lists with these labels: none in the corpus
  'EventPayload.exceptionMessageOmitted',  // an Exception/Start shorter than its template: none
  'GcStats.eventsNotMeasured',  // more GC events than the engine's bound: none
  'WaitByThread.threadName', 'WaitByOwner.threadName',  // named waiting threads (v6 thread names): none
];

test('the corpus reaches every shape and field of the result tables, except the ones named', () => {
  const missing = [];
  for (const shape of schema.results.shapes) {
    if (!seen.has(shape.name)) { missing.push(shape.name); continue; }
    for (const f of shape.fields) if (f.name !== '*' && !seen.has(`${shape.name}.${f.name}`)) missing.push(`${shape.name}.${f.name}`);
  }
  assert.deepEqual(missing.sort(), [...UNREACHED].sort());
});

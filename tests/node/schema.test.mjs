// The one request schema (core/api/query_table.cc): the native tool, the
// wasm module and the npm CLI read the same table; the TypeScript request types are what
// scripts/gen-api-types.mjs writes from it; and every option of every query is accepted by
// the native CLI, the npm CLI and the wasm bindings alike, with the same output.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { createServer } from 'node:http';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { nativeTool, root, runAsync, testdata } from './helpers.mjs';
import { generateResultTypes, generateTypes, generatedPath, generatedResultsPath } from '../../scripts/gen-api-types.mjs';

const { loadNetTraceModule } = await import(join(root, 'dist/reader/wasm_loader.js'));
const engine = await loadNetTraceModule();
const schema = JSON.parse(engine.querySchemaJson());
const npmTool = join(root, 'dist/bin/nettrace-analyzer.mjs');
const TRACE = join(testdata, 'only_managed_samples.nettrace');
const LIVE = ['ps', 'collect', 'live', 'heap-snapshot'];  // the live-session commands: no FILE
// check's budget file (a limit TRACE passes), and diff's options of many runs a side, which go
// with --baseline … --compare … instead of A B.
const BUDGETS = join(mkdtempSync(join(tmpdir(), 'schema-budgets-')), 'budgets.json');
writeFileSync(BUDGETS, JSON.stringify({ budgets: [{ metric: 'stacks.total', min: 1 }] }));
process.on('exit', () => rmSync(dirname(BUDGETS), { recursive: true, force: true }));
const RUNS_OPTIONS = ['baseline', 'compare', 'alpha', 'minShare'];
// export --otlp-endpoint: a local OTLP/HTTP receiver that takes every push.
const collector = createServer((req, res) => req.resume().on('end', () => res.end()));
await new Promise((resolve) => collector.listen(0, '127.0.0.1', resolve));
after(() => collector.close());

test('the native tool and the wasm module print the same schema, and the TS types are generated from it', () => {
  const native = spawnSync(nativeTool, ['schema', '--json'], { encoding: 'utf8' });
  assert.equal(native.status, 0, native.stderr);
  assert.equal(native.stdout, engine.querySchemaJson() + '\n');
  assert.equal(readFileSync(generatedPath, 'utf8'), generateTypes(schema),
    'web/src/api/generated/requests.ts is stale: run node scripts/gen-api-types.mjs');
  // The result types too (core/api/result_table*.cc; result_schema.test.mjs checks the outputs).
  assert.equal(readFileSync(generatedResultsPath, 'utf8'), generateResultTypes(schema),
    'web/src/api/generated/results.ts is stale: run node scripts/gen-api-types.mjs');
  // Every weight of the engine is in the generated type (the option that drifted before).
  assert.match(readFileSync(generatedPath, 'utf8'), /weight\?: "auto" \| "count" \| "bytes" \| "thread-time" \| "managed-thread-time" \| "traceevent-thread-time" \| "wait-time" \| "alloc-bytes" \| "alloc-objects";/);
});

// A valid value of an option, as command-line text and as a JS value.
function sample(q, o, value) {
  if (o.type === 'enum') return [value, value];
  if (o.type === 'bool') return [undefined, o.negation === undefined];  // --no-x: the non-default false
  if (o.type === 'files') return [TRACE, [TRACE]];
  if (o.type === 'string' || o.type === 'patterns') {
    const text = { provider: 'Microsoft-DotNETCore-SampleProfiler', name: 'Thread/Sample', event: 'Thread/Sample',
      text: 'Sample', exceptionType: 'System.Exception', groupPats: 'System.Private.CoreLib!->CORELIB',
      foldPats: 'System.Threading.*', excludePats: 'UNMANAGED_CODE_TIME', includePats: 'Program',
      profile: 'gc-verbose', providers: 'Microsoft-Windows-DotNETRuntime:0x1:5', duration: '2s', budget: BUDGETS,
      otlpEndpoint: `http://127.0.0.1:${collector.address().port}` }[o.name] ?? 'x';
    return [text, text];
  }
  const n = { chunkSize: 65536, buckets: 10, fromMs: 100, toMs: 2000, aToMs: 1000, bFromMs: 1000, alpha: 0.01, minShare: 0.01 }[o.name] ?? 3;
  return [String(n), n];
}

test('every option of every query is accepted by the native CLI, the npm CLI and the wasm bindings alike', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'schema-'));
  try {
    const cases = [];
    for (const q of schema.queries) {
      if (q.name === 'write-sample-universal') continue;
      for (const o of q.options) {
        // Every value of an enum for flame; one (the last) elsewhere, to keep the walk short.
        const values = o.type === 'enum' ? (q.name === 'flame' ? o.values : o.values.slice(-1)) : [undefined];
        for (const value of values) cases.push({ q, o, value });
      }
    }
    assert.ok(cases.length > 120, `${cases.length} cases`);
    // Options that act together: repeated pattern flags, export's payload CSV and its opt-out,
    // speedscope sampled with a time weight, the grouping presets in a diff.
    const flame = schema.queries.find((q) => q.name === 'flame');
    const exp = schema.queries.find((q) => q.name === 'export');
    const dif = schema.queries.find((q) => q.name === 'diff');
    for (const [q, args] of [
      [flame, ['--fold-pats', 'System.Threading.*', '--fold-pats', 'System.Private.CoreLib!*', '--format', 'folded']],
      [exp, ['--format', 'csv', '--event', 'Thread/Sample', '--provider', 'Microsoft-DotNETCore-SampleProfiler']],
      [exp, ['--format', 'csv', '--event', 'Thread/Sample', '--no-csv-payload']],
      [exp, ['--format', 'speedscope', '--weight', 'traceevent-thread-time', '--speedscope', 'sampled']],
      [exp, ['--format', 'speedscope', '--weight', 'traceevent-thread-time', '--just-my-code', '--drop-time-leaves']],
      [dif, ['--group-by-module', '--a-to', '1000', '--b-from', '1000', '--exclude-pats', 'UNMANAGED_CODE_TIME']],
    ]) cases.push({ q, args });
    const check = async ({ q, o, value, args }, i) => {
      if (args !== undefined) return checkArgs(q, args, i);
      const [text, js] = sample(q, o, value);
      const label = `${q.name} ${o.flag}${o.type === 'bool' ? '' : ` ${text}`}`;
      const optionArgs = o.type === 'bool' ? [o.flag] : [o.flag, text];
      const outOf = (who) => join(dir, `${i}-${who}.out`);
      const argsFor = (who) => {
        const option = ['junitOut', 'markdownOut'].includes(o.name) ? [o.flag, outOf(who)] : optionArgs;
        if (q.name === 'check') return ['check', TRACE, ...(o.name === 'budget' ? [] : ['--budget', BUDGETS]), ...option];
        if (q.name === 'diff' && (RUNS_OPTIONS.includes(o.name) || text === 'markdown'))
          return ['diff', '--baseline', TRACE, '--compare', TRACE, ...option];
        const positional = { stack: ['0'], sandwich: ['System.Threading.Thread.Sleep'], convert: [outOf(who)], diff: [TRACE] }[q.name] ?? [];
        // export needs a format and an output file: csv and OUT, unless the option is one of them.
        // (--speedscope, --otlp-endpoint: the format they apply to.)
        const exportFormat = { speedscope: 'speedscope', otlpEndpoint: 'otlp' }[o.name] ?? 'csv';
        const base = q.name !== 'export' ? [] : o.name === 'format' ? ['-o', outOf(who)] : o.name === 'out' ? ['--format', exportFormat]
          : ['--format', exportFormat, '-o', outOf(who)];
        return [q.name, TRACE, ...positional, ...base, ...(o.name === 'out' ? [o.flag, outOf(who)] : optionArgs)];
      };
      // wasm: the bindings' JSON parser takes the option (CLI-only ones are not JS members).
      if (!o.cliOnly) {
        const parsed = engine.parseRequest(q.name, JSON.stringify({ [o.name]: js }));
        assert.ok(parsed.ok, `${label}: ${parsed.message}`);
        assert.deepEqual(JSON.parse(parsed.request), { [o.name]: js }, label);
      }
      if (LIVE.includes(q.name)) return checkLive(q, o, optionArgs, label, outOf);
      // heap reads a heap snapshot (--baseline another one): both CLIs print the same.
      if (q.name === 'heap') {
        const snapshot = join(testdata, 'heap', 'heapgraphs-small.gcdump');
        const args = ['heap', snapshot, ...(o.name === 'baseline' ? [o.flag, join(testdata, 'heap', 'heapgraphs-small.nettrace')] : optionArgs)];
        const [npm, native] = await Promise.all([runAsync(process.execPath, [npmTool, ...args]), runAsync(nativeTool, args)]);
        assert.equal(native.status, 0, `native ${label}: ${native.stderr}`);
        assert.equal(npm.status, 0, `npm ${label}: ${npm.stderr}`);
        assert.ok(npm.stdout.equals(native.stdout), `${label}: npm output differs from native`);
        return;
      }
      const npm = await runAsync(process.execPath, [npmTool, ...argsFor('npm')]);
      assert.equal(npm.status, 0, `npm ${label}: ${npm.stderr}`);
      if (!q.native) return;
      const native = await runAsync(nativeTool, argsFor('native'));
      assert.equal(native.status, 0, `native ${label}: ${native.stderr}`);
      assert.ok(npm.stdout.equals(native.stdout), `${label}: npm output differs from native`);
      if (q.name === 'export' || q.name === 'convert')
        assert.ok(readFileSync(outOf('npm')).equals(readFileSync(outOf('native'))), `${label}: npm file differs from native`);
    };
    // ps / collect / live need a runtime: each option goes through the engine's parser of the
    // CLIs; ps runs for real, and collect with a pid that has no runtime, where both CLIs stop
    // after the options with the same message (start-up tracing's --diagnostic-port would wait).
    const checkLive = async (q, o, optionArgs, label, outOf) => {
      const args = q.name === 'ps' ? optionArgs : ['--pid', '999999999', '-o', outOf('x'), ...(['pid', 'out'].includes(o.name) ? [] : optionArgs)];
      const parsed = engine.parseCliArgs(q.name, args);
      assert.ok(parsed.ok, `${label}: ${parsed.message}`);
      assert.ok(o.name in JSON.parse(parsed.request), label);
      if (q.name === 'live' || o.name === 'diagnosticPort') return;
      if (q.name === 'heap-snapshot') {
        // npm only: it gets past its options to the process, which is not there.
        const npm = await runAsync(process.execPath, [npmTool, q.name, ...args]);
        assert.equal(npm.status, 1, `${label}: ${npm.stderr}`);
        assert.match(npm.stderr.toString(), /no process with pid 999999999/, label);
        return;
      }
      const native = await runAsync(nativeTool, [q.name, ...args]);
      const npm = await runAsync(process.execPath, [npmTool, q.name, ...args]);
      assert.equal(npm.status, native.status, `${label}: ${npm.stderr} / ${native.stderr}`);
      assert.doesNotMatch(native.stderr, /unknown option|takes|usage/, label);
      if (q.name === 'collect') assert.equal(npm.stderr.replaceAll('nettrace-analyzer:', 'nettrace:'), native.stderr, label);
    };
    // Given argv (export: -o added): the native and npm CLIs print and write the same.
    const checkArgs = async (q, args, i) => {
      const label = `${q.name} ${args.join(' ')}`;
      const outOf = (who) => join(dir, `${i}-${who}.out`);
      const argsFor = (who) => [q.name, TRACE, ...(q.name === 'diff' ? [TRACE] : []), ...args, ...(q.name === 'export' ? ['-o', outOf(who)] : [])];
      const npm = await runAsync(process.execPath, [npmTool, ...argsFor('npm')]);
      assert.equal(npm.status, 0, `npm ${label}: ${npm.stderr}`);
      const native = await runAsync(nativeTool, argsFor('native'));
      assert.equal(native.status, 0, `native ${label}: ${native.stderr}`);
      assert.ok(npm.stdout.equals(native.stdout), `${label}: npm output differs from native`);
      if (q.name === 'export') {
        const [a, b] = [readFileSync(outOf('npm')), readFileSync(outOf('native'))];
        assert.ok(a.length > 0 && a.equals(b), `${label}: npm file differs from native`);
      }
    };
    let next = 0;
    const worker = async () => {
      while (next < cases.length) {
        const i = next++;
        await check(cases[i], i);
      }
    };
    await Promise.all([worker(), worker()]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a bad option is refused with the same message by the native CLI, the npm CLI and the wasm parser', () => {
  for (const [args, message] of [
    [['flame', TRACE, '--weight', 'bogus'], "--weight takes auto, count, bytes, thread-time, managed-thread-time, traceevent-thread-time, wait-time, alloc-bytes or alloc-objects, not 'bogus'"],
    [['events', TRACE, '--limit', '-2'], "--limit takes a number ≥ 0, not '-2'"],
    [['top', TRACE, '--from', 'soon'], "--from takes a number, not 'soon'"],
    [['flame', TRACE, '--fold-pats'], "--fold-pats takes a ';'-separated pattern list"],
    [['export', TRACE, '--speedscope', 'flat'], "--speedscope takes evented or sampled, not 'flat'"],
  ]) {
    const native = spawnSync(nativeTool, args, { encoding: 'utf8' });
    const npm = spawnSync(process.execPath, [npmTool, ...args], { encoding: 'utf8' });
    assert.equal(native.status, 2);
    assert.equal(npm.status, 2);
    // The message, then the command's usage line (tests/node/cli_args.test.mjs).
    const usage = (p) => `usage: ${p} ${args[0]} FILE [options]   (${p} ${args[0]} --help: the options)\n`;
    assert.equal(native.stderr, `nettrace: ${message}\n${usage('nettrace')}`);
    assert.equal(npm.stderr, `nettrace-analyzer: ${message}\n${usage('nettrace-analyzer')}`);
    const wasm = engine.parseCliArgs(args[0], args.slice(1));
    assert.equal(wasm.ok, false);
    assert.equal(wasm.message, message);
  }
  const js = engine.parseRequest('flame', JSON.stringify({ weight: 'bogus', inverted: true }));
  assert.equal(js.ok, false);
  assert.equal(js.code, 'invalid-argument');
  assert.deepEqual(JSON.parse(js.request), { inverted: true });
});

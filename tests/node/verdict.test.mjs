// Verdicts for CI (docs/ci.md) through both CLIs and the JS API: `check`'s Markdown and the
// many-run diff's Markdown compared whole with golden files; the JUnit report validated by
// libxml2 (xmllint-wasm) against the Ant JUnit report's rules (tests/data/junit/); the exit
// statuses as documented; the npm CLI and the package API (the engine in wasm) equal to the
// native tool byte for byte. Golden files are rewritten with
//   UPDATE_GOLDEN=1 node --test tests/node/verdict.test.mjs
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { validateXML } from 'xmllint-wasm';
import { nativeTool, root, testdata } from './helpers.mjs';

const { checkBudgets, checkBudgetsText, compareRuns, compareRunsText } = await import(join(root, 'dist/index.js'));
const npmTool = join(root, 'dist/bin/nettrace-analyzer.mjs');
const goldenDir = join(root, 'tests/data/golden/verdict');
const xsd = readFileSync(join(root, 'tests/data/junit/junit_report.xsd'), 'utf8');
const t = (name) => join(testdata, 'dotnet10', `net10-${name}.nettrace`);
const dir = mkdtempSync(join(tmpdir(), 'verdict-'));
process.on('exit', () => rmSync(dir, { recursive: true, force: true }));

// Limits either side of what the traces measure, absolute and relative, one of them missing.
const BUDGETS = { budgets: [
  { metric: 'exceptions.count', max: 2100 },
  { name: 'few IOExceptions', metric: 'exceptions.count', type: 'System.IO.IOException', max: 10 },
  { name: 'no HTTP request over 50 ms', metric: 'activity.p99Ms', activity: 'System.Net.Http/Request', max: 50 },
  { metric: 'gc.pauseP99Ms', max: 20 },
  { metric: 'stacks.total', min: 1000 },
  { metric: 'exceptions.count', maxIncrease: 5 },
  { metric: 'functions.inclusivePercent', maxIncrease: 2 },
] };
const CHECKED = [t('web-exceptions'), t('cpu-async-http')];
const BASELINE = [t('web-exceptions-env'), t('web-exceptions-nettrace')];
const budgetsPath = join(dir, 'budgets.json');
writeFileSync(budgetsPath, JSON.stringify(BUDGETS));
// Four recordings of one program a side: what one program does and the other does not stands out.
const RUNS_A = ['web-exceptions', 'web-exceptions-env', 'web-exceptions-nettrace', 'web-exceptions-clrevents'].map(t);
const RUNS_B = ['order-flows', 'order-flows-env', 'order-flows-nettrace', 'order-flows-tasks'].map(t);

const run = (program, args) => {
  const r = program === 'native'
    ? spawnSync(nativeTool, args, { encoding: 'utf8', maxBuffer: 256 << 20 })
    : spawnSync(process.execPath, [npmTool, ...args], { encoding: 'utf8', maxBuffer: 256 << 20 });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
};
const both = (args) => ['native', 'npm'].map((p) => ({ program: p, ...run(p, args) }));

function golden(name, text) {
  const path = join(goldenDir, name);
  if (process.env.UPDATE_GOLDEN) writeFileSync(path, text);
  assert.equal(text, readFileSync(path, 'utf8'), `${name} differs from its golden file`);
}

// The JUnit report's timestamps are the time of the check: the one part two runs differ in.
const sameTime = (xml) => xml.replace(/timestamp="[^"]*"/g, 'timestamp="T"');

async function junitErrors(xml) {
  const r = await validateXML({ xml: [{ fileName: 'report.xml', contents: xml }], schema: [{ fileName: 'junit_report.xsd', contents: xsd }] });
  return r.valid ? [] : r.errors.map((e) => e.rawMessage ?? e.message);
}

test('check --format markdown: the golden file, native and npm CLI; exit status 1 (a budget failed)', () => {
  for (const r of both(['check', ...CHECKED, '--budget', budgetsPath, '--baseline', ...BASELINE, '--format', 'markdown'])) {
    assert.equal(r.status, 1, `${r.program}: ${r.stderr}`);
    golden('check.md', r.stdout);
  }
});

test('diff --baseline … --compare … --format markdown: the golden file, native and npm CLI', () => {
  for (const r of both(['diff', '--baseline', ...RUNS_A, '--compare', ...RUNS_B, '--format', 'markdown', '-n', '8'])) {
    assert.equal(r.status, 0, `${r.program}: ${r.stderr}`);
    golden('diff_runs.md', r.stdout);
  }
});

test('the JUnit report is valid to libxml2 against the Ant JUnit rules, and counts what the JSON counts', async () => {
  const json = JSON.parse(run('native', ['check', ...CHECKED, '--budget', budgetsPath, '--baseline', ...BASELINE, '--format', 'json']).stdout);
  const junitFile = join(dir, 'report.xml');
  const reports = both(['check', ...CHECKED, '--budget', budgetsPath, '--baseline', ...BASELINE, '--format', 'junit', '--junit', junitFile]);
  for (const r of reports) {
    assert.equal(r.status, 1, `${r.program}: ${r.stderr}`);
    assert.deepEqual(await junitErrors(r.stdout), [], r.program);
    assert.equal(sameTime(readFileSync(junitFile, 'utf8')), sameTime(r.stdout), `${r.program}: --junit writes what --format junit prints`);
    const count = (re) => [...r.stdout.matchAll(re)].length;
    assert.equal(count(/<testcase /g), json.verdicts.length);
    assert.equal(count(/<failure /g), json.failures);
    assert.equal(count(/<testsuite /g), CHECKED.length + 1);  // each trace, then the relative budgets
  }
  assert.equal(sameTime(reports[1].stdout), sameTime(reports[0].stdout), 'npm CLI = native');
  // The validator is a real one: the same report without a required attribute, or with a
  // zone in its timestamp, is refused.
  assert.notDeepEqual(await junitErrors(reports[0].stdout.replace(/ hostname="localhost"/, '')), []);
  assert.notDeepEqual(await junitErrors(reports[0].stdout.replace(/timestamp="([^"]*)"/, 'timestamp="$1Z"')), []);
});

test('exit statuses: 0 all passed, 1 a budget failed or was not measured, 2 bad input', () => {
  const file = (name, text) => (writeFileSync(join(dir, name), text), join(dir, name));
  const passing = file('pass.json', JSON.stringify({ budgets: [{ metric: 'exceptions.count', max: 2100 }, { metric: 'stacks.total', min: 1000 }] }));
  const failing = file('fail.json', JSON.stringify({ budgets: [{ metric: 'exceptions.count', max: 2000 }] }));
  const missing = file('missing.json', JSON.stringify({ budgets: [{ metric: 'gc.pauseMaxMs', max: 1e9 }] }));
  const relative = file('relative.json', JSON.stringify({ budgets: [{ metric: 'exceptions.count', maxIncrease: 1 }] }));
  const broken = file('broken.json', '{"budgets": [{"metric": "gc.pauseP99Ms", "max": }]}');
  const unknown = file('unknown.json', JSON.stringify({ budgets: [{ metric: 'gc.pauseP98Ms', max: 1 }] }));
  const damaged = file('damaged.nettrace', gunzipSync(readFileSync(join(root, 'tests/data/truncated/dotnet-trace-netcore3.0-preview-truncated.nettrace.gz'))));
  const WEB = t('web-exceptions');
  const cases = [
    [0, [WEB, '--budget', passing]],
    [1, [WEB, '--budget', failing]],
    [1, [WEB, '--budget', missing]],
    [2, [WEB, '--budget', broken]],
    [2, [WEB, '--budget', unknown]],
    [2, [WEB, '--budget', join(dir, 'no-such.json')]],
    [2, [WEB, '--budget', relative]],  // a relative budget without --baseline
    [2, [join(dir, 'no-such.nettrace'), '--budget', passing]],
    [2, [WEB, damaged, '--budget', passing]],  // a trace not read to its end: no verdict at all
    [2, [WEB]],  // no --budget
  ];
  for (const [status, args] of cases) {
    for (const r of both(['check', ...args])) {
      assert.equal(r.status, status, `${r.program} check ${args.join(' ')}: ${r.stderr}`);
      if (status === 2) assert.equal(r.stdout, '', `${r.program}: no verdict on bad input`);
      else assert.notEqual(r.stdout, '');
    }
  }
  // The text report of a pass and of a fail, the same from both CLIs.
  for (const budget of [passing, failing, missing]) {
    const [n, w] = both(['check', WEB, '--budget', budget]);
    assert.equal(w.stdout, n.stdout);
  }
});

test('the JS API gives the native documents: checkBudgets, compareRuns, and their text forms', async () => {
  const nativeCheck = run('native', ['check', ...CHECKED, '--budget', budgetsPath, '--baseline', ...BASELINE, '--format', 'json']);
  assert.equal(nativeCheck.status, 1, nativeCheck.stderr);
  const result = await checkBudgets(BUDGETS, CHECKED, { baseline: BASELINE, budgetName: budgetsPath });
  assert.deepEqual(result, JSON.parse(nativeCheck.stdout));
  assert.equal(result.passed, false);
  const text = await checkBudgetsText(readFileSync(budgetsPath, 'utf8'), CHECKED, 'markdown', { baseline: BASELINE, alsoFormats: ['text'] });
  assert.equal(text.passed, false);
  assert.equal(text.text, readFileSync(join(goldenDir, 'check.md'), 'utf8'));
  assert.equal(text.also.text, run('native', ['check', ...CHECKED, '--budget', budgetsPath, '--baseline', ...BASELINE]).stdout);

  const nativeDiff = run('native', ['diff', '--baseline', ...RUNS_A, '--compare', ...RUNS_B, '--weight', 'thread-time', '--alpha', '0.01', '-n', '30']);
  assert.equal(nativeDiff.status, 0, nativeDiff.stderr);
  const options = { query: { weight: 'thread-time' }, alpha: 0.01, maxFunctions: 30 };
  assert.equal(await compareRunsText(RUNS_A, RUNS_B, 'json', options), nativeDiff.stdout);
  const runs = await compareRuns(RUNS_A, RUNS_B, { maxFunctions: 30 });
  assert.deepEqual(runs, JSON.parse(run('native', ['diff', '--baseline', ...RUNS_A, '--compare', ...RUNS_B, '-n', '30']).stdout));
  assert.equal(runs.functions.length, 30);
  // Weighed by dotnet-trace's thread time, the default for CPU samples.
  assert.equal(runs.flaggedFunctions, 3);
  assert.deepEqual(runs.functions.slice(0, 3).map((f) => f.change), ['shrunk', 'disappeared', 'disappeared']);
  assert.deepEqual(runs.baseline.traces, RUNS_A);
  assert.equal(await compareRunsText(RUNS_A, RUNS_B, 'markdown', { maxFunctions: 8 }), readFileSync(join(goldenDir, 'diff_runs.md'), 'utf8'));

  // Bad input rejects with a NetTraceError, as the CLIs exit with status 2.
  await assert.rejects(checkBudgets({ budgets: [{ metric: 'nope', max: 1 }] }, CHECKED), { name: 'NetTraceError', code: 'invalid-argument' });
  await assert.rejects(checkBudgets({ budgets: [{ metric: 'exceptions.count', maxIncrease: 1 }] }, CHECKED), { name: 'NetTraceError' });
  await assert.rejects(compareRuns(RUNS_A, RUNS_B, { alpha: 2 }), { name: 'NetTraceError', code: 'invalid-argument' });
});

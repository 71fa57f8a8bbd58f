// A 526 MB CSV export (every event with its stack's text) through the npm CLI and through the
// JS API (TraceHandle.exportTo): the bytes of the native tool's file, with the whole process's
// peak resident memory under 300 MB — the export streams a part at a time
// (core/export/export_stream.h, web/src/api/export_sink.ts) where it used to build one string
// (1.4 GB, then "Cannot create a string longer than 0x1fffffe8 characters"). The input is a
// committed trace written 135 times back to back by the project's own tool
// (tests/bench/repeat_trace.cc): 70 MB, 2.7 million events.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { createReadStream, existsSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { nativeTool, root, testdata } from './helpers.mjs';

const bench = join(root, 'build/native/tests/nettrace_bench');
const cli = join(root, 'dist/bin/nettrace-analyzer.mjs');
const probe = join(root, 'tests/node/peak_rss_probe.mjs');
const MAX_RSS_KB = 300 * 1024;

function run(command, args) {
  return new Promise((resolve) => {
    const child = spawn(command, args, { env: { ...process.env, LC_ALL: 'C', TZ: 'UTC' }, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += d));
    child.on('close', (status) => resolve({ status, stderr }));
  });
}

async function sha256(path) {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(path)) hash.update(chunk);
  return hash.digest('hex');
}

/** Runs a Node program with the probe; @returns its peak RSS in KB, after checking it succeeded. */
async function peakRssOf(args, what) {
  const r = await run(process.execPath, ['--import', probe, ...args]);
  assert.equal(r.status, 0, `${what}: ${r.stderr}`);
  const m = /^peak-rss (\d+)$/m.exec(r.stderr);
  assert.ok(m, `${what} printed no peak-rss line: ${r.stderr}`);
  return Number(m[1]);
}

test('a CSV export over 500 MB: npm CLI and JS API equal the native file, peak RSS under 300 MB', { timeout: 1_200_000 }, async (t) => {
  if (!existsSync(bench)) return t.skip(`${bench} is missing (scripts/build.sh builds it)`);
  const dir = mkdtempSync(join(tmpdir(), 'export-big-'));
  try {
    const input = join(dir, 'big.nettrace');
    const made = await run(bench, ['repeat', join(testdata, 'only_managed_samples.nettrace'), input, '135']);
    assert.equal(made.status, 0, made.stderr);

    const nativeOut = join(dir, 'native.csv');
    const seconds = {};
    let started = performance.now();
    const native = await run(nativeTool, ['export', input, '--format', 'csv', '--stack-text', '-o', nativeOut]);
    assert.equal(native.status, 0, native.stderr);
    seconds.native = (performance.now() - started) / 1000;
    const size = statSync(nativeOut).size;
    assert.ok(size >= 500e6, `the native file has ${size} bytes: the test needs at least 500 MB`);
    const want = await sha256(nativeOut);
    rmSync(nativeOut);

    const cliOut = join(dir, 'cli.csv');
    started = performance.now();
    const cliRss = await peakRssOf([cli, 'export', input, '--format', 'csv', '--stack-text', '-o', cliOut], 'npm CLI');
    seconds.cli = (performance.now() - started) / 1000;
    assert.equal(statSync(cliOut).size, size);
    assert.equal(await sha256(cliOut), want, 'npm CLI bytes differ from the native file');
    rmSync(cliOut);

    const apiOut = join(dir, 'api.csv');
    const program = join(dir, 'api.mjs');
    writeFileSync(program, `import { openTrace } from ${JSON.stringify(join(root, 'dist/index.js'))};
const trace = await openTrace(${JSON.stringify(input)}, { worker: false });
const bytes = await trace.exportTo('csv', ${JSON.stringify(apiOut)}, { stackText: true });
trace.close();
if (bytes !== ${size}) throw new Error('exportTo reported ' + bytes + ' bytes');
`);
    started = performance.now();
    const apiRss = await peakRssOf([program], 'JS API');
    seconds.api = (performance.now() - started) / 1000;
    assert.equal(await sha256(apiOut), want, 'JS API bytes differ from the native file');
    t.diagnostic(`${size} bytes; peak RSS: npm CLI ${Math.round(cliRss / 1024)} MB, JS API ${Math.round(apiRss / 1024)} MB (bound ${MAX_RSS_KB / 1024} MB); ` +
      `wall time (reported, not checked): native ${seconds.native.toFixed(1)} s, npm CLI ${seconds.cli.toFixed(1)} s, JS API ${seconds.api.toFixed(1)} s`);
    assert.ok(cliRss < MAX_RSS_KB, `npm CLI peak RSS ${cliRss} KB`);
    assert.ok(apiRss < MAX_RSS_KB, `JS API peak RSS ${apiRss} KB`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

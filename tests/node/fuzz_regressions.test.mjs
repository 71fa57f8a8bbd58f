// The fuzzer's reproducers (tests/fuzz/regressions) through the wasm build, as the npm
// package's command line runs them: the same output and exit status as the native tool,
// byte for byte — a hostile input must not behave differently in the browser's engine.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { root, runNative } from './helpers.mjs';

const dir = join(root, 'tests/fuzz/regressions');
const bin = join(root, 'dist/bin/nettrace-analyzer.mjs');
const inputs = readdirSync(dir).filter((f) => f.endsWith('.nettrace')).sort();
const commands = [['summary'], ['counts'], ['events', '--limit', '200'], ['flame', '--format', 'folded']];

test('the fuzz reproducers are there', () => assert.ok(inputs.length >= 5, `only ${inputs.length} in ${dir}`));

for (const input of inputs) {
  test(`wasm = native on the fuzz reproducer ${input}`, () => {
    const path = join(dir, input);
    for (const args of commands) {
      const wasm = spawnSync(process.execPath, [bin, args[0], path, ...args.slice(1)], { maxBuffer: 1 << 28 });
      const native = runNative(args[0], path, args.slice(1));
      assert.equal(wasm.status, native.status, `${input} ${args.join(' ')}: exit ${wasm.status} vs native ${native.status}\n${wasm.stderr}`);
      assert.ok(wasm.stdout.equals(native.stdout), `${input} ${args.join(' ')}: stdout differs from native`);
    }
  });
}

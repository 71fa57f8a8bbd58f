// Both CLIs' command lines (core/api/command_line.h): options before or after FILE, `-n 10`,
// an error as one line then the command's usage line (last, so it stays on screen), and
// `COMMAND --help` for every command, the same in the native `nettrace` and the npm
// `nettrace-analyzer`.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { nativeTool, root, runAsync, testdata } from './helpers.mjs';

const { loadNetTraceModule } = await import(join(root, 'dist/reader/wasm_loader.js'));
const schema = JSON.parse((await loadNetTraceModule()).querySchemaJson());
const npmTool = join(root, 'dist/bin/nettrace-analyzer.mjs');
const TRACE = join(testdata, 'only_managed_samples.nettrace');
const TOOLS = [
  { name: 'nettrace', run: (args) => runAsync(nativeTool, args), has: (q) => q.native },
  { name: 'nettrace-analyzer', run: (args) => runAsync(process.execPath, [npmTool, ...args]), has: () => true },
];

test('options go before or after FILE: `top -n 3 FILE` is `top FILE -n 3`, in both CLIs', async () => {
  const outputs = [];
  for (const tool of TOOLS) {
    for (const args of [['top', '-n', '3', TRACE], ['top', TRACE, '-n', '3'], ['top', '-n', '3', '--weight', 'auto', '--', TRACE]]) {
      const r = await tool.run(args);
      assert.equal(r.status, 0, `${tool.name} ${args.join(' ')}: ${r.stderr}`);
      outputs.push(r.stdout);
    }
  }
  const top = JSON.parse(outputs[0]);
  assert.equal(top.functions.length, 3);
  for (const out of outputs) assert.ok(out.equals(outputs[0]), 'every spelling and both CLIs print the same');
  // Positional arguments other than FILE too: sandwich FILE FUNCTION, stack FILE ROW, diff A B.
  const fn = top.functions[0].name;
  for (const tool of TOOLS) {
    for (const [a, b] of [
      [['sandwich', TRACE, fn, '--weight', 'count'], ['sandwich', '--weight', 'count', TRACE, fn]],
      [['stack', TRACE, '7'], ['stack', TRACE, '7', '--chunk-size', '4096']],
      [['diff', TRACE, TRACE, '-n', '3', '--a-to', '500'], ['diff', '-n', '3', TRACE, '--a-to', '500', TRACE]],
      [['events', TRACE, '--limit', '3', '--name', 'Thread/Sample'], ['events', '--limit', '3', TRACE, '--name', 'Thread/Sample']],
    ]) {
      const [ra, rb] = [await tool.run(a), await tool.run(b)];
      assert.equal(ra.status, 0, `${tool.name} ${a.join(' ')}: ${ra.stderr}`);
      assert.ok(ra.stdout.length > 0 && ra.stdout.equals(rb.stdout), `${tool.name}: ${a[0]} with options moved`);
    }
  }
});

test('a command line neither CLI can take: one line, then the command\'s usage line, last', async () => {
  for (const tool of TOOLS) {
    const p = tool.name;
    for (const [args, message, usage] of [
      [['top', TRACE, '--bogus'], "unknown option '--bogus'", `usage: ${p} top FILE [options]   (${p} top --help: the options)`],
      [['top', '-n', 'ten', TRACE], "-n takes a number, not 'ten'", `usage: ${p} top FILE [options]   (${p} top --help: the options)`],
      [['stack', TRACE], 'stack needs FILE ROW', `usage: ${p} stack FILE ROW [options]   (${p} stack --help: the options)`],
      [['summary', TRACE, 'extra'], "unexpected argument 'extra' (summary takes FILE)",
        `usage: ${p} summary FILE [options]   (${p} summary --help: the options)`],
      [['flame', TRACE, '--weight', 'bogus'],
        "--weight takes auto, count, bytes, thread-time, managed-thread-time, traceevent-thread-time, wait-time, alloc-bytes or alloc-objects, not 'bogus'",
        `usage: ${p} flame FILE [options]   (${p} flame --help: the options)`],
      [['export', TRACE, '--format', 'speedscope', '--stack-text', '-o', '/dev/null'], '--stack-text goes with --format csv',
        `usage: ${p} export FILE [options]   (${p} export --help: the options)`],
      [['collect', '--pid'], '--pid takes a value',
        `usage: ${p} collect (--pid N | --diagnostic-port PATH) -o OUT.nettrace [options]   (${p} collect --help: the options)`],
      [['nosuch', TRACE], "unknown command 'nosuch'", `usage: ${p} <command> [options] FILE   (${p} --help: the commands)`],
    ]) {
      const r = await tool.run(args);
      const label = `${p} ${args.join(' ')}`;
      assert.equal(r.status, 2, label);
      assert.equal(r.stdout.length, 0, label);
      assert.equal(r.stderr, `${p}: ${message}\n${usage}\n`, label);
    }
  }
});

test('COMMAND --help prints that command\'s help, the same in both CLIs', async () => {
  const helps = new Map();
  for (const tool of TOOLS) {
    for (const q of schema.queries.filter(tool.has)) {
      for (const args of [[q.name, '--help'], [q.name, TRACE, '-h', '--bogus']]) {
        const r = await tool.run(args);
        const label = `${tool.name} ${args.join(' ')}`;
        assert.equal(r.status, 0, `${label}: ${r.stderr}`);
        assert.equal(r.stderr, '', label);
        const help = r.stdout.toString('utf8');
        const lines = help.split('\n');
        assert.match(lines[0], new RegExp(`^usage: ${tool.name} ${q.name}\\b`), label);
        assert.equal(lines[1], q.doc, label);
        for (const o of q.options) assert.match(help, new RegExp(`\\n  ${o.flag}\\b`), `${label}: ${o.flag}`);
        assert.ok(lines.length < q.options.length + 5, `${label}: the command's options only`);
        const key = `${q.name} ${args.length}`;
        const same = help.replace(`usage: ${tool.name} `, 'usage: PROGRAM ');
        if (helps.has(key)) assert.equal(same, helps.get(key), `${q.name}: both CLIs print the same help`);
        else helps.set(key, same);
      }
    }
    // The whole list, and `schema --help`.
    const all = await tool.run(['--help']);
    assert.equal(all.status, 0);
    assert.match(all.stdout.toString('utf8'), new RegExp(`^usage: ${tool.name} <command>`));
    const s = await tool.run(['schema', '--help']);
    assert.match(s.stdout.toString('utf8'), new RegExp(`^usage: ${tool.name} schema --json\\n`));
  }
});

// The documentation cannot drift from the tools: the README stays a two-minute read, every
// command, option and JS API function it names exists, every link in README.md and docs/
// leads somewhere, and docs/cli.md is what scripts/gen-cli-docs.mjs writes from
// `nettrace schema --json`.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { nativeTool, root, testdata } from './helpers.mjs';
import { cliDocsPath, generateCliDocs } from '../../scripts/gen-cli-docs.mjs';

const readme = readFileSync(join(root, 'README.md'), 'utf8');
const nativeSchema = spawnSync(nativeTool, ['schema', '--json'], { encoding: 'utf8' });
const schema = JSON.parse(nativeSchema.stdout);
const npmHelp = spawnSync(process.execPath, [join(root, 'dist/bin/nettrace-analyzer.mjs'), '--help'], { encoding: 'utf8' }).stdout;

/** The fenced code blocks of a markdown text: {lang, lines}. */
function codeBlocks(text) {
  return [...text.matchAll(/^```(\w*)\n([^]*?)^```$/gm)].map((m) => ({ lang: m[1], lines: m[2].split('\n') }));
}

/** Every command line of either CLI the text shows: in sh blocks and in inline code. */
function commandLines(text) {
  const found = [];
  const tool = /^(?:\$ )?(?:npx )?(?:build\/native\/)?(nettrace(?:-analyzer)?) (.*)$/;
  for (const block of codeBlocks(text).filter((b) => b.lang === 'sh')) {
    for (const line of block.lines) {
      const m = tool.exec(line.trim());
      if (m) found.push({ program: m[1], rest: m[2], line });
    }
  }
  const prose = text.replace(/^```\w*\n[^]*?^```$/gm, '');
  for (const [, code] of prose.matchAll(/`([^`\n]+)`/g)) {
    const m = tool.exec(code);
    if (m) found.push({ program: m[1], rest: m[2], line: code });
  }
  return found;
}

test('the README is a two-minute read: at most 200 lines', () => {
  const lines = readme.split('\n').length - 1;
  assert.ok(lines <= 200, `README.md has ${lines} lines`);
  assert.ok(lines >= 60, `README.md has ${lines} lines: it still says what the project is and how to use it`);
});

/** Fails on a command or option of `text`'s command lines that the CLI named there does not have. */
function checkCommandLines(file, text) {
  const lines = commandLines(text);
  for (const { program, rest, line } of lines) {
    // Words up to a comment or a redirection; COMMAND and the like are placeholders; a|b are alternatives.
    const words = rest.split(/\s+(?:#|>|<|\|).*$/)[0].split(/\s+/).filter(Boolean);
    const [command, ...args] = words;
    if (/^[A-Z<]/.test(command) || command === '--help' || command === 'schema') continue;
    for (const name of command.split('|')) {
      const q = schema.queries.find((x) => x.name === name);
      assert.ok(q, `${file}: ${line}: no command '${name}'`);
      if (program === 'nettrace') assert.ok(q.native, `${file}: ${line}: '${name}' is not a command of the native nettrace`);
      else assert.match(npmHelp, new RegExp(`\\b${name}\\b`), `${file}: ${line}: the npm CLI's --help does not list '${name}'`);
      for (const arg of args.filter((a) => /^-[-\w]/.test(a))) {
        if (['--help', '-h', '--'].includes(arg)) continue;
        assert.ok(q.options.some((o) => o.flag === arg || o.negation === arg), `${file}: ${line}: '${name}' has no option ${arg}`);
      }
    }
  }
  return lines.length;
}

test('every command and option the README and docs/ name exists in the CLI they name', () => {
  assert.equal(nativeSchema.status, 0, nativeSchema.stderr);
  const shown = checkCommandLines('README.md', readme);
  assert.ok(shown >= 10, `${shown} command lines found in the README`);
  for (const f of readdirSync(join(root, 'docs')).filter((f) => f.endsWith('.md') && f !== 'cli.md'))
    checkCommandLines(`docs/${f}`, readFileSync(join(root, 'docs', f), 'utf8'));
});

test('every JS API function the README names exists in the package', async () => {
  const entries = {
    'nettrace-analyzer': await import(join(root, 'dist/index.js')),
    'nettrace-analyzer/live': await import(join(root, 'dist/live/index.js')),
  };
  // The element's module needs a DOM: its declarations say what it exports.
  const elementTypes = readFileSync(join(root, 'dist/analyzer/element.d.ts'), 'utf8');
  const exported = (entry, name) => entry === 'nettrace-analyzer/element'
    ? new RegExp(`export (?:declare )?(?:function|class|const) ${name}\\b|export \\{[^}]*\\b${name}\\b`).test(elementTypes)
    : name in (entries[entry] ?? {});
  const js = codeBlocks(readme).filter((b) => b.lang === 'js').map((b) => b.lines.join('\n')).join('\n');
  const imported = new Map();
  for (const [, names, entry] of js.matchAll(/import \{([^}]+)\} from '([^']+)'/g)) {
    for (const name of names.split(',').map((n) => n.trim()).filter(Boolean)) {
      assert.ok(exported(entry, name), `README imports ${name} from ${entry}, which does not export it`);
      imported.set(name, entry);
    }
  }
  assert.ok(imported.has('openTrace'), 'the README shows openTrace');
  // Each method called on the trace handle is a method of a real one.
  const { openTrace } = entries['nettrace-analyzer'];
  const trace = await openTrace(join(testdata, 'only_managed_samples.nettrace'), { worker: false });
  try {
    const methods = [...js.matchAll(/\btrace\.(\w+)\(/g)].map((m) => m[1]);
    assert.ok(methods.length >= 5, `${methods.length} trace methods named`);
    for (const m of methods) assert.equal(typeof trace[m], 'function', `README calls trace.${m}(), which the handle does not have`);
  } finally {
    trace.close();
  }
  // A function named in the prose, `name(…)`, is an export of one of the entries.
  const prose = readme.replace(/^```\w*\n[^]*?^```$/gm, '');
  for (const [, name] of prose.matchAll(/`([a-z]\w*)\([^`]*\)`/g)) {
    assert.ok(Object.keys(entries).some((e) => exported(e, name)) || exported('nettrace-analyzer/element', name),
      `README names ${name}(), which no entry of the package exports`);
  }
});

test('every link in README.md and docs/ leads to a file (and a heading, when it names one)', () => {
  const slug = (heading) => heading.toLowerCase().replace(/`/g, '').replace(/[^\p{L}\p{N} _-]/gu, '').replace(/ /g, '-');
  const headings = (file) => new Set([...readFileSync(file, 'utf8').matchAll(/^#+ (.+)$/gm)].map((m) => slug(m[1].trim())));
  const docs = readdirSync(join(root, 'docs')).filter((f) => f.endsWith('.md')).map((f) => join(root, 'docs', f));
  let links = 0;
  for (const file of [join(root, 'README.md'), ...docs]) {
    const text = readFileSync(file, 'utf8').replace(/^```\w*\n[^]*?^```$/gm, '');
    for (const [, target] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
      if (/^[a-z]+:/.test(target)) continue;  // http(s):, mailto:
      const [path, anchor] = target.split('#');
      const resolved = path ? join(dirname(file), path) : file;
      assert.ok(existsSync(resolved), `${file}: the link ${target} leads nowhere`);
      if (anchor && resolved.endsWith('.md')) assert.ok(headings(resolved).has(anchor), `${file}: ${target} names no heading`);
      links++;
    }
  }
  assert.ok(links > 40, `${links} links checked`);
  // The screenshot the README shows is a committed, reasonably small PNG.
  const shot = readme.match(/!\[[^\]]*\]\(([^)]+\.png)\)/);
  assert.ok(shot, 'the README shows a screenshot');
  const png = readFileSync(join(root, shot[1]));
  assert.equal(png.subarray(1, 4).toString('latin1'), 'PNG');
  assert.ok(statSync(join(root, shot[1])).size < 400 * 1024, `${shot[1]} is ${statSync(join(root, shot[1])).size} bytes`);
});

test('docs/cli.md is what scripts/gen-cli-docs.mjs writes from `nettrace schema --json`', () => {
  assert.equal(readFileSync(cliDocsPath, 'utf8'), generateCliDocs(schema),
    'docs/cli.md is stale: run node scripts/gen-cli-docs.mjs');
  // It names every command and every option of each.
  const doc = readFileSync(cliDocsPath, 'utf8');
  for (const q of schema.queries) {
    assert.match(doc, new RegExp(`^## ${q.name}$`, 'm'));
    for (const o of q.options) assert.ok(doc.includes(`\`${o.flag}\``), `${q.name} ${o.flag}`);
  }
});

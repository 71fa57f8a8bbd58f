#!/usr/bin/env node
// nettrace-analyzer: the npm package's command-line tool, over the same JS API as programs
// use (openTrace, wasm engine in this process). The commands and options follow the native
// `nettrace` tool, and summary / counts / events print exactly what it prints.
//
//   nettrace-analyzer summary FILE                 trace summary as JSON
//   nettrace-analyzer counts FILE                  per-type counts, TraceEvent's baseline form
//   nettrace-analyzer events FILE [--provider P] [--name N] [--thread T] [--from MS] [--to MS]
//                                 [--limit N] [--offset N] [--text STR] [--frames]   events in time
//                                 order, JSON lines; --frames: each event's stack as named frames
//   nettrace-analyzer stack FILE ROW               one event's stack as named frames and addresses, leaf first
//   nettrace-analyzer histogram FILE [--buckets N] [--group-by none|provider|eventType] [filters]
//   nettrace-analyzer flame FILE [--event NAME] [--provider P] [--thread T] [--from MS] [--to MS]
//                                [--inverted] [--by-thread] [--process PID] [--by-process]
//                                [--weight count|bytes|thread-time|managed-thread-time|traceevent-thread-time|
//                                          wait-time|alloc-bytes|alloc-objects] [--type-as-root]
//                                [--format json|folded|speedscope]
//   nettrace-analyzer top FILE [-n 20] [same selection options]
//   nettrace-analyzer sandwich FILE FUNCTION [same selection options]   callers and callees of
//                                 one frame name, as JSON
//   nettrace-analyzer export FILE --format speedscope|chrome|csv|stacks-csv|pprof|otlp [--stack-text] [-o OUT]
//                                [--otlp-endpoint URL]   pprof: gzipped profile.proto; otlp: an
//                                OpenTelemetry profiles request, POSTed to URL too
//   nettrace-analyzer convert FILE OUT [--from MS] [--to MS]   rewrite as NetTrace v6 (a time window)
//   nettrace-analyzer diff A B [--format json|folded] [-n N] [same selection options]
//                                [--a-from MS] [--a-to MS] [--b-from MS] [--b-to MS]   A/B stack diff
//   nettrace-analyzer diff --baseline A1 A2 … --compare B1 B2 … [--format json|markdown] [--alpha P]
//                                [--min-share F] [-n N] [same selection options]   many runs a side
//   nettrace-analyzer check TRACE… --budget FILE [--baseline FILE…] [--format text|json|junit|markdown]
//                                [--junit OUT] [--markdown OUT]   budgets; exit 0 pass, 1 fail, 2 bad input
//   nettrace-analyzer gc FILE [--format json|csv]   one row per GC (TraceEvent's TraceGC), totals
//   nettrace-analyzer jit FILE [--format json|csv]  one row per jitted method, totals
//   nettrace-analyzer exceptions|contention|activities|counters|threadpool FILE [--format json|csv]   the
//                                 event views, as the native tool prints them
//   nettrace-analyzer heap FILE [--baseline OLD] [--paths-to TYPE] [--largest N] [--paths N] [--format json|csv]
//                                 a heap snapshot (.gcdump, or a .nettrace with heap-dump events)
//   nettrace-analyzer allocations FILE [--format json|csv]   allocated bytes and objects by type and
//                                 function (AllocationSampled's estimates with intervals)
//   nettrace-analyzer write-sample-universal OUT   a small collect-linux-like v6 trace
//   nettrace-analyzer ps [--json]                  .NET processes with a diagnostics port
//   nettrace-analyzer collect --pid N [--providers SPEC,…|--profile NAME,…] [--duration D]
//                             [--buffer-mb 256] -o OUT   record a live session (Ctrl-C stops)
//   nettrace-analyzer dataset OUT_DIR TRACE… [--codec gzip|none]   add traces to a Parquet
//                             dataset (docs/dataset.md), one JSON line per trace
//   nettrace-analyzer sql DATASET_DIR|TRACE… "SELECT …" [--format table|csv|json]   DuckDB over
//                             a dataset, or over the dataset of traces built in a temporary folder
//   nettrace-analyzer heap-snapshot --pid N -o OUT [--duration D]   a heap snapshot of a running
//                             process (dotnet-gcdump's session), as a .nettrace `heap` reads
//   nettrace-analyzer live --pid N [collect's options] [-o OUT] [--port P]   the same, served
//                             with the app on localhost: the page grows while it runs
// Every command takes --chunk-size BYTES (how much is read at a time; the output is the same).
// The commands' options are the engine's query table (core/api/query_table.cc): taken before or
// after FILE by the engine's own command-line parser through the wasm module (parseCliArgs),
// listed by --help and COMMAND --help, printed by `nettrace-analyzer schema --json`.
// FILE may be a path, an http(s) URL, or "-" for standard input.
import { appendFileSync, closeSync, openSync, readFileSync, writeFileSync, writeSync } from 'node:fs';
import { basename } from 'node:path';
import { checkBudgetsText, compareRunsText, convertTrace, diffStacksFolded, diffStacksJson, openHeap, openTrace, NetTraceError } from '../index.js';

// A reader that stops early (`| head`) wants no more output: end quietly, as the native tool
// does (SIGPIPE), not with an unhandled EPIPE 'error' event and its stack trace.
process.stdout.on('error', (e) => {
  if (e.code === 'EPIPE') process.exit(0);
  throw e;
});

const [command, ...args] = process.argv.slice(2);
const VIEWS = ['exceptions', 'contention', 'activities', 'counters', 'threadpool', 'allocations'];
// Live sessions: web/src/live, Node's Unix sockets, the protocol through the engine.
// A heap snapshot of a running process (web/src/live/heap_snapshot.ts): not in the query table yet.
if (command === 'heap-snapshot') {
  const { runHeapSnapshot } = await import('../live/index.js');
  process.exit(await runHeapSnapshot(args));
}
if (command === 'ps' || command === 'collect' || command === 'live') {
  const { runLiveCommand } = await import('../live/index.js');
  process.exit(await runLiveCommand(command, args));
}
// The dataset of many traces and SQL over it (web/src/dataset): not in the query table yet.
if (command === 'dataset' || command === 'sql') process.exit(await datasetCommand(command, args));
// The commands and options are the engine's query table (core/api/query_table.cc), read
// through the wasm module: the same parser as the native tool, the same --help lines.
const { loadNetTraceModule } = await import('../reader/wasm_loader.js');
const engine = await loadNetTraceModule();
const schema = JSON.parse(engine.querySchemaJson());
const USAGE = `usage: nettrace-analyzer <command> [options] FILE   (nettrace-analyzer <command> --help: that command's options)
commands: ${[...schema.queries.map((q) => q.name), 'schema'].join(', ')}
${engine.cliHelp(false).replace(/^commands:\n/, '')}  schema:    --json: the commands and options above, and the JSON results, as JSON (the one schema, as \`nettrace schema\`)
FILE: a path, an http(s) URL, or - for standard input`;

// An error: the one line; a wrong command line (exit status 2) then ends with the command's
// usage line, as the native tool's, so that it stays on screen.
function fail(message, code = 2) {
  const usage = code === 2 ? engine.commandUsage(command, 'nettrace-analyzer') || 'usage: nettrace-analyzer <command> [options] FILE   (nettrace-analyzer --help: the commands)' : '';
  process.stderr.write(`nettrace-analyzer: ${message}\n${usage ? `${usage}\n` : ''}`);
  process.exit(code);
}

if (command === undefined) {
  process.stderr.write(`${USAGE}\n`);
  process.exit(2);
}
if (command === '--help' || command === '-h') {
  console.log(USAGE);
  process.exit(0);
}
if (command === 'schema') {
  if (args[0] === '--help' || args[0] === '-h') console.log('usage: nettrace-analyzer schema --json\nthe commands and options, and the JSON results, as JSON (the one schema)');
  else process.stdout.write(engine.querySchemaJson() + '\n');
  process.exit(0);
}
const commands = schema.queries.map((q) => q.name);
if (!commands.includes(command)) fail(`unknown command '${command}'`);
// Every option, before or after FILE, through the engine's parser of the query table, with its
// messages; FILE and the command's other positional arguments (stack FILE ROW, sandwich FILE
// FUNCTION, convert FILE OUT, diff A B) come back in order.
const parsed = engine.parseCliArgs(command, args);
if (parsed.help) {
  process.stdout.write(engine.commandHelp(command, 'nettrace-analyzer'));
  process.exit(0);
}
if (!parsed.ok) fail(parsed.message);
const [file, positional] = parsed.positional;
if (command === 'write-sample-universal') await writeSampleUniversal(file);
if (command === 'stack' && !/^\d+$/.test(positional)) fail(`stack takes FILE ROW (an event index), not '${positional}'`);
const opts = JSON.parse(parsed.request);
const pick = (...keys) => Object.fromEntries(keys.filter((k) => opts[k] !== undefined).map((k) => [k, opts[k]]));
const profileName = file === undefined ? '' : file === '-' ? 'stdin' : basename(file);
if (VIEWS.includes(command) && opts.format !== undefined && !['json', 'csv'].includes(opts.format)) fail(`${command} --format takes json or csv`);
if (opts.chunkSize !== undefined && !(Number.isInteger(opts.chunkSize) && opts.chunkSize >= 1 && opts.chunkSize <= 2 ** 30))
  fail('--chunk-size takes a number of bytes from 1 to 1073741824');
// The engine's flame-graph document (core/analysis/stacks/flame_graph.h), rebuilt from the typed columns.
const flameDoc = (g) => {
  const doc = { unit: g.unit, total: g.total, frames: g.frameNames };
  for (const k of ['frame', 'parent', 'depth', 'start', 'end', 'self', 'count']) doc[k] = Array.from(g[k]);
  if (g.asyncStitching) doc.asyncStitching = g.asyncStitching;
  return doc;
};
// The stack selection: every non-CLI-only option of flame in the table (StackQuery).
const stackKeys = schema.queries.find((q) => q.name === 'flame').options.filter((o) => !o.cliOnly).map((o) => o.name);
const stackQuery = () => pick(...stackKeys);

if (command === 'convert') await convert();
if (command === 'check') await check();
if (command === 'diff' && opts.compare !== undefined) await diffRuns();
if (command === 'diff' && opts.baseline !== undefined) fail('--baseline goes with --compare');
if (command === 'diff' && opts.format === 'markdown') fail('diff --format markdown goes with --baseline/--compare');
if (command === 'diff') await diff();
if (command === 'heap') await heap();
if ((command === 'gc' || command === 'jit') && !['json', 'csv', undefined].includes(opts.format)) fail(`${command} --format takes json or csv`);

let trace;
try {
  // keepPartial: like the native tool, a damaged trace still answers every command with what
  // was read before the fault (stdout), then the error (stderr) and exit status 1.
  trace = await openTrace(file === '-' ? process.stdin : file, { worker: false, keepPartial: true, ...pick('chunkSize') });
} catch (e) {
  if (e instanceof Error && e.message.startsWith('nettrace: out of memory')) fail(`${file}: out of memory (the engine's heap cannot grow further)`, 1);
  if (!(e instanceof NetTraceError)) throw e;
  if (command === 'summary' && e.partial) process.stdout.write(JSON.stringify(e.partial) + '\n');
  fail(`${file}: ${e.message}`, 1);
}
try {
  let out;
  switch (command) {
    case 'exceptions':
    case 'contention':
    case 'activities':
    case 'counters':
    case 'threadpool':
    case 'allocations': {
      const format = opts.format ?? 'json';
      out = await trace.eventView(command, format);
      if (format === 'json') out += '\n';
      break;
    }
    case 'summary':
      out = trace.summaryJson() + '\n';
      break;
    case 'counts':
      out = await trace.traceEventCounts();
      break;
    case 'gc':
    case 'jit': {
      // As the native tool: JSON ends with a newline, CSV already does.
      const format = opts.format ?? 'json';
      out = (await trace.runtimeStatsText(command, format)) + (format === 'json' ? '\n' : '');
      break;
    }
    case 'events': {
      const page = await trace.events(pick('provider', 'name', 'thread', 'fromMs', 'toMs', 'offset', 'limit', 'text'));
      const lines = [];
      for (let i = 0; i < page.json.length; i++) {
        const json = page.json[i];
        // As the native tool: the stack goes in as the object's last member.
        lines.push(opts.frames ? `${json.slice(0, -1)},"frames":${JSON.stringify(await trace.eventStack(page.rows[i]))}}\n` : json + '\n');
      }
      out = lines.join('');
      break;
    }
    case 'stack': {
      const index = Number(positional);
      if (index >= trace.summary().eventCount) fail(`no event with index ${index}`);
      out = JSON.stringify({ index, frames: await trace.eventStack(index), addresses: await trace.eventStackAddresses(index) }) + '\n';
      break;
    }
    case 'histogram': {
      const h = await trace.histogram(pick('provider', 'name', 'thread', 'fromMs', 'toMs', 'buckets', 'groupBy'));
      out = JSON.stringify({ ...h, counts: Array.from(h.counts) }) + '\n';
      break;
    }
    case 'flame': {
      const format = opts.format ?? 'json';
      if (format === 'json') out = JSON.stringify(flameDoc(await trace.flameGraph(stackQuery()))) + '\n';
      else if (format === 'folded') out = await trace.export('folded', stackQuery());
      else if (format === 'speedscope') out = (await trace.export('speedscope', { ...stackQuery(), name: profileName, speedscope: 'sampled' })) + '\n';
      else fail(`--format json|folded|speedscope, not '${format}'`);
      break;
    }
    case 'top':
      out = JSON.stringify(await trace.topFunctions(stackQuery(), opts.n ?? 20)) + '\n';
      break;
    case 'sandwich': {
      const w = await trace.sandwich(stackQuery(), positional);
      out = JSON.stringify({ function: w.function, callers: flameDoc(w.callers), callees: flameDoc(w.callees) }) + '\n';
      break;
    }
    case 'export': {
      const format = opts.format;
      if (format === 'pprof' || format === 'otlp') {
        out = await exportProfile(format);
        break;
      }
      if (opts.otlpEndpoint !== undefined) fail('--otlp-endpoint goes with --format otlp');
      if (!['speedscope', 'chrome', 'csv', 'stacks-csv'].includes(format)) fail('export needs --format speedscope|chrome|csv|stacks-csv|pprof|otlp');
      if (opts.stackText && format !== 'csv') fail('--stack-text goes with --format csv');
      // Written a part at a time (any size, bounded memory), as the native tool writes them:
      // JSON formats end with a newline.
      const options = { ...stackQuery(), ...pick('speedscope', 'csvPayload'), name: profileName, stackText: opts.stackText === true };
      const newline = format.endsWith('csv') ? '' : '\n';
      try {
        if (opts.out !== undefined) {
          const bytes = (await trace.exportTo(format, opts.out, options)) + newline.length;
          if (newline) appendFileSync(opts.out, newline);
          process.stderr.write(`nettrace-analyzer: wrote ${opts.out} (${bytes} bytes)\n`);
        } else {
          await trace.exportTo(format, process.stdout, { ...options, keepOpen: true });
          process.stdout.write(newline);
        }
      } catch (e) {
        if (!(e instanceof NetTraceError)) throw e;
        fail(`export: ${e.message}`, 1);
      }
      out = '';
      break;
    }
  }
  process.stdout.write(out);
} catch (e) {
  // The engine's heap could not grow during a query (web/src/reader/read_trace.ts isOutOfMemory):
  // an error, exit 1, and the instance is not called again (fail exits before `finally`).
  if (e instanceof Error && e.message.startsWith('nettrace: out of memory')) fail(`${file}: out of memory (the engine's heap cannot grow further)`, 1);
  throw e;
} finally {
  trace.close();
}
if (trace.error) fail(`${file}: ${trace.error.message}`, 1);

// export --format pprof|otlp: the profile's bytes (pprof gzipped) to -o OUT or standard output;
// otlp with --otlp-endpoint also POSTed to the collector (fetch: http and https).
async function exportProfile(format) {
  if (opts.stackText) fail('--stack-text goes with --format csv');
  if (opts.otlpEndpoint !== undefined && format !== 'otlp') fail('--otlp-endpoint goes with --format otlp');
  let bytes;
  try {
    bytes = await trace.export(format, { ...stackQuery(), ...pick('otlpEndpoint') });
  } catch (e) {
    if (!(e instanceof NetTraceError)) throw e;
    fail(e.message, 1);
  }
  const what = format === 'pprof' ? 'pprof' : 'OTLP profiles';
  if (opts.otlpEndpoint !== undefined) process.stderr.write(`nettrace-analyzer: pushed ${bytes.length} bytes to ${opts.otlpEndpoint}\n`);
  if (opts.out !== undefined) {
    writeFileSync(opts.out, bytes);
    process.stderr.write(`nettrace-analyzer: wrote ${opts.out} (${bytes.length} bytes, ${what})\n`);
    return '';
  }
  return opts.otlpEndpoint !== undefined ? '' : bytes;
}

// As `nettrace convert`: v6 bytes written as produced; on a damaged input the output keeps
// what was read before the fault, and the error goes to stderr with exit status 1.
async function convert() {
  let fd;
  try {
    fd = openSync(positional, 'w');
  } catch (e) {
    fail(`cannot create ${positional}: ${e.message}`, 1);
  }
  let result;
  try {
    result = await convertTrace(file === '-' ? process.stdin : file, (bytes) => { writeSync(fd, bytes); },
      pick('fromMs', 'toMs', 'chunkSize'));
  } catch (e) {
    if (!(e instanceof NetTraceError)) throw e;
    fail(`${file}: ${e.message}`, 1);
  } finally {
    closeSync(fd);
  }
  if (result.error) fail(`${file}: ${result.error.message} (the output is incomplete: ${result.eventsWritten} events written)`, 1);
  process.stderr.write(`nettrace-analyzer: wrote ${result.eventsWritten} events to ${positional} (NetTrace v6)\n`);
  process.exit(0);
}

// As `nettrace heap FILE [--baseline OLD]`: the snapshot's views, or the growth from OLD, printed
// as the engine writes them. A fault after which the graph stayed whole: the views, then the
// error and exit status 1; no graph: the error alone.
async function heap() {
  const open = async (path) => {
    try {
      return await openHeap(path === '-' ? process.stdin : path, pick('chunkSize'));
    } catch (e) {
      if (!(e instanceof NetTraceError)) throw e;
      fail(`${path}: ${e.message}`, 1);
    }
  };
  const current = await open(file);
  const baseline = opts.baseline === undefined ? undefined : await open(opts.baseline);
  try {
    process.stdout.write(current.text(opts.format ?? 'json', pick('pathsTo', 'largest', 'paths'), baseline));
  } finally {
    current.close();
    baseline?.close();
  }
  for (const [path, h] of [[file, current], [opts.baseline, baseline]]) if (h?.error) fail(`${path}: ${h.error.message}`, 1);
  process.exit(0);
}

// As `nettrace diff A B`: both traces read in this thread (the same file once), the engine's
// document or folded lines printed as they are.
async function diff() {
  const format = opts.format ?? 'json';
  if (format !== 'json' && format !== 'folded') fail('diff --format takes json or folded');
  const open = async (path) => {
    try {
      return await openTrace(path === '-' ? process.stdin : path, { worker: false, keepPartial: true, ...pick('chunkSize') });
    } catch (e) {
      if (!(e instanceof NetTraceError)) throw e;
      fail(`${path}: ${e.message}`, 1);
    }
  };
  const a = await open(file);
  const b = positional === file ? a : await open(positional);
  const side = (from, to) => Object.fromEntries([['fromMs', opts[from]], ['toMs', opts[to]]].filter(([, v]) => v !== undefined));
  const options = { query: stackQuery(), baseline: side('aFromMs', 'aToMs'), comparison: side('bFromMs', 'bToMs') };
  if (opts.n !== undefined) options.maxFunctions = opts.n;
  try {
    const text = format === 'folded' ? await diffStacksFolded(a, b, options) : (await diffStacksJson(a, b, options)) + '\n';
    await new Promise((resolve) => process.stdout.write(text, resolve)); // written out before exit()
  } finally {
    a.close();
    if (b !== a) b.close();
  }
  for (const [t, path] of [[a, file], [b, positional]]) if (t.error) fail(`${path}: ${t.error.message}`, 1);
  process.exit(0);
}

// As `nettrace check`: the budget file, then each trace read whole in turn (a trace that cannot
// be read to its end, like a bad budget file, is bad input: exit status 2, no verdict), then
// the report; --junit / --markdown also write those forms. Exit 0 when every budget passed, 1
// when one failed.
async function check() {
  const badInput = (message) => {
    process.stderr.write(`nettrace-analyzer: ${message}\n`);
    process.exit(2);
  };
  if (opts.budget === undefined) badInput('check needs --budget FILE');
  let budgets;
  try {
    budgets = readFileSync(opts.budget, 'utf8');
  } catch {
    badInput(`cannot read ${opts.budget}`);
  }
  const format = opts.format ?? 'text';
  const files = [[opts.junitOut, 'junit'], [opts.markdownOut, 'markdown']].filter(([out]) => out !== undefined);
  const options = { baseline: opts.baseline ?? [], budgetName: opts.budget, alsoFormats: files.map(([, f]) => f), ...pick('chunkSize') };
  let outcome;
  try {
    outcome = await checkBudgetsText(budgets, parsed.positional, format, options);
  } catch (e) {
    if (!(e instanceof NetTraceError)) throw e;
    badInput(e.message);
  }
  await new Promise((resolve) => process.stdout.write(outcome.text, resolve));
  for (const [out, form] of files) {
    try {
      writeFileSync(out, outcome.also[form]);
    } catch {
      badInput(`cannot write ${out}`);
    }
  }
  process.exit(outcome.passed ? 0 : 1);
}

// As `nettrace diff --baseline … --compare …`: each run read whole in turn, then the engine's
// document (json) or summary (markdown).
async function diffRuns() {
  const format = opts.format ?? 'json';
  if (format === 'folded') fail('diff --baseline/--compare writes json or markdown');
  if (opts.baseline === undefined) fail('--compare goes with --baseline');
  const options = { query: stackQuery(), ...pick('alpha', 'minShare', 'chunkSize') };
  if (opts.n !== undefined) options.maxFunctions = opts.n;
  let text;
  try {
    text = await compareRunsText(opts.baseline, opts.compare, format, options);
  } catch (e) {
    if (!(e instanceof NetTraceError)) throw e;
    process.stderr.write(`nettrace-analyzer: ${e.message}\n`);
    process.exit(2);
  }
  await new Promise((resolve) => process.stdout.write(text, resolve));
  process.exit(0);
}

async function writeSampleUniversal(out) {
  const { status, bytes } = engine.writeSampleUniversal();
  if (!status.ok) fail(status.message, 1);
  try {
    writeFileSync(out, bytes);
  } catch (e) {
    fail(`cannot write ${out}: ${e.message}`, 1);
  }
  process.exit(0);
}

// `dataset OUT_DIR TRACE… [--codec gzip|none]`, `sql DIR_OR_TRACE… QUERY [--format table|csv|json]`.
async function datasetCommand(name, argv) {
  const usage = name === 'dataset'
    ? 'usage: nettrace-analyzer dataset OUT_DIR TRACE... [--codec gzip|none]'
    : 'usage: nettrace-analyzer sql DATASET_DIR|TRACE... "SELECT ..." [--format table|csv|json]';
  const positional = [];
  const options = {};
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--help' || a === '-h') return console.log(usage), 0;
    if (a === (name === 'dataset' ? '--codec' : '--format') && i + 1 < argv.length) options[a.slice(2)] = argv[++i];
    else if (a.startsWith('--')) return process.stderr.write(`nettrace-analyzer: unknown option '${a}'\n${usage}\n`), 2;
    else positional.push(a);
  }
  const codecs = ['gzip', 'none'], formats = ['table', 'csv', 'json'];
  if (positional.length < 2 || (options.codec && !codecs.includes(options.codec)) || (options.format && !formats.includes(options.format))) {
    process.stderr.write(`${usage}\n`);
    return 2;
  }
  const { writeDataset } = await import('../dataset/index.js');
  const { runSql, formatSql } = await import('../dataset/sql.js');
  try {
    if (name === 'dataset') {
      for (const line of await writeDataset(positional[0], positional.slice(1), { codec: options.codec ?? 'gzip' })) console.log(JSON.stringify(line));
    } else {
      const result = await runSql(positional.slice(0, -1), positional[positional.length - 1]);
      process.stdout.write(formatSql(result, options.format ?? 'table'));
    }
    return 0;
  } catch (e) {
    process.stderr.write(`nettrace-analyzer: ${e instanceof Error ? e.message : String(e)}\n`);
    return 1;
  }
}

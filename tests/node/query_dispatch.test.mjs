// Every query the engine answers by name (core/api/model_queries.h) is reachable through each
// transport, with the native CLI's bytes: the table is read from `nettrace schema --json`, and
// each of its queries on a FILE is run by the native CLI, by the wasm module's query() and by
// the JS API's handle.query(), on every complete committed trace, in JSON and, where the CLI
// takes `--format csv`, in CSV. A query of the table on a FILE that the dispatch does not
// answer must be named below with the path that serves it instead: adding one to the table
// without either fails here.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { corpusTraces, loadRawModule, nativeTool, root, runAsync } from './helpers.mjs';

const { openTrace } = await import(join(root, 'dist/index.js'));

// The queries on a FILE that other paths serve: pages of events re-read from the file, one
// event's stack by its row, exports and conversions written a part at a time, heap snapshots.
const SERVED_OTHERWISE = {
  events: 'handle.events() / eventDetail(): pages whose blocks are read again',
  stack: 'handle.eventStack(): one event by its row',
  export: 'handle.export() / exportTo() / exportStream(): parts of a file',
  convert: 'convertTrace(): a new trace written a part at a time',
  heap: 'openHeapSnapshot(): a heap snapshot, not a trace session',
};

const schema = JSON.parse(execFileSync(nativeTool, ['schema', '--json'], { encoding: 'utf8', maxBuffer: 64 << 20 }));
const fileQueries = schema.queries.filter((q) => q.native && q.args.startsWith('FILE'));
const traces = corpusTraces().filter((t) => !t.truncated);
const M = await loadRawModule();

// A session of the raw module holding `path` read whole, in one chunk.
function rawSession(path) {
  const bytes = readFileSync(path);
  const session = new M.TraceSession();
  const buffer = M._malloc(bytes.length);
  M.HEAPU8.set(bytes, buffer);
  const pushed = session.pushChunk(buffer, bytes.length);
  M._free(buffer);
  assert.ok(pushed.ok && session.finish().ok, `${path}: ${pushed.message}`);
  return session;
}

// The positional arguments after FILE: sandwich takes the heaviest function of the trace.
function argsOf(query, top) {
  if (query.name !== 'sandwich') return [];
  return [JSON.parse(top).functions[0]?.name ?? 'no function'];
}

test('every query of the table on a FILE is answered by name or named with the path that serves it', async () => {
  const session = rawSession(traces[0].path);
  try {
    const answered = fileQueries.filter((q) => !/^no query named/.test(session.query(q.name, '{}', ['x']).message));
    const unserved = fileQueries.filter((q) => !answered.includes(q) && !(q.name in SERVED_OTHERWISE)).map((q) => q.name);
    assert.deepEqual(unserved, [], 'queries of the table reachable through no transport');
    const twice = answered.filter((q) => q.name in SERVED_OTHERWISE).map((q) => q.name);
    assert.deepEqual(twice, [], 'queries answered by name and also listed as served otherwise');
    assert.ok(answered.length >= 13, `the dispatch answers ${answered.length} queries`);
  } finally {
    session.delete();
  }
});

for (const trace of traces) {
  test(`${trace.name}: every query answered by name gives the native CLI's bytes through wasm and the JS API`, async () => {
    const session = rawSession(trace.path);
    const handle = await openTrace(trace.path);
    try {
      const topAnswer = session.query('top', '{}', []);
      assert.ok(topAnswer.ok, topAnswer.message);
      let compared = 0;
      for (const query of fileQueries) {
        const args = argsOf(query, topAnswer.text);
        if (/^no query named/.test(session.query(query.name, '{}', args).message)) continue;
        for (const format of ['json', 'csv']) {
          const native = await runAsync(nativeTool, [query.name, trace.path, ...args, ...(format === 'csv' ? ['--format', 'csv'] : [])]);
          const request = format === 'csv' ? { format } : {};
          const raw = session.query(query.name, JSON.stringify(request), args);
          const label = `${query.name} ${format}`;
          if (format === 'csv' && native.status === 2) {
            // The CLI refuses a format the query has not: so do the others.
            assert.equal(raw.ok, false, `${label}: wasm answers what the CLI refuses`);
            await assert.rejects(handle.query(query.name, request, args), { code: 'invalid-argument' }, label);
            continue;
          }
          assert.equal(native.status, 0, `${label}: ${native.stderr}`);
          assert.ok(raw.ok, `${label}: ${raw.message}`);
          // The CLI ends a JSON document with a newline the engine's answer has not.
          const bytes = native.stdout.toString('utf8');
          assert.ok(bytes === raw.text || bytes === `${raw.text}\n`, `${label}: wasm differs from the native CLI`);
          assert.equal(await handle.query(query.name, request, args), raw.text, `${label}: the JS API differs from wasm`);
          compared++;
        }
      }
      assert.ok(compared >= 13, `${compared} answers compared`);
    } finally {
      handle.close();
      session.delete();
    }
  });
}

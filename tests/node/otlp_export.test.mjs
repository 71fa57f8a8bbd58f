// `nettrace export --format otlp` (core/export/otlp, docs/exports.md "OpenTelemetry profiles") on
// every committed trace and on the written Linux-profiler trace, decoded with the official
// opentelemetry-proto v1.11.0 definitions (tests/opentelemetry-proto, loaded by protobufjs), not
// with the field numbers our writer was written from:
// - the request decodes as an ExportProfilesServiceRequest and passes protobufjs' verify;
// - per sample type, the values of every process's profile of that type add up to the flame
//   graph's total for its `--event` / `--weight` (the pprof export's comments name them);
// - the 20 functions `nettrace top` ranks first have, summed over the decoded stacks (the first
//   location is the leaf), the same exclusive and inclusive values;
// - the JS API's exports (dist/index.js, in-thread wasm) are the native CLI's bytes: OTLP as it
//   is, pprof once gunzipped;
// - --otlp-endpoint (native CLI, npm CLI) and `otlpEndpoint` (JS API) POST the request to a
//   local OTLP/HTTP receiver, which gets the file's bytes whole at /v1development/profiles as
//   application/x-protobuf; a collector answering 400 is an error with its answer.
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, openAsBlob, readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { gunzipSync } from 'node:zlib';
import { Profile } from 'pprof-format';
import protobuf from 'protobufjs';
import { nativeTool, root, runNative, testdata, traceFilesUnder } from './helpers.mjs';

const { openTrace } = await import(join(root, 'dist/index.js'));
const npmCli = join(root, 'dist/bin/nettrace-analyzer.mjs');

const protoDir = join(root, 'tests/opentelemetry-proto');
const protoRoot = new protobuf.Root();
protoRoot.resolvePath = (_origin, target) => join(protoDir, target);
protoRoot.loadSync('opentelemetry/proto/collector/profiles/v1development/profiles_service.proto', { keepCase: false });
const Request = protoRoot.lookupType('opentelemetry.proto.collector.profiles.v1development.ExportProfilesServiceRequest');

function decodeOtlp(bytes) {
  const message = Request.decode(bytes);
  assert.equal(Request.verify(message), null);
  return Request.toObject(message, { longs: Number, defaults: true });
}

const out = mkdtempSync(join(tmpdir(), 'otlp-export-'));
const written = join(out, 'universal.nettrace');
assert.equal(spawnSync(nativeTool, ['write-sample-universal', written]).status, 0);
const traces = [
  ...traceFilesUnder(testdata).map((path) => ({ name: path.slice(testdata.length + 1), path, truncated: path.includes('/truncated/') })),
  { name: 'write-sample-universal', path: written, truncated: false },
];

// Sample type → {event, weight}: the pprof export's comments ("samples: nettrace flame --event E --weight W").
function flameOptionsOf(pprofBytes) {
  const profile = Profile.decode(gunzipSync(pprofBytes));
  const s = (i) => profile.stringTable.strings[Number(i)];
  return new Map(profile.comment.map((c) => {
    const m = /^(\S+): nettrace flame --event (.+) --weight (\S+)$/.exec(s(c));
    return [m[1], { event: m[2], weight: m[3] }];
  }));
}

// Per sample type: total, and per frame name {exclusive, inclusive} over the decoded stacks.
function otlpTotals(request) {
  const d = request.dictionary;
  const str = (i) => d.stringTable[i];
  assert.equal(str(0), '', 'string_table[0] is ""');
  for (const table of ['mappingTable', 'locationTable', 'functionTable', 'stackTable', 'attributeTable'])
    assert.ok(d[table].length > 0, `${table}[0] is present`);
  // The frame name of a function: its system name, or its name when they are the same.
  const frameOf = (loc) => {
    const f = d.functionTable[d.locationTable[loc].lines[0].functionIndex];
    return str(f.systemNameStrindex) || str(f.nameStrindex);
  };
  const types = new Map();
  for (const rp of request.resourceProfiles) {
    const keys = rp.resource.attributes.map((a) => a.key);
    assert.ok(keys.includes('process.pid'), `resource attributes ${keys}`);
    for (const sp of rp.scopeProfiles) {
      for (const p of sp.profiles) {
        const type = str(p.sampleType.typeStrindex);
        const t = types.get(type) ?? { unit: str(p.sampleType.unitStrindex), total: 0, functions: new Map() };
        types.set(type, t);
        for (const sample of p.samples) {
          assert.equal(sample.values.length, 1);
          const value = sample.values[0];
          t.total += value;
          const frames = d.stackTable[sample.stackIndex].locationIndices.map(frameOf);
          const row = (name) => t.functions.get(name) ?? (t.functions.set(name, { exclusive: 0, inclusive: 0 }), t.functions.get(name));
          if (frames.length) row(frames[0]).exclusive += value;
          for (const name of new Set(frames)) row(name).inclusive += value;
          const attributes = sample.attributeIndices.map((i) => str(d.attributeTable[i].keyStrindex));
          assert.ok(attributes.includes('thread.id'), `sample attributes ${attributes}`);
        }
      }
    }
  }
  return types;
}

function flame(path, event, weight) {
  return JSON.parse(runNative('flame', path, ['--event', event, '--weight', weight]).stdout).total;
}

for (const { name, path, truncated } of traces) {
  test(`otlp export: ${name}`, async () => {
    const otlpFile = join(out, `${name.replace(/\//g, '_')}.otlp.pb`);
    const pprofFile = join(out, `${name.replace(/\//g, '_')}.pb.gz`);
    const r = runNative('export', path, ['--format', 'otlp', '-o', otlpFile]);
    if (/nothing to profile/.test(r.stderr)) {
      assert.equal(r.status, 1);
      return;  // pprof_export.test.mjs checks the flame graph has nothing either
    }
    assert.equal(r.status, truncated ? 1 : 0, r.stderr);
    assert.equal(runNative('export', path, ['--format', 'pprof', '-o', pprofFile]).status, truncated ? 1 : 0);
    const bytes = readFileSync(otlpFile);
    const options = flameOptionsOf(readFileSync(pprofFile));
    const types = otlpTotals(decodeOtlp(bytes));
    assert.deepEqual([...types.keys()].sort(), [...options.keys()].sort(), 'the sample types of pprof and OTLP');
    for (const [type, t] of types) {
      const { event, weight } = options.get(type);
      assert.equal(t.total, flame(path, event, weight), `${type}: total`);
      const ours = JSON.parse(runNative('top', path, ['--event', event, '--weight', weight, '-n', '20']).stdout).functions;
      for (const f of ours)
        assert.deepEqual(t.functions.get(f.name) ?? { exclusive: 0, inclusive: 0 }, { exclusive: f.exclusive, inclusive: f.inclusive }, `${type}: ${f.name}`);
    }
    if (truncated) return;
    // The JS API writes the same bytes.
    const trace = await openTrace(await openAsBlob(path));
    try {
      assert.deepEqual(Buffer.from(await trace.export('otlp')), bytes, 'JS API otlp');
      assert.deepEqual(gunzipSync(await trace.export('pprof')), gunzipSync(readFileSync(pprofFile)), 'JS API pprof, gunzipped');
    } finally {
      trace.close();
    }
  });
}

test('otlp export: one sample type with --event and --weight, as in pprof', () => {
  const trace = traces.find((t) => t.name === 'eventpipe-dotnetcore3.0-win-x64-objver4.nettrace').path;
  const file = join(out, 'one-type.otlp.pb');
  assert.equal(runNative('export', trace, ['--format', 'otlp', '--event', 'GC/AllocationTick', '--weight', 'bytes', '-o', file]).status, 0);
  const types = otlpTotals(decodeOtlp(readFileSync(file)));
  assert.deepEqual([...types.keys()], ['alloc_space']);
  assert.equal(types.get('alloc_space').unit, 'bytes');
  assert.equal(types.get('alloc_space').total, flame(trace, 'GC/AllocationTick', 'bytes'));
});

// A local OTLP/HTTP receiver: each request's method, path, content type and body; answers
// `status` (200 with an empty ExportProfilesServiceResponse, or 400 with a reason).
let server;
let received = [];
let status = 200;
before(async () => {
  server = createServer((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      received.push({ method: req.method, url: req.url, type: req.headers['content-type'], body: Buffer.concat(chunks) });
      res.writeHead(status, { 'Content-Type': status === 200 ? 'application/x-protobuf' : 'text/plain' });
      res.end(status === 200 ? '' : 'bad profile');
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
});
after(() => server.close());

function runAsync(cmd, args) {
  return new Promise((resolve) => {
    const child = spawn(cmd, args);
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += d));
    child.stdout.resume();
    child.on('close', (code) => resolve({ status: code, stderr }));
  });
}

const pushTrace = () => traces.find((t) => t.name === 'pyroscope-net5-single-thread.nettrace').path;

for (const [who, cmd, argsOf] of [
  ['native CLI', nativeTool, (args) => args],
  ['npm CLI', process.execPath, (args) => [npmCli, ...args]],
]) {
  test(`otlp push: ${who} --otlp-endpoint reaches a local receiver whole`, async () => {
    const endpoint = `http://127.0.0.1:${server.address().port}`;
    const file = join(out, `push-${who.replace(' ', '-')}.otlp.pb`);
    received = [];
    status = 200;
    const r = await runAsync(cmd, argsOf(['export', pushTrace(), '--format', 'otlp', '--otlp-endpoint', endpoint, '-o', file]));
    assert.equal(r.status, 0, r.stderr);
    assert.equal(received.length, 1);
    const [got] = received;
    assert.deepEqual({ method: got.method, url: got.url, type: got.type }, { method: 'POST', url: '/v1development/profiles', type: 'application/x-protobuf' });
    assert.deepEqual(got.body, readFileSync(file), 'the receiver got the file whole');
    assert.ok(decodeOtlp(got.body).resourceProfiles.length > 0);
    // A collector that refuses: exit status 1, its answer in the message.
    status = 400;
    const refused = await runAsync(cmd, argsOf(['export', pushTrace(), '--format', 'otlp', '--otlp-endpoint', `${endpoint}/v1development/profiles`]));
    assert.equal(refused.status, 1);
    assert.match(refused.stderr, /400/);
    assert.match(refused.stderr, /bad profile/);
  });
}

test('otlp push: the JS API with otlpEndpoint POSTs the bytes it returns', async () => {
  received = [];
  status = 200;
  const trace = await openTrace(await openAsBlob(pushTrace()));
  try {
    const bytes = await trace.export('otlp', { otlpEndpoint: `http://127.0.0.1:${server.address().port}/` });
    assert.equal(received.length, 1);
    assert.equal(received[0].url, '/v1development/profiles');
    assert.deepEqual(received[0].body, Buffer.from(bytes));
    status = 400;
    await assert.rejects(trace.export('otlp', { otlpEndpoint: `http://127.0.0.1:${server.address().port}` }), (e) => e.code === 'output' && /400/.test(e.message));
  } finally {
    trace.close();
  }
});

// The wasm build's own choices (wasm/CMakeLists.txt, wasm/bulk_memory.cc), on the built module:
// memcpy/memmove/memset are bulk-memory instructions, not emcc's libc loop that calls out to
// JavaScript for large copies; and a read with its queries leaves the constant data at the start
// of static memory as loaded (bulk memory over the whole LTO module broke exactly that: embind's
// thread-locals were placed over constant strings, and events showed "\u0000\u0001dex" for
// "index"). The outputs themselves are compared with the native CLI's by the other tests here.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { corpusTraces, loadRawModule, runNative, wasmDir } from './helpers.mjs';

const traces = corpusTraces().filter((t) => !t.truncated);
const heart = traces.find((t) => t.name.startsWith('HeartRateMonitor'));

test('the engine copies with memory.copy: the JS glue has no emscripten_memcpy_big', () => {
  const glue = readFileSync(join(wasmDir, 'nettrace_wasm.mjs'), 'utf8');
  assert.ok(!glue.includes('emscripten_memcpy_big'), 'libc memcpy (a JS call per copy of >= 512 bytes) is linked');
  // memory.copy is opcode 0xfc 0x0a, memory.fill 0xfc 0x0b: the code section has both.
  const wasm = readFileSync(join(wasmDir, 'nettrace_wasm.wasm'));
  const count = (op) => wasm.reduce((n, b, i) => n + (b === 0xfc && wasm[i + 1] === op && wasm[i + 2] === 0 ? 1 : 0), 0);
  assert.ok(count(0x0a) > 0, 'no memory.copy in the module');
  assert.ok(count(0x0b) > 0, 'no memory.fill in the module');
});

test('a read and its queries leave the constant data at the start of static memory as loaded; events = native', async () => {
  const M = await loadRawModule();
  // Static data starts at 1024 (emcc's global base) with the constant strings; the mutable
  // globals and the stack come after the first 64 KiB here.
  const constants = M.HEAPU8.slice(1024, 65536);
  const bytes = readFileSync(heart.path);
  const buffer = M._malloc(bytes.length);
  M.HEAPU8.set(bytes, buffer);
  const session = new M.TraceSession();
  try {
    assert.ok(session.pushChunk(buffer, bytes.length).ok);
    assert.ok(session.finish().ok);
    session.summaryJson();
    const page = session.queryEvents({ offset: 500, limit: 30 });
    const needed = session.blocksNeeded(page.rows);
    for (let i = 0; i < needed.length; i += 2) session.provideBlock(needed[i], buffer + needed[i], needed[i + 1]);
    const lines = [...page.rows].map((row) => session.eventJson(row) + '\n').join('');
    const changed = [];
    const now = M.HEAPU8.subarray(1024, 65536);
    for (let i = 0; i < constants.length && changed.length < 8; i++) if (now[i] !== constants[i]) changed.push(1024 + i);
    assert.deepEqual(changed, [], `constant data overwritten at ${changed.join(', ')}`);
    assert.equal(lines, runNative('events', heart.path, ['--offset', '500', '--limit', '30']).stdout.toString('utf8'));
  } finally {
    session.delete();
    M._free(buffer);
  }
});

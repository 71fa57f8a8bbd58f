// Shared by the node:test files here (not a test itself: node --test runs *.test.mjs only).
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { spawn, spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';

export const root = fileURLToPath(new URL('../../', import.meta.url));
export const testdata = join(root, 'build/native/testdata');
export const nativeTool = join(root, 'build/native/nettrace');
export const wasmDir = join(root, 'build/wasm/wasm');

/** Every unpacked trace: complete ones first, then those under truncated/. */
/** Every .nettrace / .netperf file below `dir`, in any subfolder, as sorted paths (golden tests). */
export function traceFilesUnder(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = join(dir, e.name);
    if (e.isDirectory()) return traceFilesUnder(p);
    return /\.(nettrace|netperf)$/.test(e.name) ? [p] : [];
  }).sort();
}

export function corpusTraces() {
  if (!existsSync(testdata)) throw new Error(`${testdata} is missing: run scripts/build.sh first`);
  const isTrace = (f) => f.endsWith('.nettrace') || f.endsWith('.netperf');
  const complete = readdirSync(testdata).filter(isTrace).sort().map((f) => ({ name: f, path: join(testdata, f), truncated: false }));
  const truncatedDir = join(testdata, 'truncated');
  const truncated = existsSync(truncatedDir)
    ? readdirSync(truncatedDir).filter(isTrace).sort().map((f) => ({ name: `truncated/${f}`, path: join(truncatedDir, f), truncated: true }))
    : [];
  return [...complete, ...truncated];
}

/**
 * Runs a tool to its end without blocking the event loop (so tests can run several at once),
 * with the locale and time zone the goldens assume → { status, stdout (Buffer), stderr (string) }.
 */
export function runAsync(cmd, args) {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { env: { ...process.env, LC_ALL: 'C', TZ: 'UTC' } });
    const out = [], err = [];
    child.stdout.on('data', (d) => out.push(d));
    child.stderr.on('data', (d) => err.push(d));
    child.on('close', (status) => resolve({ status, stdout: Buffer.concat(out), stderr: Buffer.concat(err).toString() }));
  });
}

/** `build/native/nettrace <command> FILE [args]` → { status, stdout (Buffer), stderr (string) }. */
export function runNative(command, file, args = []) {
  const r = spawnSync(nativeTool, [command, file, ...args], {
    env: { ...process.env, LC_ALL: 'C', TZ: 'UTC' },
    maxBuffer: 256 * 1024 * 1024,
  });
  if (r.error) throw r.error;
  return { status: r.status, stdout: r.stdout, stderr: r.stderr.toString('utf8') };
}

/** The raw Emscripten module (build/wasm), instantiated the way Node needs: with wasmBinary. */
export async function loadRawModule() {
  const { default: create } = await import(join(wasmDir, 'nettrace_wasm.mjs'));
  return create({ wasmBinary: readFileSync(join(wasmDir, 'nettrace_wasm.wasm')) });
}

/**
 * Feeds `bytes` to a fresh TraceSession in chunks of `chunkSize`, stopping at the first
 * fatal error, then finishes. @returns { summaryJson, counts, status, bytes, events }.
 */
export function feedRaw(M, bytes, chunkSize) {
  const session = new M.TraceSession();
  const buffer = M._malloc(Math.max(1, Math.min(chunkSize, bytes.length)));
  try {
    let status = { ok: true };
    for (let offset = 0; offset < bytes.length && status.ok; offset += chunkSize) {
      const chunk = bytes.subarray(offset, offset + chunkSize);
      M.HEAPU8.set(chunk, buffer);
      status = session.pushChunk(buffer, chunk.length);
    }
    if (status.ok) status = session.finish();
    return {
      status,
      sessionStatus: session.status(),
      summaryJson: session.summaryJson(),
      counts: session.traceEventCounts(),
      bytes: session.bytesConsumed(),
      events: session.eventCount(),
    };
  } finally {
    M._free(buffer);
    session.delete();
  }
}

/** core's Status::ToString() ("truncated at offset 42 (0x2a): message"), rebuilt from the wasm status. */
export function statusString(status) {
  if (status.ok) return 'ok';
  const where = status.offset === null ? '' : ` at offset ${status.offset} (0x${status.offset.toString(16)})`;
  return `${status.code}${where}: ${status.message}`;
}

// The circles of a graph (file → files it imports or includes), each once, as its files from
// the smallest name round (include_layers and web_import_cycles tests).
export function circles(graph) {
  const found = new Set();
  const walk = (file, path) => {
    for (const next of graph.get(file) ?? []) {
      const at = path.indexOf(next);
      if (at >= 0) {
        const loop = path.slice(at);
        const first = loop.indexOf([...loop].sort()[0]);
        found.add([...loop.slice(first), ...loop.slice(0, first)].join(' -> '));
      } else if (next > path[0]) walk(next, [...path, next]);  // each circle from its smallest file
    }
  };
  for (const file of [...graph.keys()].sort()) walk(file, [file]);
  return [...found].sort();
}

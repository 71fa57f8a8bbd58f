// A fake .NET diagnostics port for the live-session tests (no dotnet needed): a Unix socket
// named like this Node process's diagnostics port (in a private TMPDIR) that answers with
// chosen replies. Real replies come from tests/data/diag/ipc_capture.txt (captured from a
// .NET 10 runtime by tests/apps/IpcCapture). Not a test itself.
import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { nativeTool, root } from './helpers.mjs';

export const captured = Object.fromEntries(
  readFileSync(join(root, 'tests/data/diag/ipc_capture.txt'), 'utf8')
    .split('\n')
    .filter((l) => l && !l.startsWith('#'))
    .map((l) => l.split(' '))
    .map(([name, hex]) => [name, Buffer.from(hex, 'hex')]),
);

export function message(set, id, payload = Buffer.alloc(0)) {
  const header = Buffer.alloc(20);
  header.write('DOTNET_IPC_V1\0', 0, 'latin1');
  header.writeUInt16LE(20 + payload.length, 14);
  header[16] = set;
  header[17] = id;
  return Buffer.concat([header, payload]);
}
export const ok = (payload) => message(0xff, 0x00, payload);
export function error(hresult) {
  const p = Buffer.alloc(4);
  p.writeUInt32LE(hresult);
  return message(0xff, 0xff, p);
}
export function sessionOk(id) {
  const p = Buffer.alloc(8);
  p.writeBigUInt64LE(BigInt(id));
  return ok(p);
}

/** A fake diagnostics port for this process; `answer(request, socket)` handles each request. */
export async function withFakeRuntime(answer, body) {
  const dir = mkdtempSync(join(tmpdir(), 'nettrace-fake-'));
  const requests = [];
  const server = createServer((socket) => {
    let buf = Buffer.alloc(0);
    socket.on('data', (d) => {
      buf = Buffer.concat([buf, d]);
      if (buf.length >= 20 && buf.length >= buf.readUInt16LE(14)) {
        const request = buf.subarray(0, buf.readUInt16LE(14));
        buf = Buffer.alloc(0);
        requests.push(request);
        answer(request, socket);
      }
    });
    socket.on('error', () => {});
  });
  await new Promise((r) => server.listen(join(dir, `dotnet-diagnostic-${process.pid}-1-socket`), r));
  try {
    return await body(dir, requests);
  } finally {
    server.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Runs `tool` (default the native one; an array: a command and its first arguments) with TMPDIR = dir. */
export function runTool(dir, args, tool = nativeTool) {
  const [command, ...first] = Array.isArray(tool) ? tool : [tool];
  return new Promise((resolve) => {
    const child = spawn(command, [...first, ...args], { env: { ...process.env, TMPDIR: dir } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('close', (status) => resolve({ status, stdout, stderr }));
  });
}

// Streams `bytes` after the OK reply, in 4 KiB writes, then ends the connection.
export function streamThenEnd(socket, id, bytes) {
  socket.write(sessionOk(id));
  for (let i = 0; i < bytes.length; i += 4096) socket.write(bytes.subarray(i, i + 4096));
  socket.end();
}


/**
 * Starts `nettrace-analyzer live ARGS` with TMPDIR = dir.
 * @returns {child, url (a promise of its base URL), exited (a promise of its status), stderr()}
 */
export function startLive(dir, args) {
  const child = spawn(process.execPath, [join(root, 'dist/bin/nettrace-analyzer.mjs'), 'live', ...args], { env: { ...process.env, TMPDIR: dir } });
  let stderr = '';
  const exited = new Promise((resolve) => child.on('close', (status) => resolve(status)));
  const url = new Promise((resolve, reject) => {
    child.stderr.on('data', (d) => {
      stderr += d;
      const m = /serving (http:\/\/127\.0\.0\.1:\d+\/)/.exec(stderr);
      if (m) resolve(m[1]);
    });
    child.on('close', () => reject(new Error(`live exited: ${stderr}`)));
  });
  url.catch(() => undefined); // a run expected to fail never serves
  return { child, url, exited, stderr: () => stderr };
}

/**
 * What the live page's own requests carry (web/src/live/local_guard.ts): the session's token
 * from the page's HTML, and its origin.
 * @returns {token, origin, headers (the token header), stop() (the page's Stop: a POST with both)}
 */
export async function livePage(base) {
  const html = await (await fetch(base)).text();
  const token = /<meta name="nettrace-live-token" content="([^"]+)">/.exec(html)?.[1];
  if (token === undefined) throw new Error('the live page carries no token');
  const origin = new URL(base).origin;
  const headers = { 'x-nettrace-token': token };
  const stop = () => fetch(new URL('live/stop', base), { method: 'POST', headers: { ...headers, origin } });
  return { token, origin, headers, stop };
}

/**
 * A runtime that streams the first `first` bytes of `trace` at once and the rest only after
 * StopTracing (the rundown), then ends; its session id is `id`.
 */
export function stopAware(trace, first, id) {
  let stream = null;
  return (req, socket) => {
    if (req[16] === 0x02 && req[17] === 0x01) {
      socket.end(sessionOk(id));
      stream.end(trace.subarray(first));
    } else {
      stream = socket;
      socket.write(sessionOk(id));
      for (let i = 0; i < first; i += 4096) socket.write(trace.subarray(i, Math.min(first, i + 4096)));
    }
  };
}

/** Resolves once `condition()` (maybe async) holds; fails after `ms`. */
export async function until(condition, what, ms = 10000) {
  const end = Date.now() + ms;
  while (!(await condition())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

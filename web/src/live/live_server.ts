// web/src/live — `nettrace-analyzer live`: a live session (collect.ts) served with the app on
// 127.0.0.1 by a small Node http server. The page (web/src/analyzer/live_controls.ts) reads
// the session's bytes from /live/stream — everything received so far, then each piece as it
// arrives, until the runtime ends the stream — as one more URL source of the engine
// (reader/chunk_source.ts): the same parsing path as a file. The bytes are kept in a file in
// a private temporary directory (spool.ts), removed at exit, not in memory: the server's
// memory does not grow with the session. /live/stream answers Range requests over the bytes
// received so far, so the page re-reads event details from the server instead of keeping a
// copy of the stream. Node only; no dependency.
//
//   GET  /                     the live page (the package's analyzer, dist/analyzer/live_controls.js)
//   GET  /live/info            {pid, sessionId, ended, bytes, events}
//   GET  /live/stream          the session's bytes (application/octet-stream, no length;
//                              Accept-Ranges: bytes; a range of bytes already received: 206)
//   POST /live/stop            StopTracing (as Ctrl-C): the runtime writes the rundown, then ends
//   GET  /live/trace.nettrace  the whole file once the session ended (409 before)
//   POST /live/heap-snapshot   a heap snapshot of the process (heap_snapshot.ts), as a .nettrace
//                              of heap-dump events; also written as a file (its path in
//                              x-nettrace-heap-file)
//   GET  /…                    the package's files (dist/), read-only
// Only for this server's own Host, and only for its page (local_guard.ts): the session's data
// and Stop need the session's token, which the page's HTML carries.
import { collect, LiveError } from './collect.js';
import { takeHeapSnapshot } from './heap_snapshot.js';
import type { LiveTrace } from './collect.js';
import { liveLine, parseCollect, sizeText } from './collect_args.js';
import { LocalGuard } from './local_guard.js';
import { Spool } from './spool.js';
import type { SpoolSink } from './spool.js';

interface NodeProcess {
  stderr: { write(text: string): boolean };
  on(signal: 'SIGINT' | 'SIGTERM', listener: () => void): void;
  on(event: 'exit', listener: () => void): void;
  removeListener(signal: 'SIGINT' | 'SIGTERM' | 'exit', listener: () => void): void;
}
interface Request {
  method?: string;
  url?: string;
  headers: Record<string, string | string[] | undefined>;
}
interface Response {
  setHeader(name: string, value: string): void;
  writeHead(status: number, headers: Record<string, string | number>): void;
  write(bytes: Uint8Array | string): boolean;
  end(bytes?: Uint8Array | string): void;
  once(event: 'drain' | 'close', listener: () => void): void;
  removeListener(event: 'drain' | 'close', listener: () => void): void;
}
interface HttpServer {
  on(event: 'request', handler: (req: Request, res: Response) => void): void;
  listen(port: number, host: string, callback: () => void): void;
  once(event: 'error', listener: (e: Error) => void): void;
  address(): { port: number };
  close(): void;
  closeAllConnections?(): void;
}
interface NodeHttp {
  createServer(): HttpServer;
}
interface NodeFs {
  readFileSync(path: URL): Uint8Array;
  openSync(path: string, flags: string): number;
  writeSync(fd: number, bytes: Uint8Array): number;
  closeSync(fd: number): void;
}
type SpoolFs = Parameters<typeof Spool.create>[0];

const proc = (): NodeProcess => (globalThis as unknown as { process: NodeProcess }).process;
const say = (line: string) => proc().stderr.write(`nettrace-analyzer: ${line}\n`);

const USAGE =
  'usage: nettrace-analyzer live (--pid N | --diagnostic-port PATH) [--providers SPEC,… | --profile NAME,…]\n' +
  '                              [--duration D] [--buffer-mb 256] [-o OUT.nettrace] [--port P]\n';

/** The package's top (dist/): the live page's scripts, the engine worker, the wasm module. */
const PACKAGE_ROOT = new URL('../', import.meta.url);

const TYPES: Record<string, string> = {
  '.js': 'text/javascript',
  '.mjs': 'text/javascript',
  '.wasm': 'application/wasm',
  '.css': 'text/css',
  '.json': 'application/json',
};

// The same policy as the site's index.html: no inline script or style; traces stay data.
// The session's token (local_guard.ts) goes to the page here, where no other origin reads it.
const page = (token: string) => `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <meta name="color-scheme" content="light dark">
  <meta http-equiv="Content-Security-Policy"
        content="default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'; img-src 'self' data:; connect-src 'self'; worker-src 'self'; object-src 'none'; base-uri 'none'; form-action 'none'">
  <meta name="nettrace-live-token" content="${token}">
  <title>NetTrace Analyzer — live session</title>
  <link rel="icon" href="data:,">
  <link rel="stylesheet" href="/live/page.css">
  <script type="module" src="/analyzer/live_controls.js"></script>
</head>
<body>
  <div id="live-bar" role="toolbar" aria-label="Live session"></div>
  <nettrace-analyzer></nettrace-analyzer>
</body>
</html>
`;
const PAGE_CSS = `html, body { margin: 0; height: 100%; }
body { display: flex; flex-direction: column; font: 14px system-ui, sans-serif; }
#live-bar { display: flex; gap: 0.75em; align-items: center; padding: 0.4em 0.8em; border-bottom: 1px solid #8886; }
#live-bar [data-role="state"] { font-variant-numeric: tabular-nums; }
nettrace-analyzer { display: block; flex: 1; min-height: 0; }
`;

/** A response as a spool reader's sink: its backpressure, and whether the page went away. */
function sinkOf(res: Response): SpoolSink {
  let closed = false;
  res.once('close', () => (closed = true));
  return {
    write: (bytes) => res.write(bytes),
    drained: () =>
      new Promise<void>((resolve) => {
        const done = () => {
          res.removeListener('drain', done);
          res.removeListener('close', done);
          resolve();
        };
        res.once('drain', done);
        res.once('close', done);
      }),
    get closed() {
      return closed;
    },
  };
}

/** `bytes=A-B` or `bytes=A-` (one range) → [start, end), or null when there is none or it is another form. */
function rangeOf(header: string | string[] | undefined): { start: number; end: number | null } | null {
  const m = typeof header === 'string' ? /^bytes=(\d+)-(\d*)$/.exec(header.trim()) : null;
  if (m === null) return null;
  return { start: Number(m[1]), end: m[2] === '' ? null : Number(m[2]) + 1 };
}

/** /live/stream: the whole session from its start, following it; or one range already received. */
function serveStream(spool: Spool, req: Request, res: Response): void {
  const headers = { 'content-type': 'application/octet-stream', 'cache-control': 'no-store', 'x-content-type-options': 'nosniff', 'accept-ranges': 'bytes' };
  const range = rangeOf(req.headers['range']);
  if (range === null) {
    // No length: the session is still being recorded.
    res.writeHead(200, headers);
    void spool.send(sinkOf(res)).then(() => res.end());
    return;
  }
  const end = Math.min(range.end ?? spool.bytes, spool.bytes);
  const total = spool.ended ? String(spool.bytes) : '*';
  if (range.start >= end) {
    res.writeHead(416, { 'content-type': 'text/plain', 'content-range': `bytes */${total}` });
    res.end('not received yet\n');
    return;
  }
  res.writeHead(206, { ...headers, 'content-length': end - range.start, 'content-range': `bytes ${range.start}-${end - 1}/${total}` });
  void spool.send(sinkOf(res), range.start, end).then(() => res.end());
}

interface LiveState {
  spool: Spool;
  live: LiveTrace | null;
  stop(): void;
  /** Takes a heap snapshot of the session's process: its bytes and the file they were written to. */
  heapSnapshot(): Promise<{ bytes: Uint8Array; path: string }>;
}

function serveFile(fs: NodeFs, path: string, res: Response): void {
  // Only plain relative paths under the package: no "..", no encoded separators.
  const clean = decodeURIComponent(path).replace(/^\/+/, '');
  const dot = clean.lastIndexOf('.');
  const type = TYPES[dot < 0 ? '' : clean.slice(dot)];
  if (clean === '' || clean.split('/').some((p) => p === '..' || p === '' || p.startsWith('.')) || clean.includes('\\') || type === undefined) {
    res.writeHead(404, { 'content-type': 'text/plain' });
    res.end('not found\n');
    return;
  }
  let bytes: Uint8Array;
  try {
    bytes = fs.readFileSync(new URL(clean, PACKAGE_ROOT));
  } catch {
    res.writeHead(404, { 'content-type': 'text/plain' });
    res.end('not found\n');
    return;
  }
  res.writeHead(200, { 'content-type': type, 'content-length': bytes.length, 'cache-control': 'no-cache' });
  res.end(bytes);
}

/** Paths of the session's data: they need the token (local_guard.ts). */
const SESSION_DATA = new Set(['/live/info', '/live/stream', '/live/trace.nettrace']);

function handler(fs: NodeFs, state: LiveState, guard: LocalGuard) {
  return (req: Request, res: Response): void => {
    // On every answer: never framed by another page (a framed page's Stop could be clicked
    // through it), never loaded by another origin, the token in a URL never sent on.
    res.setHeader('x-frame-options', 'DENY');
    res.setHeader('content-security-policy', "frame-ancestors 'none'");
    res.setHeader('cross-origin-resource-policy', 'same-origin');
    res.setHeader('referrer-policy', 'no-referrer');
    const path = new URL(req.url ?? '/', 'http://localhost').pathname;
    const method = req.method ?? 'GET';
    const stop = path === '/live/stop';
    const heap = path === '/live/heap-snapshot';
    const post = stop || heap;
    const refused = guard.refusal(req, post || (method !== 'GET' && method !== 'HEAD'), SESSION_DATA.has(path));
    if (refused !== null) {
      res.writeHead(refused.status, { 'content-type': 'text/plain; charset=utf-8' });
      res.end(`${refused.reason}\n`);
      return;
    }
    if (post !== (method === 'POST') || (method !== 'GET' && method !== 'HEAD' && method !== 'POST')) {
      res.writeHead(405, { 'content-type': 'text/plain', allow: post ? 'POST' : 'GET' });
      res.end('method not allowed\n');
      return;
    }
    const { spool, live } = state;
    if (path === '/' || path === '/index.html') {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
      res.end(page(guard.token));
    } else if (path === '/live/page.css') {
      res.writeHead(200, { 'content-type': 'text/css' });
      res.end(PAGE_CSS);
    } else if (path === '/live/info') {
      res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-store' });
      res.end(JSON.stringify({ pid: live?.pid ?? 0, sessionId: live?.sessionId ?? '', ended: spool.ended, bytes: spool.bytes, events: live?.eventCount ?? 0 }));
    } else if (path === '/live/stream') {
      serveStream(spool, req, res);
    } else if (stop) {
      state.stop();
      res.writeHead(202, { 'content-type': 'application/json' });
      res.end('{"stopping":true}');
    } else if (heap) {
      if (live === null) {
        res.writeHead(409, { 'content-type': 'text/plain' });
        res.end('the session has not started\n');
        return;
      }
      state.heapSnapshot().then(
        ({ bytes, path: file }) => {
          res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': bytes.length, 'cache-control': 'no-store', 'x-nettrace-heap-file': encodeURIComponent(file) });
          res.end(bytes);
        },
        (e: unknown) => {
          res.writeHead(502, { 'content-type': 'text/plain; charset=utf-8' });
          res.end(`${e instanceof Error ? e.message : String(e)}\n`);
        },
      );
    } else if (path === '/live/trace.nettrace') {
      if (!spool.ended) {
        res.writeHead(409, { 'content-type': 'text/plain' });
        res.end('the session is still running: Stop it first\n');
        return;
      }
      const name = `pid-${live?.pid ?? 0}-live.nettrace`;
      res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': spool.bytes, 'content-disposition': `attachment; filename="${name}"` });
      void spool.send(sinkOf(res), 0, spool.bytes).then(() => res.end());
    } else {
      serveFile(fs, path, res);
    }
  };
}

/** Runs `live` with the arguments after the command; @returns the exit status (after Ctrl-C). */
export async function runLive(args: string[]): Promise<number> {
  // collect's options and --port (default 0, any free port): the query table's `live`.
  const o = await parseCollect(args, 'live', USAGE, false);
  if (typeof o === 'number') return o;
  if (o.port > 65535) {
    say(`--port: '${o.port}' is not a port number`);
    return 2;
  }
  const taken = { port: o.port };
  const fs = (await import(/* @vite-ignore */ 'node:fs' as string)) as NodeFs & SpoolFs;
  const http = (await import(/* @vite-ignore */ 'node:http' as string)) as NodeHttp;
  const os = (await import(/* @vite-ignore */ 'node:os' as string)) as { tmpdir(): string };
  const crypto = (await import(/* @vite-ignore */ 'node:crypto' as string)) as { randomBytes(n: number): { toString(encoding: 'base64url'): string } };
  const stopper = new AbortController();
  let quit: () => void = () => undefined;
  const quitting = new Promise<void>((resolve) => (quit = resolve));
  let spool: Spool;
  try {
    spool = Spool.create(fs, os.tmpdir());
  } catch (e) {
    say(`cannot create a temporary file for the session: ${(e as Error).message}`);
    return 1;
  }
  const removeSpool = () => spool.remove();
  proc().on('exit', removeSpool); // also when the process ends another way than by the finally below
  let heapSnapshots = 0;
  const state: LiveState = {
    spool,
    live: null,
    stop: () => stopper.abort(),
    // Beside -o OUT when given, else in the current directory: pid-N-heap-K.nettrace.
    heapSnapshot: async () => {
      const pid = state.live?.pid ?? 0;
      say(`heap snapshot of pid ${pid}: a session with the GC heap-dump keywords (an induced gen-2 GC walks the heap)`);
      const { bytes, ended } = await takeHeapSnapshot({ pid, onMessage: say });
      const name = `pid-${pid}-heap-${++heapSnapshots}.nettrace`;
      const file = o.output === '' ? name : o.output.replace(/[^/]*$/, name);
      const fd = fs.openSync(file, 'w');
      try {
        for (let at = 0; at < bytes.length; ) at += fs.writeSync(fd, bytes.subarray(at));
      } finally {
        fs.closeSync(fd);
      }
      say(`heap snapshot written: ${file} (${sizeText(bytes.length)})${ended ? '' : '; the heap dump had not ended when the session was stopped'}`);
      return { bytes, path: file };
    },
  };
  // Ctrl-C stops the session; once it has ended, Ctrl-C quits (the page may still download).
  const onSignal = () => (spool.ended ? quit() : stopper.abort());
  proc().on('SIGINT', onSignal);
  proc().on('SIGTERM', onSignal);
  const server = http.createServer();
  let fd = -1;
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', (e) => reject(new LiveError(`cannot serve on 127.0.0.1:${taken.port}: ${e.message}`)));
      server.listen(taken.port, '127.0.0.1', resolve);
    });
    // Served from here on (no request is read before this line runs): the guard knows the port.
    server.on('request', handler(fs, state, new LocalGuard(server.address().port, crypto.randomBytes(32).toString('base64url'))));
    say(`serving http://127.0.0.1:${server.address().port}/ (the page's Stop or Ctrl-C ends the session)`);
    if (o.diagnosticPort !== '') say(`waiting for a runtime on ${o.diagnosticPort} (start it with DOTNET_DiagnosticPorts=${o.diagnosticPort})`);
    if (o.output !== '') {
      try {
        fd = fs.openSync(o.output, 'w');
      } catch {
        throw new LiveError(`cannot write ${o.output}`);
      }
    }
    const started = Date.now();
    const live = await collect({
      pid: o.pid,
      diagnosticPort: o.diagnosticPort,
      onConnected: (pid) => say(`runtime of pid ${pid} connected`),
      providers: o.providers,
      profile: o.profile,
      bufferMB: o.bufferMB,
      signal: stopper.signal,
      onMessage: say,
      // The server never shows an event's details: the engine need not keep the bytes.
      keepStreamedBytes: false,
      onChunk: (bytes) => {
        if (fd >= 0) for (let at = 0; at < bytes.length; ) at += fs.writeSync(fd, bytes.subarray(at));
        spool.add(bytes);
      },
    });
    state.live = live;
    say(`session ${live.sessionId} on pid ${live.pid}${o.output === '' ? '' : `; writing ${o.output}`}`);
    stopper.signal.addEventListener('abort', () => say('stopping the session (StopTracing); waiting for the rundown'), { once: true });
    const timer = o.duration > 0 ? setTimeout(() => stopper.abort(), o.duration * 1000) : null;
    const seconds = () => (Date.now() - started) / 1000;
    let last = { at: seconds(), events: 0 };
    const ticker = setInterval(() => {
      const now = seconds();
      say(liveLine(now, live.eventCount, live.bytes, (live.eventCount - last.events) / (now - last.at), live.droppedEventCount));
      last = { at: now, events: live.eventCount };
    }, 1000);
    const trace = await live.trace.finally(() => {
      clearInterval(ticker);
      if (timer) clearTimeout(timer);
      spool.end();
    });
    const events = trace.eventCount;
    const error = trace.error;
    trace.close();
    if (error) {
      const at = error.offset === null ? '' : ` at offset ${error.offset} (0x${error.offset.toString(16)})`;
      say(`the stream ended early: ${error.code}${at}: ${error.reason}; the ${events} events read before that are kept`);
    }
    say(`session ended: ${events} events, ${sizeText(live.bytes)}, ${live.droppedEventCount} dropped; the page offers the .nettrace (Ctrl-C quits)`);
    await quitting;
    return error ? 3 : 0;
  } catch (e) {
    if (!(e instanceof LiveError)) throw e;
    say(e.message);
    return 1;
  } finally {
    if (fd >= 0) fs.closeSync(fd);
    server.closeAllConnections?.();
    server.close();
    removeSpool();
    proc().removeListener('exit', removeSpool);
    proc().removeListener('SIGINT', onSignal);
    proc().removeListener('SIGTERM', onSignal);
  }
}

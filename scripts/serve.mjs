// A small static file server for build/site (no dependencies). Serves .wasm as
// application/wasm (needed for streaming compilation) and .mjs/.js as JavaScript.
// Binds 127.0.0.1 only, and answers only requests for itself: a Host other than its own address
// and port (a page whose host name was made to resolve to 127.0.0.1: DNS rebinding) or an
// Origin other than its own (another site's page) is refused with 403.
// Used by scripts/start.sh and, in-process, by tests/browser/run.mjs.
//
//   node scripts/serve.mjs [ROOT] [--open]   (port: $PORT, default 8080; 0 = any free port)
//   --open prints the URL of the page with ?sample (the sample trace loads at once) and opens
//   it with xdg-open when a display exists.
import { createServer } from 'node:http';
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { extname, join, normalize, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const MIME = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.wasm': 'application/wasm',
  '.png': 'image/png',
  '.svg': 'image/svg+xml',
  '.txt': 'text/plain; charset=utf-8',
  '.nettrace': 'application/octet-stream',
  '.netperf': 'application/octet-stream',
  '.gz': 'application/gzip',
};

/**
 * Starts serving `root`; `headers` go on every file response (e.g. a Content-Security-Policy).
 * @returns {Promise<{server: import('node:http').Server, url: string, close: () => Promise<void>}>}
 */
export async function startServer({ root, port = 8080, host = '127.0.0.1', log = false, headers = {} }) {
  const base = resolve(root);
  let hosts = [];
  const server = createServer(async (req, res) => {
    const send = (code, text) => {
      res.writeHead(code, { 'content-type': 'text/plain; charset=utf-8' });
      res.end(text);
    };
    const origin = req.headers.origin;
    if (!hosts.includes(req.headers.host?.toLowerCase())) return send(403, `this server answers only http://${hosts[0]}/\n`);
    if (origin !== undefined && !hosts.some((h) => origin.toLowerCase() === `http://${h}`)) return send(403, `requests from ${origin} are not served\n`);
    if (req.method !== 'GET' && req.method !== 'HEAD') return send(405, 'method not allowed\n');
    let path;
    try {
      path = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
    } catch {
      return send(400, 'bad request\n');
    }
    if (path.endsWith('/')) path += 'index.html';
    const file = normalize(join(base, path));
    if (file !== base && !file.startsWith(base + sep)) return send(403, 'forbidden\n');
    let info;
    try {
      info = await stat(file);
    } catch {
      if (log) console.log(`404 ${path}`);
      return send(404, 'not found\n');
    }
    if (!info.isFile()) return send(404, 'not found\n');
    res.writeHead(200, {
      'content-type': MIME[extname(file).toLowerCase()] ?? 'application/octet-stream',
      'content-length': info.size,
      'cache-control': 'no-cache',
      'x-content-type-options': 'nosniff',
      ...headers,
    });
    if (req.method === 'HEAD') return res.end();
    createReadStream(file).on('error', () => res.destroy()).pipe(res);
  });
  await new Promise((resolveListen, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolveListen());
  });
  const address = server.address();
  hosts = [`${host}:${address.port}`, `localhost:${address.port}`];
  const url = `http://${host}:${address.port}/`;
  const close = () =>
    new Promise((r) => {
      server.close(() => r());
      server.closeAllConnections();
    });
  return { server, url, close };
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const open = args.includes('--open');
  const root = args.find((a) => !a.startsWith('--')) ?? fileURLToPath(new URL('../build/site/', import.meta.url));
  const port = Number(process.env.PORT ?? 8080);
  let served;
  try {
    served = await startServer({ root, port, log: true });
  } catch (e) {
    if (e.code !== 'EADDRINUSE') throw e;
    console.error(`port ${port} is in use: run with PORT=<another port>`);
    process.exit(1);
  }
  const pageUrl = open ? `${served.url}?sample` : served.url;
  console.log(`serving ${root}`);
  console.log(`\n  NetTrace Analyzer: ${pageUrl}\n\n(Ctrl-C to stop)`);
  if (open && (process.env.DISPLAY || process.env.WAYLAND_DISPLAY)) {
    // Best effort: a desktop session opens the page; without one, the URL above is enough.
    const { spawn } = await import('node:child_process');
    spawn('xdg-open', [pageUrl], { stdio: 'ignore', detached: true }).on('error', () => {}).unref();
  }
  const stop = () => served.close().then(() => process.exit(0));
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

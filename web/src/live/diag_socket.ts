// web/src/live — the diagnostics port's transport in Node: finding a process's
// dotnet-diagnostic-{pid}-{key}-socket and moving bytes over Node's Unix domain sockets.
// No protocol here: every message is encoded and decoded by core/diag through the wasm
// module (wasm/diag_bindings.cc), as the native CLI's core/cli/diag_transport.cc does.
// Node built-ins are imported dynamically (computed specifiers) so that browser bundlers
// never try to resolve them; this folder is not part of the page.
import type { NetTraceModule, RawDiagReply } from '../nettrace_wasm.mjs';

/** The few members of node:net's Socket used here (the package builds without @types/node). */
export interface NodeSocket extends AsyncIterable<Uint8Array> {
  write(bytes: Uint8Array): boolean;
  end(): void;
  destroy(): void;
  once(event: 'connect', listener: () => void): this;
  once(event: 'error', listener: (e: Error & { code?: string }) => void): this;
  removeAllListeners(event: string): this;
}
interface NodeNet {
  createConnection(path: string): NodeSocket;
}
interface NodeFs {
  readdirSync(dir: string): string[];
  statSync(path: string, options: { throwIfNoEntry: false }): { isSocket(): boolean; mtimeMs: number } | undefined;
}
interface NodeProcess {
  env: Record<string, string | undefined>;
  kill(pid: number, signal: number): void;
}

const nodeProcess = (): NodeProcess => (globalThis as unknown as { process: NodeProcess }).process;

async function nodeModule<T>(name: string): Promise<T> {
  const specifier: string = `node:${name}`;
  return (await import(/* @vite-ignore */ specifier)) as T;
}

/** An error the live commands print as it is (no stack): what went wrong, in the native tool's words. */
export class LiveError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'LiveError';
  }
}

export interface DiagSocket {
  pid: number;
  path: string;
}

/** $TMPDIR, or /tmp: where runtimes create their diagnostics sockets. */
export function diagnosticSocketDir(): string {
  const tmp = nodeProcess().env['TMPDIR'];
  let dir = tmp ? tmp : '/tmp';
  while (dir.length > 1 && dir.endsWith('/')) dir = dir.slice(0, -1);
  return dir;
}

function processAlive(pid: number): boolean {
  try {
    nodeProcess().kill(pid, 0);
    return true;
  } catch (e) {
    return (e as { code?: string }).code === 'EPERM';
  }
}

/** "dotnet-diagnostic-{pid}-{key}-socket" → pid, or 0. */
function pidOfSocketName(name: string): number {
  const m = /^dotnet-diagnostic-(\d+)-(\d+)-socket$/.exec(name);
  if (!m) return 0;
  const pid = Number(m[1]);
  return pid > 0 && pid < 2 ** 30 ? pid : 0;
}

/** Every live process's socket (a file left by a dead process is skipped), newest per pid, by pid. */
export async function findDiagnosticSockets(): Promise<DiagSocket[]> {
  const fs = await nodeModule<NodeFs>('fs');
  const dir = diagnosticSocketDir();
  const newest = new Map<number, { mtime: number; path: string }>();
  let names: string[] = [];
  try {
    names = fs.readdirSync(dir);
  } catch {
    // An unreadable TMPDIR lists nothing, as the native tool's opendir failure does.
  }
  for (const name of names) {
    const pid = pidOfSocketName(name);
    if (pid === 0 || !processAlive(pid)) continue;
    const path = `${dir}/${name}`;
    const st = fs.statSync(path, { throwIfNoEntry: false });
    if (!st?.isSocket()) continue;
    const seen = newest.get(pid);
    if (!seen || seen.mtime < st.mtimeMs) newest.set(pid, { mtime: st.mtimeMs, path });
  }
  return [...newest.entries()].sort((a, b) => a[0] - b[0]).map(([pid, e]) => ({ pid, path: e.path }));
}

/** The socket of one process, or a LiveError saying why there is none. */
export async function findDiagnosticSocket(pid: number): Promise<string> {
  const found = (await findDiagnosticSockets()).find((s) => s.pid === pid);
  if (found) return found.path;
  if (!processAlive(pid)) throw new LiveError(`no process with pid ${pid}`);
  const where = `${diagnosticSocketDir()}/dotnet-diagnostic-${pid}-*-socket`;
  throw new LiveError(
    `process ${pid} has no .NET diagnostics port (${where} not found: not a .NET process, DOTNET_EnableDiagnostics=0, or another TMPDIR)`,
  );
}

/** strerror() of the connect errors, so that messages read as the native tool's. */
const STRERROR: Record<string, string> = {
  EACCES: 'Permission denied',
  EPERM: 'Operation not permitted',
  ECONNREFUSED: 'Connection refused',
  ENOENT: 'No such file or directory',
};

/** One connection to a diagnostics port: requests out, exact reads in, then the rest as a stream. */
export class DiagConnection {
  private readonly chunks: AsyncIterator<Uint8Array>;
  private buffered: Uint8Array[] = [];
  private bufferedLength = 0;

  private constructor(
    private readonly M: NetTraceModule,
    private readonly socket: NodeSocket,
  ) {
    this.chunks = socket[Symbol.asyncIterator]();
  }

  /** Connects; errors name the cause (permission = another user's process), as the native tool's. */
  static async open(M: NetTraceModule, path: string): Promise<DiagConnection> {
    const net = await nodeModule<NodeNet>('net');
    const socket = net.createConnection(path);
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', resolve);
      socket.once('error', (e) => {
        const why =
          e.code === 'EACCES' || e.code === 'EPERM'
            ? ' (a process of another user? run as that user or root)'
            : e.code === 'ECONNREFUSED'
              ? ' (the process is exiting or gone)'
              : '';
        reject(new LiveError(`cannot connect to ${path}${why}: ${STRERROR[e.code ?? ''] ?? e.message}`));
      });
    });
    socket.removeAllListeners('error');
    return new DiagConnection(M, socket);
  }

  /** A connection the runtime opened (a reverse diagnostic port: reverse_port.ts). */
  static fromSocket(M: NetTraceModule, socket: NodeSocket): DiagConnection {
    return new DiagConnection(M, socket);
  }

  write(bytes: Uint8Array): void {
    this.socket.write(bytes);
  }

  /** Exactly n bytes; a LiveError when the runtime closes the connection first. */
  async readExactly(n: number): Promise<Uint8Array> {
    while (this.bufferedLength < n) {
      let next: IteratorResult<Uint8Array>;
      try {
        next = await this.chunks.next();
      } catch (e) {
        throw new LiveError(`reading from the runtime: ${(e as Error).message}`);
      }
      if (next.done) throw new LiveError(`the runtime closed the connection after ${this.bufferedLength} of ${n} bytes`);
      this.buffered.push(next.value);
      this.bufferedLength += next.value.length;
    }
    const all = concat(this.buffered, this.bufferedLength);
    this.buffered = all.length > n ? [all.subarray(n)] : [];
    this.bufferedLength = all.length - n;
    return all.subarray(0, n);
  }

  /** Sends a request and reads its whole reply, decoded by core/diag. */
  async request(message: Uint8Array): Promise<RawDiagReply> {
    this.write(message);
    const header = await this.readExactly(20);
    const h = this.M.diagParseHeader(header);
    if (!h.ok) throw new LiveError(h.message);
    const payload = await this.readExactly(h.size - 20);
    const reply = this.M.diagParseReply(concat([header, payload], h.size));
    if (!reply.ok) throw new LiveError(reply.message);
    return reply;
  }

  /** What the runtime sends after the reply, until it ends the connection. */
  async *rest(): AsyncGenerator<Uint8Array> {
    if (this.bufferedLength > 0) yield concat(this.buffered, this.bufferedLength);
    this.buffered = [];
    this.bufferedLength = 0;
    while (true) {
      let next: IteratorResult<Uint8Array>;
      try {
        next = await this.chunks.next();
      } catch {
        return; // a reset connection ends the stream as a close does; the reader sees where
      }
      if (next.done) return;
      yield next.value;
    }
  }

  close(): void {
    this.socket.destroy();
  }
}

function concat(parts: Uint8Array[], length: number): Uint8Array {
  if (parts.length === 1 && parts[0]!.length === length) return parts[0]!;
  const out = new Uint8Array(length);
  let at = 0;
  for (const p of parts) out.set(p, at), (at += p.length);
  return out;
}

/** Opens a connection, sends one request, reads the reply, closes. */
export async function exchange(M: NetTraceModule, path: string, message: Uint8Array): Promise<RawDiagReply> {
  const c = await DiagConnection.open(M, path);
  try {
    return await c.request(message);
  } finally {
    c.close();
  }
}

// web/src/live — start-up tracing in Node (`--diagnostic-port PATH`, as the native tool's
// core/cli/diag_commands.cc): listen on PATH; a runtime started with
// DOTNET_DiagnosticPorts=PATH connects, sends its 34-byte ADVR_V1 advertise and waits,
// suspended, for commands on that connection. Every later connection it opens (it opens the
// next one when the current one is used up) is taken the same way. The advertise is decoded
// by core/diag through the wasm module.
import type { NetTraceModule } from '../nettrace_wasm.mjs';
import { DiagConnection, LiveError } from './diag_socket.js';
import type { NodeSocket } from './diag_socket.js';

interface NodeServer {
  listen(path: string, callback: () => void): void;
  once(event: 'error', listener: (e: Error & { code?: string }) => void): this;
  close(): void;
}
interface NodeNet {
  createServer(listener: (socket: NodeSocket) => void): NodeServer;
}
interface NodeFs {
  unlinkSync(path: string): void;
}

const ADVERTISE_SIZE = 34;

async function nodeModule<T>(name: string): Promise<T> {
  const specifier: string = `node:${name}`;
  return (await import(/* @vite-ignore */ specifier)) as T;
}

/** A listening reverse diagnostic port: next() is the runtime's next advertised connection. */
export class ReversePort {
  private readonly waiting: NodeSocket[] = [];
  private wake: (() => void) | null = null;
  /** The runtime's pid, from its first advertise (0 before). */
  pid = 0;

  private constructor(
    private readonly M: NetTraceModule,
    private readonly server: NodeServer,
    private readonly fs: NodeFs,
    readonly path: string,
  ) {}

  static async listen(M: NetTraceModule, path: string): Promise<ReversePort> {
    const net = await nodeModule<NodeNet>('net');
    const fs = await nodeModule<NodeFs>('fs');
    let port: ReversePort | null = null;
    const server = net.createServer((socket) => port?.arrived(socket));
    port = new ReversePort(M, server, fs, path);
    await new Promise<void>((resolve, reject) => {
      server.once('error', (e) => reject(new LiveError(`cannot listen on ${path}: ${e.code === 'EADDRINUSE' ? 'Address already in use' : e.message}`)));
      server.listen(path, resolve);
    });
    return port;
  }

  private arrived(socket: NodeSocket): void {
    this.waiting.push(socket);
    this.wake?.();
  }

  /** The next connection of the runtime, its advertise read; @throws LiveError on a bad advertise. */
  async next(): Promise<DiagConnection> {
    while (this.waiting.length === 0) await new Promise<void>((resolve) => (this.wake = resolve));
    this.wake = null;
    const connection = DiagConnection.fromSocket(this.M, this.waiting.shift()!);
    const advertise = this.M.diagParseAdvertise(await connection.readExactly(ADVERTISE_SIZE));
    if (!advertise.ok) {
      connection.close();
      throw new LiveError(advertise.message);
    }
    if (this.pid === 0) this.pid = advertise.processId;
    return connection;
  }

  /** Stops listening and removes the socket file. */
  close(): void {
    this.server.close();
    try {
      this.fs.unlinkSync(this.path);
    } catch {
      // already gone
    }
  }
}

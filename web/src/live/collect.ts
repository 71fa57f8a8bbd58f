// web/src/live — live sessions from Node: `collect()` opens an EventPipe session on a .NET
// process's diagnostics port and reads it, while it runs, through the same engine path as
// every other source (openTraceInThread: TraceSession.pushChunk as the bytes arrive); the
// counts grow as they do; aborting the signal sends StopTracing on a second connection,
// the runtime writes the rundown and ends the stream, and the finished trace is a normal
// TraceHandle. `listProcesses()` is `ps`. The protocol is core/diag's (through wasm).
import type { OpenTraceOptions, TraceHandle } from '../api/handle.js';
import { openTraceInThread } from '../api/trace.js';
import type { Summary } from '../api/types.js';
import { loadNetTraceModule } from '../reader/wasm_loader.js';
import type { WasmOptions } from '../reader/wasm_loader.js';
import type { CollectRequest } from '../api/generated/requests.js';
import type { DiagProcess } from '../api/generated/results.js';
import type { NetTraceModule, RawTraceSession } from '../nettrace_wasm.mjs';
import { DiagConnection, exchange, findDiagnosticSocket, findDiagnosticSockets, LiveError } from './diag_socket.js';
import { ReversePort } from './reverse_port.js';

export { LiveError } from './diag_socket.js';

/**
 * A .NET process with a diagnostics port, as ProcessInfo describes it: a row of `ps --json`,
 * typed by the engine's result tables (core/api/result_table_runtime.cc, DiagProcess).
 */
export type DotnetProcess = DiagProcess;

/** ProcessInfo3, else 2, else 1 (older runtimes answer UnknownCommand to the newer ones). */
async function queryProcessInfo(M: NetTraceModule, path: string) {
  for (const command of [8, 4, 0]) {
    const reply = await exchange(M, path, M.diagEncodeProcessCommand(command));
    if (reply.success) {
      const info = M.diagParseProcessInfo(command, reply.payload);
      if (!info.ok) throw new LiveError(info.message);
      return info;
    }
    if (reply.hresult !== 0x80131385) throw new LiveError(`ProcessInfo: runtime answered ${reply.hresultName}`);
  }
  throw new LiveError('the runtime knows no ProcessInfo command');
}

/**
 * The .NET processes of this user's TMPDIR with a live diagnostics port, by pid.
 * @param onSkip told about a socket whose runtime did not answer (an exiting process)
 */
export async function listProcesses(
  options: WasmOptions & { onSkip?: (pid: number, reason: string) => void } = {},
): Promise<DotnetProcess[]> {
  const M = await loadNetTraceModule(options);
  const out: DotnetProcess[] = [];
  for (const s of await findDiagnosticSockets()) {
    try {
      const info = await queryProcessInfo(M, s.path);
      out.push({
        pid: s.pid,
        name: info.entrypointAssembly,
        runtimeVersion: info.clrProductVersion,
        os: info.os,
        arch: info.arch,
        commandLine: info.commandLine,
        socket: s.path,
      });
    } catch (e) {
      options.onSkip?.(s.pid, (e as Error).message);
    }
  }
  return out;
}

/**
 * pid, diagnosticPort (start-up tracing: listen on this path for a runtime started with
 * DOTNET_DiagnosticPorts=PATH, connect suspended; the session starts, then the runtime is resumed
 * with ResumeRuntime, so its first events are in the trace; replaces `pid`), providers, profile
 * and bufferMB are `collect`'s options of the query table (api/generated/requests.ts).
 */
export interface CollectOptions extends WasmOptions, CollectRequest {
  /** The process (0 with `diagnosticPort`: the one that connects). */
  pid: number;
  /** Said once the runtime of `diagnosticPort` has connected (its pid). */
  onConnected?: (pid: number) => void;
  /** Aborting it stops the session (StopTracing); the trace then finishes with the rundown. */
  signal?: AbortSignal;
  /** Every byte of the session, in order, as it arrives (e.g. to write the .nettrace). */
  onChunk?: (bytes: Uint8Array) => void;
  /**
   * Keep the session's bytes in memory for event details (default true, as for any stream).
   * false: memory stays bounded over a long session (the counts, summary, stacks and
   * analyses still work; events come without their fields, `detail: false`).
   */
  keepStreamedBytes?: boolean;
  /** Said when the runtime refuses a CollectTracing version and an older one is tried. */
  onMessage?: (message: string) => void;
  chunkSize?: number;
}

/** A session being read. Its counts grow while it runs; `trace` is the finished trace. */
export interface LiveTrace {
  readonly pid: number;
  /** The runtime's session id, as a decimal string (a 64-bit value). */
  readonly sessionId: string;
  /** Bytes received so far. */
  readonly bytes: number;
  readonly eventCount: number;
  readonly droppedEventCount: number;
  /** The summary of what has been read so far (the finished trace's once it has ended). */
  summary(): Summary;
  /** Asks the runtime to stop (as aborting the signal does); resolves once it answered. */
  stop(): Promise<void>;
  /** Resolves when the runtime has ended the stream: the whole trace, or (keepPartial) what
   *  was read when it ended early (its `error` says where). */
  readonly trace: Promise<TraceHandle>;
}

/** Opens the session, falling back to older CollectTracing versions on UnknownCommand. */
async function startSession(M: NetTraceModule, connect: () => Promise<DiagConnection>, options: CollectOptions) {
  const plan = new M.DiagCollectPlan(options.profile ?? '', options.providers ?? '', options.bufferMB ?? 256);
  try {
    const status = plan.status();
    if (!status.ok) throw new LiveError(status.message);
    while (true) {
      const message = plan.message();
      if (!message.ok) throw new LiveError(message.message);
      const connection = await connect();
      const reply = await connection.request(message.bytes).catch((e: unknown) => {
        connection.close();
        throw e;
      });
      if (reply.success) return { connection, sessionId: reply.sessionId };
      connection.close(); // the runtime closes a connection after an error
      const version = plan.versionName();
      const fallback = reply.hresult === 0x80131385 ? plan.fallback() : { ok: false };
      if (!fallback.ok) throw new LiveError(`${version}: the runtime answered ${reply.hresultName}`);
      const lost = fallback.lost ? `: ${fallback.lost}` : '';
      options.onMessage?.(`the runtime does not know ${version}; retrying with ${fallback.older}${lost}`);
    }
  } finally {
    plan.delete();
  }
}

/**
 * Starts a live session on process `pid`.
 * @throws LiveError when there is no such process, no diagnostics port, or the runtime refuses
 */
export async function collect(options: CollectOptions): Promise<LiveTrace> {
  const M = await loadNetTraceModule(options);
  let port: ReversePort | null = null;
  let connect: () => Promise<DiagConnection>;
  if (options.diagnosticPort !== undefined && options.diagnosticPort !== '') {
    port = await ReversePort.listen(M, options.diagnosticPort);
    connect = () => port!.next();
  } else {
    const path = await findDiagnosticSocket(options.pid);
    connect = () => DiagConnection.open(M, path);
  }
  const request = async (message: Uint8Array) => {
    const c = await connect();
    try {
      return await c.request(message);
    } finally {
      c.close();
    }
  };
  let started;
  try {
    started = await startSession(M, connect, options);
  } catch (e) {
    port?.close();
    throw e;
  }
  const { connection, sessionId } = started;
  const pid = port === null ? options.pid : port.pid;
  if (port !== null) {
    options.onConnected?.(pid);
    // The runtime waits, suspended, for ResumeRuntime on its next connection.
    const resumed = await request(M.diagEncodeProcessCommand(1)).catch((e: unknown) => ({ success: false, hresultName: (e as Error).message }));
    if (!resumed.success) options.onMessage?.(`could not resume the runtime: ResumeRuntime: ${resumed.hresultName}`);
  }
  let bytes = 0;
  let session: RawTraceSession | null = null;
  let finished: TraceHandle | null = null;
  async function* received(): AsyncGenerator<Uint8Array> {
    for await (const chunk of connection.rest()) {
      bytes += chunk.length;
      options.onChunk?.(chunk);
      yield chunk;
    }
  }
  let stopping: Promise<void> | null = null;
  const stop = (): Promise<void> =>
    (stopping ??= request(M.diagEncodeStopTracing(sessionId)).then((reply) => {
      if (!reply.success) throw new LiveError(`StopTracing: ${reply.hresultName}`);
    }));
  const onAbort = () => void stop().catch((e: unknown) => options.onMessage?.(`StopTracing failed (${(e as Error).message}); reading what the runtime still sends`));
  if (options.signal?.aborted) onAbort();
  else options.signal?.addEventListener('abort', onAbort, { once: true });
  const openOptions: OpenTraceOptions & WasmOptions = { keepPartial: true };
  if (options.keepStreamedBytes !== undefined) openOptions.keepStreamedBytes = options.keepStreamedBytes;
  if (options.chunkSize !== undefined) openOptions.chunkSize = options.chunkSize;
  if (options.wasmBinary !== undefined) openOptions.wasmBinary = options.wasmBinary;
  if (options.wasmUrl !== undefined) openOptions.wasmUrl = options.wasmUrl;
  let droppedAtEnd = 0;
  const trace = openTraceInThread(received(), openOptions, (s) => (session = s)).then((t) => {
    droppedAtEnd = session?.droppedEventCount() ?? 0;
    finished = t;
    return t;
  });
  trace.finally(() => {
    connection.close();
    port?.close();
    options.signal?.removeEventListener('abort', onAbort);
  }).catch(() => {});
  // While reading, the counts come from the engine session; once finished, from the handle
  // (which owns the session and deletes it on close).
  const live = (): RawTraceSession | null => (finished === null ? session : null);
  return {
    pid,
    sessionId,
    get bytes() {
      return bytes;
    },
    get eventCount() {
      return finished?.eventCount ?? live()?.eventCount() ?? 0;
    },
    get droppedEventCount() {
      return finished ? droppedAtEnd : (live()?.droppedEventCount() ?? 0);
    },
    summary(): Summary {
      if (finished) return finished.summary();
      const s = live();
      if (!s) throw new LiveError('the session has not started reading yet');
      return JSON.parse(s.summaryJson()) as Summary;
    },
    stop,
    trace,
  };
}

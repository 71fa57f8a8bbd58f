// web/src/live — a heap snapshot of a running .NET process, taken as dotnet-gcdump takes it: a
// short EventPipe session with the runtime's heap-dump keywords, whose start makes the runtime
// walk the heap in an induced gen-2 GC (GCBulkType/Node/Edge/Root* events), stopped once that
// GC has ended. The bytes are a .nettrace that the heap reader (api/heap.ts, `nettrace heap`)
// reads; `nettrace-analyzer live` writes them as a file and its page opens them in the Heap tab.
import type { WasmOptions } from '../reader/wasm_loader.js';
import type { Summary } from '../api/types.js';
import { collect, LiveError } from './collect.js';

/**
 * GC 0x1 | Type 0x80000 | GCHeapDump 0x100000 | GCHeapCollect 0x800000 | GCHeapAndTypeNames
 * 0x1000000 at level 5: TraceEvent's ClrTraceEventParser.Keywords.GCHeapSnapshot, what
 * dotnet-gcdump asks for (docs/format/gcdump.md).
 */
export const HEAP_SNAPSHOT_PROVIDERS = 'Microsoft-Windows-DotNETRuntime:0x1980001:5';
/** How often the session's counts are looked at while the heap is walked. */
const POLL_MS = 100;

export interface HeapSnapshotOptions extends WasmOptions {
  pid: number;
  /** The session is stopped after this long even when the dump has not ended (default 60 s). */
  timeoutMs?: number;
  /** Every byte of the session, in order, as it arrives (e.g. to write the .nettrace). */
  onChunk?: (bytes: Uint8Array) => void;
  onMessage?: (message: string) => void;
  signal?: AbortSignal;
}

const count = (s: Summary, name: string): number =>
  s.types.reduce((n, t) => n + (t.provider === 'Microsoft-Windows-DotNETRuntime' && t.name === name ? t.count : 0), 0);

/**
 * The dump has ended when node events came and every GC that started has stopped: the nodes
 * are written during the induced GC, on the thread that later writes its GC/Stop.
 */
export function heapDumpEnded(s: Summary): boolean {
  return count(s, 'GC/BulkNode') > 0 && count(s, 'GC/Stop') >= count(s, 'GC/Start');
}

/**
 * Takes a heap snapshot of process `pid`. @returns the session's bytes (a .nettrace holding
 * the heap-dump events) and whether the dump ended before the timeout.
 * @throws LiveError when there is no such process or the runtime refuses the session
 */
export async function takeHeapSnapshot(options: HeapSnapshotOptions): Promise<{ bytes: Uint8Array; ended: boolean }> {
  const chunks: Uint8Array[] = [];
  const live = await collect({
    pid: options.pid,
    providers: HEAP_SNAPSHOT_PROVIDERS,
    keepStreamedBytes: false,
    onChunk: (b) => {
      chunks.push(b.slice());
      options.onChunk?.(b);
    },
    ...(options.onMessage === undefined ? {} : { onMessage: options.onMessage }),
    ...(options.wasmBinary === undefined ? {} : { wasmBinary: options.wasmBinary }),
    ...(options.wasmUrl === undefined ? {} : { wasmUrl: options.wasmUrl }),
  });
  const deadline = Date.now() + (options.timeoutMs ?? 60_000);
  let ended = false;
  let finished = false;
  const trace = live.trace.finally(() => (finished = true));
  while (!finished && !options.signal?.aborted && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, POLL_MS));
    try {
      if (!finished && heapDumpEnded(live.summary())) {
        ended = true;
        break;
      }
    } catch (e) {
      if (!(e instanceof LiveError)) throw e; // not reading yet: look again
    }
  }
  if (!finished) await live.stop().catch((e: unknown) => options.onMessage?.(`StopTracing failed (${(e as Error).message})`));
  (await trace).close();
  const total = chunks.reduce((n, c) => n + c.length, 0);
  const bytes = new Uint8Array(total);
  let at = 0;
  for (const c of chunks) bytes.set(c, at), (at += c.length);
  return { bytes, ended };
}

const HEAP_SNAPSHOT_USAGE = 'usage: nettrace-analyzer heap-snapshot --pid N -o OUT.nettrace [--timeout SECONDS]';

/**
 * `nettrace-analyzer heap-snapshot --pid N -o OUT [--timeout S]`: takes a heap snapshot of the
 * process and writes it as a .nettrace (`nettrace heap OUT` reads it). @returns the exit status:
 * 0, 1 (no such process, a refusal, an unwritable file, a dump that did not end), 2 (usage).
 */
export async function runHeapSnapshot(args: string[]): Promise<number> {
  const proc = (globalThis as unknown as { process: { stdout: { write(s: string): void }; stderr: { write(s: string): void } } }).process;
  const say = (line: string) => proc.stderr.write(`nettrace-analyzer: ${line}\n`);
  let pid = 0;
  let out = '';
  let timeout = 60;
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    const value = args[i + 1];
    if (a === '--help' || a === '-h') return proc.stdout.write(`${HEAP_SNAPSHOT_USAGE}\n`), 0;
    if ((a === '--pid' || a === '--timeout') && value !== undefined && /^\d+$/.test(value)) (a === '--pid' ? (pid = Number(value)) : (timeout = Number(value))), i++;
    else if ((a === '-o' || a === '--out') && value !== undefined) (out = value), i++;
    else return say(`heap-snapshot: unexpected '${a}'`), proc.stderr.write(`${HEAP_SNAPSHOT_USAGE}\n`), 2;
  }
  if (pid === 0 || out === '' || timeout === 0) return proc.stderr.write(`${HEAP_SNAPSHOT_USAGE}\n`), 2;
  const fs = (await import(/* @vite-ignore */ 'node:fs' as string)) as { writeFileSync(path: string, bytes: Uint8Array): void };
  try {
    const { bytes, ended } = await takeHeapSnapshot({ pid, timeoutMs: timeout * 1000, onMessage: say });
    fs.writeFileSync(out, bytes);
    if (!ended) return say(`wrote ${out} (${bytes.length} bytes), but the heap dump had not ended after ${timeout} s`), 1;
    say(`wrote ${out} (${bytes.length} bytes): a heap snapshot of pid ${pid} (nettrace heap ${out})`);
    return 0;
  } catch (e) {
    say(e instanceof Error ? e.message : String(e));
    return 1;
  }
}

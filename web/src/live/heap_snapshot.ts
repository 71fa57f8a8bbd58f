// web/src/live — a heap snapshot of a running .NET process, taken as dotnet-gcdump takes it: a
// short EventPipe session with the runtime's heap-dump keywords, whose start makes the runtime
// walk the heap in an induced gen-2 GC (GCBulkType/Node/Edge/Root* events), stopped once that
// GC has ended. The bytes are a .nettrace that the heap reader (api/heap.ts, `nettrace heap`)
// reads; `nettrace-analyzer live` writes them as a file and its page opens them in the Heap tab.
import type { WasmOptions } from '../reader/wasm_loader.js';
import type { Summary } from '../api/types.js';
import { collect, LiveError } from './collect.js';
import { parseDuration } from './collect_args.js';
import { loadNetTraceModule } from '../reader/wasm_loader.js';

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

/**
 * `nettrace-analyzer heap-snapshot --pid N -o OUT [--duration D]` (the query table's options,
 * through the engine's parser): takes a heap snapshot of the process and writes it as a .nettrace
 * (`nettrace heap OUT` reads it). @returns the exit status: 0; 1 (no such process, a refusal, an
 * unwritable file, a dump that did not end within D, default 60 s); 2 (usage).
 */
export async function runHeapSnapshot(args: string[]): Promise<number> {
  const proc = (globalThis as unknown as { process: { stdout: { write(s: string): void }; stderr: { write(s: string): void } } }).process;
  const say = (line: string) => proc.stderr.write(`nettrace-analyzer: ${line}\n`);
  const M = await loadNetTraceModule();
  const parsed = M.parseCliArgs('heap-snapshot', args);
  if (parsed.help) return proc.stdout.write(M.commandHelp('heap-snapshot', 'nettrace-analyzer')), 0;
  const usage = () => (proc.stderr.write(`${M.commandUsage('heap-snapshot', 'nettrace-analyzer')}\n`), 2);
  if (!parsed.ok) return say(parsed.message), usage();
  const o = JSON.parse(parsed.request) as { pid?: number; out?: string; duration?: string };
  if (!o.pid || !o.out) return say('heap-snapshot needs --pid N and -o OUT.nettrace'), usage();
  let seconds = 60;
  if (o.duration !== undefined) {
    seconds = parseDuration(o.duration);
    if (!(seconds > 0)) return say(`--duration: '${o.duration}' is not a duration (10, 10s, 500ms, 2m or hh:mm:ss)`), usage();
  }
  const fs = (await import(/* @vite-ignore */ 'node:fs' as string)) as { writeFileSync(path: string, bytes: Uint8Array): void };
  try {
    const { bytes, ended } = await takeHeapSnapshot({ pid: o.pid, timeoutMs: seconds * 1000, onMessage: say });
    fs.writeFileSync(o.out, bytes);
    if (!ended) return say(`wrote ${o.out} (${bytes.length} bytes), but the heap dump had not ended after ${seconds} s`), 1;
    say(`wrote ${o.out} (${bytes.length} bytes): a heap snapshot of pid ${o.pid} (nettrace heap ${o.out})`);
    return 0;
  } catch (e) {
    say(e instanceof Error ? e.message : String(e));
    return 1;
  }
}

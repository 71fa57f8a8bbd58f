// web/src/live — the options of `nettrace-analyzer collect` and `live` (the query table's,
// parsed by the engine as the native tool parses them) and the progress line both print.
// Node only.
import { loadNetTraceModule } from '../reader/wasm_loader.js';
import { formatBytes } from '../ui/units.js';

interface NodeProcess {
  stderr: { write(text: string): boolean };
}
const proc = (): NodeProcess => (globalThis as unknown as { process: NodeProcess }).process;
const say = (line: string) => proc().stderr.write(`nettrace-analyzer: ${line}\n`);

/** "10", "10s", "500ms", "2m", or dotnet-trace's "hh:mm:ss" → seconds; negative on error (as the native tool). */
export function parseDuration(text: string): number {
  if (text.includes(':')) {
    let total = 0;
    for (const part of text.split(':')) {
      if (part === '' || !/^\s*[-+]?(\d+\.?\d*|\.\d+)$/.test(part)) return -1;
      total = total * 60 + Number(part);
    }
    return total;
  }
  const m = /^\s*([-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?)(.*)$/.exec(text);
  if (!m || Number(m[1]) < 0) return -1;
  const v = Number(m[1]);
  const unit = m[2];
  if (unit === '' || unit === 's') return v;
  if (unit === 'ms') return v / 1000;
  if (unit === 'm') return v * 60;
  return -1;
}

export interface CollectArgs {
  pid: number;
  diagnosticPort: string;
  providers: string;
  profile: string;
  output: string;
  duration: number;
  bufferMB: number;
}

const COLLECT_USAGE =
  'usage: nettrace-analyzer collect (--pid N | --diagnostic-port PATH) [--providers SPEC,… | --profile NAME,…]\n' +
  '                                 [--duration D] [--buffer-mb 256] -o OUT.nettrace\n';

/**
 * collect's (or live's) options, through the engine's parser of the query table
 * (core/api/query_table.cc), as the native tool parses them; live's --port comes back as `port`.
 */
export async function parseCollect(args: string[], command = 'collect', usage = COLLECT_USAGE, needOutput = true): Promise<(CollectArgs & { port: number }) | number> {
  const M = await loadNetTraceModule();
  const parsed = M.parseCliArgs(command, args);
  if (!parsed.ok) {
    say(`${command}: ${parsed.message}`);
    return 2;
  }
  const r = JSON.parse(parsed.request) as { pid?: number; diagnosticPort?: string; providers?: string; profile?: string;
    duration?: string; bufferMB?: number; out?: string; port?: number };
  const o = { pid: r.pid ?? 0, diagnosticPort: r.diagnosticPort ?? '', providers: r.providers ?? '', profile: r.profile ?? '',
    output: r.out ?? '', duration: 0, bufferMB: r.bufferMB ?? 256, port: r.port ?? 0 };
  if (r.duration !== undefined) {
    o.duration = parseDuration(r.duration);
    if (o.duration < 0) {
      say(`--duration: '${r.duration}' is not a duration (10, 10s, 500ms, 2m, hh:mm:ss)`);
      return 2;
    }
  }
  if (o.pid > 0 === (o.diagnosticPort !== '') || (needOutput && o.output === '')) {
    proc().stderr.write(usage);
    return 2;
  }
  return o;
}

/** "%.1f s  events N  1.2 MB  events/s R  dropped D", the native tool's live line. */
export function liveLine(elapsed: number, events: number, bytes: number, rate: number, dropped: number): string {
  return `${elapsed.toFixed(1)} s  events ${events}  ${formatBytes(bytes)}  events/s ${rate.toFixed(0)}  dropped ${dropped}`;
}

/** "1.2 MB (1234567 bytes)": a file's size in words, and exactly. */
export const sizeText = (bytes: number): string => `${formatBytes(bytes)} (${bytes} bytes)`;

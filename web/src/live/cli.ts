// web/src/live — `nettrace-analyzer ps` and `nettrace-analyzer collect`: the native tool's
// `nettrace ps` / `nettrace collect` (core/cli/diag_commands.cc) over the package API, printing
// what it prints (with this tool's name as the prefix). Node only.
import { NetTraceError } from '../api/types.js';
import { collect, listProcesses, LiveError } from './collect.js';
import type { DotnetProcess } from './collect.js';
import { liveLine, parseCollect, sizeText } from './collect_args.js';
import { loadNetTraceModule } from '../reader/wasm_loader.js';

interface NodeProcess {
  stdout: { write(text: string): boolean };
  stderr: { write(text: string): boolean };
  on(signal: 'SIGINT' | 'SIGTERM', listener: () => void): void;
  removeListener(signal: 'SIGINT' | 'SIGTERM', listener: () => void): void;
}
interface NodeFs {
  openSync(path: string, flags: string): number;
  writeSync(fd: number, bytes: Uint8Array): number;
  closeSync(fd: number): void;
}
const proc = (): NodeProcess => (globalThis as unknown as { process: NodeProcess }).process;
const say = (line: string) => proc().stderr.write(`nettrace-analyzer: ${line}\n`);

/** C's %-Ns. */
const left = (s: string, n: number) => s.padEnd(n);

async function runPs(args: string[]): Promise<number> {
  const parsed = (await loadNetTraceModule()).parseCliArgs('ps', args);
  if (!parsed.ok) {
    say(`ps: ${parsed.message}`);
    return 2;
  }
  const json = (JSON.parse(parsed.request) as { json?: boolean }).json === true;
  const list = await listProcesses({ onSkip: (pid, reason) => say(`pid ${pid}: ${reason}`) });
  if (json) {
    proc().stdout.write(JSON.stringify(list.map((p): DotnetProcess => ({ pid: p.pid, name: p.name, runtimeVersion: p.runtimeVersion, os: p.os, arch: p.arch, commandLine: p.commandLine, socket: p.socket }))) + '\n');
  } else {
    for (const p of list) proc().stdout.write(`${String(p.pid).padStart(7)}  ${left(p.name, 24)} ${left(p.runtimeVersion, 10)} ${p.commandLine}\n`);
  }
  return 0;
}

async function runCollect(args: string[]): Promise<number> {
  const o = await parseCollect(args);
  if (typeof o === 'number') return o;
  const fs = (await import(/* @vite-ignore */ 'node:fs' as string)) as NodeFs;
  const stopper = new AbortController();
  const onSignal = () => stopper.abort();
  proc().on('SIGINT', onSignal);
  proc().on('SIGTERM', onSignal);
  let fd = -1;
  const pending: Uint8Array[] = [];
  try {
    const started = Date.now();
    if (o.diagnosticPort !== '') say(`waiting for a runtime on ${o.diagnosticPort} (start it with DOTNET_DiagnosticPorts=${o.diagnosticPort})`);
    const live = await collect({
      pid: o.pid,
      diagnosticPort: o.diagnosticPort,
      onConnected: (pid) => say(`runtime of pid ${pid} connected`),
      providers: o.providers,
      profile: o.profile,
      bufferMB: o.bufferMB,
      signal: stopper.signal,
      onMessage: say,
      // Written through to the file, not kept: the trace's details are never shown here.
      keepStreamedBytes: false,
      // The file is created once the session exists (as the native tool does); bytes that
      // arrive before (the moment between the reply and the return of collect()) wait for it.
      onChunk: (bytes) => (fd >= 0 ? writeAll(fs, fd, bytes) : pending.push(bytes.slice())),
    });
    try {
      fd = fs.openSync(o.output, 'w');
      for (const bytes of pending.splice(0)) writeAll(fs, fd, bytes);
    } catch {
      await live.stop().catch(() => {});
      throw new LiveError(`cannot write ${o.output}`);
    }
    say(`session ${live.sessionId} on pid ${live.pid}; writing ${o.output} (Ctrl-C stops)`);
    const seconds = () => (Date.now() - started) / 1000;
    stopper.signal.addEventListener('abort', () => say('stopping the session (StopTracing); waiting for the rundown'), { once: true });
    const timer = o.duration > 0 ? setTimeout(() => stopper.abort(), o.duration * 1000) : null;
    let last = { at: seconds(), events: 0 };
    const ticker = setInterval(() => {
      const now = seconds();
      say(liveLine(now, live.eventCount, live.bytes, (live.eventCount - last.events) / (now - last.at), live.droppedEventCount));
      last = { at: now, events: live.eventCount };
    }, 1000);
    const trace = await live.trace.finally(() => {
      clearInterval(ticker);
      if (timer) clearTimeout(timer);
    });
    const elapsed = seconds();
    say(`end ${liveLine(elapsed, live.eventCount, live.bytes, elapsed > 0 ? live.eventCount / elapsed : 0, live.droppedEventCount)}`);
    const events = trace.eventCount;
    const error = trace.error;
    trace.close();
    if (error) {
      const at = error.offset === null ? '' : ` at offset ${error.offset} (0x${error.offset.toString(16)})`;
      say(`the stream ended early: ${error.code}${at}: ${error.reason}; ${o.output} keeps the ${events} events read before that`);
      return 3;
    }
    say(`wrote ${o.output}: ${events} events, ${sizeText(live.bytes)}, ${live.droppedEventCount} dropped`);
    return 0;
  } catch (e) {
    // A LiveError says what the runtime or the system refused; a NetTraceError here is the
    // source failing (the output file could not be written): the message, not a stack.
    if (!(e instanceof LiveError) && !(e instanceof NetTraceError)) throw e;
    say(e.message);
    return 1;
  } finally {
    if (fd >= 0) fs.closeSync(fd);
    proc().removeListener('SIGINT', onSignal);
    proc().removeListener('SIGTERM', onSignal);
  }
}

function writeAll(fs: NodeFs, fd: number, bytes: Uint8Array): void {
  for (let at = 0; at < bytes.length; ) at += fs.writeSync(fd, bytes.subarray(at));
}

/** Runs `ps`, `collect` or `live` with the arguments after the command; @returns the exit status. */
export async function runLiveCommand(command: string, args: string[]): Promise<number> {
  // `COMMAND --help`, and an argument error as one line then the command's usage line, last:
  // the engine's parser and texts of the query table, as the native tool and every command.
  const M = await loadNetTraceModule();
  const parsed = M.parseCliArgs(command, args);
  if (parsed.help) {
    proc().stdout.write(M.commandHelp(command, 'nettrace-analyzer'));
    return 0;
  }
  if (!parsed.ok) {
    say(parsed.message);
    proc().stderr.write(`${M.commandUsage(command, 'nettrace-analyzer')}\n`);
    return 2;
  }
  if (command === 'ps') return runPs(args);
  if (command === 'live') return (await import('./live_server.js')).runLive(args);
  return runCollect(args);
}

// web/src/views — why a flame graph's frames have no names, and what to do about it. Managed
// code is named by the runtime's own events: MethodLoadVerbose (methods jitted while the
// session records) and the rundown's MethodDCStart/DCStopVerbose (every method, written when
// the session stops; DOTNET_EventPipeRundown, dotnet-trace's default). Without them a managed
// frame is "?!?" (no module known) or "Module!?" (core/symbols). The summary's event types say
// which of those events the trace has; this says so in words when unnamed frames weigh.
import type { FlameGraphData, Summary } from '../api/types.js';
import { fmt } from '../ui/dom.js';

const RUNTIME = 'Microsoft-Windows-DotNETRuntime';
const RUNDOWN = 'Microsoft-Windows-DotNETRuntimeRundown';
/** The events that name methods (core/resolve/event_kind.h IsMethodNamed), by provider and display name. */
const LOADS = new Set(['Method/LoadVerbose', 'Method/UnloadVerbose']);
const RUNDOWNS = new Set(['Method/DCStartVerbose', 'Method/DCStopVerbose']);

/** A frame the trace gave no name: no module ("?!?") or no method ("Module!?"). */
export const isUnnamedFrame = (name: string): boolean => name.endsWith('!?');

/** The share of a graph's weight under unnamed frames (stacks with one counted once). */
export function unnamedShare(data: FlameGraphData): number {
  const n = data.frame.length;
  if (n === 0 || data.total === 0) return 0;
  const unnamedFrame = data.frameNames.map(isUnnamedFrame);
  // Depth-first order: a node's parent comes before it.
  const under = new Uint8Array(n);
  let weight = 0;
  for (let node = 1; node < n; node++) {
    const parentUnder = under[data.parent[node]!] === 1;
    if (parentUnder) under[node] = 1;
    else if (unnamedFrame[data.frame[node]!] === true) {
      under[node] = 1;
      weight += data.end[node]! - data.start[node]!;
    }
  }
  return weight / data.total;
}

/** The method-naming events of a trace, from its summary's counts per type. */
export function methodNameEvents(summary: Summary): { loads: number; rundown: number } {
  let loads = 0;
  let rundown = 0;
  for (const t of summary.types) {
    if (t.provider === RUNTIME && LOADS.has(t.name)) loads += t.count;
    if (t.provider === RUNDOWN && RUNDOWNS.has(t.name)) rundown += t.count;
  }
  return { loads, rundown };
}

/** Unnamed frames below this share of the weight are not worth a word (a stray native frame). */
const WORTH_SAYING = 0.01;

/**
 * What to say above a flame graph whose frames are unnamed, or null (all named, or the trace
 * has a rundown: its remaining "?!?" frames are native code, which EventPipe never names).
 * @param live a session still recording: the rundown comes when it stops
 */
export function unnamedFramesNotice(data: FlameGraphData, summary: Summary, live: boolean): string | null {
  const { loads, rundown } = methodNameEvents(summary);
  if (rundown > 0 || unnamedShare(data) < WORTH_SAYING) return null;
  if (live) {
    return 'Frames show as ?!? until the session stops: the runtime then writes the method rundown, which names them. Press Stop to end the session.';
  }
  const record = "Record to the session's end with the runtime's rundown, as dotnet-trace collect does by default.";
  if (loads === 0) return `Frames show as ?!?: this trace has no MethodLoad or method rundown events, which name managed code. ${record}`;
  return `Frames show as ?!?: no method rundown in this trace; only methods jitted while it recorded are named (${fmt(loads)} MethodLoad events). ${record}`;
}

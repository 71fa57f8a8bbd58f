// web/src/views — the Summary tab: trace facts, event types (click = filter the event
// table), threads and dropped events, from the engine's summary document (README
// "Summary JSON"), typed whole by reader/summary.ts.
import type { Summary, SummaryEventType } from '../api/types.js';
import { fmt, h, percent } from '../ui/dom.js';
import { formatBytes, formatDurationMs } from '../ui/units.js';
import { sortableTable } from '../ui/sortable_table.js';
import { renderRuntime } from './runtime_view.js';
import { tagged } from './summary_fields.js';

/** One event type of the summary. */
export type EventType = SummaryEventType;

/** A thread of the summary as the pickers and tables show it (a v6 thread without an OS id: 0). */
export interface ThreadInfo {
  threadId: number;
  /** The thread's name when the trace gives one (v6 thread blocks), else "". */
  name: string;
  processId: number | null;
  eventCount: number;
  droppedEvents: number;
}

/** The one name of events whose stack has at least one frame (summary facts, pickers). */
export const STACK_FRAMES_LABEL = 'Events with stack frames';

export function eventTypes(summary: Summary): EventType[] {
  return summary.types;
}

export function threads(summary: Summary): ThreadInfo[] {
  return summary.threads.map((t) => ({
    threadId: t.threadId ?? 0,
    name: t.name ?? '',
    processId: t.processId,
    eventCount: t.eventCount,
    droppedEvents: t.droppedEvents,
  }));
}

export interface ProcessInfo {
  pid: number;
  name: string;
  namespace: string;
  events: number;
  cpuShare: number;
  cpuMs: number;
  offCpuMs: number;
}

/** Processes of multi-process v6 traces (Linux profilers' Universal events); empty otherwise. */
export function processes(summary: Summary): ProcessInfo[] {
  return (summary.processes ?? []).map((p) => ({
    pid: p.pid,
    name: p.name,
    namespace: p.namespaceName,
    events: p.events,
    cpuShare: p.cpuShare,
    cpuMs: p.cpuNanoseconds / 1e6,
    offCpuMs: p.offCpuNanoseconds / 1e6,
  }));
}

export interface SummaryViewOptions {
  fileName: string;
  /** Null when not known (a URL that was not read to its end). */
  fileSize: number | null;
  readSeconds: number;
  /** True when the summary is what was read before a fatal error. */
  partial: boolean;
  /** Click on an event type: filter the event table by it. */
  onPickType: ((type: EventType) => void) | null;
  /** The "Flame graph" button of an event type with stacks: show their flame graph. */
  onStacksOfType: ((type: EventType) => void) | null;
  onPickThread: ((thread: ThreadInfo) => void) | null;
  /** Click on an exception or allocated type: the events of that type (event name, type text). */
  onPickRuntimeType: ((eventName: string, typeName: string) => void) | null;
}

/** Fills `headline` (a <dl>) with the facts and `tables` with the tables. */
export function renderSummary(summary: Summary, headline: HTMLElement, tables: HTMLElement, options: SummaryViewOptions): void {
  renderHeadline(summary, headline, options);
  renderTables(summary, tables, options);
}

/** The facts: file, format, times, header fields, counts, the v6 trace metadata. */
function renderHeadline(summary: Summary, headline: HTMLElement, options: SummaryViewOptions): void {
  headline.replaceChildren();
  const add = (term: string, value: string, cls = ''): void => {
    headline.append(h('dt', { text: term }), h('dd', { text: value, class: cls }));
  };
  add('File', options.fileName);
  if (options.fileSize !== null) add('Size', `${formatBytes(options.fileSize)} (${fmt(options.fileSize)} bytes)`);
  add('Read in', `${options.readSeconds.toFixed(2)} s`);
  const { format, trace, timeRange } = summary;
  // The engine names the container before it has read a header; a version 0 means no
  // header was read: the format was not established, so it is not stated.
  if (format.major > 0) add('Format', `${format.container}, version ${format.major}.${format.minor}`);
  // Null: the sync time is not a representable date (a damaged header); no start is stated.
  const start = timeRange?.startUtc ?? trace.syncTimeUtc;
  if (start !== undefined && start !== null) add('Start (UTC)', start);
  if (timeRange !== null) add('Duration', formatDurationMs(timeRange.durationMs));
  if (trace.pointerSize !== undefined) add('Pointer size', `${trace.pointerSize} bytes (${trace.pointerSize * 8}-bit)`);
  if (trace.processId !== undefined) add('Process id', String(trace.processId));
  if (trace.numberOfProcessors !== undefined) add('Processors', String(trace.numberOfProcessors));
  const rate = trace.expectedCpuSamplingRate;
  if (rate !== undefined && rate > 0) add('CPU sampling interval', `${(rate / 1e6).toFixed(3)} ms`);
  add('Events', fmt(summary.eventCount));
  // Stack frames, not stack references: runtimes attach an empty stack to many events
  // (rundown), which neither `eventsWithStacks` nor the per-type `withStacks` counts (they
  // agree). One wording everywhere ("with stack frames"), for the one count a flame graph can show.
  add(STACK_FRAMES_LABEL, fmt(summary.eventsWithStacks));
  const dropped = summary.dropped.events;
  add('Dropped events', fmt(dropped), dropped > 0 ? 'warn' : '');
  for (const kv of trace.keyValues ?? []) add(kv.key, kv.value);
}

/** The runtime tables, event types, processes, threads, and what was dropped. */
function renderTables(summary: Summary, tables: HTMLElement, options: SummaryViewOptions): void {
  tables.replaceChildren();
  const types = eventTypes(summary);
  const samples = types.filter((t) => t.provider === 'Microsoft-DotNETCore-SampleProfiler' && t.name === 'Thread/Sample').reduce((sum, t) => sum + t.count, 0);
  renderRuntime(summary, tables, samples, options.onPickRuntimeType);
  const total = summary.eventCount;
  if (types.length > 0) {
    tables.append(
      tagged('types', sortableTable({
        caption: `Event types (${fmt(types.length)})`,
        rows: types,
        sortBy: 3,
        descending: true,
        columns: [
          { label: 'Provider', text: (t) => t.provider, key: (t) => t.provider },
          { label: 'Event', text: (t) => t.name, key: (t) => t.name },
          { label: 'Id', text: (t) => String(t.eventId), key: (t) => t.eventId, numeric: true },
          { label: 'Count', text: (t) => fmt(t.count), key: (t) => t.count, numeric: true },
          { label: 'Share', text: (t) => percent(t.count, total), key: (t) => t.count, numeric: true },
          { label: 'With stack frames', text: (t) => fmt(t.withStacks), key: (t) => t.withStacks, numeric: true, cell: (t) => stacksCell(t, options.onStacksOfType), width: '15rem' },
        ],
        ...(options.onPickType === null ? {} : { onActivate: options.onPickType, rowTitle: 'Show these events in the event table' }),
      })),
    );
  }
  const processList = processes(summary);
  if (processList.length > 0) {
    tables.append(
      tagged('processes', sortableTable({
        caption: `Processes (${fmt(processList.length)})`,
        rows: processList,
        sortBy: 4,
        descending: true,
        columns: [
          { label: 'PID', text: (p) => String(p.pid), key: (p) => p.pid, numeric: true },
          { label: 'Name', text: (p) => p.name, key: (p) => p.name },
          { label: 'Namespace', text: (p) => p.namespace, key: (p) => p.namespace },
          { label: 'Events', text: (p) => fmt(p.events), key: (p) => p.events, numeric: true },
          { label: 'CPU ms', text: (p) => p.cpuMs.toFixed(1), key: (p) => p.cpuMs, numeric: true },
          { label: 'CPU share', text: (p) => `${(p.cpuShare * 100).toFixed(1)}%`, key: (p) => p.cpuShare, numeric: true },
          { label: 'Off-CPU ms', text: (p) => p.offCpuMs.toFixed(1), key: (p) => p.offCpuMs, numeric: true },
        ],
      })),
    );
  }
  const threadList = threads(summary);
  if (threadList.length > 0) {
    tables.append(
      tagged('threads', sortableTable({
        caption: `Threads (${fmt(threadList.length)})`,
        rows: threadList,
        sortBy: 2,
        descending: true,
        rowClass: (t) => (t.droppedEvents > 0 ? 'warn' : ''),
        columns: [
          { label: 'Thread id', text: (t) => String(t.threadId), key: (t) => t.threadId, numeric: true },
          ...(threadList.some((t) => t.name !== '') ? [{ label: 'Name', text: (t: ThreadInfo) => t.name, key: (t: ThreadInfo) => t.name }] : []),
          { label: 'Process id', text: (t) => (t.processId === null ? '' : String(t.processId)), key: (t) => t.processId ?? -1, numeric: true },
          { label: 'Events', text: (t) => fmt(t.eventCount), key: (t) => t.eventCount, numeric: true },
          { label: 'Dropped', text: (t) => fmt(t.droppedEvents), key: (t) => t.droppedEvents, numeric: true },
        ],
        ...(options.onPickThread === null ? {} : { onActivate: options.onPickThread, rowTitle: 'Show this thread’s events' }),
      })),
    );
  }
  const { events: dropped, ranges } = summary.dropped;
  if (dropped > 0 && ranges.length > 0) {
    const gaps = `${fmt(ranges.length)} ${ranges.length === 1 ? 'gap' : 'gaps'}`;
    tables.append(h('p', { class: 'warn', text: `${fmt(dropped)} ${dropped === 1 ? 'event was' : 'events were'} dropped by the runtime (${gaps} in sequence numbers).` }));
  }
}

/** The count of events with stacks and, when there are some, a button to their flame graph. */
function stacksCell(type: EventType, onStacks: ((type: EventType) => void) | null): Node {
  const n = type.withStacks;
  const cell = h('span', { class: 'stacks-cell' }, fmt(n));
  if (n > 0 && onStacks !== null) {
    const button = h('button', { text: 'Flame graph', class: 'small', attrs: { type: 'button', title: `Flame graph of the ${type.name} stacks` } });
    button.addEventListener('click', (e) => {
      e.stopPropagation(); // not also the row's "filter the event table"
      onStacks(type);
    });
    button.addEventListener('keydown', (e) => e.stopPropagation());
    cell.append(button);
  }
  return cell;
}

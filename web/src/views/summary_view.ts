// web/src/views — the Summary tab: trace facts, event types (click = filter the event
// table), threads and dropped events, from the engine's summary document (README
// "Summary JSON"). The summary is data: every field is checked before use.
import type { Summary } from '../api/types.js';
import { fmt, formatBytes, formatMs, h, percent } from '../ui/dom.js';
import { sortableTable } from '../ui/sortable_table.js';
import { renderRuntime } from './runtime_view.js';
import { field, tagged } from './summary_fields.js';

export interface EventType {
  provider: string;
  name: string;
  eventId: number;
  count: number;
  /** Events of the type that carry a stack; undefined when the summary does not say. */
  withStacks: number | undefined;
}
export interface ThreadInfo {
  threadId: number;
  /** The thread's name when the trace gives one (v6 thread blocks), else "". */
  name: string;
  processId: number | null;
  eventCount: number;
  droppedEvents: number;
}

const num = (v: unknown): number | null => (typeof v === 'number' ? v : null);
const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);

/** The one name of events whose stack has at least one frame (summary facts, pickers). */
export const STACK_FRAMES_LABEL = 'Events with stack frames';

export function eventTypes(summary: Summary): EventType[] {
  const list = summary['types'];
  if (!Array.isArray(list)) return [];
  return list.map((t: unknown) => ({
    provider: str(field(t, 'provider')) ?? '',
    name: str(field(t, 'name')) ?? '',
    eventId: num(field(t, 'eventId')) ?? 0,
    count: num(field(t, 'count')) ?? 0,
    withStacks: num(field(t, 'withStacks')) ?? undefined,
  }));
}

export function threads(summary: Summary): ThreadInfo[] {
  const list = summary['threads'];
  if (!Array.isArray(list)) return [];
  return list.map((t: unknown) => ({
    threadId: num(field(t, 'threadId')) ?? 0,
    name: str(field(t, 'name')) ?? '',
    processId: num(field(t, 'processId')),
    eventCount: num(field(t, 'eventCount')) ?? 0,
    droppedEvents: num(field(t, 'droppedEvents')) ?? 0,
  }));
}

export interface ProcessInfo {
  pid: number;
  name: string;
  namespace: string;
  events: number;
  cpuShare: number | null;
  cpuMs: number;
  offCpuMs: number;
}

/** Processes of multi-process v6 traces (Linux profilers' Universal events); empty otherwise. */
export function processes(summary: Summary): ProcessInfo[] {
  const list = summary['processes'];
  if (!Array.isArray(list)) return [];
  return list.map((p: unknown) => ({
    pid: num(field(p, 'pid')) ?? 0,
    name: str(field(p, 'name')) ?? '',
    namespace: str(field(p, 'namespaceName')) ?? '',
    events: num(field(p, 'events')) ?? 0,
    cpuShare: num(field(p, 'cpuShare')),
    cpuMs: (num(field(p, 'cpuNanoseconds')) ?? 0) / 1e6,
    offCpuMs: (num(field(p, 'offCpuNanoseconds')) ?? 0) / 1e6,
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
  headline.replaceChildren();
  const add = (term: string, value: string, cls = ''): void => {
    headline.append(h('dt', { text: term }), h('dd', { text: value, class: cls }));
  };
  add('File', options.fileName);
  if (options.fileSize !== null) add('Size', `${formatBytes(options.fileSize)} (${fmt(options.fileSize)} bytes)`);
  add('Read in', `${options.readSeconds.toFixed(2)} s`);
  const container = str(field(summary, 'format', 'container'));
  const major = num(field(summary, 'format', 'major'));
  const minor = num(field(summary, 'format', 'minor'));
  // The engine names the container before it has read a header; a version 0 means no
  // header was read: the format was not established, so it is not stated.
  if (container !== null && major !== null && major > 0) add('Format', `${container}, version ${major}.${minor ?? 0}`);
  const start = str(field(summary, 'timeRange', 'startUtc')) ?? str(field(summary, 'trace', 'syncTimeUtc'));
  if (start !== null) add('Start (UTC)', start);
  const duration = num(field(summary, 'timeRange', 'durationMs'));
  if (duration !== null) add('Duration', formatMs(duration));
  const pointerSize = num(field(summary, 'trace', 'pointerSize'));
  if (pointerSize !== null) add('Pointer size', `${pointerSize} bytes (${pointerSize * 8}-bit)`);
  const pid = num(field(summary, 'trace', 'processId'));
  if (pid !== null) add('Process id', String(pid));
  const cpus = num(field(summary, 'trace', 'numberOfProcessors'));
  if (cpus !== null) add('Processors', String(cpus));
  const rate = num(field(summary, 'trace', 'expectedCpuSamplingRate'));
  if (rate !== null && rate > 0) add('CPU sampling interval', `${(rate / 1e6).toFixed(3)} ms`);
  add('Events', fmt(summary.eventCount));
  // Stack frames, not stack references: runtimes attach an empty stack to many events
  // (rundown), which `eventsWithStacks` counts; the per-type `withStacks` does not. One
  // wording everywhere ("with stack frames"), for the one count a flame graph can show.
  const typeList = eventTypes(summary);
  add(STACK_FRAMES_LABEL, fmt(typeList.reduce((sum, t) => sum + (t.withStacks ?? 0), 0)));
  const dropped = num(field(summary, 'dropped', 'events')) ?? 0;
  add('Dropped events', fmt(dropped), dropped > 0 ? 'warn' : '');
  const keyValues = field(summary, 'trace', 'keyValues');
  if (Array.isArray(keyValues)) {
    for (const kv of keyValues) {
      const key = str(field(kv, 'key')) ?? str(field(kv, 'name'));
      const value = field(kv, 'value');
      if (key !== null) add(key, typeof value === 'string' ? value : JSON.stringify(value));
    }
  }

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
          ...(types.some((t) => t.withStacks !== undefined)
            ? [{ label: 'With stack frames', text: (t: EventType) => fmt(t.withStacks ?? 0), key: (t: EventType) => t.withStacks ?? 0, numeric: true, cell: (t: EventType) => stacksCell(t, options.onStacksOfType) }]
            : []),
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
          { label: 'CPU share', text: (p) => (p.cpuShare === null ? '' : `${(p.cpuShare * 100).toFixed(1)}%`), key: (p) => p.cpuShare ?? 0, numeric: true },
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
  const ranges = field(summary, 'dropped', 'ranges');
  if (dropped > 0 && Array.isArray(ranges) && ranges.length > 0) {
    const gaps = `${fmt(ranges.length)} ${ranges.length === 1 ? 'gap' : 'gaps'}`;
    tables.append(h('p', { class: 'warn', text: `${fmt(dropped)} ${dropped === 1 ? 'event was' : 'events were'} dropped by the runtime (${gaps} in sequence numbers).` }));
  }
}

/** The count of events with stacks and, when there are some, a button to their flame graph. */
function stacksCell(type: EventType, onStacks: ((type: EventType) => void) | null): Node {
  const n = type.withStacks ?? 0;
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

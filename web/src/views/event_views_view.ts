// web/src/views — the Diagnostics tab: exceptions by type and throwing method,
// lock contention and waits, Start/Stop activities (a per-name table with percentiles and a
// waterfall of the first ones, indented by nesting) and counters over time (one sparkline per
// series) and the thread pool (views/threadpool_section.ts). Every number comes from the
// engine's event views (core/analysis/views/runtime_views.h), the documents
// `nettrace exceptions|contention|activities|counters|threadpool` prints; each section
// keeps that document under "JSON" so what is shown can be checked against the CLI. Trace
// strings (type names, messages, method and counter names) are written as text only.
import type { ActivitiesView, ContentionView, CountersView, ExceptionsView, WaitSummary } from '../api/event_views.js';
import type { TraceHandle } from '../api/handle.js';
import { fmt, h } from '../ui/dom.js';
import { sortableTable } from '../ui/sortable_table.js';
import { activityWaterfall } from './activity_waterfall.js';
import { threadPoolSection } from './threadpool_section.js';

const SVG = 'http://www.w3.org/2000/svg';

const msOfNs = (ns: number): string => (ns / 1e6).toFixed(3);

/**
 * A method as every view names it, Module!Type.Method (the stacks' form), from the signature
 * an ExceptionCatchStart's MethodName gives ("instance void [ShopApi] Checkout+<PlaceAsync>d__0::MoveNext()"
 * → "ShopApi!Checkout+<PlaceAsync>d__0.MoveNext"). A name of another form is shown as it is.
 */
export function methodDisplayName(signature: string): string {
  const m = /\[([^\]\s]+)\]\s*([^\s[\]]+)::([^\s(]+)\(/.exec(signature);
  return m === null ? signature : `${m[1]}!${m[2]}.${m[3]}`;
}
const num = (v: number | null | undefined): string => (v === null || v === undefined ? '—' : fmt(v));

function section(name: string, title: string, doc: string, ...children: (Node | null)[]): HTMLElement {
  return h(
    'section',
    { class: 'event-view', attrs: { 'data-view': name, 'aria-label': title } },
    h('h3', { text: title }),
    ...children,
    h('details', { class: 'raw' }, h('summary', { text: 'JSON' }), h('pre', { class: 'view-json', text: doc })),
  );
}

function exceptionsSection(text: string): HTMLElement {
  const v = JSON.parse(text) as ExceptionsView;
  if (v.count === 0) return section('exceptions', 'Exceptions', text, h('p', { class: 'muted', text: 'No exceptions in this trace.' }));
  const caught = v.caught === null ? 'not recorded' : fmt(v.caught);
  return section(
    'exceptions',
    `Exceptions (${fmt(v.count)} thrown, caught: ${caught})`,
    text,
    sortableTable({
      caption: 'First-chance exceptions by type',
      rows: v.types,
      sortBy: 1,
      descending: true,
      columns: [
        { label: 'Type', text: (t) => t.type, key: (t) => t.type, width: '28%' },
        { label: 'Thrown', text: (t) => fmt(t.count), key: (t) => t.count, numeric: true },
        { label: 'Caught', text: (t) => num(t.caught), key: (t) => t.caught ?? -1, numeric: true },
        { label: 'Thrown by', text: (t) => t.throwingMethods.map((m) => `${m.method} (${fmt(m.count)})`).join('; '), key: (t) => t.throwingMethods[0]?.method ?? '' },
        { label: 'Caught in', text: (t) => t.catchingMethods.map((m) => `${methodDisplayName(m.method)} (${fmt(m.count)})`).join('; '), key: (t) => t.catchingMethods[0]?.method ?? '' },
        { label: 'Messages', text: (t) => t.messages.join(' | '), key: (t) => t.messages[0] ?? '' },
      ],
    }),
  );
}

function waitTables(kind: string, s: WaitSummary): HTMLElement[] {
  if (s.waits === 0 && s.starts === 0) return [];
  return [
    h('p', {
      class: 'wait-totals',
      attrs: { 'data-kind': kind },
      text: `${kind}: ${fmt(s.waits)} waits, ${msOfNs(s.totalNs)} ms in all; p50 ${msOfNs(s.p50Ns)} ms, p90 ${msOfNs(s.p90Ns)} ms, p99 ${msOfNs(s.p99Ns)} ms, max ${msOfNs(s.maxNs)} ms` +
        (s.unpairedStarts + s.unpairedStops > 0 ? ` (unpaired: ${fmt(s.unpairedStarts)} starts, ${fmt(s.unpairedStops)} stops)` : ''),
    }),
    sortableTable({
      caption: `${kind}: by waiting thread`,
      rows: s.byThread,
      sortBy: 2,
      descending: true,
      columns: [
        { label: 'Thread', text: (t) => (t.threadName ? `${t.threadName} (${t.thread})` : String(t.thread)), key: (t) => t.thread, numeric: true },
        { label: 'Waits', text: (t) => fmt(t.count), key: (t) => t.count, numeric: true },
        { label: 'Total ms', text: (t) => msOfNs(t.totalNs), key: (t) => t.totalNs, numeric: true },
        { label: 'Max ms', text: (t) => msOfNs(t.maxNs), key: (t) => t.maxNs, numeric: true },
      ],
    }),
    sortableTable({
      caption: `${kind}: by lock (owners: LockOwnerThreadID)`,
      rows: s.byLock,
      sortBy: 3,
      descending: true,
      columns: [
        { label: 'Lock', text: (l) => l.lockId, key: (l) => l.lockId },
        { label: 'Object', text: (l) => l.objectId, key: (l) => l.objectId },
        { label: 'Waits', text: (l) => fmt(l.count), key: (l) => l.count, numeric: true },
        { label: 'Total ms', text: (l) => msOfNs(l.totalNs), key: (l) => l.totalNs, numeric: true },
        { label: 'Owners', text: (l) => l.owners.map((o) => `${o.threadName ?? o.owner} (${fmt(o.count)})`).join('; '), key: (l) => l.owners.length, numeric: true },
      ],
    }),
  ];
}

function contentionSection(text: string): HTMLElement {
  const v = JSON.parse(text) as ContentionView;
  const tables = [...waitTables('Lock contention', v.lock), ...waitTables('Wait handles', v.waitHandle)];
  if (tables.length === 0) return section('contention', 'Contention and waits', text, h('p', { class: 'muted', text: 'No contention or wait events in this trace.' }));
  const hint = h('p', { class: 'muted', text: 'Flame graph tab, "Contention/Start" stacks: weighed by time waited (the CLI\'s --weight wait-time), or counted.' });
  return section('contention', 'Contention and waits', text, ...tables, hint);
}

function activitiesSection(text: string): HTMLElement {
  const v = JSON.parse(text) as ActivitiesView;
  if (v.count === 0) return section('activities', 'Activities', text, h('p', { class: 'muted', text: 'No Start/Stop activities with activity ids in this trace.' }));
  return section(
    'activities',
    `Activities (${fmt(v.count)}, ${fmt(v.finished)} finished)`,
    text,
    sortableTable({
      caption: 'Durations per activity name (ms, nearest rank)',
      rows: v.names,
      columns: [
        { label: 'Provider', text: (n) => n.provider, key: (n) => n.provider },
        { label: 'Name', text: (n) => n.name, key: (n) => n.name },
        { label: 'Count', text: (n) => fmt(n.count), key: (n) => n.count, numeric: true },
        { label: 'Finished', text: (n) => fmt(n.finished), key: (n) => n.finished, numeric: true },
        { label: 'p50', text: (n) => n.p50Ms.toFixed(3), key: (n) => n.p50Ms, numeric: true },
        { label: 'p90', text: (n) => n.p90Ms.toFixed(3), key: (n) => n.p90Ms, numeric: true },
        { label: 'p99', text: (n) => n.p99Ms.toFixed(3), key: (n) => n.p99Ms, numeric: true },
        { label: 'Max', text: (n) => n.maxMs.toFixed(3), key: (n) => n.maxMs, numeric: true },
      ],
    }),
    activityWaterfall(v),
  );
}

/** A small line of one series' values over its own time range. */
function sparkline(values: number[]): SVGSVGElement {
  const svg = document.createElementNS(SVG, 'svg');
  svg.setAttribute('viewBox', '0 0 120 24');
  svg.setAttribute('class', 'sparkline');
  const finite = values.filter(Number.isFinite);
  if (finite.length > 0) {
    const lo = Math.min(...finite);
    const hi = Math.max(...finite);
    // A sample without a value (an observable counter's first rate) keeps its place on the
    // time axis but draws no point: never a NaN coordinate.
    const points = values.flatMap((y, i) =>
      Number.isFinite(y) ? [`${values.length > 1 ? (i / (values.length - 1)) * 120 : 60},${hi > lo ? 22 - ((y - lo) / (hi - lo)) * 20 : 12}`] : []);
    const line = document.createElementNS(SVG, 'polyline');
    line.setAttribute('points', points.join(' '));
    svg.append(line);
  }
  return svg;
}

function countersSection(text: string): HTMLElement {
  const v = JSON.parse(text) as CountersView;
  if (v.series.length === 0) return section('counters', 'Counters', text, h('p', { class: 'muted', text: 'No EventCounters or Metrics in this trace.' }));
  // The member dotnet-counters shows for the series' kind (the engine names it: `shown`).
  const valueOf = (s: CountersView['series'][number], x: CountersView['series'][number]['samples'][number]): number => x[s.shown] ?? NaN;
  const rows = v.series.map((s) => ({ s, values: s.samples.map((x) => valueOf(s, x)) }));
  return section(
    'counters',
    `Counters (${fmt(v.series.length)} series)`,
    text,
    sortableTable({
      caption: 'Series per provider (meter) and name',
      rows,
      columns: [
        { label: 'Provider', text: (r) => r.s.provider, key: (r) => r.s.provider },
        { label: 'Name', text: (r) => (r.s.tags ? `${r.s.name} [${r.s.tags}]` : r.s.name), key: (r) => r.s.name },
        { label: 'Kind', text: (r) => r.s.kind, key: (r) => r.s.kind },
        { label: 'Units', text: (r) => r.s.units, key: (r) => r.s.units },
        { label: 'Samples', text: (r) => fmt(r.s.samples.length), key: (r) => r.s.samples.length, numeric: true },
        { label: 'Last', text: (r) => num(r.s.last), key: (r) => r.s.last ?? 0, numeric: true },
        { label: 'Total', text: (r) => num(r.s.total), key: (r) => r.s.total ?? 0, numeric: true },
        { label: 'Over time', text: (r) => r.values.join(' '), key: (r) => r.s.samples.length, cell: (r) => sparkline(r.values), width: 'calc(120px + 1rem)' },
      ],
    }),
  );
}

/** Fills `box` with the five views of `trace` (replacing what was there). */
export async function renderEventViews(box: HTMLElement, trace: TraceHandle): Promise<void> {
  const [exceptions, contention, activities, counters, threadPool] = await Promise.all([
    trace.eventView('exceptions'),
    trace.eventView('contention'),
    trace.eventView('activities'),
    trace.eventView('counters'),
    trace.eventView('threadpool'),
  ]);
  box.replaceChildren(exceptionsSection(exceptions), contentionSection(contention), activitiesSection(activities), countersSection(counters),
    threadPoolSection(threadPool));
  box.dataset['ready'] = 'true';
}

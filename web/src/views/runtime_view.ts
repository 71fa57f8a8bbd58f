// web/src/views — the Summary's runtime signals: headline numbers (GCs and their pause time,
// exceptions, allocation ticks, JIT'd methods, contentions, CPU samples) and the tables behind
// them — GCs and pauses by generation, exceptions by type, allocations by type — from the
// engine's `runtime` summary key (core/analysis/runtime/runtime_signals.h: pauses are TraceEvent's
// GCStats totals, the GC view's numbers), typed by reader/summary.ts.
import type { Summary } from '../api/types.js';
import { fmt, h, percent } from '../ui/dom.js';
import { formatBytes, formatDurationMs } from '../ui/units.js';
import { sortableTable } from '../ui/sortable_table.js';
import { tagged } from './summary_fields.js';

interface TypeCount {
  type: string;
  count: number;
  bytes: number;
}

/** Per-type rows, plus one "(other types)" row for what the engine summed beyond its cap. */
function typeCounts(summary: Summary, key: 'exceptions' | 'allocations'): TypeCount[] {
  const signal = summary.runtime[key];
  const rows = signal.types.map((t) => ({ type: t.type, count: t.count, bytes: t.bytes ?? 0 }));
  const otherBytes = 'otherBytes' in signal ? signal.otherBytes : 0;
  if (signal.otherCount > 0) rows.push({ type: '(other types)', count: signal.otherCount, bytes: otherBytes });
  return rows;
}

const ms = (v: number): string => v.toFixed(3);

/** The headline numbers that are not zero, as cards (null when all are). */
function signalCards(summary: Summary, cpuSamples: number): HTMLElement | null {
  const { gc, exceptions, allocations, jit, contentions } = summary.runtime;
  const pauseMs = gc.generations.reduce((sum, g) => sum + g.totalPauseMs, 0);
  const signals: [string, string, number][] = [
    ['Garbage collections', fmt(gc.count), gc.count],
    ['GC pause time', formatDurationMs(pauseMs), pauseMs],
    ['Exceptions thrown', fmt(exceptions.count), exceptions.count],
    ['Allocation ticks (≈100 KB each)', `${fmt(allocations.ticks)} · ${formatBytes(allocations.bytes)}`, allocations.ticks],
    ['Methods JIT-compiled', fmt(jit.methods), jit.methods],
    ['Lock contentions', fmt(contentions), contentions],
    ['CPU samples', fmt(cpuSamples), cpuSamples],
  ];
  const present = signals.filter(([, , n]) => n > 0);
  if (present.length === 0) return null;
  const cards = h('div', { class: 'signal-list' });
  for (const [label, value] of present) cards.append(h('div', { class: 'signal' }, h('span', { class: 'signal-value', text: value }), h('span', { class: 'muted', text: label })));
  return h('section', { class: 'signals', attrs: { 'aria-label': 'Runtime signals' } }, cards);
}

/** Appends the runtime signals and their tables to `tables` (nothing when the trace has none). */
export function renderRuntime(
  summary: Summary,
  tables: HTMLElement,
  cpuSamples: number,
  onPickType: ((eventName: string, typeName: string) => void) | null,
): void {
  // A row of a per-type table shows that type's events (by their event and the type's name).
  const drill = (eventName: string) =>
    onPickType === null
      ? {}
      : { onActivate: (t: TypeCount) => onPickType(eventName, t.type), rowTitle: `Show the ${eventName} events that mention this type (a text search)` };
  const { gc, exceptions: exceptionSignal, allocations } = summary.runtime;
  const gens = gc.generations;
  const gcCount = gc.count;
  const exceptions = exceptionSignal.count;
  const ticks = allocations.ticks;
  const allocatedBytes = allocations.bytes;
  const cards = signalCards(summary, cpuSamples);
  if (cards !== null) tables.append(cards);
  const runtimeTables: HTMLTableElement[] = [];
  if (gcCount > 0) {
    runtimeTables.push(
      tagged('gc', sortableTable({
        caption: `GCs by generation (pauses of complete GCs, as TraceEvent's GCStats and the GC view)`,
        rows: gens,
        columns: [
          { label: 'Gen', text: (g) => (g.generation === null ? 'other' : String(g.generation)), key: (g) => g.generation ?? 3, numeric: true },
          { label: 'GCs', text: (g) => fmt(g.count), key: (g) => g.count, numeric: true },
          { label: 'Pause ms', text: (g) => ms(g.totalPauseMs), key: (g) => g.totalPauseMs, numeric: true },
          { label: 'Max ms', text: (g) => ms(g.maxPauseMs), key: (g) => g.maxPauseMs, numeric: true },
          { label: 'Mean ms', text: (g) => ms(g.meanPauseMs), key: (g) => g.meanPauseMs, numeric: true },
        ],
      })),
    );
  }
  const thrown = typeCounts(summary, 'exceptions');
  if (thrown.length > 0) {
    runtimeTables.push(
      tagged('exceptions', sortableTable({
        caption: `Exceptions by type (${fmt(exceptions)})`,
        rows: thrown,
        ...drill('Exception/Start'),
        sortBy: 1,
        descending: true,
        columns: [
          { label: 'Type', text: (t) => t.type, key: (t) => t.type },
          { label: 'Thrown', text: (t) => fmt(t.count), key: (t) => t.count, numeric: true },
          { label: 'Share', text: (t) => percent(t.count, exceptions), key: (t) => t.count, numeric: true },
        ],
      })),
    );
  }
  const allocated = typeCounts(summary, 'allocations');
  if (allocated.length > 0) {
    runtimeTables.push(
      tagged('allocations', sortableTable({
        caption: `Allocations by type (sampled: ${fmt(ticks)} ticks)`,
        rows: allocated,
        ...drill('GC/AllocationTick'),
        sortBy: 2,
        descending: true,
        columns: [
          { label: 'Type', text: (t) => t.type, key: (t) => t.type },
          { label: 'Ticks', text: (t) => fmt(t.count), key: (t) => t.count, numeric: true },
          { label: 'Bytes', text: (t) => formatBytes(t.bytes), key: (t) => t.bytes, numeric: true },
          { label: 'Share', text: (t) => percent(t.bytes, allocatedBytes), key: (t) => t.bytes, numeric: true },
        ],
      })),
    );
  }
  if (runtimeTables.length > 0) tables.append(h('div', { class: 'runtime-tables' }, ...runtimeTables));
}

// web/src/views — the GC view: per process, GCStats totals and one row per GC as
// TraceEvent's TraceGC (trace.gc(); core/analysis/runtime/gc_stats.h), under the Summary's runtime
// tables. A GC's row selects its time range (from its pause start, or its start, to the later
// of its pause end and its end), which the event table and the flame graph then show.
import type { GcProcessStats, GcRecord, GcStats } from '../api/types.js';
import { fmt, h } from '../ui/dom.js';
import { sortableTable } from '../ui/sortable_table.js';
import { tagged } from './summary_fields.js';

/** Fixed 3 decimals; "" for a value the engine could not compute (null). */
const fixed3 = (v: number | null): string => (v === null ? '' : v.toFixed(3));
const mb = (bytes: number | null | undefined): string => (bytes === null || bytes === undefined ? '' : (bytes / 1e6).toFixed(3));

/** A GC's time range in ms: pause start (or start) to the later of pause end and end. */
export function gcRange(gc: GcRecord): [number, number] {
  const from = Math.min(gc.pauseStartMs, gc.startMs);
  const to = Math.max(gc.pauseStartMs + gc.pauseMs, gc.startMs + gc.durationMs);
  // Milliseconds with 3 decimals in the view state: round outwards so the GC's own events stay in.
  return [Math.floor(from * 1000) / 1000, Math.ceil(to * 1000) / 1000];
}

/** The cells of a GC row, as the table shows them (the browser test rebuilds them from the CLI's JSON). */
export function gcCells(gc: GcRecord): string[] {
  const sizes = gc.genSizeAfterBytes;
  return [
    String(gc.number),
    String(gc.generation),
    gc.type,
    gc.reason,
    gc.isInduced ? 'yes' : '',
    gc.startMs.toFixed(3),
    gc.pauseMs.toFixed(3),
    gc.suspendMs.toFixed(3),
    fixed3(gc.heapSizeBeforeMB),
    mb(gc.heapSizeAfterBytes),
    mb(gc.promotedBytes),
    mb(sizes?.gen0),
    mb(sizes?.gen1),
    mb(sizes?.gen2),
    mb(sizes?.loh),
    mb(sizes?.poh),
    gc.pinnedObjectCount === null ? '' : String(gc.pinnedObjectCount),
  ];
}

const LABELS = ['#', 'Gen', 'Type', 'Reason', 'Induced', 'Start ms', 'Pause ms', 'Suspend ms', 'Before MB', 'After MB',
  'Promoted MB', 'Gen0 MB', 'Gen1 MB', 'Gen2 MB', 'LOH MB', 'POH MB', 'Pinned'];
/** Columns a narrow analyzer leaves out (analyzer.css). */
const OPTIONAL = new Set(['Induced', 'Gen0 MB', 'Gen1 MB', 'Gen2 MB', 'LOH MB', 'POH MB', 'Pinned']);
const TITLES: Record<string, string> = {
  'Pause ms': 'SuspendEEStart of the GC → RestartEEStop of the suspending thread (background GCs: their pauses summed)',
  'Suspend ms': 'SuspendEEStart → SuspendEEStop',
  'Reason': 'The GC/Start Reason by TraceEvent\'s name; newer ones by the runtime\'s (InducedAggressive: GC.Collect with GCCollectionMode.Aggressive)',
  'Induced': 'Reason Induced or InducedNotForced: the GCs TraceEvent\'s GCStats counts as induced',
  'Before MB': 'Heap size before: the per-heap histories, else an estimate from the previous GC (as TraceEvent)',
  'After MB': 'Heap size after (GC/HeapStats)',
};

function totalsTable(p: GcProcessStats): HTMLTableElement {
  const t = p.totals;
  const rows: [string, string][] = [
    ['GCs', `${fmt(t.count)} (induced ${fmt(t.induced)})`],
    ['Pause total / max / mean ms', `${t.totalPauseMs.toFixed(3)} / ${t.maxPauseMs.toFixed(3)} / ${t.meanPauseMs.toFixed(3)}`],
    ['Time paused', `${t.pausedPercent.toFixed(2)}% of ${t.processDurationMs.toFixed(1)} ms`],
    ['Allocated MB', fixed3(t.totalAllocatedMB)],
    ['By generation (GCs, pause ms)', p.generations.map((g) => `gen${g.generation}: ${fmt(g.count)}, ${g.totalPauseMs.toFixed(3)}`).join(' · ')],
  ];
  const table = h('table', { class: 'data' }, h('caption', { text: `GC totals, process ${p.processId}` }));
  const body = h('tbody');
  for (const [label, value] of rows) body.append(h('tr', {}, h('th', { text: label, attrs: { scope: 'row' } }), h('td', { text: value })));
  table.append(body);
  return tagged('gc-totals', table);
}

/**
 * Appends the GC view to `container` (nothing without GCs). `onSelectRange` gets a GC's time
 * range when its row is clicked (or Enter).
 */
export function renderGcView(stats: GcStats, container: HTMLElement, onSelectRange: (fromMs: number, toMs: number) => void): void {
  container.querySelector('.gc-view')?.remove();
  const processes = stats.processes.filter((p) => p.gcs.length > 0);
  if (processes.length === 0) return;
  const section = h('section', { class: 'gc-view', attrs: { 'aria-label': 'Garbage collections' } });
  for (const p of processes) {
    const columns = LABELS.map((label, i) => ({
      label,
      text: (gc: GcRecord) => gcCells(gc)[i]!,
      key: (gc: GcRecord) => (i < 2 || i >= 5 ? Number(gcCells(gc)[i] || -1) : gcCells(gc)[i]!),
      numeric: i < 2 || i >= 5,
      // The sizes per generation are left out where the table would not fit (their sum is "After MB").
      optional: OPTIONAL.has(label),
      ...(TITLES[label] === undefined ? {} : { title: TITLES[label] }),
    }));
    const table = sortableTable({
      caption: `GCs of process ${p.processId} (${fmt(p.gcs.length)}; click a row to see its events)`,
      rows: p.gcs,
      columns,
      onActivate: (gc) => onSelectRange(...gcRange(gc)),
      rowTitle: 'Select this GC\'s time range (events and flame graph)',
    });
    table.dataset['process'] = String(p.processId);
    section.append(totalsTable(p), h('div', { class: 'gc-table-box' }, tagged('gcs', table)));
  }
  container.append(section);
}

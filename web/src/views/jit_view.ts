// web/src/views — the JIT view (PerfView's JITStats): per process, the totals
// (methods, JIT time, foreground vs background tiered compilation, IL and native bytes) and
// one row per jitted method as TraceEvent's TraceJittedMethod (trace.jit(); `nettrace jit`),
// slowest first. Method and module names are trace strings: text only.
import type { JitMethod, JitProcessStats, JitStats } from '../api/types.js';
import { fmt, h } from '../ui/dom.js';
import { sortableTable } from '../ui/sortable_table.js';
import { tagged } from './summary_fields.js';

/** The cells of a method's row, as the table shows them (the browser test rebuilds them from the CLI's JSON). */
export function jitCells(m: JitMethod): string[] {
  return [
    m.name,
    m.module,
    m.tier,
    m.r2r ? 'R2R' : 'jitted',
    String(m.ilSize),
    String(m.nativeSize),
    m.jitTimeMs.toFixed(3),
    m.startMs.toFixed(3),
    m.thread,
    String(m.threadId),
    m.completed ? '' : 'unfinished',
  ];
}

const LABELS = ['Method', 'Module', 'Tier', 'Code', 'IL bytes', 'Native bytes', 'JIT ms', 'Start ms', 'Compiled on', 'Thread', 'State'];
const NUMERIC = new Set([4, 5, 6, 7, 9]);
/** Columns a narrow analyzer leaves out (analyzer.css): the tier and the times stay. */
const OPTIONAL = new Set(['Code', 'Compiled on', 'State']);
const TITLES: Record<string, string> = {
  'JIT ms': 'MethodJittingStarted → MethodLoad (Verbose) of the same method id',
  Code: 'R2R: precompiled code (ReadyToRun) loaded; jitted: compiled at run time',
  'Compiled on': 'CompilationThreadKind: a foreground thread or the tiered-compilation background worker',
};

function totalsTable(p: JitProcessStats): HTMLTableElement {
  const t = p.totals;
  const rows: [string, string][] = [
    ['Methods', fmt(t.count)],
    ['JIT time ms', t.totalJitTimeMs.toFixed(3)],
    ['Foreground (methods, ms)', `${fmt(t.countForeground)}, ${t.foregroundJitTimeMs.toFixed(3)}`],
    ['Background tiered compilation (methods, ms)', `${fmt(t.countBackgroundTieredCompilation)}, ${t.backgroundTieredCompilationJitTimeMs.toFixed(3)}`],
    ['Background multicore JIT (methods, ms)', `${fmt(t.countBackgroundMultiCoreJit)}, ${t.backgroundMultiCoreJitTimeMs.toFixed(3)}`],
    ['IL / native bytes', `${fmt(t.totalILSize)} / ${fmt(t.totalNativeSize)}`],
  ];
  const table = h('table', { class: 'data' }, h('caption', { text: `JIT totals, process ${p.processId}` }));
  const body = h('tbody');
  for (const [label, value] of rows) body.append(h('tr', {}, h('th', { text: label, attrs: { scope: 'row' } }), h('td', { text: value })));
  table.append(body);
  table.dataset['process'] = String(p.processId);
  return tagged('jit-totals', table);
}

/** Appends the JIT view to `container` (nothing without jitted methods). */
export function renderJitView(stats: JitStats, container: HTMLElement): void {
  container.querySelector('.jit-view')?.remove();
  const processes = stats.processes.filter((p) => p.methods.length > 0);
  if (processes.length === 0) return;
  const section = h('section', { class: 'jit-view', attrs: { 'aria-label': 'JIT compilation' } });
  for (const p of processes) {
    const columns = LABELS.map((label, i) => ({
      label,
      text: (m: JitMethod) => jitCells(m)[i]!,
      key: (m: JitMethod) => (NUMERIC.has(i) ? Number(jitCells(m)[i]) : jitCells(m)[i]!),
      numeric: NUMERIC.has(i),
      // A narrow analyzer leaves these out, and gives the module's path less room than the method.
      optional: OPTIONAL.has(label),
      ...(label === 'Module' ? { width: '14%' } : {}),
      ...(TITLES[label] === undefined ? {} : { title: TITLES[label] }),
    }));
    const table = sortableTable({
      caption: `Jitted methods of process ${p.processId} (${fmt(p.methods.length)}), slowest first`,
      rows: p.methods,
      columns,
      sortBy: 6,
      descending: true,
    });
    table.dataset['process'] = String(p.processId);
    section.append(totalsTable(p), h('div', { class: 'gc-table-box' }, tagged('jit-methods', table)));
  }
  container.append(section);
}

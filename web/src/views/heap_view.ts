// web/src/views — the Heap tab's content for one snapshot (read in the heap worker,
// engine/heap_client.ts): what it is, the types
// by count, shallow, retained (dominator tree) and PerfView-inclusive size in a virtualized
// table sortable by any column, the largest objects, the paths from the roots to a type picked
// in the table (with their root kinds), and the growth by type against a baseline snapshot.
// Every figure is the engine's document as `nettrace heap` prints it; trace strings are data:
// they reach the DOM through textContent only.
import type { WorkerHeap } from '../engine/heap_client.js';
import type { HeapDiff, HeapDiffRow, HeapObject, HeapPaths, HeapSnapshot, HeapTypeRow } from '../api/generated/results.js';
import { fmt, h } from '../ui/dom.js';
import { sortableTable } from '../ui/sortable_table.js';
import type { Column } from '../ui/sortable_table.js';
import { formatBytes } from '../ui/units.js';

/** The height of a row of the types table (analyzer.css .heap-types .vt-row). */
const ROW_HEIGHT = 24;
/** Rows drawn beyond the visible ones, above and below. */
const OVERSCAN = 10;

interface TypeColumn {
  key: keyof HeapTypeRow;
  label: string;
  title: string;
  numeric: boolean;
}

const TYPE_COLUMNS: TypeColumn[] = [
  { key: 'name', label: 'Type', title: 'The type (by name and module)', numeric: false },
  { key: 'module', label: 'Module', title: 'The module that defines it', numeric: false },
  { key: 'count', label: 'Count', title: 'Objects of the type', numeric: true },
  { key: 'size', label: 'Shallow bytes', title: "The objects' own bytes", numeric: true },
  { key: 'retained', label: 'Retained bytes', title: 'Dominator tree: bytes the objects keep alive (nested objects of the type once)', numeric: true },
  { key: 'inclusive', label: 'Inclusive (PerfView)', title: "PerfView's spanning tree: the Inc column of its By Name view", numeric: true },
];

/** The text of a type's cell in the column (what the browser test reads back). */
export function typeCellText(row: HeapTypeRow, key: keyof HeapTypeRow): string {
  const v = row[key];
  return typeof v === 'number' ? fmt(v) : v;
}

/** "module!name" names one row exactly (the engine's --paths-to matching, heap_report.cc). */
const typeKey = (row: { name: string; module: string }): string => (row.module === '' ? row.name : `${row.module}!${row.name}`);

export interface HeapViewHooks {
  /** A baseline snapshot to compare with, from a file the user chose or dropped. */
  openBaseline(file: File): Promise<WorkerHeap | null>;
}

export class HeapView {
  readonly root: HTMLElement;
  private readonly scroller: HTMLElement;
  private readonly rowsLayer: HTMLElement;
  private readonly spacer: HTMLElement;
  private readonly head: HTMLElement;
  private readonly pathsBox: HTMLElement;
  private readonly diffBox: HTMLElement;
  private rows: HeapTypeRow[] = [];
  private sortKey: keyof HeapTypeRow = 'size';
  private descending = true;
  private selected: string | null = null;
  private frame = 0;
  private readonly resizeObserver = new ResizeObserver(() => this.schedule());

  /** The view of `heap` once its views have come from the worker. */
  static async create(heap: WorkerHeap, name: string, hooks: HeapViewHooks): Promise<HeapView> {
    return new HeapView(heap, name, hooks, await heap.snapshot());
  }

  private constructor(
    private readonly heap: WorkerHeap,
    private readonly name: string,
    private readonly hooks: HeapViewHooks,
    snapshot: HeapSnapshot,
  ) {
    this.rows = snapshot.types.slice();
    this.head = h('div', { class: 'vt-head', attrs: { role: 'row' } });
    this.spacer = h('div', { class: 'vt-spacer' });
    this.rowsLayer = h('div', { class: 'vt-rows', attrs: { role: 'rowgroup' } });
    this.scroller = h('div', { class: 'vt-scroller', attrs: { tabindex: '0', role: 'grid', 'aria-label': 'Types', id: 'heap-scroller' } }, this.spacer, this.rowsLayer);
    this.scroller.addEventListener('scroll', () => this.schedule());
    this.resizeObserver.observe(this.scroller);
    this.pathsBox = h('div', { class: 'heap-paths', attrs: { id: 'heap-paths' } }, h('p', { class: 'muted', text: 'Click a type to see the paths from the roots to its instances.' }));
    this.diffBox = h('div', { class: 'heap-diff', attrs: { id: 'heap-diff' } });
    this.root = h(
      'div',
      { class: 'heap-view', attrs: { 'data-source': snapshot.source } },
      this.infoLine(snapshot),
      h('h3', { text: `Types (${fmt(snapshot.types.length)})` }),
      h('div', { class: 'event-table heap-types', attrs: { 'data-table': 'heap-types' } }, this.head, this.scroller),
      this.pathsBox,
      h('h3', { text: 'Largest objects' }),
      this.largestTable(snapshot.largest),
      h('h3', { text: 'Compare with a baseline snapshot' }),
      this.baselineControls(),
      this.diffBox,
    );
    this.drawHead();
    this.sort();
  }

  dispose(): void {
    this.resizeObserver.disconnect();
    cancelAnimationFrame(this.frame);
  }

  private infoLine(s: HeapSnapshot): HTMLElement {
    const t = s.totals;
    const what = s.source === 'gcdump' ? `.gcdump by ${s.creationTool || 'an unknown tool'}` : `heap-dump events of GC #${s.gcNumber}`;
    const process = s.processName !== '' ? `${s.processName} (${s.processId})` : s.processId > 0 ? `process ${s.processId}` : 'process not recorded';
    const text =
      `${this.name}: ${what}, ${process} · ${fmt(t.objects)} objects, ${formatBytes(t.bytes)} in ${fmt(t.types)} types · ` +
      `${fmt(t.nodes)} nodes, ${fmt(t.edges)} references · unreachable: ${fmt(t.unreachableObjects)} objects, ${formatBytes(t.unreachableBytes)}` +
      (s.nodeLimitReached ? ' · stopped at 10,000,000 objects, as dotnet-gcdump does' : '');
    return h('p', { class: 'heap-info', text, attrs: { id: 'heap-info' } });
  }

  // ---- the types table (virtualized) -------------------------------------------------------

  private drawHead(): void {
    this.head.replaceChildren(
      ...TYPE_COLUMNS.map((c) => {
        const sorted = c.key === this.sortKey;
        const cell = h('span', {
          text: c.label + (sorted ? (this.descending ? ' ▼' : ' ▲') : ''),
          class: c.numeric ? 'num' : '',
          attrs: { role: 'columnheader', tabindex: '0', title: c.title, 'data-key': c.key, 'aria-sort': sorted ? (this.descending ? 'descending' : 'ascending') : 'none' },
        });
        const activate = (): void => {
          if (this.sortKey === c.key) this.descending = !this.descending;
          else (this.sortKey = c.key), (this.descending = c.numeric);
          this.drawHead();
          this.sort();
        };
        cell.addEventListener('click', activate);
        cell.addEventListener('keydown', (e) => (e.key === 'Enter' || e.key === ' ') && (e.preventDefault(), activate()));
        return cell;
      }),
    );
  }

  private sort(): void {
    const key = this.sortKey;
    const sign = this.descending ? -1 : 1;
    // Stable: equal keys keep the engine's order (shallow size, then retained, then name).
    const order = new Map(this.rows.map((r, i) => [r, i]));
    this.rows.sort((a, b) => {
      const x = a[key];
      const y = b[key];
      const c = x < y ? -1 : x > y ? 1 : 0;
      return c !== 0 ? sign * c : order.get(a)! - order.get(b)!;
    });
    this.spacer.style.height = `${this.rows.length * ROW_HEIGHT}px`;
    this.scroller.dataset['total'] = String(this.rows.length);
    this.scroller.dataset['sort'] = `${key}:${this.descending ? 'desc' : 'asc'}`;
    this.draw();
  }

  private schedule(): void {
    cancelAnimationFrame(this.frame);
    this.frame = requestAnimationFrame(() => this.draw());
  }

  private draw(): void {
    const top = this.scroller.scrollTop;
    const height = this.scroller.clientHeight || 600;
    const first = Math.max(0, Math.floor(top / ROW_HEIGHT) - OVERSCAN);
    const last = Math.min(this.rows.length, Math.ceil((top + height) / ROW_HEIGHT) + OVERSCAN);
    this.rowsLayer.style.transform = `translateY(${first * ROW_HEIGHT}px)`;
    const out: HTMLElement[] = [];
    for (let i = first; i < last; i++) {
      const row = this.rows[i]!;
      const key = typeKey(row);
      const tr = h('div', { class: key === this.selected ? 'vt-row selected' : 'vt-row', attrs: { role: 'row', 'data-row': String(i), title: key } });
      for (const c of TYPE_COLUMNS) tr.append(h('span', { text: typeCellText(row, c.key), class: c.numeric ? 'num' : '', attrs: { role: 'gridcell' } }));
      tr.addEventListener('click', () => void this.select(row));
      out.push(tr);
    }
    this.rowsLayer.replaceChildren(...out);
    this.rowsLayer.dataset['first'] = String(first);
  }

  // ---- paths from the roots -----------------------------------------------------------------

  /** Shows the paths from the roots to `row`'s instances. */
  async select(row: HeapTypeRow): Promise<void> {
    const key = typeKey(row);
    this.selected = key;
    this.draw();
    const paths = await this.heap.paths(key).catch(() => null);
    if (paths !== null && this.selected === key) this.showPaths(paths, row);
  }

  private showPaths(p: HeapPaths, row: HeapTypeRow): void {
    const roots = sortableTable({
      caption: `${fmt(p.instances)} instances of ${row.name}, by the root that reaches them`,
      columns: [
        { label: 'Root', text: (r) => r.root, key: (r) => r.root },
        { label: 'Root kind', text: (r) => r.kind, key: (r) => r.kind },
        { label: 'Instances', text: (r) => fmt(r.count), key: (r) => r.count, numeric: true },
        { label: 'Shallow bytes', text: (r) => fmt(r.size), key: (r) => r.size, numeric: true },
        { label: 'Retained bytes', text: (r) => fmt(r.retained), key: (r) => r.retained, numeric: true },
      ],
      rows: p.roots,
      sortBy: 2,
      descending: true,
    });
    roots.dataset['table'] = 'heap-roots';
    const list = h('ol', { class: 'heap-path-list', attrs: { 'data-list': 'heap-paths' } });
    for (const path of p.paths) {
      const steps = path.steps.map((s) => (s.address === undefined ? s.type : `${s.type} ${s.address}`));
      list.append(
        h('li', { attrs: { 'data-kind': path.kind } },
          h('span', { class: 'heap-root-kind', text: path.kind }),
          ' ',
          h('span', { text: `${steps.join(' → ')} (${fmt(path.size)} bytes, retains ${fmt(path.retained)})` })),
      );
    }
    this.pathsBox.replaceChildren(
      h('h3', { text: `Paths from the roots to ${row.name}` }),
      roots,
      h('p', { class: 'muted', text: p.paths.length === 0 ? 'No instance is reached from a root.' : `The shortest path to each of the ${fmt(p.paths.length)} instances that retain the most:` }),
      list,
    );
  }

  // ---- largest objects ----------------------------------------------------------------------

  private largestTable(objects: HeapObject[]): HTMLTableElement {
    const columns: Column<HeapObject>[] = [
      { label: 'Type', text: (o) => o.name, key: (o) => o.name },
      { label: 'Address', text: (o) => o.address, key: (o) => o.address },
      { label: 'Shallow bytes', text: (o) => fmt(o.size), key: (o) => o.size, numeric: true },
      { label: 'Retained bytes', text: (o) => fmt(o.retained), key: (o) => o.retained, numeric: true },
      { label: 'Reached from', text: (o) => o.root, key: (o) => o.root },
    ];
    const table = sortableTable({ caption: `The ${objects.length} largest objects`, columns, rows: objects, sortBy: 2, descending: true });
    table.dataset['table'] = 'heap-largest';
    return table;
  }

  // ---- growth against a baseline ------------------------------------------------------------

  private baselineControls(): HTMLElement {
    const input = h('input', { attrs: { type: 'file', id: 'heap-baseline-file', accept: '.gcdump,.nettrace' } });
    const drop = h('div', { class: 'drop heap-baseline-drop', attrs: { id: 'heap-baseline-drop', tabindex: '0' } },
      h('span', { text: 'Drop an older snapshot of the same process here (.gcdump or .nettrace with heap-dump events), or ' }),
      h('label', { text: 'choose one', attrs: { for: 'heap-baseline-file', class: 'link' } }), input);
    const take = (file: File | undefined): void => {
      if (file === undefined) return;
      void this.hooks.openBaseline(file).then(async (baseline) => {
        if (baseline === null) return;
        try {
          this.showDiff(await this.heap.diff(baseline), file.name);
        } finally {
          baseline.close();
        }
      });
    };
    input.addEventListener('change', () => take(input.files?.[0]));
    drop.addEventListener('dragover', (e) => e.preventDefault());
    drop.addEventListener('drop', (e) => {
      e.preventDefault();
      e.stopPropagation(); // not the analyzer's own drop (which opens a new file)
      take(e.dataTransfer?.files[0]);
    });
    return drop;
  }

  private showDiff(d: HeapDiff, baselineName: string): void {
    const delta = (v: { delta: number }): string => (v.delta > 0 ? `+${fmt(v.delta)}` : fmt(v.delta));
    const columns: Column<HeapDiffRow>[] = [
      { label: 'Type', text: (r) => r.name, key: (r) => r.name },
      { label: 'Module', text: (r) => r.module, key: (r) => r.module, optional: true },
      { label: 'Count Δ', text: (r) => delta(r.count), key: (r) => r.count.delta, numeric: true },
      { label: 'Shallow Δ', text: (r) => delta(r.size), key: (r) => r.size.delta, numeric: true },
      { label: 'Retained Δ', text: (r) => delta(r.retained), key: (r) => r.retained.delta, numeric: true },
      { label: 'Count', text: (r) => `${fmt(r.count.baseline)} → ${fmt(r.count.current)}`, key: (r) => r.count.current, numeric: true, optional: true },
      { label: 'Shallow bytes', text: (r) => `${fmt(r.size.baseline)} → ${fmt(r.size.current)}`, key: (r) => r.size.current, numeric: true, optional: true },
    ];
    const table = sortableTable({ caption: `Growth from ${baselineName}: ${fmt(d.changedTypes)} types changed`, columns, rows: d.types, sortBy: 3, descending: true });
    table.dataset['table'] = 'heap-diff';
    const line = `Baseline: ${fmt(d.baseline.objects)} objects, ${formatBytes(d.baseline.bytes)} → now ${fmt(d.current.objects)} objects, ${formatBytes(d.current.bytes)}`;
    this.diffBox.replaceChildren(h('p', { text: line }), table);
  }
}

// web/src/views — the sandwich of one function: who calls it (callers, outward from it) and
// what it calls (callees, inward), as two collapsible tree tables around a line for the
// function itself. The engine builds both trees (TraceHandle.sandwich: two flame-graph
// layouts rooted at the function); this view only renders them. Percentages are of the
// function's inclusive weight, so each level of callers (or callees) adds up to at most 100%.
//
// Keyboard (WAI-ARIA treegrid): Up/Down move between rows, Right expands or goes to the first
// child, Left collapses or goes to the parent, Home/End, Enter re-centres on the row's
// function; a click on a name re-centres, a click on the triangle expands or collapses.
// Trace strings only ever go through textContent (ui/dom.ts h()).
import type { StackQuery, TraceHandle } from '../api/handle.js';
import type { FlameGraphData, Sandwich } from '../api/types.js';
import { fmt, h, percent } from '../ui/dom.js';
import { countNoun, DEFAULT_STACK_EVENT, formatWeight } from '../ui/units.js';
import { subtreeEnds } from './flame_index.js';

/** How a tree writes its amounts: a cell's text, a header's label (ui/units.ts). */
interface Amounts {
  text: (weight: number) => string;
  header: (label: string) => string;
}

/** Levels of each tree open when a function is shown (the function's row is level 0). */
const OPEN_LEVELS = 2;

/** One tree of the sandwich with its child lists, heaviest first. */
class SandwichTree {
  private readonly children: (number[] | undefined)[] = [];
  private readonly subtreeEnd: Uint32Array;
  readonly expanded = new Set<number>();

  constructor(readonly data: FlameGraphData) {
    this.subtreeEnd = subtreeEnds(data.parent);
  }

  childrenOf(node: number): number[] {
    let list = this.children[node];
    if (list === undefined) {
      list = [];
      for (let c = node + 1; c < this.subtreeEnd[node]!; c = this.subtreeEnd[c]!) list.push(c);
      const d = this.data;
      list.sort((a, b) => d.end[b]! - d.start[b]! - (d.end[a]! - d.start[a]!));
      this.children[node] = list;
    }
    return list;
  }

  name(node: number): string {
    return this.data.frameNames[this.data.frame[node]!] ?? '?';
  }

  inclusive(node: number): number {
    return this.data.end[node]! - this.data.start[node]!;
  }

  /** Opens the first `levels` levels below the root. */
  openTop(levels: number): void {
    const open = (node: number, level: number): void => {
      if (level >= levels) return;
      this.expanded.add(node);
      for (const c of this.childrenOf(node)) open(c, level + 1);
    };
    open(0, 0);
  }
}

export class SandwichView {
  /**
   * Called after the view re-centred itself on a function picked in one of its trees (click
   * or Enter), with that function's name: the page may follow (search box, URL, another view).
   */
  onPick?: (functionName: string) => void;

  private trace: TraceHandle | null = null;
  private query: StackQuery = {};
  private current = '';
  /** Increments per show(): an older request that answers late is dropped. */
  private generation = 0;
  private readonly root: HTMLElement;

  /** @param container emptied and filled by the view; nothing else in it is touched */
  constructor(container: HTMLElement) {
    this.root = h('div', { class: 'sandwich' });
    container.replaceChildren(this.root);
  }

  /** The function shown, or "" when none. */
  get functionName(): string {
    return this.current;
  }

  /**
   * Shows the callers and callees of `functionName` (a frame name as the flame graph and the
   * top functions give it) in the stacks `query` selects.
   * @returns once the trees are rendered (or the request was superseded by a later show())
   */
  async show(trace: TraceHandle, query: StackQuery, functionName: string): Promise<void> {
    const generation = ++this.generation;
    this.trace = trace;
    this.query = query;
    this.current = functionName;
    this.root.setAttribute('aria-busy', 'true');
    let sandwich: Sandwich;
    try {
      sandwich = await trace.sandwich(query, functionName);
    } catch (e) {
      if (generation !== this.generation) return;
      this.root.removeAttribute('aria-busy');
      this.root.replaceChildren(h('p', { class: 'warn', text: `Sandwich of ${functionName} failed: ${e instanceof Error ? e.message : String(e)}` }));
      return;
    }
    if (generation !== this.generation) return;
    this.render(sandwich);
    this.root.removeAttribute('aria-busy');
  }

  /** Empties the view, forgets the trace and shows `text` (how to pick a function). */
  showHint(text: string): void {
    this.clear();
    this.root.append(h('p', { class: 'muted', text }));
  }

  /** Empties the view and forgets the trace. */
  clear(): void {
    this.generation++;
    this.trace = null;
    this.current = '';
    this.root.removeAttribute('aria-busy');
    this.root.replaceChildren();
  }

  /** Re-centres on a function picked in the `kind` tree; the keyboard focus, when it was in
   *  the view, goes to the first row of that tree again (its rows were replaced). */
  private pick(functionName: string, kind: 'callers' | 'callees'): void {
    if (this.trace === null || functionName === this.current) return;
    // Inside a shadow root, document.activeElement is the host: ask the view's own root.
    const hadFocus = this.root.contains((this.root.getRootNode() as Document | ShadowRoot).activeElement);
    void this.show(this.trace, this.query, functionName).then(() => {
      if (this.current !== functionName) return; // superseded
      if (hadFocus) this.root.querySelector<HTMLElement>(`.sandwich-tree.${kind} tbody tr[tabindex="0"]`)?.focus();
      this.onPick?.(functionName);
    });
  }

  private render(s: Sandwich): void {
    const callers = new SandwichTree(s.callers);
    const callees = new SandwichTree(s.callees);
    const { unit } = s.callees;
    const event = this.query.event ?? DEFAULT_STACK_EVENT;
    const inclusive = s.callees.total;
    if (inclusive === 0) {
      this.root.replaceChildren(
        h('p', { class: 'sandwich-empty muted', text: `${s.function} does not occur in these stacks.` }),
      );
      return;
    }
    callers.openTop(OPEN_LEVELS);
    callees.openTop(OPEN_LEVELS);
    const exclusive = s.callees.self[0]!;
    const focus = h(
      'div',
      { class: 'sandwich-focus' },
      h('strong', { class: 'sandwich-name', text: s.function }),
      h('span', {
        class: 'muted',
        text: ` inclusive ${formatWeight(inclusive, unit, event)}, exclusive ${formatWeight(exclusive, unit, event)} (${percent(exclusive, inclusive)} of inclusive)`,
      }),
    );
    // Times and bytes with their unit in each cell; a count's noun in the header ("Inclusive (samples)").
    const counted = unit !== 'nanoseconds' && unit !== 'bytes';
    const amounts: Amounts = {
      text: (v) => (counted ? fmt(v) : formatWeight(v, unit, event)),
      header: (label) => (counted ? `${label} (${countNoun(event)})` : label),
    };
    this.root.replaceChildren(
      this.treeTable(callers, 'callers', `Callers of ${s.function}`, 'Called by', amounts),
      focus,
      this.treeTable(callees, 'callees', `Callees of ${s.function}`, 'Calls', amounts),
    );
  }

  /** A treegrid of one tree, without its root (the function, shown between the two). */
  private treeTable(tree: SandwichTree, kind: 'callers' | 'callees', label: string, heading: string, amounts: Amounts): HTMLElement {
    const total = tree.inclusive(0);
    const body = h('tbody');
    const table = h(
      'table',
      { class: `sandwich-tree ${kind}`, attrs: { role: 'treegrid', 'aria-label': label } },
      h('colgroup', {}, h('col'), h('col', { class: 'num' }), h('col', { class: 'share' }), h('col', { class: 'num' })),
      h(
        'thead',
        {},
        h(
          'tr',
          {},
          h('th', { text: heading, attrs: { scope: 'col' } }),
          h('th', { class: 'num', text: amounts.header('Inclusive'), attrs: { scope: 'col' } }),
          h('th', { class: 'num', text: '%', attrs: { scope: 'col', title: 'Share of the function\u2019s inclusive weight' } }),
          h('th', { class: 'num', text: amounts.header('Exclusive'), attrs: { scope: 'col' } }),
        ),
      ),
      body,
    );
    let focused = -1;
    const rowOf = new Map<number, HTMLTableRowElement>();

    const render = (): void => {
      rowOf.clear();
      const rows: HTMLTableRowElement[] = [];
      const visit = (node: number, level: number): void => {
        for (const c of tree.childrenOf(node)) {
          rows.push(row(c, level));
          if (tree.expanded.has(c)) visit(c, level + 1);
        }
      };
      visit(0, 1);
      if (rows.length === 0) {
        const none = kind === 'callers' ? 'No callers: the function starts its stacks.' : 'No callees: the function is always a leaf.';
        body.replaceChildren(h('tr', {}, h('td', { class: 'muted', text: none, attrs: { colspan: '4' } })));
        return;
      }
      if (!rowOf.has(focused)) focused = tree.childrenOf(0)[0]!;
      for (const [node, tr] of rowOf) tr.tabIndex = node === focused ? 0 : -1;
      body.replaceChildren(...rows);
    };

    const row = (node: number, level: number): HTMLTableRowElement => {
      const hasChildren = tree.childrenOf(node).length > 0;
      const open = tree.expanded.has(node);
      const value = tree.inclusive(node);
      const toggle = h('span', { class: 'sandwich-toggle', text: hasChildren ? (open ? '\u25BE' : '\u25B8') : '', attrs: { 'aria-hidden': 'true' } });
      const nameCell = h('td', { class: 'sandwich-fn', attrs: { role: 'gridcell', title: `${tree.name(node)} (click: centre the sandwich on it)` } }, toggle, h('span', { class: 'sandwich-label', text: tree.name(node) }));
      nameCell.style.setProperty('--level', String(level - 1));
      const tr = h(
        'tr',
        { attrs: { role: 'row', 'aria-level': String(level) } },
        nameCell,
        h('td', { class: 'num', text: amounts.text(value), attrs: { role: 'gridcell' } }),
        h('td', { class: 'num sandwich-share', text: percent(value, total), attrs: { role: 'gridcell' } }),
        h('td', { class: 'num', text: amounts.text(tree.data.self[node]!), attrs: { role: 'gridcell' } }),
      );
      tr.style.setProperty('--share', `${total > 0 ? (100 * value) / total : 0}%`);
      if (hasChildren) tr.setAttribute('aria-expanded', String(open));
      tr.dataset['node'] = String(node);
      toggle.addEventListener('click', (e) => {
        e.stopPropagation();
        focused = node;
        setOpen(node, !open);
      });
      tr.addEventListener('click', () => this.pick(tree.name(node), kind));
      tr.addEventListener('focus', () => (focused = node));
      rowOf.set(node, tr);
      return tr;
    };

    const setOpen = (node: number, open: boolean): void => {
      if (open) tree.expanded.add(node);
      else tree.expanded.delete(node);
      render();
      rowOf.get(node)?.focus();
    };

    body.addEventListener('keydown', (e) => {
      const order = [...rowOf.keys()];
      const at = order.indexOf(focused);
      if (at < 0) return;
      const node = focused;
      const moveTo = (i: number): void => {
        const target = order[Math.max(0, Math.min(order.length - 1, i))]!;
        focused = target;
        for (const [n, tr] of rowOf) tr.tabIndex = n === target ? 0 : -1;
        rowOf.get(target)?.focus();
      };
      const parent = tree.data.parent[node]!;
      switch (e.key) {
        case 'ArrowDown':
          moveTo(at + 1);
          break;
        case 'ArrowUp':
          moveTo(at - 1);
          break;
        case 'Home':
          moveTo(0);
          break;
        case 'End':
          moveTo(order.length - 1);
          break;
        case 'ArrowRight':
          if (tree.childrenOf(node).length === 0) return;
          if (!tree.expanded.has(node)) setOpen(node, true);
          else moveTo(at + 1);
          break;
        case 'ArrowLeft':
          if (tree.expanded.has(node) && tree.childrenOf(node).length > 0) setOpen(node, false);
          else if (parent !== 0) moveTo(order.indexOf(parent));
          else return;
          break;
        case 'Enter':
          this.pick(tree.name(node), kind);
          break;
        default:
          return;
      }
      e.preventDefault();
    });
    render();
    return h('section', { class: 'sandwich-part' }, h('h3', { class: 'sandwich-title', text: label }), table);
  }
}

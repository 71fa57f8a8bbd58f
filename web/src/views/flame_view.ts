// web/src/views — the Flame graph tab: the engine lays the graph out (FlameGraphData:
// depth and x range per node, in weight units); this file only draws it on a canvas, hit-
// tests the pointer and keeps the zoom. Root at the top (icicle).
//
// Coordinate spaces: "weight" = x in the layout's units [0, total); "css px" = canvas CSS
// pixels (x from 0 to width, y = depth * ROW_PX); "device px" = css px * devicePixelRatio.
import type { FlameGraphData } from '../api/types.js';
import { fmt, h, percent } from '../ui/dom.js';

const ROW_PX = 18;

export class FlameGraph {
  private data: FlameGraphData | null = null;
  /** Node indices per depth, in x order (DFS order keeps siblings sorted by start). */
  private byDepth: number[][] = [];
  private maxDepth = 0;
  /** The zoomed node: its x range fills the width. */
  private zoom = 0;
  private hover = -1;
  /** Root at the bottom (flame) instead of the top (icicle). */
  private rootAtBottom = false;
  private matched: Uint8Array = new Uint8Array(0);
  private searchText = '';
  private readonly context: CanvasRenderingContext2D;
  /** Called when the zoom changes to another node, with that node's frame name. */
  onZoom: ((name: string) => void) | null = null;

  constructor(
    private readonly canvas: HTMLCanvasElement,
    private readonly tooltip: HTMLElement,
    private readonly breadcrumb: HTMLElement,
    private readonly searchResult: HTMLElement,
  ) {
    const context = canvas.getContext('2d');
    if (context === null) throw new Error('no 2D canvas');
    this.context = context;
    canvas.addEventListener('mousemove', (e) => this.onMove(e));
    canvas.addEventListener('mouseleave', () => {
      this.hover = -1;
      this.tooltip.hidden = true;
      this.draw();
    });
    canvas.addEventListener('click', (e) => {
      const node = this.nodeAt(e.offsetX, e.offsetY);
      if (node >= 0) this.zoomTo(node);
    });
    canvas.addEventListener('keydown', (e) => this.onKey(e));
    new ResizeObserver(() => this.draw()).observe(canvas.parentElement ?? canvas);
    matchMedia('(prefers-color-scheme: dark)').addEventListener('change', () => this.draw());
  }

  setData(data: FlameGraphData): void {
    this.data = data;
    const n = data.frame.length;
    this.byDepth = [];
    this.maxDepth = 0;
    for (let i = 0; i < n; i++) {
      const d = data.depth[i]!;
      (this.byDepth[d] ??= []).push(i);
      if (d > this.maxDepth) this.maxDepth = d;
    }
    this.zoom = 0;
    this.hover = -1;
    this.search(this.searchText);
  }

  get nodeCount(): number {
    return this.data?.frame.length ?? 0;
  }

  name(node: number): string {
    const data = this.data;
    if (data === null || node < 0) return '';
    return node === 0 ? 'all' : (data.frameNames[data.frame[node]!] ?? '?');
  }

  zoomTo(node: number): void {
    if (node !== this.zoom && node > 0) this.onZoom?.(this.name(node));
    this.zoom = node;
    this.hover = -1;
    this.tooltip.hidden = true;
    this.renderBreadcrumb();
    this.draw();
  }

  /** Highlights frames whose name contains `text` (case-insensitive); shows their share. */
  search(text: string): void {
    this.searchText = text;
    const data = this.data;
    if (data === null) return;
    const n = data.frame.length;
    this.matched = new Uint8Array(n);
    const needle = text.trim().toLowerCase();
    if (needle === '') {
      this.searchResult.textContent = '';
      this.draw();
      return;
    }
    const nameMatches = data.frameNames.map((name) => name.toLowerCase().includes(needle));
    // Weight of matched nodes without a matched ancestor: their total share, counted once.
    const underMatch = new Uint8Array(n);
    let weight = 0;
    let count = 0;
    for (let i = 1; i < n; i++) {
      const parent = data.parent[i]!;
      underMatch[i] = underMatch[parent]! | this.matched[parent]!;
      if (nameMatches[data.frame[i]!] === true) {
        this.matched[i] = 1;
        count++;
        if (underMatch[i] === 0) weight += data.end[i]! - data.start[i]!;
      }
    }
    this.searchResult.textContent =
      count === 0 ? 'No match' : `${fmt(count)} frames match · ${percent(weight, data.total)} of ${data.unit}`;
    this.searchResult.dataset['matches'] = String(count);
    this.draw();
  }

  private renderBreadcrumb(): void {
    const chain: number[] = [];
    const data = this.data;
    if (data !== null) for (let node = this.zoom; ; node = data.parent[node]!) {
      chain.unshift(node);
      if (node === 0) break;
    }
    this.breadcrumb.replaceChildren(
      ...chain.map((node, i) => {
        const button = h('button', { text: i === 0 ? 'all' : this.name(node), class: 'crumb', attrs: { type: 'button' } });
        button.disabled = node === this.zoom;
        button.addEventListener('click', () => this.zoomTo(node));
        return button;
      }),
    );
  }

  /** The node under a point (css px), or -1. */
  private nodeAt(xPx: number, yPx: number): number {
    const data = this.data;
    if (data === null) return -1;
    const row = Math.floor(yPx / ROW_PX);
    const depth = this.rootAtBottom ? this.maxDepth - row : row;
    const nodes = this.byDepth[depth];
    if (nodes === undefined) return -1;
    const [x0, x1] = [data.start[this.zoom]!, data.end[this.zoom]!];
    const weight = x0 + (xPx / this.canvas.clientWidth) * (x1 - x0);
    let lo = 0;
    let hi = nodes.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const node = nodes[mid]!;
      if (data.end[node]! <= weight) lo = mid + 1;
      else if (data.start[node]! > weight) hi = mid - 1;
      else return node;
    }
    return -1;
  }

  private onMove(e: MouseEvent): void {
    const node = this.nodeAt(e.offsetX, e.offsetY);
    if (node !== this.hover) {
      this.hover = node;
      this.draw();
    }
    this.showTooltip(node, e.clientX - this.canvas.getBoundingClientRect().left, e.clientY - this.canvas.getBoundingClientRect().top);
  }

  /** The tooltip of a node, near a point (css px in the canvas). */
  private showTooltip(node: number, xPx: number, yPx: number): void {
    const data = this.data;
    if (node < 0 || data === null) {
      this.tooltip.hidden = true;
      return;
    }
    const inclusive = data.end[node]! - data.start[node]!;
    const exclusive = data.self[node]!;
    this.tooltip.replaceChildren(
      h('strong', { text: this.name(node) }),
      h('div', { text: `Inclusive: ${fmt(inclusive)} ${data.unit} (${percent(inclusive, data.total)})` }),
      h('div', { text: `Exclusive: ${fmt(exclusive)} ${data.unit} (${percent(exclusive, data.total)})` }),
    );
    this.tooltip.hidden = false;
    const left = Math.min(xPx + 14, this.canvas.clientWidth - 320);
    this.tooltip.style.left = `${Math.max(0, left)}px`;
    this.tooltip.style.top = `${yPx + 16}px`;
  }

  setRootAtBottom(value: boolean): void {
    this.rootAtBottom = value;
    this.draw();
  }

  /** Keyboard focus: the node the arrow keys moved to (drawn like a hovered one). */
  private focusTo(node: number): void {
    const data = this.data;
    if (data === null || node < 0 || node >= data.frame.length) return;
    this.hover = node;
    this.draw();
    const [x0, x1] = [data.start[this.zoom]!, data.end[this.zoom]!];
    const widthPx = this.canvas.clientWidth;
    const leftPx = Math.max(0, ((data.start[node]! - x0) / (x1 - x0)) * widthPx);
    const depth = data.depth[node]!;
    const yPx = (this.rootAtBottom ? this.maxDepth - depth : depth) * ROW_PX;
    this.showTooltip(node, leftPx, yPx);
    this.canvas.setAttribute('aria-label', `${this.name(node)}; Enter zooms, Escape zooms out`);
  }

  private onKey(e: KeyboardEvent): void {
    const data = this.data;
    if (data === null) return;
    const at = this.hover >= 0 ? this.hover : this.zoom;
    const siblings = (d: number): number[] => this.byDepth[d] ?? [];
    const step = (delta: number): number => {
      const row = siblings(data.depth[at]!);
      const i = row.indexOf(at) + delta;
      return row[i] ?? at;
    };
    const moves: Record<string, () => number> = {
      ArrowUp: () => (this.rootAtBottom ? firstChild(data, at) : data.parent[at]!),
      ArrowDown: () => (this.rootAtBottom ? data.parent[at]! : firstChild(data, at)),
      ArrowLeft: () => step(-1),
      ArrowRight: () => step(1),
    };
    const move = moves[e.key];
    if (move !== undefined) {
      e.preventDefault();
      this.focusTo(move());
    } else if (e.key === 'Enter' && this.hover >= 0) {
      e.preventDefault();
      this.zoomTo(this.hover);
    } else if (e.key === 'Escape' || e.key === 'Backspace') {
      e.preventDefault();
      this.zoomTo(data.parent[this.zoom]!);
    } else if (e.key === 'Home') {
      e.preventDefault();
      this.zoomTo(0);
    }
  }

  draw(): void {
    const data = this.data;
    const canvas = this.canvas;
    const widthPx = canvas.parentElement?.clientWidth ?? 800;
    const heightPx = Math.max(ROW_PX * (this.maxDepth + 1), 60);
    const ratio = window.devicePixelRatio || 1;
    canvas.style.width = `${widthPx}px`;
    canvas.style.height = `${heightPx}px`;
    canvas.width = Math.round(widthPx * ratio);
    canvas.height = Math.round(heightPx * ratio);
    const g = this.context;
    g.setTransform(ratio, 0, 0, ratio, 0, 0);
    g.clearRect(0, 0, widthPx, heightPx);
    if (data === null || data.total === 0) return;
    const style = getComputedStyle(canvas);
    const dark = matchMedia('(prefers-color-scheme: dark)').matches;
    const x0 = data.start[this.zoom]!;
    const x1 = data.end[this.zoom]!;
    const pxPerWeight = widthPx / (x1 - x0);
    const searching = this.searchText.trim() !== '';
    g.font = `12px ${style.fontFamily}`;
    g.textBaseline = 'middle';
    for (let depth = 0; depth <= this.maxDepth; depth++) {
      const y = (this.rootAtBottom ? this.maxDepth - depth : depth) * ROW_PX;
      for (const node of this.byDepth[depth] ?? []) {
        const start = data.start[node]!;
        const end = data.end[node]!;
        if (end <= x0 || start >= x1) continue;
        const left = Math.max(0, (start - x0) * pxPerWeight);
        const right = Math.min(widthPx, (end - x0) * pxPerWeight);
        if (right - left < 0.5) continue;
        const name = this.name(node);
        const dim = searching && this.matched[node] === 0;
        g.fillStyle = this.colour(name, node, dark, dim);
        g.fillRect(left, y, Math.max(right - left - 1, 0.5), ROW_PX - 1);
        if (right - left > 30) {
          g.fillStyle = dim ? (dark ? '#777' : '#666') : dark ? '#f3f3f3' : '#111';
          g.save();
          g.beginPath();
          g.rect(left, y, right - left - 4, ROW_PX);
          g.clip();
          g.fillText(name, left + 4, y + ROW_PX / 2);
          g.restore();
        }
      }
    }
  }

  private colour(name: string, node: number, dark: boolean, dim: boolean): string {
    if (node === this.hover) return dark ? '#5b7bd6' : '#9db7ff';
    if (searching(this.matched, node)) return dark ? '#b0489a' : '#f28ad8';
    let hash = 0;
    for (let i = 0; i < name.length; i++) hash = (hash * 31 + name.charCodeAt(i)) | 0;
    const hue = 10 + (Math.abs(hash) % 45); // warm: red → yellow
    if (dim) return dark ? `hsl(${hue} 10% 25%)` : `hsl(${hue} 15% 85%)`;
    return dark ? `hsl(${hue} 60% 35%)` : `hsl(${hue} 85% 68%)`;
  }
}

/** The first (DFS-order) child of a node, or the node itself when it has none. */
function firstChild(data: FlameGraphData, node: number): number {
  const next = node + 1;
  return next < data.frame.length && data.parent[next] === node ? next : node;
}

function searching(matched: Uint8Array, node: number): boolean {
  return matched[node] === 1;
}

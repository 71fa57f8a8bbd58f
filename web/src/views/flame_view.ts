// web/src/views — a flame graph on a canvas: the engine lays the graph out (FlameGraphData:
// depth and x range per node, in weight units, depth-first order); this class only draws
// it, hit-tests the pointer and keeps the zoom. Root at the top (icicle) or at the bottom.
//
// Coordinate spaces: "weight" = x in the layout's units [0, total); "css px" = canvas CSS
// pixels (x from 0 to width, y = row * ROW_PX); "device px" = css px * devicePixelRatio,
// what the canvas's backing store holds and what every draw call below is given.
//
// Smooth at 100k+ nodes (scripts/bench.sh, tests/bench/flame_bench.mjs):
// - a draw visits only what it shows: the zoomed node's subtree in depth-first order, and a
//   node narrower than MIN_NODE_PX is skipped with its whole subtree (subtreeEnd), since a
//   child is never wider than its parent;
// - rectangles are snapped to device pixels and written as pixels: per row of the graph,
//   one scanline, copied down the row, one putImageData. (40k fillRect calls cost ~16 ms in
//   Chromium; the pixels of a whole 2560 × 1200 canvas ~6 ms.) Labels go over them with
//   fillText;
// - label widths are measured once per frame name and font; truncation is proportional,
//   with fillText's maxWidth as the guard;
// - hit-testing is a binary search in the node's depth row;
// - a search is matched once per query over frame names, then once over nodes;
// - the pointer is handled at most twice per animation frame (its first move at once, the
//   last at the frame's end); a hover change repaints two nodes only.
// The indexes behind these are in flame_index.ts, the colours in flame_palette.ts.
import type { FlameGraphData } from '../api/types.js';
import { fmt, h, percent } from '../ui/dom.js';
import { formatWeight } from '../ui/units.js';
import { FlameIndex } from './flame_index.js';
import { DIM, FlamePalette, frameHues, HOVER, MATCH } from './flame_palette.js';

const ROW_PX = 18;
/** Nodes narrower than this (css px) are not drawn, nor are their subtrees. */
const MIN_NODE_PX = 0.5;
/** Nodes at least this wide (css px) get a label. */
const LABEL_MIN_PX = 30;
const FONT_PX = 12;

/** A differential graph's colours (palette buckets: flame_palette.ts changeBucket) and
 *  tooltip lines per node, in place of the hues by name and the weights (views/runs_view.ts). */
export interface FlameOverlay {
  bucket: Uint8Array;
  describe(node: number): string[];
}

export class FlameGraph {
  private data: FlameGraphData | null = null;
  /** The event type whose stacks are drawn: what a count weight counts (ui/units.ts). */
  private event = '';
  /** Rows by depth, subtree ends, search (flame_index.ts); null before setData. */
  private index: FlameIndex | null = null;
  /** One past the last node of each node's subtree (the index's). */
  private subtreeEnd: Uint32Array = new Uint32Array(0);
  /** Colour bucket of each frame name. */
  private frameHue: Uint8Array = new Uint8Array(0);
  private overlay: FlameOverlay | null = null;
  private maxDepth = 0;
  /** The zoomed node: its x range fills the width. */
  private zoom = 0;
  /** The hovered node, or the one the arrow keys moved to; -1 for none. */
  private hover = -1;
  /** Root at the bottom (flame) instead of the top (icicle). */
  private rootAtBottom = false;
  private matched = new Uint8Array(0);
  private searchText = '';
  private searching = false;
  /** Matched nodes and the weight under them (nested matches counted once). */
  private matchCount = 0;
  private matchWeight = 0;

  // Drawing state, set by draw().
  private readonly context: CanvasRenderingContext2D;
  private readonly lifetime = new AbortController();
  private readonly resizeObserver = new ResizeObserver(() => this.draw());
  /** Called when the zoom changes to another node, with that node's frame name. */
  onZoom: ((name: string) => void) | null = null;
  private palette = new FlamePalette(matchMedia('(prefers-color-scheme: dark)').matches);
  /** One row of cells as pixels (fillCells), and the same as words. */
  private band: ImageData | null = null;
  private bandWords = new Uint32Array(0);
  private widthPx = 0;
  private heightPx = 0;
  /** Css px above the first row: the canvas fills its box, and a graph drawn root at the
   *  bottom sits at the bottom of it. */
  private offsetPx = 0;
  private ratio = 1;
  private font = '';
  /** Label width of each frame name in device px at `font`; NaN = not measured yet. */
  private labelWidth = new Float32Array(0);
  private ellipsisWidth = 0;
  /** Scratch: the nodes of one draw, in depth-first order and by row; reused between draws. */
  private drawn = new Uint32Array(0);
  private byRow = new Uint32Array(0);
  /** Set by cell(): one node's device-pixel cell. */
  private cellLeft = 0;
  private cellRight = 0;
  private cellTop = 0;

  // The pointer: the last point not handled yet, and the animation frame that will.
  private pointer: { x: number; y: number } | null = null;
  private frameRequest = 0;

  constructor(
    private readonly canvas: HTMLCanvasElement,
    private readonly tooltip: HTMLElement,
    private readonly breadcrumb: HTMLElement,
    private readonly searchResult: HTMLElement,
  ) {
    const context = canvas.getContext('2d', { alpha: true });
    if (context === null) throw new Error('no 2D canvas');
    this.context = context;
    canvas.addEventListener('mousemove', (e) => this.onMove(e));
    canvas.addEventListener('mouseleave', () => {
      this.pointer = null;
      this.cancelFrame();
      this.setHover(-1);
      this.tooltip.hidden = true;
    });
    canvas.addEventListener('click', (e) => {
      const [x, y] = this.cssPoint(e);
      const node = this.hitTest(x, y);
      if (node >= 0) this.zoomTo(node);
    });
    canvas.addEventListener('keydown', (e) => this.onKey(e));
    this.resizeObserver.observe(canvas.parentElement ?? canvas);
    matchMedia('(prefers-color-scheme: dark)').addEventListener(
      'change',
      (e) => {
        this.palette = new FlamePalette(e.matches);
        this.draw();
      },
      { signal: this.lifetime.signal },
    );
  }

  /** Stops following the OS theme and the canvas size (the page keeps no reference then). */
  dispose(): void {
    this.lifetime.abort();
    this.resizeObserver.disconnect();
    cancelAnimationFrame(this.frameRequest);
  }

  /** @param event the event type of the stacks (names the amounts: "1,234 samples")
   *  @param overlay a differential graph's colours and tooltips */
  setData(data: FlameGraphData, event = '', overlay: FlameOverlay | null = null): void {
    this.data = data;
    this.event = event;
    this.overlay = overlay;
    const n = data.frame.length;
    this.index = new FlameIndex(data);
    this.maxDepth = this.index.maxDepth;
    this.subtreeEnd = this.index.subtreeEnd;
    this.frameHue = frameHues(data.frameNames);
    this.labelWidth = new Float32Array(data.frameNames.length).fill(NaN);
    this.drawn = new Uint32Array(n);
    this.byRow = new Uint32Array(n);
    this.zoom = 0;
    this.hover = -1;
    this.tooltip.hidden = true;
    this.search(this.searchText);
  }

  get nodeCount(): number {
    return this.data?.frame.length ?? 0;
  }

  /** The zoomed node (0 = the root). */
  get zoomed(): number {
    return this.zoom;
  }

  name(node: number): string {
    const data = this.data;
    if (data === null || node < 0) return '';
    return node === 0 ? 'all' : (data.frameNames[data.frame[node]!] ?? '?');
  }

  zoomTo(node: number): void {
    if (this.data === null || node < 0 || node >= this.data.frame.length) return;
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
    const needle = text.trim().toLowerCase();
    this.searching = needle !== '';
    this.matchCount = 0;
    this.matchWeight = 0;
    if (!this.searching) {
      this.searchResult.textContent = '';
      delete this.searchResult.dataset['matches'];
      this.draw();
      return;
    }
    if (this.matched.length !== n) this.matched = new Uint8Array(n);
    ({ count: this.matchCount, weight: this.matchWeight } = this.index!.match(needle, this.matched));
    this.searchResult.textContent =
      this.matchCount === 0
        ? 'No match'
        : `${fmt(this.matchCount)} ${this.matchCount === 1 ? 'frame matches' : 'frames match'} · ${this.amount(this.matchWeight)} (${percent(this.matchWeight, data.total)})`;
    this.searchResult.dataset['matches'] = String(this.matchCount);
    this.draw();
  }

  setRootAtBottom(value: boolean): void {
    this.rootAtBottom = value;
    this.draw();
  }

  /** The node drawn under a point (css px from the canvas's top left), or -1. */
  hitTest(xPx: number, yPx: number): number {
    const data = this.data;
    if (data === null || xPx < 0 || xPx >= this.widthPx || yPx < 0) return -1;
    if (yPx < this.offsetPx) return -1;
    const row = Math.floor((yPx - this.offsetPx) / ROW_PX);
    const depth = this.rootAtBottom ? this.maxDepth - row : row;
    const x0 = data.start[this.zoom]!;
    const x1 = data.end[this.zoom]!;
    const weight = x0 + (xPx / this.widthPx) * (x1 - x0);
    const node = this.index!.nodeAt(depth, weight);
    return node >= 0 && this.cssWidth(node) >= MIN_NODE_PX ? node : -1;
  }

  /** Runs the pending pointer update now instead of at the end of the frame (benchmarks, tests). */
  flush(): void {
    if (this.frameRequest === 0) return;
    this.cancelFrame();
    this.onFrame();
  }

  /** Redraws everything, resizing the canvas to its box first when the box changed. */
  draw(): void {
    const data = this.data;
    const canvas = this.canvas;
    const widthPx = canvas.parentElement?.clientWidth ?? 800;
    // At least its box's height: the graph owns the room it is given (a shallow graph drawn
    // root at the bottom then starts at the bottom of the box, as a flame graph does).
    const graphPx = ROW_PX * (this.maxDepth + 1);
    const heightPx = Math.max(graphPx, canvas.parentElement?.clientHeight ?? 0, 60);
    this.offsetPx = this.rootAtBottom ? heightPx - graphPx : 0;
    const ratio = window.devicePixelRatio || 1;
    const g = this.context;
    if (widthPx !== this.widthPx || heightPx !== this.heightPx || ratio !== this.ratio) {
      [this.widthPx, this.heightPx, this.ratio] = [widthPx, heightPx, ratio];
      canvas.style.width = `${widthPx}px`;
      canvas.style.height = `${heightPx}px`;
      canvas.width = Math.round(widthPx * ratio);
      canvas.height = Math.round(heightPx * ratio);
    }
    g.setTransform(1, 0, 0, 1, 0, 0);
    g.clearRect(0, 0, canvas.width, canvas.height);
    if (data === null || data.total === 0 || canvas.width === 0) return; // (a hidden tab: width 0)
    this.setFont();

    // Collect what shows: the zoomed node's ancestors (full width), then its subtree.
    let count = 0;
    for (let node = this.zoom; node !== 0; ) this.drawn[count++] = node = data.parent[node]!;
    const x0 = data.start[this.zoom]!;
    const cssPerWeight = widthPx / (data.end[this.zoom]! - x0);
    const minWeight = MIN_NODE_PX / cssPerWeight;
    const end = this.subtreeEnd[this.zoom]!;
    for (let node = this.zoom; node < end; ) {
      if (data.end[node]! - data.start[node]! < minWeight) {
        node = this.subtreeEnd[node]!;
        continue;
      }
      this.drawn[count++] = node++;
    }
    this.fillCells(count);
    let dimText = false;
    g.fillStyle = this.palette.text(false);
    const labelWeight = LABEL_MIN_PX / cssPerWeight;
    for (let k = 0; k < count; k++) {
      const node = this.drawn[k]!;
      if (data.end[node]! - data.start[node]! < labelWeight) continue; // (most nodes: no label)
      const dim = this.searching && this.matched[node] !== 1;
      if (dim !== dimText) {
        dimText = dim;
        g.fillStyle = this.palette.text(dim);
      }
      this.labelNode(node);
    }
  }

  /**
   * Fills the cells of drawn[0, count) into the canvas, one row of the graph at a time: the
   * row's first scanline in a band of pixels one cell high, copied down the band, put once.
   * (The band, not a whole-canvas ImageData: a graph 200 frames deep is a canvas of 3,600 css
   * px; its pixels would double the canvas's memory.)
   */
  private fillCells(count: number): void {
    const width = this.canvas.width;
    const r = this.ratio;
    const gap = Math.round(r);
    const cellHeight = Math.max(Math.round(ROW_PX * r) - gap, 1);
    if (this.band === null || this.band.width !== width || this.band.height !== cellHeight) {
      this.band = new ImageData(width, cellHeight);
      this.bandWords = new Uint32Array(this.band.data.buffer);
    }
    const band = this.bandWords;
    const words = this.palette.words(this.context);
    // Drawn nodes by depth (a counting sort).
    const { depth, start, end } = this.data!;
    const depths = this.maxDepth + 1;
    const depthEnd = new Uint32Array(depths + 1);
    for (let k = 0; k < count; k++) depthEnd[depth[this.drawn[k]!]! + 1]!++;
    for (let d = 0; d < depths; d++) depthEnd[d + 1]! += depthEnd[d]!;
    const next = depthEnd.slice(0, depths);
    for (let k = 0; k < count; k++) this.byRow[next[depth[this.drawn[k]!]!]!++] = this.drawn[k]!;
    // cell(), inlined: this is the loop over every drawn node.
    const x0 = start[this.zoom]!;
    const devicePerWeight = (this.widthPx / (end[this.zoom]! - x0)) * r;
    for (let d = 0; d < depths; d++) {
      if (depthEnd[d] === depthEnd[d + 1]) continue;
      band.fill(0, 0, width);
      for (let k = depthEnd[d]!; k < depthEnd[d + 1]!; k++) {
        const node = this.byRow[k]!;
        const left = Math.round(Math.max(0, (start[node]! - x0) * devicePerWeight));
        const right = Math.round(Math.min(width, (end[node]! - x0) * devicePerWeight));
        band.fill(words[this.bucketOf(node)]!, left, Math.min(left + Math.max(right - left - gap, 1), width));
      }
      for (let y = 1; y < cellHeight; y++) band.copyWithin(y * width, 0, width);
      const row = this.rootAtBottom ? this.maxDepth - d : d;
      this.context.putImageData(this.band, 0, Math.round((row * ROW_PX + this.offsetPx) * r));
    }
  }

  /** The device-pixel cell of a node (cellLeft/Right/Top), snapped so that neighbours never
   *  share a pixel: a node repainted alone covers exactly what the full draw covered. */
  private cell(node: number): void {
    // The same expressions as in fillCells, so that both give the same pixels.
    const data = this.data!;
    const x0 = data.start[this.zoom]!;
    const r = this.ratio;
    const devicePerWeight = (this.widthPx / (data.end[this.zoom]! - x0)) * r;
    this.cellLeft = Math.round(Math.max(0, (data.start[node]! - x0) * devicePerWeight));
    this.cellRight = Math.round(Math.min(this.canvas.width, (data.end[node]! - x0) * devicePerWeight));
    this.cellTop = Math.round((this.rowOf(node) * ROW_PX + this.offsetPx) * r);
  }

  private fillNode(node: number): void {
    this.cell(node);
    const r = this.ratio;
    const gap = Math.round(r);
    const width = Math.max(this.cellRight - this.cellLeft - gap, 1);
    this.context.fillRect(this.cellLeft, this.cellTop, width, Math.round(ROW_PX * r) - gap);
  }

  private labelNode(node: number): void {
    this.cell(node);
    const r = this.ratio;
    const room = this.cellRight - this.cellLeft - 8 * r;
    if (this.cellRight - this.cellLeft < LABEL_MIN_PX * r || room <= 0) return;
    const data = this.data!;
    const name = this.name(node);
    const frame = data.frame[node]!;
    let width = node === 0 ? NaN : this.labelWidth[frame]!;
    if (Number.isNaN(width)) {
      width = this.context.measureText(name).width;
      if (node !== 0) this.labelWidth[frame] = width;
    }
    let label = name;
    if (width > room) {
      const chars = Math.floor((name.length * (room - this.ellipsisWidth)) / width);
      if (chars < 1) return;
      label = `${name.slice(0, chars)}…`;
    }
    this.context.fillText(label, this.cellLeft + 4 * r, this.cellTop + (ROW_PX * r) / 2, room);
  }

  /** Repaints one node in place (hover changes): clear its cell, fill, label. */
  private paintNode(node: number): void {
    if (node < 0 || this.cssWidth(node) < MIN_NODE_PX || !this.isShown(node)) return;
    const g = this.context;
    this.cell(node);
    const r = this.ratio;
    g.clearRect(this.cellLeft, this.cellTop, Math.max(this.cellRight - this.cellLeft, 1), Math.round(ROW_PX * r));
    g.fillStyle = this.palette.colours[this.bucketOf(node)]!;
    this.fillNode(node);
    g.fillStyle = this.palette.text(this.searching && this.matched[node] !== 1);
    this.labelNode(node);
  }

  /** An ancestor of the zoomed node, or in its subtree. */
  private isShown(node: number): boolean {
    return (node >= this.zoom && node < this.subtreeEnd[this.zoom]!) || (node < this.zoom && this.subtreeEnd[node]! > this.zoom);
  }

  private setFont(): void {
    const family = getComputedStyle(this.canvas).fontFamily;
    const font = `${FONT_PX * this.ratio}px ${family}`;
    const g = this.context;
    g.font = font;
    g.textBaseline = 'middle';
    if (font !== this.font) {
      this.font = font; // (not g.font: the canvas normalises it, and it would never compare equal)
      this.labelWidth.fill(NaN);
      this.ellipsisWidth = g.measureText('…').width;
    }
  }

  private bucketOf(node: number): number {
    if (node === this.hover) return HOVER;
    if (this.overlay !== null) return this.searching && this.matched[node] === 1 ? MATCH : this.overlay.bucket[node]!;
    const hue = node === 0 ? 0 : this.frameHue[this.data!.frame[node]!]!;
    if (!this.searching) return hue;
    return this.matched[node] === 1 ? MATCH : DIM + hue;
  }

  private rowOf(node: number): number {
    const depth = this.data!.depth[node]!;
    return this.rootAtBottom ? this.maxDepth - depth : depth;
  }

  private cssWidth(node: number): number {
    const data = this.data!;
    const x0 = Math.max(data.start[node]!, data.start[this.zoom]!);
    const x1 = Math.min(data.end[node]!, data.end[this.zoom]!);
    return ((x1 - x0) * this.widthPx) / (data.end[this.zoom]! - data.start[this.zoom]!);
  }

  private setHover(node: number): void {
    if (node === this.hover) return;
    const old = this.hover;
    this.hover = node;
    if (this.data === null) return;
    this.paintNode(old);
    this.paintNode(node);
  }

  private renderBreadcrumb(): void {
    const chain: number[] = [];
    const data = this.data;
    if (data !== null)
      for (let node = this.zoom; ; node = data.parent[node]!) {
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

  /** A mouse event's point in the canvas, css px (untrusted events have no offsetX we can trust). */
  private cssPoint(e: MouseEvent): [number, number] {
    const box = this.canvas.getBoundingClientRect();
    return [e.clientX - box.left, e.clientY - box.top];
  }

  /**
   * The first move of a frame is handled at once (the tooltip follows without a frame's
   * delay); later moves in the same frame only leave their point for the frame's end.
   */
  private onMove(e: MouseEvent): void {
    const [x, y] = this.cssPoint(e);
    this.pointer = { x, y };
    if (this.frameRequest !== 0) return;
    this.frameRequest = requestAnimationFrame(() => this.onFrame());
    this.hoverAt(x, y);
  }

  private cancelFrame(): void {
    if (this.frameRequest !== 0) cancelAnimationFrame(this.frameRequest);
    this.frameRequest = 0;
  }

  private onFrame(): void {
    this.frameRequest = 0;
    const point = this.pointer;
    if (point !== null) this.hoverAt(point.x, point.y);
  }

  private hoverAt(x: number, y: number): void {
    this.pointer = null;
    const node = this.hitTest(x, y);
    this.setHover(node);
    this.showTooltip(node, x, y);
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
    const lines = this.overlay?.describe(node) ?? [
      `Inclusive: ${this.amount(inclusive)} (${percent(inclusive, data.total)})`,
      `Exclusive: ${this.amount(exclusive)} (${percent(exclusive, data.total)})`,
    ];
    this.tooltip.replaceChildren(h('strong', { text: this.name(node) }), ...lines.map((text) => h('div', { text })));
    this.tooltip.hidden = false;
    const left = Math.min(xPx + 14, this.widthPx - 320);
    this.tooltip.style.left = `${Math.max(0, left)}px`;
    this.tooltip.style.top = `${yPx + 16}px`;
  }

  /** An amount of the graph's weight in words: "1.25 s", "4.5 MB", "1,234 samples". */
  private amount(weight: number): string {
    return formatWeight(weight, this.data?.unit ?? '', this.event);
  }

  /** Keyboard focus: the node the arrow keys moved to (drawn like a hovered one). */
  private focusTo(node: number): void {
    const data = this.data;
    if (data === null || node < 0 || node >= data.frame.length) return;
    this.setHover(node);
    const x0 = data.start[this.zoom]!;
    const x1 = data.end[this.zoom]!;
    const leftPx = Math.max(0, ((data.start[node]! - x0) / (x1 - x0)) * this.widthPx);
    this.showTooltip(node, leftPx, this.rowOf(node) * ROW_PX + this.offsetPx);
    this.canvas.setAttribute('aria-label', `${this.name(node)}; Enter zooms, Escape zooms out`);
  }

  private onKey(e: KeyboardEvent): void {
    const data = this.data;
    if (data === null) return;
    const at = this.hover >= 0 ? this.hover : this.zoom;
    // Left/right: the next node of the row that is drawn — inside the zoomed subtree (an
    // ancestor's row has just the ancestor) and at least MIN_NODE_PX wide; else stay.
    const step = (delta: number): number => {
      for (let node = at; ; ) {
        const next = this.index!.step(node, delta);
        if (next === node || !this.isShown(next)) return at;
        node = next;
        if (this.cssWidth(node) >= MIN_NODE_PX) return node;
      }
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
}

/** The first (depth-first order) child of a node, or the node itself when it has none. */
function firstChild(data: FlameGraphData, node: number): number {
  const next = node + 1;
  return next < data.frame.length && data.parent[next] === node ? next : node;
}

// web/src/views — indexes over one laid-out flame graph (FlameGraphData, depth-first order),
// built once per graph in O(nodes), so that what the views do per frame costs what it
// touches: subtree ends (a node's subtree is [node, subtreeEnd[node])), the nodes of each
// depth in x order with each node's place in its row, and search over frame names.
import type { FlameGraphData } from '../api/types.js';

/**
 * One past the last node of each node's subtree. Children follow their parent in depth-first
 * order, so one backward pass settles each node before it is folded into its parent.
 */
export function subtreeEnds(parent: Uint32Array): Uint32Array {
  const n = parent.length;
  const end = new Uint32Array(n);
  for (let i = n - 1; i >= 0; i--) {
    if (end[i]! < i + 1) end[i] = i + 1;
    const p = parent[i]!;
    if (i > 0 && end[p]! < end[i]!) end[p] = end[i]!;
  }
  return end;
}

export class FlameIndex {
  readonly maxDepth: number;
  readonly subtreeEnd: Uint32Array;
  /** Nodes grouped by depth, each row in x order (depth-first order keeps siblings by start);
   *  built on first use (the first draw does not need them). */
  private rows: Uint32Array | null = null;
  /** rows[rowStart[d] .. rowStart[d + 1]) are the nodes at depth d. */
  private rowStart = new Uint32Array(0);
  /** Place of each node in its row. */
  private rowIndex = new Uint32Array(0);
  private lowerNames: string[] | null = null;

  constructor(readonly data: FlameGraphData) {
    this.subtreeEnd = subtreeEnds(data.parent);
    let maxDepth = 0;
    for (let i = 0; i < data.depth.length; i++) if (data.depth[i]! > maxDepth) maxDepth = data.depth[i]!;
    this.maxDepth = maxDepth;
  }

  /** Rows by depth: a counting sort, stable, so each row stays in depth-first (x) order. */
  private byDepth(): Uint32Array {
    if (this.rows !== null) return this.rows;
    const { depth } = this.data;
    const n = depth.length;
    const rowStart = new Uint32Array(this.maxDepth + 2);
    for (let i = 0; i < n; i++) rowStart[depth[i]! + 1]!++;
    for (let d = 0; d <= this.maxDepth; d++) rowStart[d + 1]! += rowStart[d]!;
    const next = rowStart.slice(0, this.maxDepth + 1);
    const rows = new Uint32Array(n);
    this.rowIndex = new Uint32Array(n);
    for (let i = 0; i < n; i++) {
      const d = depth[i]!;
      this.rowIndex[i] = next[d]! - rowStart[d]!;
      rows[next[d]!++] = i;
    }
    this.rowStart = rowStart;
    this.rows = rows;
    return rows;
  }

  /** The node of `depth` whose x range holds `weight` (a binary search in the row), or -1. */
  nodeAt(depth: number, weight: number): number {
    if (depth < 0 || depth > this.maxDepth) return -1;
    const rows = this.byDepth();
    const { start, end } = this.data;
    let lo = this.rowStart[depth]!;
    let hi = this.rowStart[depth + 1]! - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const node = rows[mid]!;
      if (end[node]! <= weight) lo = mid + 1;
      else if (start[node]! > weight) hi = mid - 1;
      else return node;
    }
    return -1;
  }

  /** The node `delta` places from `node` in its depth row; `node` itself past either end. */
  step(node: number, delta: number): number {
    const rows = this.byDepth();
    const depth = this.data.depth[node]!;
    const i = this.rowStart[depth]! + this.rowIndex[node]! + delta;
    return i >= this.rowStart[depth]! && i < this.rowStart[depth + 1]! ? rows[i]! : node;
  }

  /**
   * Sets matched[i] = 1 for every node but the root whose frame name contains `needle`
   * (lower case), else 0: names first (few), then nodes by frame index.
   * @returns the matches and their weight, a match inside another counted once (its
   *   subtree is skipped), so `weight / total` is the share of the stacks through a match
   */
  match(needle: string, matched: Uint8Array): { count: number; weight: number } {
    const data = this.data;
    this.lowerNames ??= data.frameNames.map((name) => name.toLowerCase());
    const nameMatches = Uint8Array.from(this.lowerNames, (name) => (name.includes(needle) ? 1 : 0));
    matched.fill(0);
    let count = 0;
    let weight = 0;
    let coveredUntil = 0;
    for (let i = 1; i < data.frame.length; i++) {
      if (nameMatches[data.frame[i]!] !== 1) continue;
      matched[i] = 1;
      count++;
      if (i >= coveredUntil) {
        weight += data.end[i]! - data.start[i]!;
        coveredUntil = this.subtreeEnd[i]!;
      }
    }
    return { count, weight };
  }
}

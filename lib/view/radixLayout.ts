// Layout of a prefix radix tree (lib/cache/radix.ts snapshot) for drawing: each node sits at the end of its
// edge, x growing with its depth in tokens, one row per leaf. Pure TS: no DOM, no React.
//
// - x: an edge is max(minEdge, k × its tokens) pixels long, with the largest k for which the tree fits in
//   `width`, so long shared prefixes look long while one-token edges stay wide enough for a label.
// - rows: children in the order of the first call through them; a node shares the row of its first child,
//   so the path of call 1 is a straight line and every branch leaves it downward.
// Hand-written rather than d3-hierarchy's tree/cluster: those space nodes by depth in edges, while here an
// edge is as long as its token count (with a floor for its label) and rows follow the order of the calls.
import type { RadixNode } from '../cache/radix';

export interface LaidNode {
  id: number;
  parent: number | null;
  /** Tokens on the edge into this node (end − start). */
  tokens: number;
  /** x of the edge's start (the parent's x) and end (this node), in px from the root. */
  x0: number;
  x: number;
  /** Row of the node (0 = the top row). */
  row: number;
  /** Row of the parent (the edge runs from (x0, parentRow) to (x, row)). */
  parentRow: number;
  leaf: boolean;
}

export interface RadixLayout {
  nodes: LaidNode[];
  rows: number;
  /** Pixels of the widest path: ≤ width unless the tree needs more than minEdge per edge. */
  extent: number;
  /** Pixels per token for edges longer than their minimum. */
  pxPerToken: number;
}

export interface RadixLayoutOptions {
  width: number;
  /** Shortest edge in px. */
  minEdge: number;
}

function childrenOf(nodes: readonly RadixNode[]): Map<number, RadixNode[]> {
  const out = new Map<number, RadixNode[]>();
  for (const n of nodes) {
    if (n.parent === null) continue;
    const list = out.get(n.parent) ?? [];
    list.push(n);
    out.set(n.parent, list);
  }
  const first = (n: RadixNode) => (n.calls.length ? Math.min(...n.calls) : Infinity);
  for (const list of out.values()) list.sort((a, b) => first(a) - first(b) || a.id - b.id);
  return out;
}

/** Lays out a radix tree snapshot (node 0 is the root). An empty list gives an empty layout. */
export function layoutRadix(nodes: readonly RadixNode[], opts: RadixLayoutOptions): RadixLayout {
  if (!(opts.width > 0) || !(opts.minEdge >= 0)) throw new RangeError('width must be > 0 and minEdge ≥ 0');
  const root = nodes.find((n) => n.parent === null);
  if (!root) return { nodes: [], rows: 0, extent: 0, pxPerToken: 0 };
  const kids = childrenOf(nodes);
  const len = (n: RadixNode) => n.end - n.start;

  // Rows: leaves in depth-first order; a node takes its first child's row.
  const row = new Map<number, number>();
  let rows = 0;
  const assign = (n: RadixNode): number => {
    const cs = kids.get(n.id) ?? [];
    if (!cs.length) {
      row.set(n.id, rows);
      return rows++;
    }
    const rs = cs.map(assign);
    row.set(n.id, rs[0]!);
    return rs[0]!;
  };
  assign(root);

  // The widest path for a given px-per-token k; grows with k, so the largest k that fits is found by bisection.
  const extentAt = (k: number): number => {
    let best = 0;
    const walk = (n: RadixNode, x: number) => {
      const cs = kids.get(n.id) ?? [];
      if (!cs.length) best = Math.max(best, x);
      for (const c of cs) walk(c, x + Math.max(opts.minEdge, k * len(c)));
    };
    walk(root, 0);
    return best;
  };
  const deepest = Math.max(1, ...nodes.map((n) => n.end));
  let lo = 0;
  let hi = opts.width / deepest;
  if (extentAt(hi) <= opts.width) lo = hi;
  else
    for (let i = 0; i < 60; i++) {
      const mid = (lo + hi) / 2;
      if (extentAt(mid) <= opts.width) lo = mid;
      else hi = mid;
    }
  const k = lo;

  const out: LaidNode[] = [];
  const place = (n: RadixNode, x0: number, parentRow: number) => {
    const x = n.parent === null ? 0 : x0 + Math.max(opts.minEdge, k * len(n));
    const cs = kids.get(n.id) ?? [];
    out.push({ id: n.id, parent: n.parent, tokens: len(n), x0, x, row: row.get(n.id)!, parentRow, leaf: cs.length === 0 && n.parent !== null });
    for (const c of cs) place(c, x, row.get(n.id)!);
  };
  place(root, 0, row.get(root.id)!);
  out.sort((a, b) => a.id - b.id);
  return { nodes: out, rows, extent: extentAt(k), pxPerToken: k };
}

/** Edges on the longest root-to-leaf path (0 for a tree with only its root, or none). */
export function maxEdgeDepth(nodes: readonly RadixNode[]): number {
  const kids = childrenOf(nodes);
  const root = nodes.find((n) => n.parent === null);
  if (!root) return 0;
  const walk = (n: RadixNode): number => Math.max(0, ...(kids.get(n.id) ?? []).map((c) => 1 + walk(c)));
  return walk(root);
}

/**
 * The minimum edge length for a tree drawn `width` px wide: `preferred`, lowered (not below `floor`) so that
 * the longest path's edges fit the width, i.e. the tree needs no horizontal scrolling when it can avoid it.
 */
export function fitMinEdge(nodes: readonly RadixNode[], width: number, preferred: number, floor: number): number {
  const edges = maxEdgeDepth(nodes);
  if (edges === 0) return preferred;
  return Math.max(floor, Math.min(preferred, Math.floor(width / edges)));
}

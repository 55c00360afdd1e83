// The prefix cache as an engine keeps it: a radix tree over token ids (SGLang's RadixAttention), and
// vLLM-style chained block hashes. Both answer "how much of this call was computed before?" and must
// agree with lib/cache/accounting.ts: the tree's hit equals the accounting's prefix match (block 1),
// the block hits equal its block-rounded cached count. Pure data, no DOM.
import { CodedRangeError } from '../util/codedRangeError';

/**
 * One node of the tree as plain data for drawing. The edge into a node carries the tokens at prompt
 * positions [start, end) of every call passing through it, so `end` is also its depth in tokens.
 * The root is node 0 with start = end = 0 and no parent.
 */
export interface RadixNode {
  id: number;
  parent: number | null;
  start: number;
  end: number;
  /** Tokens from the root to the end of this node's edge (= end). */
  depth: number;
  /** Calls whose ids cover this node's whole edge, in insertion order. */
  calls: number[];
  /** The call that created the edge; its ids.slice(start, end) is the edge label. */
  source: number;
  /** The edge label (token ids at positions [start, end)). */
  ids: number[];
}

export interface RadixInsert {
  call: number;
  /** Tokens of this call already in the tree before it was inserted (its longest cached prefix). */
  hit: number;
  /** The latest earlier call sharing those `hit` tokens (the one accounting calls bestEarlier); null for the first call. */
  bestEarlier: number | null;
  /** Nodes this insertion created: the split point (when it branched mid-edge, or ended there) and the new leaf. */
  newNodes: number[];
  /** Node ids from the root to where this call ends. */
  path: number[];
}

interface MutableNode {
  id: number;
  parent: number | null;
  start: number;
  end: number;
  ids: number[];
  calls: number[];
  source: number;
  children: Map<number, number>;
}

export class RadixTree {
  private readonly nodes: MutableNode[] = [{ id: 0, parent: null, start: 0, end: 0, ids: [], calls: [], source: -1, children: new Map() }];
  private callCount = 0;

  /** Tokens of `ids` present in the tree (longest prefix), without changing it. */
  match(ids: readonly number[]): number {
    let node = this.nodes[0]!;
    let pos = 0;
    for (;;) {
      const childId = pos < ids.length ? node.children.get(ids[pos]!) : undefined;
      if (childId === undefined) return pos;
      const child = this.nodes[childId]!;
      let k = 0;
      while (k < child.ids.length && pos + k < ids.length && child.ids[k] === ids[pos + k]) k++;
      pos += k;
      if (k < child.ids.length) return pos;
      node = child;
    }
  }

  /** Inserts one call's ids (calls are numbered in insertion order) and reports what it found. */
  insert(ids: readonly number[]): RadixInsert {
    const call = this.callCount++;
    const newNodes: number[] = [];
    const root = this.nodes[0]!;
    root.calls.push(call);
    const path = [0];
    let node = root;
    let pos = 0;
    let hit = -1;
    while (pos < ids.length) {
      const childId = node.children.get(ids[pos]!);
      if (childId === undefined) {
        hit = pos;
        const leaf = this.add(node, pos, ids.slice(pos), call);
        newNodes.push(leaf.id);
        path.push(leaf.id);
        pos = ids.length;
        break;
      }
      let child = this.nodes[childId]!;
      let k = 0;
      while (k < child.ids.length && pos + k < ids.length && child.ids[k] === ids[pos + k]) k++;
      if (k < child.ids.length) {
        // The call leaves (or ends inside) this edge: split it so that the call's path ends on a node.
        child = this.split(child, k);
        newNodes.push(child.id);
      }
      child.calls.push(call);
      path.push(child.id);
      node = child;
      pos += k;
    }
    if (hit < 0) hit = ids.length; // every token was already there (or the call is empty)
    // Every earlier call through the node at depth `hit` shares exactly `hit` tokens; the latest is the last one listed.
    const at = this.nodes[path.find((id) => this.nodes[id]!.end === hit)!]!;
    const earlier = at.calls.filter((c) => c !== call);
    return { call, hit, bestEarlier: earlier.length ? earlier[earlier.length - 1]! : null, newNodes, path };
  }

  private add(parent: MutableNode, start: number, ids: number[], call: number): MutableNode {
    const n: MutableNode = { id: this.nodes.length, parent: parent.id, start, end: start + ids.length, ids, calls: [call], source: call, children: new Map() };
    this.nodes.push(n);
    parent.children.set(ids[0]!, n.id);
    return n;
  }

  /**
   * Splits `node`'s edge after `k` tokens. The upper part becomes a new node (new id); `node` keeps its id,
   * children and calls for the lower part, so ids drawn earlier stay attached to the same subtree.
   */
  private split(node: MutableNode, k: number): MutableNode {
    const parent = this.nodes[node.parent!]!;
    const upper: MutableNode = {
      id: this.nodes.length,
      parent: parent.id,
      start: node.start,
      end: node.start + k,
      ids: node.ids.slice(0, k),
      calls: [...node.calls],
      source: node.source,
      children: new Map([[node.ids[k]!, node.id]]),
    };
    this.nodes.push(upper);
    parent.children.set(upper.ids[0]!, upper.id);
    node.parent = upper.id;
    node.start += k;
    node.ids = node.ids.slice(k);
    return upper;
  }

  /** The tree as plain data (a copy), nodes in id order. */
  snapshot(): RadixNode[] {
    return this.nodes.map((n) => ({ id: n.id, parent: n.parent, start: n.start, end: n.end, depth: n.end, calls: [...n.calls], source: n.source, ids: [...n.ids] }));
  }
}

/** Inserts the calls in order into a fresh tree. */
export function buildRadix(calls: readonly (readonly number[])[]): { inserts: RadixInsert[]; nodes: RadixNode[] } {
  const tree = new RadixTree();
  const inserts = calls.map((ids) => tree.insert(ids));
  return { inserts, nodes: tree.snapshot() };
}

// ---- vLLM-style block hashes ----

const MASK53 = (1n << 53n) - 1n;
const FNV_OFFSET = 0xcbf29ce484222325n;
const FNV_PRIME = 0x100000001b3n;
const MASK64 = (1n << 64n) - 1n;
/** The parent hash of block 0 (vLLM seeds it with a random NONE_HASH; a constant keeps runs repeatable). */
export const ROOT_BLOCK_HASH = 0;

function fnvBytes(h: bigint, v: number, bytes: number): bigint {
  for (let b = 0; b < bytes; b++) {
    h ^= BigInt((v >>> (8 * b)) & 0xff);
    h = (h * FNV_PRIME) & MASK64;
  }
  return h;
}

/**
 * Hash of one block chained to its parent: 64-bit FNV-1a over the parent hash (7 bytes, little-endian,
 * as two words) followed by each token id (4 bytes, little-endian), truncated to 53 bits so that it is an
 * exact JavaScript number. Not cryptographic: collisions are possible in principle, which is why real
 * engines use SHA-256; here the chain only has to be deterministic and tell kvscope's prompts apart.
 */
export function blockHash(parent: number, ids: readonly number[]): number {
  let h = FNV_OFFSET;
  h = fnvBytes(h, parent % 2 ** 32, 4);
  h = fnvBytes(h, Math.floor(parent / 2 ** 32), 3);
  for (const id of ids) h = fnvBytes(h, id >>> 0, 4);
  return Number(h & MASK53);
}

/**
 * One hash per FULL block of `ids` (a trailing partial block is not hashed, as in vLLM: it cannot be shared
 * yet). Block i's hash covers block i's ids and block i−1's hash, so equal hashes mean equal prefixes.
 */
export function blockHashChain(ids: readonly number[], blockSize: number): number[] {
  if (!Number.isInteger(blockSize) || blockSize < 1) throw new CodedRangeError('msg.engine.cache.blockSize', { got: blockSize });
  const out: number[] = [];
  let parent = ROOT_BLOCK_HASH;
  for (let s = 0; s + blockSize <= ids.length; s += blockSize) {
    parent = blockHash(parent, ids.slice(s, s + blockSize));
    out.push(parent);
  }
  return out;
}

export interface BlockHit {
  call: number;
  /** Full blocks of this call. */
  blocks: number;
  /** Leading blocks found in the cache (lookup stops at the first miss, as vLLM's does). */
  hitBlocks: number;
  /** hitBlocks × blockSize. */
  hitTokens: number;
  hashes: number[];
}

/** Block-level prefix-cache hits per call: each call's blocks are looked up, then all of them are cached. */
export function blockHits(calls: readonly (readonly number[])[], blockSize: number): BlockHit[] {
  const seen = new Set<number>();
  return calls.map((ids, call) => {
    const hashes = blockHashChain(ids, blockSize);
    let hitBlocks = 0;
    while (hitBlocks < hashes.length && seen.has(hashes[hitBlocks]!)) hitBlocks++;
    for (const h of hashes) seen.add(h);
    return { call, blocks: hashes.length, hitBlocks, hitTokens: hitBlocks * blockSize, hashes };
  });
}

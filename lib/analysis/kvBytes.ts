// Size of a K/V cache: every layer keeps one K and one V vector per KV head for every cached token, so
// bytes = tokens × layers × 2 × kvHeads × headDim × bytesPerValue. Pure arithmetic for the views.

export interface KvShape {
  layers: number;
  /** KV heads (grouped-query attention: fewer than the query heads). */
  kvHeads: number;
  headDim: number;
  /** 4 for float32 (the engine's cache), 2 for float16 / bfloat16. */
  bytesPerValue: number;
}

/** Qwen3-0.6B's shape (config.json: 28 layers, 8 KV heads, head_dim 128), stored in bfloat16. */
export const QWEN3_0_6B_KV: Readonly<KvShape> = Object.freeze({ layers: 28, kvHeads: 8, headDim: 128, bytesPerValue: 2 });

function check(s: KvShape): void {
  for (const k of ['layers', 'kvHeads', 'headDim', 'bytesPerValue'] as const) {
    if (!(Number.isInteger(s[k]) && s[k] > 0)) throw new Error(`${k} must be a positive integer (got ${s[k]})`);
  }
}

/** Bytes one token adds to one layer: K and V, each kvHeads × headDim values. */
export function kvBytesPerTokenLayer(s: KvShape): number {
  check(s);
  return 2 * s.kvHeads * s.headDim * s.bytesPerValue;
}

export interface KvBytes {
  tokens: number;
  /** K bytes of one layer (= V bytes of one layer). */
  kPerLayer: number;
  vPerLayer: number;
  perLayer: number;
  total: number;
}

/** Bytes held for `tokens` cached tokens (integer ≥ 0). */
export function kvCacheBytes(s: KvShape, tokens: number): KvBytes {
  if (!(Number.isInteger(tokens) && tokens >= 0)) throw new Error(`tokens must be an integer ≥ 0 (got ${tokens})`);
  const half = tokens * s.kvHeads * s.headDim * s.bytesPerValue;
  check(s);
  return { tokens, kPerLayer: half, vPerLayer: half, perLayer: 2 * half, total: 2 * half * s.layers };
}

/** Binary units: "512 B", "3.5 KiB", "12.25 MiB", "1.5 GiB" (three significant digits at most). */
export function formatBytes(n: number): string {
  if (!(Number.isFinite(n) && n >= 0)) throw new Error(`bytes must be finite and ≥ 0 (got ${n})`);
  const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];
  let u = 0;
  let v = n;
  while (v >= 1024 && u < units.length - 1) {
    v /= 1024;
    u++;
  }
  if (u === 0) return `${n} B`;
  return `${Number(v.toPrecision(3))} ${units[u]}`;
}

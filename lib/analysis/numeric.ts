// Small numeric comparisons over tensors (max absolute difference), shared by checks, tests and the
// KV diff. No model knowledge here.

export function maxAbsDiff(a: ArrayLike<number>, b: ArrayLike<number>): number {
  if (a.length !== b.length) throw new Error(`cannot compare tensors of ${a.length} and ${b.length} values`);
  let m = 0;
  for (let i = 0; i < a.length; i++) {
    const d = Math.abs(a[i]! - b[i]!);
    if (d > m || Number.isNaN(d)) m = Number.isNaN(d) ? Infinity : d;
  }
  return m;
}

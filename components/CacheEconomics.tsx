'use client';
// Placeholder until the cache-economics panels land (patterns, prefix tree, status-bar economics).
import type { Analysed } from './Lab';

export function CacheEconomics(_: { analysed: Analysed | null }) {
  return null;
}

// The page's EngineClient as kvCompare's engine (KvEngine): every call crosses to the worker, `signal` cancels
// it, and attention stays in the worker ('keep'): only K/V travel back. Used by the KV tab and the lessons.
import type { EngineClient } from './client';
import type { KvEngine } from './kvCompare';

export function clientKvEngine(client: EngineClient, numLayers: number, signal: AbortSignal): KvEngine {
  return {
    config: { numLayers },
    get length() {
      return client.length;
    },
    prefill: (ids) => client.prefill(ids, { attention: 'keep', signal }),
    extend: (ids) => client.extend(ids, { attention: 'keep', signal }),
    fork: (n) => client.fork(n, { signal }),
    kv: async (l) => {
      const r = await client.readKv(l, { signal });
      return { k: r.k, v: r.v };
    },
  };
}

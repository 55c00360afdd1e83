// A quota over fake-indexeddb: an IDBFactory wrapper whose readwrite transactions abort with a
// QuotaExceededError (as Chromium reports a full quota: the transaction's `error` after `abort`) once
// the values they put pass `limit` bytes. The abort comes asynchronously, from the request's success
// event, as a real quota failure does at commit: the code under test sees a whole transaction undone.
import type { IdbFactoryLike } from '../../lib/state/db';

type Obj = Record<string | symbol, unknown>;

function sizeOf(v: unknown): number {
  if (v instanceof Uint8Array) return v.byteLength;
  if (typeof v === 'string') return v.length;
  if (typeof v === 'object' && v !== null) return Object.values(v).reduce<number>((n, x) => n + sizeOf(x), 16);
  return 8;
}

/** Forwards to `target`, with `over` replacing some properties; functions are bound to the target. */
function forward<T extends object>(target: T, over: (p: string | symbol) => { value: unknown } | undefined): T {
  return new Proxy(target, {
    get(t, p) {
      const o = over(p);
      if (o) return o.value;
      const v = Reflect.get(t, p, t);
      return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(t) : v;
    },
    set(t, p, v) {
      return Reflect.set(t, p, v, t);
    },
  });
}

export function quotaFactory(inner: IdbFactoryLike): { factory: IdbFactoryLike; limit(bytes: number): void; aborted(): number } {
  let limit = Infinity;
  let aborted = 0;
  const quotaError = () => Object.assign(new Error('The quota has been exceeded.'), { name: 'QuotaExceededError' });

  const wrapTx = (tx: Obj) => {
    let used = 0;
    let hit = false;
    const onPut = (req: Obj, bytes: number) => {
      used += bytes;
      if (used <= limit || hit) return;
      hit = true;
      aborted++;
      (req as unknown as EventTarget).addEventListener('success', () => (tx.abort as () => void).call(tx));
    };
    return forward(tx, (p) => {
      if (p === 'error' && hit) return { value: quotaError() };
      // A real quota fails the commit too: an early commit() must not save the transaction from its abort.
      if (p === 'commit' && hit) return { value: () => undefined };
      if (p !== 'objectStore') return undefined;
      return {
        value: (name: string) => {
          const store = (tx.objectStore as (n: string) => Obj).call(tx, name);
          return forward(store, (q) =>
            q === 'put'
              ? {
                  value: (value: unknown, key?: string) => {
                    const req = (store.put as (v: unknown, k?: string) => Obj).call(store, value, key);
                    onPut(req, sizeOf(value));
                    return req;
                  },
                }
              : undefined,
          );
        },
      };
    });
  };

  const wrapDb = (db: Obj) =>
    forward(db, (p) => (p === 'transaction' ? { value: (stores: string[], mode: string) => wrapTx((db.transaction as (s: string[], m: string) => Obj).call(db, stores, mode)) } : undefined));

  const factory = forward(inner as unknown as Obj, (p) =>
    p === 'open'
      ? {
          value: (name: string, version?: number) => {
            const req = (inner.open as unknown as (n: string, v?: number) => Obj).call(inner, name, version);
            return forward(req, (q) => (q === 'result' ? { value: req.result ? wrapDb(req.result as Obj) : req.result } : undefined));
          },
        }
      : undefined,
  ) as unknown as IdbFactoryLike;
  return {
    factory,
    limit: (bytes) => {
      limit = bytes;
    },
    aborted: () => aborted,
  };
}

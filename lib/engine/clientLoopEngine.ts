// The page's engine worker as the live agent loop's engine (lib/agent/liveLoop.ts LoopEngine): prefill,
// extend and fork go to the worker through EngineClient, attention is kept in the worker (not sent back:
// the loop reads only logits), and the cache's ids are the client's mirror of the worker's. The worker is
// shared with the page's other views: a request another view sends between two of the loop's (a new
// attention run prefills from scratch) would leave the loop extending someone else's cache, so every
// result is checked against the length the loop expects and a mismatch throws ClientLoopError instead of
// generating from the wrong context. No DOM.
import type { LoopEngine, LoopStep } from '../agent/liveLoop';
import type { EngineClient } from './client';
import type { Params, StringKey } from '../i18n';
import { CodedError } from '../i18n/message';

export class ClientLoopError extends CodedError {
  constructor(key: StringKey, params?: Params) {
    super(key, params);
    this.name = 'ClientLoopError';
  }
}

export interface ClientLoopEngine extends LoopEngine {
  /** Requests sent to the worker so far (prefill, extend, fork). */
  readonly requests: number;
}

export function clientLoopEngine(client: EngineClient): ClientLoopEngine {
  // The cache length the loop's own requests leave; null before the first prefill.
  let expected: number | null = null;
  let requests = 0;
  const check = (what: string, r: LoopStep, past: number, added: number): LoopStep => {
    if (r.pastLength !== past || r.length !== past + added) {
      expected = null;
      throw new ClientLoopError('msg.engine.loop.cacheMoved', { what, before: r.pastLength, after: r.length, past, expected: past + added });
    }
    expected = r.length;
    return r;
  };
  return {
    get ids() {
      return client.ids;
    },
    get requests() {
      return requests;
    },
    async prefill(ids) {
      requests++;
      expected = null;
      const r = await client.prefill(ids, { attention: 'keep' });
      return check('prefill', r, 0, ids.length);
    },
    async extend(ids) {
      requests++;
      const past = expected;
      expected = null; // set again only by a result that matches
      if (past === null) throw new ClientLoopError('msg.engine.loop.extendFirst');
      if (client.length !== past) throw new ClientLoopError('msg.engine.loop.cacheChanged', { held: client.length, past });
      const r = await client.extend(ids, { attention: 'keep' });
      return check('extend', r, past, ids.length);
    },
    async fork(length) {
      requests++;
      const r = await client.fork(length);
      if (r.length !== length) throw new ClientLoopError('msg.engine.loop.forkLeft', { length, left: r.length });
      expected = length;
      return r;
    },
  };
}

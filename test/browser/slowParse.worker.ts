// workers/parse.worker.ts with a stall: after a read's first progress message the worker busy-waits HOLD_MS, as
// it would inside one long JSON.parse, so only terminating it ends the read. For the Cancel test
// (test/parseProgressBrowser.test.ts): the read must still be running when its Cancel button shows, whatever
// the machine's speed — a real file slow enough on a slow machine is either over the import limit or read in
// under half a second on a fast one.
import { serveParse, type ParsePort } from '../../lib/io/parseHost';

const HOLD_MS = 30_000;
const port = self as unknown as ParsePort;
const held = new Set<unknown>();
serveParse({
  postMessage: (message, transfer) => {
    port.postMessage(message, transfer);
    const m = message as { type?: unknown; id?: unknown };
    if (m.type !== 'progress' || held.has(m.id)) return;
    held.add(m.id);
    const until = Date.now() + HOLD_MS;
    while (Date.now() < until) {
      /* stalled, as inside one long JSON.parse */
    }
  },
  addEventListener: (type, listener) => port.addEventListener(type, listener),
});

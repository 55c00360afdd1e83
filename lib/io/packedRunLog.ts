// A run log in columns, for the trip from the parse worker to the page. Posting 100,000 call objects makes
// the page rebuild them in one structured-clone step of a few hundred ms; columns cross as typed arrays that
// are moved, not copied (text as UTF-16 code units, so any string comes back exactly, lone surrogates too),
// and the page rebuilds the calls in slices between which it can paint. unpackRunLog(packRunLog(log))
// deep-equals log. Pure: no DOM, no Node APIs.
import type { RunCall, RunLog } from './runlog';

const TEXT_FIELDS = ['note', 'provider', 'model', 'outcome'] as const;
type TextField = (typeof TEXT_FIELDS)[number];

/** Strings of one optional field: their UTF-16 code units one after another, and each call's length (NONE: it has none). */
interface TextColumn {
  codes: Uint16Array;
  lengths: Uint32Array;
}

export interface PackedRunLog {
  mode?: string;
  mainContextPeak?: number;
  agents: string[];
  /** Agent names the calls use: `agents`, then any a call has that the list lacks. */
  names: string[];
  /** Per call: its agent's index in `names`. */
  agent: Uint32Array;
  prompt: Float64Array;
  completion: Float64Array;
  /** NaN: no latency_seconds (the reader accepts only finite values). */
  latency: Float64Array;
  text: Record<TextField, TextColumn>;
}

const NONE = 0xffffffff;

export function packRunLog(log: RunLog): PackedRunLog {
  const n = log.calls.length;
  const names = [...log.agents];
  const index = new Map(names.map((a, i) => [a, i]));
  const p: PackedRunLog = { agents: [...log.agents], names, agent: new Uint32Array(n), prompt: new Float64Array(n), completion: new Float64Array(n), latency: new Float64Array(n), text: {} as PackedRunLog['text'] };
  if (log.mode !== undefined) p.mode = log.mode;
  if (log.mainContextPeak !== undefined) p.mainContextPeak = log.mainContextPeak;
  const units: Record<TextField, number> = { note: 0, provider: 0, model: 0, outcome: 0 };
  for (const c of log.calls) for (const f of TEXT_FIELDS) units[f] += c[f]?.length ?? 0;
  const at: Record<TextField, number> = { note: 0, provider: 0, model: 0, outcome: 0 };
  for (const f of TEXT_FIELDS) p.text[f] = { codes: new Uint16Array(units[f]), lengths: new Uint32Array(n) };
  log.calls.forEach((c, i) => {
    let a = index.get(c.agent);
    if (a === undefined) index.set(c.agent, (a = names.push(c.agent) - 1));
    p.agent[i] = a;
    p.prompt[i] = c.promptTokens;
    p.completion[i] = c.completionTokens;
    p.latency[i] = c.latencySeconds ?? NaN;
    for (const f of TEXT_FIELDS) {
      const s = c[f];
      const col = p.text[f];
      col.lengths[i] = s === undefined ? NONE : s.length;
      if (s === undefined) continue;
      for (let k = 0; k < s.length; k++) col.codes[at[f] + k] = s.charCodeAt(k);
      at[f] += s.length;
    }
  });
  return p;
}

/** The buffers of a packed log, to move rather than copy. */
export function packedBuffers(p: PackedRunLog): ArrayBuffer[] {
  const arrays = [p.agent, p.prompt, p.completion, p.latency, ...TEXT_FIELDS.flatMap((f) => [p.text[f].lengths, p.text[f].codes])];
  return arrays.map((a) => a.buffer).filter((b): b is ArrayBuffer => b instanceof ArrayBuffer);
}

/** Calls rebuilt per slice; between slices the page may paint. */
export const UNPACK_SLICE = 5_000;

/** The log again; `pause` runs between slices of UNPACK_SLICE calls (a yield to the event loop on the page). */
export async function unpackRunLog(p: PackedRunLog, pause: () => Promise<void> = async () => undefined): Promise<RunLog> {
  const n = p.prompt.length;
  const calls: RunCall[] = new Array<RunCall>(n);
  const at: Record<TextField, number> = { note: 0, provider: 0, model: 0, outcome: 0 };
  for (let start = 0; start < n; start += UNPACK_SLICE) {
    if (start > 0) await pause();
    for (let i = start; i < Math.min(n, start + UNPACK_SLICE); i++) {
      const c: RunCall = { agent: p.names[p.agent[i]!]!, promptTokens: p.prompt[i]!, completionTokens: p.completion[i]! };
      const note = take(p, 'note', i, at);
      if (note !== undefined) c.note = note;
      if (!Number.isNaN(p.latency[i]!)) c.latencySeconds = p.latency[i]!;
      for (const f of ['provider', 'model', 'outcome'] as const) {
        const s = take(p, f, i, at);
        if (s !== undefined) c[f] = s;
      }
      calls[i] = c;
    }
  }
  const log: RunLog = { calls, agents: p.agents };
  if (p.mode !== undefined) log.mode = p.mode;
  if (p.mainContextPeak !== undefined) log.mainContextPeak = p.mainContextPeak;
  return log;
}

function take(p: PackedRunLog, f: TextField, i: number, at: Record<TextField, number>): string | undefined {
  const len = p.text[f].lengths[i]!;
  if (len === NONE) return undefined;
  const codes = p.text[f].codes;
  let s = '';
  // In pieces: fromCharCode takes its units as arguments (a reader's strings are ≤ 4,096 units: one piece).
  for (let k = at[f]; k < at[f] + len; k += 8192) s += String.fromCharCode.apply(null, codes.subarray(k, Math.min(k + 8192, at[f] + len)) as unknown as number[]);
  at[f] += len;
  return s;
}

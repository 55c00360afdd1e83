// Reads the book's `attention_visualization` trajectory JSON
// (docs/ATTENTION_FORMAT.md#trajectory-json-attention_visualization): `attention_data.attention_matrix`
// is one layer averaged over heads; `output_only: false` → lower-triangular square (row q: q + 1 entries,
// or T zero-padded); `output_only: true` → only generated rows, row i has context_length + i + 1 entries
// (ragged, or padded). ReAct runs add `llm_calls[…]`, each with its own attention_data.

import { en, msg, type Message } from '../msg';
import { ImportError, LIMITS, maxRowSumDeviation, putMeta, ROW_SUM_REJECT, VALUE_TOL, type ImportedAttention, type ImportedCall, type ImportedLayer } from './types';

type Obj = Record<string, unknown>;

const isObj = (x: unknown): x is Obj => typeof x === 'object' && x !== null && !Array.isArray(x);
const kind = (x: unknown) => (x === null ? 'null' : Array.isArray(x) ? 'array' : typeof x);

function str(x: unknown, path: string, max: number = LIMITS.maxStringChars): string {
  if (typeof x !== 'string') throw new ImportError(path, 'msg.import.att.string', { kind: kind(x) });
  if (x.length > max) throw new ImportError(path, 'msg.import.att.stringLimit', { n: x.length, limit: max });
  return x;
}

function int(x: unknown, path: string, min = 0): number {
  if (typeof x !== 'number' || !Number.isInteger(x) || x < min) throw new ImportError(path, 'msg.import.att.intMin', { min, got: typeof x === 'number' ? x : kind(x) });
  return x;
}

function tokenList(x: unknown, path: string): string[] {
  if (!Array.isArray(x)) throw new ImportError(path, 'msg.import.att.tokenList', { kind: kind(x) });
  if (x.length > LIMITS.maxTokens) throw new ImportError(path, 'msg.import.att.tokensLimit', { n: x.length, limit: LIMITS.maxTokens });
  return x.map((t, i) => str(t, `${path}[${i}]`, LIMITS.maxTokenChars));
}

/** Copies scalar fields (strings capped, numbers, booleans, null) into meta under a prefix. */
function scalars(o: unknown, prefix: string, path: string, meta: ImportedAttention['meta']): void {
  if (o === undefined) return;
  if (!isObj(o)) throw new ImportError(path, 'msg.import.att.object', { kind: kind(o) });
  for (const [k, v] of Object.entries(o)) {
    if (typeof v === 'string') putMeta(meta, prefix + k, str(v, `${path}.${k}`));
    else if ((typeof v === 'number' && Number.isFinite(v)) || typeof v === 'boolean' || v === null) putMeta(meta, prefix + k, v);
  }
}

function parseAttentionData(ad: unknown, fallbackTokens: unknown, path: string, fallbackPath: string): { tokens: string[]; layer: ImportedLayer; notes: Message[]; meta: ImportedAttention['meta'] } {
  if (!isObj(ad)) throw new ImportError(path, 'msg.import.att.object', { kind: kind(ad) });
  const tokens = ad.tokens !== undefined ? tokenList(ad.tokens, `${path}.tokens`) : fallbackTokens !== undefined ? tokenList(fallbackTokens, fallbackPath) : null;
  if (!tokens) throw new ImportError(`${path}.tokens`, 'msg.import.traj.tokensMissing');
  const outputOnly = ad.output_only === undefined ? false : ad.output_only;
  if (typeof outputOnly !== 'boolean') throw new ImportError(`${path}.output_only`, 'msg.import.traj.bool', { kind: kind(outputOnly) });
  const m = ad.attention_matrix;
  const mp = `${path}.attention_matrix`;
  if (!Array.isArray(m)) throw new ImportError(mp, 'msg.import.traj.rows', { kind: kind(m) });
  if (m.length === 0) throw new ImportError(mp, 'msg.import.traj.noRows');
  const T = tokens.length;
  let ctx = 0;
  if (outputOnly) {
    ctx = int(ad.context_length, `${path}.context_length`);
    if (ctx + m.length > T) throw new ImportError(mp, 'msg.import.traj.ctxRows', { m: m.length, ctx, need: ctx + m.length, T });
  } else if (m.length !== T) throw new ImportError(mp, 'msg.import.traj.rowCount', { T, m: m.length });
  const Q = m.length;
  const K = outputOnly ? ctx + Q : T;
  if (Q * K > LIMITS.maxCells) throw new ImportError(mp, 'msg.import.traj.cells', { Q, K, limit: LIMITS.maxCells });
  const data = new Float32Array(Q * K).fill(NaN);
  const queryPositions: number[] = [];
  for (let i = 0; i < Q; i++) {
    const row = m[i];
    const rp = `${mp}[${i}]`;
    const q = ctx + i;
    queryPositions.push(q);
    if (!Array.isArray(row)) throw new ImportError(rp, 'msg.import.traj.numbers', { kind: kind(row) });
    const causal = q + 1;
    // padded rows: full width T, or (output_only) the widest row's width
    const widths = outputOnly ? [...new Set([causal, K, T])] : [causal, T];
    if (!widths.includes(row.length)) {
      const w = [...new Set(widths)];
      const key = w.length === 1 ? 'msg.import.traj.entries1' : w.length === 2 ? 'msg.import.traj.entries2' : 'msg.import.traj.entries3';
      throw new ImportError(rp, key, { a: w[0]!, b: w[1] ?? '', c: w[2] ?? '', n: row.length });
    }
    for (let k = 0; k < row.length; k++) {
      const v = row[k];
      if (typeof v !== 'number' || !Number.isFinite(v)) throw new ImportError(`${rp}[${k}]`, 'msg.import.att.finite', { v: typeof v === 'number' ? String(v) : kind(v) });
      if (k < causal) {
        if (v < -VALUE_TOL || v > 1 + VALUE_TOL) throw new ImportError(`${rp}[${k}]`, 'msg.import.att.range', { v: String(v) });
        data[i * K + k] = v;
      } else if (Math.abs(v) > VALUE_TOL) throw new ImportError(`${rp}[${k}]`, 'msg.import.traj.padding', { q, v: String(v) });
    }
  }
  const meta: ImportedAttention['meta'] = {};
  if (ad.num_layers !== undefined) meta.num_layers = int(ad.num_layers, `${path}.num_layers`, 1);
  if (ad.num_heads !== undefined) meta.num_heads = int(ad.num_heads, `${path}.num_heads`, 1);
  const notes: Message[] = [];
  let layerIndex: number | null = null;
  let labelCoded: Message;
  if (ad.layer !== undefined) {
    layerIndex = int(ad.layer, `${path}.layer`);
    labelCoded = msg('msg.import.att.layer', { layer: layerIndex });
  } else if (typeof meta.num_layers === 'number') {
    labelCoded = msg('msg.import.traj.lastAssumed', { n: meta.num_layers, last: meta.num_layers - 1 });
    notes.push(msg('msg.import.traj.whichLayer', undefined, path));
  } else {
    labelCoded = msg('msg.import.traj.layerDefault');
    notes.push(msg('msg.import.traj.whichLayer', undefined, path));
  }
  const layer: ImportedLayer = { layer: layerIndex, label: en(labelCoded), labelCoded, heads: 'mean', queries: Q, keys: K, data, queryPositions };
  const dev = maxRowSumDeviation(layer);
  if (dev > ROW_SUM_REJECT) {
    throw new ImportError(mp, 'msg.import.att.rowSum', { dev: dev.toPrecision(3), limit: ROW_SUM_REJECT });
  }
  notes.push(msg('msg.import.traj.within', { dev: dev.toExponential(2) }, path));
  if (K < T) notes.push(msg('msg.import.traj.covers', { T, K }, path));
  return { tokens, layer, notes, meta };
}

/** Parses a trajectory JSON (text or parsed value) into ImportedAttention; throws ImportError with a JSON path. */
export function parseAttentionTrajectory(json: unknown): ImportedAttention {
  if (typeof json === 'string') {
    if (json.length > LIMITS.maxBytes) throw new ImportError('', 'msg.import.att.inputChars', { n: json.length, limit: LIMITS.maxBytes });
    try {
      json = JSON.parse(json);
    } catch (e) {
      throw new ImportError('', 'msg.import.att.json', { detail: (e as Error).message });
    }
  }
  if (!isObj(json)) throw new ImportError('', 'msg.import.traj.notTrajectory', { kind: kind(json) });
  const meta: ImportedAttention['meta'] = {};
  for (const k of ['id', 'timestamp', 'response'] as const) if (json[k] !== undefined && json[k] !== null) meta[k] = typeof json[k] === 'number' ? (json[k] as number) : str(json[k], k);
  scalars(json.test_case, 'test_case.', 'test_case', meta);
  scalars(json.metadata, '', 'metadata', meta);

  let calls: ImportedCall[] = [];
  if (json.llm_calls !== undefined) {
    if (!Array.isArray(json.llm_calls)) throw new ImportError('llm_calls', 'msg.import.traj.list', { kind: kind(json.llm_calls) });
    if (json.llm_calls.length > LIMITS.maxCalls) throw new ImportError('llm_calls', 'msg.import.traj.callsLimit', { n: json.llm_calls.length, limit: LIMITS.maxCalls });
    calls = json.llm_calls.flatMap((c, i): ImportedCall[] => {
      const p = `llm_calls[${i}]`;
      if (!isObj(c)) throw new ImportError(p, 'msg.import.att.object', { kind: kind(c) });
      if (c.attention_data === undefined || c.attention_data === null) return [];
      const r = parseAttentionData(c.attention_data, c.tokens, `${p}.attention_data`, `${p}.tokens`);
      const cm: ImportedAttention['meta'] = { ...r.meta };
      for (const k of ['prompt', 'response', 'step_type'] as const) if (typeof c[k] === 'string') cm[k] = str(c[k], `${p}.${k}`);
      for (const k of ['step_num', 'input_tokens', 'output_tokens'] as const) if (typeof c[k] === 'number') cm[k] = c[k] as number;
      const stepNum = c.step_num === undefined || c.step_num === null ? null : int(c.step_num, `${p}.step_num`);
      const stepType = c.step_type === undefined || c.step_type === null ? null : str(c.step_type, `${p}.step_type`);
      return [{ index: i, stepNum, stepType, attention: { source: 'attention_visualization', tokens: r.tokens, layers: [r.layer], meta: { ...meta, ...cm }, notes: r.notes.map(en), codedNotes: r.notes, calls: [] } }];
    });
  }
  if (json.attention_data === undefined || json.attention_data === null) {
    if (calls.length === 0) throw new ImportError('attention_data', 'msg.import.traj.noAttention');
    const first = calls[0]!.attention;
    const codedNotes = [msg('msg.import.traj.absent', { index: calls[0]!.index, n: calls.length }), ...(first.codedNotes ?? [])];
    return { source: 'attention_visualization', tokens: first.tokens, layers: first.layers, meta, notes: codedNotes.map(en), codedNotes, calls };
  }
  const r = parseAttentionData(json.attention_data, json.tokens, 'attention_data', 'tokens');
  return { source: 'attention_visualization', tokens: r.tokens, layers: [r.layer], meta: { ...meta, ...r.meta }, notes: r.notes.map(en), codedNotes: r.notes, calls };

}

// `kvscope check`: compares the engine's graph with the golden PyTorch fixtures (when they belong to
// this model) and with the plain-TypeScript reference; exits 1 above the tolerance. Node-only.

import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { maxAbsDiff } from '../analysis/numeric';
import { EngineSession } from '../engine/session';
import { referenceForward } from '../model/reference';
import { parseSafetensors, readFloat32 } from '../model/safetensors';
import { gaussian } from '../model/randomCheckpoint';
import { intFlag, onlyFlags, required, str, type Args } from './args';
import { openModelArg } from './modelDir';
import { nodeOrt } from './ort';

export const CHECK_TOLERANCE = 1e-4;
type Kind = 'logits' | 'attention' | 'k' | 'v';

interface Row {
  against: 'golden' | 'reference' | 'prefill';
  case: string;
  tokens: number;
  kind: Kind | 'extend';
  maxAbsDiff: number;
}

interface GoldenCase {
  name: string;
  ids: number[];
  rows: number[];
  logits_positions: number[];
}

export async function check(args: Args): Promise<{ text: string; json: unknown; code: number }> {
  onlyFlags(args, ['model', 'golden', 'tokens', 'json', 'threads']);
  const model = await openModelArg(required(args, 'model'));
  const c = model.checkpoint.config;
  const goldenDir = str(args, 'golden') ?? 'training/golden';
  const ort = nodeOrt(args.flags.has('threads') ? intFlag(args, 'threads', 1, 1) : undefined);
  const engine = await EngineSession.create(ort, model.checkpoint, { graph: { logits: 'all', attention: 'full', presentKv: true } });
  const rows: Row[] = [];

  // Golden fixtures apply only to the model they were computed from.
  const casesPath = resolve(goldenDir, 'cases.json');
  let golden: { model: string; cases: GoldenCase[] } | undefined;
  if (existsSync(casesPath)) {
    const g = JSON.parse(readFileSync(casesPath, 'utf8')) as { model: string; cases: GoldenCase[] };
    if (resolve(g.model) === resolve(model.dir)) golden = g;
  }
  const V = c.vocabSize;
  if (golden) {
    const file = parseSafetensors(new Uint8Array(readFileSync(resolve(goldenDir, 'golden.safetensors'))));
    for (const cs of golden.cases) {
      const r = await engine.prefill(cs.ids);
      const T = cs.ids.length;
      const logits = new Float32Array(cs.logits_positions.length * V);
      cs.logits_positions.forEach((p, i) => logits.set(r.logits!.data.subarray(p * V, (p + 1) * V), i * V));
      const d: Record<Kind, number> = { logits: maxAbsDiff(logits, readFloat32(file, `${cs.name}.logits`)), attention: 0, k: 0, v: 0 };
      for (let l = 0; l < c.numLayers; l++) {
        const a = r.attention[l]!.data;
        const kept = new Float32Array(c.numHeads * cs.rows.length * T);
        for (let h = 0; h < c.numHeads; h++) cs.rows.forEach((row, i) => kept.set(a.subarray((h * T + row) * T, (h * T + row + 1) * T), (h * cs.rows.length + i) * T));
        d.attention = Math.max(d.attention, maxAbsDiff(kept, readFloat32(file, `${cs.name}.${l}.attn`)));
        const kv = engine.kv(l);
        d.k = Math.max(d.k, maxAbsDiff(kv.k.data, readFloat32(file, `${cs.name}.${l}.k`)));
        d.v = Math.max(d.v, maxAbsDiff(kv.v.data, readFloat32(file, `${cs.name}.${l}.v`)));
      }
      for (const kind of ['logits', 'attention', 'k', 'v'] as const) rows.push({ against: 'golden', case: cs.name, tokens: T, kind, maxAbsDiff: d[kind] });
    }
  }

  // The reference forward pass on a deterministic id sequence (any model, golden or not).
  const n = intFlag(args, 'tokens', 48, 2);
  const rnd = gaussian(7);
  const longest = golden?.cases.reduce((a, b) => (b.ids.length > a.ids.length ? b : a));
  const ids = longest?.ids.slice(0, n) ?? Array.from({ length: n }, () => Math.floor(Math.abs(rnd() * 1e6)) % V);
  const ref = referenceForward(model.checkpoint, ids);
  const r = await engine.prefill(ids);
  const name = longest ? `${longest.name}[:${ids.length}]` : `random ids`;
  const d: Record<Kind, number> = { logits: maxAbsDiff(r.logits!.data, ref.logits), attention: 0, k: 0, v: 0 };
  for (let l = 0; l < c.numLayers; l++) {
    d.attention = Math.max(d.attention, maxAbsDiff(r.attention[l]!.data, ref.attn[l]!));
    const kv = engine.kv(l);
    d.k = Math.max(d.k, maxAbsDiff(kv.k.data, ref.k[l]!));
    d.v = Math.max(d.v, maxAbsDiff(kv.v.data, ref.v[l]!));
  }
  for (const kind of ['logits', 'attention', 'k', 'v'] as const) rows.push({ against: 'reference', case: name, tokens: ids.length, kind, maxAbsDiff: d[kind] });

  // The cache path: prefill a prefix, extend by one token and then by a chunk; last logits must match.
  const cut = Math.max(1, ids.length - 5);
  await engine.prefill(ids.slice(0, cut));
  await engine.extend(ids.slice(cut, cut + 1));
  const last = await engine.extend(ids.slice(cut + 1));
  const T = ids.length;
  const rowsBack = T - cut - 1;
  const full = r.logits!.data.subarray((T - rowsBack) * V, T * V);
  rows.push({ against: 'prefill', case: `${name}: prefill ${cut} + extend 1 + extend ${rowsBack}`, tokens: T, kind: 'extend', maxAbsDiff: maxAbsDiff(last.logits!.data, full) });
  await engine.dispose();

  const worst = Math.max(...rows.map((x) => x.maxAbsDiff));
  const ok = worst <= CHECK_TOLERANCE;
  const lines = [
    `model ${model.dir} (${c.modelType}, ${c.numLayers} layers, ${c.numHeads}/${c.numKvHeads} heads, weights ${engine.weightType}, provider ${engine.provider})`,
    golden ? `golden fixtures: ${resolve(goldenDir)}` : `golden fixtures: none for this model (they belong to ${existsSync(casesPath) ? 'another model' : 'no folder found'}); reference only`,
    '',
    `${'against'.padEnd(10)} ${'case'.padEnd(44)} ${'tokens'.padStart(6)}  ${'tensor'.padEnd(9)} max |Δ|`,
    ...rows.map((x) => `${x.against.padEnd(10)} ${x.case.padEnd(44)} ${String(x.tokens).padStart(6)}  ${x.kind.padEnd(9)} ${x.maxAbsDiff.toExponential(2)}${x.maxAbsDiff > CHECK_TOLERANCE ? '  FAIL' : ''}`),
    '',
    ok ? `ok: every tensor within ${CHECK_TOLERANCE}` : `FAILED: max |Δ| ${worst.toExponential(2)} exceeds ${CHECK_TOLERANCE}`,
  ];
  return { text: lines.join('\n'), json: { model: model.dir, provider: engine.provider, tolerance: CHECK_TOLERANCE, ok, rows }, code: ok ? 0 : 1 };
}

// lib/generate/stepSession.ts with keepRows (what the Step tab uses): only the rows near the cursor (and row 0)
// are held, so memory is linear in the prompt's length; each row held equals one full prefill's (≤ 1e-5) and
// its logits are its own copy (not a view keeping a run's whole logits block alive); a step back within the
// rows kept is one fork, one past them is a fork and ONE re-decode of the query token (its row equal to the
// prefill's again); Home keeps row 0 without another prefill; back to the prompt after a long generation
// restores the query's row. On the embedded model (EngineSession, WASM in Node).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, test } from 'node:test';
import { readModelDir } from '../lib/cli/modelDir';
import { nodeOrt } from '../lib/cli/ort';
import { EngineSession } from '../lib/engine/session';
import { greedySettings } from '../lib/generate/sampling';
import { StepSession, type Row } from '../lib/generate/stepSession';
import { attentionRow } from '../lib/generate/stepper';
import { buildPrompt } from '../lib/prompt/prompt';
import { validateRequest } from '../lib/prompt/request';
import { createTokenizer } from '../lib/prompt/tokenizer';

const TOL = 1e-5;
const K = 4;
const model = readModelDir('public/models/kvscope-tiny');
const tok = createTokenizer(model.tokenizerJson, model.tokenizerConfig);
const engine = await EngineSession.create(nodeOrt(), model.checkpoint, { graph: { logits: 'all', attention: 'full', attentionRows: 'all', presentKv: true } });
after(() => engine.dispose());
const V = model.checkpoint.config.vocabSize;

const v = validateRequest(readFileSync('examples/requests/beijing.json', 'utf8'));
if (!v.ok) throw new Error('beijing: invalid request');
const seq = buildPrompt(tok, v.request, { addGenerationPrompt: true }).ids;
const T = seq.length;
const full = await engine.prefill(seq);

function maxDiff(a: ArrayLike<number>, b: ArrayLike<number>): number {
  assert.equal(a.length, b.length);
  let m = 0;
  for (let i = 0; i < a.length; i++) m = Math.max(m, Math.abs(a[i]! - b[i]!));
  return m;
}

/** The row equals the full prefill's at its position, and owns its logits. */
function checkRow(r: Row | undefined, q: number): void {
  assert.ok(r, `row ${q} is held`);
  assert.equal(r.position, q);
  for (let l = 0; l < full.attention.length; l++) assert.ok(maxDiff(r.attention[l]!, attentionRow(full.attention[l]!, q, q + 1)) <= TOL, `row ${q} layer ${l}`);
  assert.ok(maxDiff(r.logits!, full.logits!.data.subarray(q * V, (q + 1) * V)) <= TOL, `row ${q} logits`);
  assert.equal(r.logits!.buffer.byteLength, V * 4, 'a copy of one logits row');
}

const held = (s: StepSession) => s.rows.flatMap((r, q) => (r ? [q] : []));
const opsSince = (s: StepSession, n: number) => s.ops.slice(n).map((o) => `${o.kind}:${o.via}:${o.from}→${o.to}`);

test('keepRows holds row 0 and the rows before the cursor only; a step back past them re-decodes one token', async () => {
  assert.throws(() => new StepSession(engine, seq, { keepRows: 0 }), /keepRows must be at least 1/);
  assert.ok(T > 12, `the prompt has ${T} tokens`);
  const s = new StepSession(engine, seq, { keepRows: K });
  await s.establish(1);
  for (let c = 2; c <= 10; c++) await s.moveTo(c);
  assert.deepEqual(held(s), [0, 6, 7, 8, 9]);
  for (const q of held(s)) checkRow(s.rows[q], q);

  // Back one: the row is held, one fork.
  let n = s.ops.length;
  await s.moveTo(9);
  assert.deepEqual(opsSince(s, n), ['fork:back:10→9']);
  checkRow(s.rows[8], 8);
  // Back past the rows held: the fork, then one re-decode of the query token.
  n = s.ops.length;
  await s.moveTo(4);
  assert.deepEqual(opsSince(s, n), ['fork:back:9→4', 'fork:redo:4→3', 'extend:redo:3→4']);
  assert.equal(s.rows[3]!.via, 'redo');
  checkRow(s.rows[3], 3);
  assert.deepEqual([...engine.ids], seq.slice(0, 4));
  assert.equal(s.counts.redo, 2);
  assert.equal(s.counts.fork, 2, 'the re-decode is not counted as a move');

  // A jump to the end keeps only the last K rows of its run (and row 0); Home needs no prefill.
  await s.moveTo(T);
  assert.deepEqual(held(s), [0, T - 4, T - 3, T - 2, T - 1]);
  checkRow(s.rows[T - 1], T - 1);
  n = s.ops.length;
  await s.moveTo(1);
  assert.deepEqual(opsSince(s, n), [`fork:back:${T}→1`]);
  checkRow(s.rows[0], 0);
  assert.equal(s.counts.prefill, 1);
});

test('memory: the rows held stay linear in the cursor, whatever the number of steps', async () => {
  const bytes = (s: StepSession) => s.rows.reduce((b, r) => b + (r ? r.attention.reduce((x, a) => x + a.byteLength, 0) + (r.logits?.byteLength ?? 0) : 0), 0);
  const all = new StepSession(engine, seq);
  const kept = new StepSession(engine, seq, { keepRows: K });
  for (const s of [all, kept]) {
    await s.establish(1);
    for (let c = 2; c <= T; c++) await s.moveTo(c);
  }
  const L = full.attention.length;
  const H = full.attention[0]!.dims[0]!;
  // Every row: Σ_{p<T} L·H·(p+1) weights; kept: row 0 and the last K rows.
  assert.equal(bytes(all) - T * V * 4, 4 * L * H * ((T * (T + 1)) / 2));
  let want = 4 * L * H * 1 + V * 4;
  for (let q = T - K; q < T; q++) want += 4 * L * H * (q + 1) + V * 4;
  assert.equal(bytes(kept), want);
});

test('back to the prompt after a long generation restores the query’s row', async () => {
  const s = new StepSession(engine, seq, { keepRows: K });
  await s.establish(T);
  const r = await s.generate({ maxNewTokens: 12, sampling: greedySettings([]), seed: 0 });
  assert.equal(r.ids.length, 12);
  assert.equal(s.rows[T - 1], undefined, 'dropped while generating');
  await s.backToPrompt();
  assert.equal(s.cursor, T);
  checkRow(s.rows[T - 1], T - 1);
  assert.deepEqual([...engine.ids], seq);
});

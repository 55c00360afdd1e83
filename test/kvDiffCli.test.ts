// `kvscope kv-diff` as a user runs it (a child process): where two requests part, how much of B's cache is
// reusable, per layer where K/V really differ in both alignments, the two modes, and one clear line on
// stderr with exit 2 for every bad input.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { kvscope } from './helpers/cli';
import { TINY_VOCAB_SIZE, tinyTokenId } from './helpers/embeddedIds';

const MODEL = 'public/models/kvscope-tiny';
const tmp = mkdtempSync(join(tmpdir(), 'kvscope-kvdiff-'));
after(() => rmSync(tmp, { recursive: true, force: true }));

interface LayerRow {
  layer: number;
  first: { index: number; a: number; b: number; maxK: number; maxV: number } | null;
  maxK: number;
  maxV: number;
  identical: number;
  withinTol: number;
  changed: number;
  invalidated: number;
  changedInvalidated: number;
}
interface Out {
  a: { tokens: number };
  b: { tokens: number; source: string };
  firstDifferingToken: number | null;
  partAt: number;
  tokensAtPart: { a: { id: number; text: string } | null; b: { id: number; text: string } | null };
  mode: string;
  modeNote: string;
  computedB: number;
  tol: number;
  reuse: { layers: number; reusablePositions: number; invalidatedPositions: number; reusableEntries: number; invalidatedEntries: number };
  prefix: { positions: number; maxK: number; maxV: number; bitIdentical: boolean };
  alignments: { name: string; alignment: unknown; positions: number; perLayer: LayerRow[]; maxK: number[][]; maxV: number[][]; pairs: { a: number[]; b: number[] } }[];
}

async function json(...args: string[]): Promise<Out> {
  const r = await kvscope('kv-diff', '--model', MODEL, ...args, '--json');
  assert.equal(r.code, 0, r.stderr);
  return JSON.parse(r.stdout) as Out;
}

test('two requests (the status-bar A/B): where they part, what is reusable, and both alignments', async () => {
  const out = await json('--a', 'examples/requests/xfinity-without-status.json', '--b', 'examples/requests/xfinity-with-status.json');
  const p = out.firstDifferingToken!;
  assert.ok(p > 500 && p < out.a.tokens, `they part at ${p}`);
  assert.equal(out.partAt, p);
  assert.notEqual(out.tokensAtPart.a!.id, out.tokensAtPart.b!.id);
  assert.equal(out.mode, 'shared');
  assert.equal(out.computedB, out.b.tokens - p);
  assert.deepEqual(out.reuse, { layers: 4, reusablePositions: p, invalidatedPositions: out.b.tokens - p, reusableEntries: 4 * p, invalidatedEntries: 4 * (out.b.tokens - p) });
  assert.deepEqual(out.prefix, { positions: p, maxK: 0, maxV: 0, bitIdentical: true });
  const [pos, tok] = out.alignments;
  assert.equal(pos!.name, 'position');
  assert.equal(pos!.positions, Math.min(out.a.tokens, out.b.tokens));
  for (const l of pos!.perLayer) {
    assert.equal(l.first!.a, p);
    assert.ok(Math.max(l.first!.maxK, l.first!.maxV) > 0.1);
    assert.equal(l.identical + l.withinTol + l.changed, pos!.positions);
    assert.equal(pos!.maxK[l.layer]!.length, pos!.positions);
  }
  // B is longer: the generation prompt both end with is paired token to token across the shift.
  assert.equal(tok!.name, 'token');
  assert.deepEqual(tok!.alignment, { shiftAfter: p, by: out.b.tokens - out.a.tokens });
  const l0 = tok!.perLayer[0]!;
  assert.equal(l0.first!.b - l0.first!.a, out.b.tokens - out.a.tokens);
  assert.equal(l0.maxV, 0, 'layer-0 V of the same token at another position is the same (no RoPE on V)');
  assert.ok(l0.maxK > 0.1, 'layer-0 K of the same token at another position differs (RoPE)');
});

test('--edit: one token replaced in place changes one position at layer 0 and every later one above', async () => {
  const ASSISTANT = tinyTokenId('Ġassistant');
  const out = await json('--a', 'examples/requests/vancouver.json', '--edit', `100:${ASSISTANT}`);
  assert.equal(out.firstDifferingToken, 100);
  assert.equal(out.a.tokens, out.b.tokens);
  assert.match(out.b.source, new RegExp(`token 100 replaced by id ${ASSISTANT}`));
  assert.deepEqual(out.tokensAtPart.b, { id: ASSISTANT, text: '␣assistant' });
  assert.equal(out.alignments.length, 1, 'same length: token alignment is position alignment');
  const [l0, ...rest] = out.alignments[0]!.perLayer;
  const invalidated = out.b.tokens - 100;
  assert.deepEqual([l0!.first!.a, l0!.changed, l0!.changedInvalidated, l0!.invalidated], [100, 1, 1, invalidated]);
  for (const l of rest) assert.deepEqual([l.first!.a, l.changed, l.changedInvalidated], [100, invalidated, invalidated]);
  const text = await kvscope('kv-diff', '--model', MODEL, '--a', 'examples/requests/vancouver.json', '--edit', `100:${ASSISTANT}`);
  assert.equal(text.code, 0, text.stderr);
  assert.match(text.stdout, new RegExp(`first differing token: 100 {3}A ".*" \\(id \\d+\\) {3}B "␣assistant" \\(id ${ASSISTANT}\\)`));
  assert.match(text.stdout, /reuse: 100 of B's 478 positions reusable \(400 K\/V entries over 4 layers\), 378 invalidated \(1512 entries\)/);
  assert.match(text.stdout, /\n +0 +100 .* 1 of 378\n/);
  assert.match(text.stdout, /\n +1 +100 .* 378 of 378\n/);
});

test('--mode separate recomputes B from scratch; its prefix agrees within the tolerance', async () => {
  const out = await json('--a-scenario', 'xfinity:without-status', '--b-scenario', 'xfinity:with-status', '--mode', 'separate', '--tol', '1e-6');
  assert.equal(out.mode, 'separate');
  assert.match(out.modeNote, /separate prefills/);
  assert.equal(out.computedB, out.b.tokens);
  assert.equal(out.tol, 1e-6);
  // Measured: 0 on WASM (bit-identical); the issue allows 1e-6.
  assert.ok(out.prefix.maxK <= 1e-6 && out.prefix.maxV <= 1e-6, JSON.stringify(out.prefix));
  assert.equal(out.prefix.positions, out.partAt);
});

test('a request that continues another: no differing token, they part at the shorter length', async () => {
  const r = await kvscope('kv-diff', '--model', MODEL, '--a', 'examples/requests/beijing.json', '--b', 'examples/requests/beijing.json', '--tol', '0');
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /A and B are the same 17 tokens: nothing differs/);
  assert.match(r.stdout, /tol 0 \(bit-exact\)/);
  const a = JSON.parse(readFileSync('examples/requests/beijing.json', 'utf8'));
  const longer = join(tmp, 'longer.json');
  writeFileSync(longer, JSON.stringify({ messages: [...a.messages, { role: 'assistant', content: '晴' }, { role: 'user', content: '明天呢' }] }));
  const out = await json('--a', 'examples/requests/beijing.json', '--b', longer);
  // The generation prompt of A (<|im_start|>assistant\n) is also how B's assistant turn starts, so A is a prefix of B.
  assert.equal(out.firstDifferingToken, null);
  assert.equal(out.partAt, out.a.tokens);
  assert.equal(out.computedB, out.b.tokens - out.a.tokens);
  assert.equal(out.prefix.bitIdentical, true);
});

const file = (name: string, text: string) => {
  const p = join(tmp, name);
  writeFileSync(p, text);
  return p;
};

const HOSTILE: [string, () => string[], RegExp][] = [
  ['no A', () => ['--model', MODEL, '--b', 'examples/requests/beijing.json'], /missing --a <request\.json> or --a-scenario/],
  ['no B', () => ['--model', MODEL, '--a', 'examples/requests/beijing.json'], /missing B: --b/],
  ['B and --edit', () => ['--model', MODEL, '--a', 'examples/requests/beijing.json', '--b', 'examples/requests/beijing.json', '--edit', '1:2'], /either B .* or --edit, not both/],
  ['--a and --a-scenario', () => ['--model', MODEL, '--a', 'examples/requests/beijing.json', '--a-scenario', 'beijing', '--edit', '1:2'], /either --a or --a-scenario/],
  ['--edit not position:id', () => ['--model', MODEL, '--a', 'examples/requests/beijing.json', '--edit', 'x'], /--edit must be <position>:<tokenId> \(got x\)/],
  ['--edit past the end', () => ['--model', MODEL, '--a', 'examples/requests/beijing.json', '--edit', '17:5'], /--edit position 17 is outside A's 17 tokens/],
  ['--edit id outside the vocabulary', () => ['--model', MODEL, '--a', 'examples/requests/beijing.json', '--edit', '3:99999'], new RegExp(`--edit token id 99999 is outside the vocabulary \\(0…${TINY_VOCAB_SIZE - 1}\\)`)],
  ['unknown mode', () => ['--model', MODEL, '--a', 'examples/requests/beijing.json', '--edit', '1:2', '--mode', 'fast'], /--mode must be shared or separate \(got fast\)/],
  ['negative tol', () => ['--model', MODEL, '--a', 'examples/requests/beijing.json', '--edit', '1:2', '--tol', '-1'], /--tol must be a number ≥ 0/],
  ['unknown flag', () => ['--model', MODEL, '--a', 'examples/requests/beijing.json', '--edit', '1:2', '--tolerance', '1'], /unknown flag --tolerance/],
  ['missing file', () => ['--model', MODEL, '--a', join(tmp, 'nope.json'), '--edit', '1:2'], /request file not found/],
  ['invalid request', () => ['--model', MODEL, '--a', 'examples/requests/beijing.json', '--b', file('bad.json', JSON.stringify({ messages: [{ role: 'robot', content: 'hi' }] }))], /bad\.json: messages\[0\]\.role: unknown role "robot"/],
  ['unknown scenario', () => ['--model', MODEL, '--a-scenario', 'nope', '--edit', '1:2'], /unknown scenario "nope"/],
  ['missing model', () => ['--a', 'examples/requests/beijing.json', '--edit', '1:2'], /missing --model/],
];

for (const [name, argv, message] of HOSTILE) {
  test(`kv-diff refuses ${name} with one line and exit 2`, async () => {
    const r = await kvscope('kv-diff', ...argv());
    assert.equal(r.code, 2, r.stderr);
    assert.equal(r.stdout, '');
    const lines = r.stderr.trim().split('\n');
    assert.equal(lines.length, 1, r.stderr);
    assert.match(lines[0]!, /^kvscope kv-diff: /);
    assert.match(lines[0]!, message);
  });
}

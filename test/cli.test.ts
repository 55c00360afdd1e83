// The kvscope command as a user runs it (a child process): check passes on the embedded model, analyze
// reads OpenAI request files, and every hostile input gives one clear line on stderr and exit 2.
import assert from 'node:assert/strict';
import { copyFileSync, cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { kvscope } from './helpers/cli';

const tmp = mkdtempSync(join(tmpdir(), 'kvscope-cli-'));
after(() => rmSync(tmp, { recursive: true, force: true }));

const file = (name: string, text: string) => {
  const p = join(tmp, name);
  writeFileSync(p, text);
  return p;
};

test('check passes on the embedded model against the golden fixtures and the reference', async () => {
  const r = await kvscope('check', '--model', 'public/models/kvscope-tiny', '--json');
  assert.equal(r.code, 0, r.stderr);
  const out = JSON.parse(r.stdout) as { ok: boolean; rows: { against: string; maxAbsDiff: number }[] };
  assert.equal(out.ok, true);
  assert.equal(out.rows.filter((x) => x.against === 'golden').length, 12);
  assert.ok(out.rows.every((x) => x.maxAbsDiff <= 1e-4 && x.maxAbsDiff >= 0));
});

test('check fails (exit 1) when the weights do not match the golden fixtures', async () => {
  // A copy of the embedded model with one weight scaled: the same files otherwise, so golden applies.
  const dir = join(tmp, 'tampered');
  rmSync(dir, { recursive: true, force: true });
  const src = 'public/models/kvscope-tiny';
  cpSync(src, dir, { recursive: true });
  const cases = JSON.parse(readFileSync('training/golden/cases.json', 'utf8'));
  const golden = join(tmp, 'golden');
  mkdirSync(golden, { recursive: true });
  writeFileSync(join(golden, 'cases.json'), JSON.stringify({ ...cases, model: dir }));
  copyFileSync('training/golden/golden.safetensors', join(golden, 'golden.safetensors'));
  const w = readFileSync(join(dir, 'model.safetensors'));
  const n = Number(w.readBigUint64LE(0));
  for (let i = 8 + n + 1; i < 8 + n + 4000; i += 2) w[i] = w[i]! ^ 0x04; // flip an exponent bit of early fp16 values
  writeFileSync(join(dir, 'model.safetensors'), w);
  const r = await kvscope('check', '--model', dir, '--golden', golden);
  assert.equal(r.code, 1);
  assert.match(r.stdout, /FAILED: max \|Δ\|/);
});

test('analyze prints tokens, segments, sink scores per layer and where attention rests', async () => {
  const r = await kvscope('analyze', '--model', 'public/models/kvscope-tiny', '--messages', 'examples/requests/xfinity-with-status.json', '--json');
  assert.equal(r.code, 0, r.stderr);
  const out = JSON.parse(r.stdout);
  assert.ok(out.tokens > 600 && out.tokens < 700);
  assert.equal(out.segments.status_bar.spans, 1);
  assert.equal(out.sink.perLayer.length, 4);
  for (const l of out.sink.perLayer) {
    assert.ok(l.headMean > 0 && l.headMean < 1);
    assert.ok(Math.abs(l.uniformBaseline - 0.0057) < 0.001);
  }
  assert.equal(out.topReceivers.meanOverLayers.length, 10);
  const text = await kvscope('analyze', '--model', 'public/models/kvscope-tiny', '--messages', 'examples/requests/beijing.json', '--min-query', '4');
  assert.equal(text.code, 0, text.stderr);
  assert.match(text.stdout, /sink score of the first token \(mean over queries q ≥ 4/);
  // The Beijing prompt has 17 tokens: with minQuery 20 no query qualifies and the score is n/a, not 0.
  const short = await kvscope('analyze', '--model', 'public/models/kvscope-tiny', '--messages', 'examples/requests/beijing.json', '--min-query', '20', '--json');
  assert.equal(JSON.parse(short.stdout).sink.perLayer[0].headMean, null);
});

const valid = JSON.parse(readFileSync('examples/requests/vancouver.json', 'utf8'));
const HOSTILE: [string, () => string[], RegExp][] = [
  ['truncated JSON', () => ['--messages', file('t.json', JSON.stringify(valid).slice(0, 200))], /not valid JSON/],
  ['unknown role', () => ['--messages', file('r.json', JSON.stringify({ messages: [{ role: 'robot', content: 'hi' }] }))], /messages\[0\]\.role: unknown role "robot"/],
  ['tool message without id', () => ['--messages', file('i.json', JSON.stringify({ messages: [valid.messages[0], valid.messages[1], valid.messages[2], { role: 'tool', content: '{}' }] }))], /messages\[3\]\.tool_call_id: missing/],
  ['arguments that are not JSON', () => {
    const m = structuredClone(valid.messages);
    m[2].tool_calls[0].function.arguments = '{"city": ';
    return ['--messages', file('a.json', JSON.stringify({ messages: m }))];
  }, /messages\[2\]\.tool_calls\[0\]\.function\.arguments: not valid JSON/],
  ['a 5 MB tool result', () => {
    const m = structuredClone(valid.messages);
    m[3].content = 'x'.repeat(5 * 1024 * 1024);
    return ['--messages', file('big.json', JSON.stringify({ messages: m }))];
  }, /messages\[3\].*(limit|characters)/],
  ['unsupported architecture', () => {
    const dir = join(tmp, 'gpt2');
    rmSync(dir, { recursive: true, force: true });
    cpSync('public/models/kvscope-tiny', dir, { recursive: true });
    writeFileSync(join(dir, 'config.json'), JSON.stringify({ model_type: 'gpt2', architectures: ['GPT2LMHeadModel'] }));
    return ['--model', dir, '--messages', 'examples/requests/beijing.json'];
  }, /unsupported architecture \(model_type "gpt2".*supported: qwen3/],
  ['truncated safetensors', () => {
    const dir = join(tmp, 'trunc');
    rmSync(dir, { recursive: true, force: true });
    cpSync('public/models/kvscope-tiny', dir, { recursive: true });
    const w = readFileSync(join(dir, 'model.safetensors'));
    writeFileSync(join(dir, 'model.safetensors'), w.subarray(0, w.length - 1000));
    return ['--model', dir, '--messages', 'examples/requests/beijing.json'];
  }, /safetensors: .*truncated/],
  ['corrupt safetensors header', () => {
    const dir = join(tmp, 'corrupt');
    rmSync(dir, { recursive: true, force: true });
    cpSync('public/models/kvscope-tiny', dir, { recursive: true });
    const w = readFileSync(join(dir, 'model.safetensors'));
    w.fill(0x20, 8, 40);
    w[12] = 0x7d;
    writeFileSync(join(dir, 'model.safetensors'), w);
    return ['--model', dir, '--messages', 'examples/requests/beijing.json'];
  }, /safetensors: header is not valid JSON/],
  ['a missing request file', () => ['--messages', join(tmp, 'nope.json')], /request file not found/],
  ['an unknown flag', () => ['--messages', 'examples/requests/beijing.json', '--colour', 'red'], /unknown flag --colour/],
];

for (const [name, make, message] of HOSTILE) {
  test(`analyze with ${name}: one clear line on stderr, exit 2, no stack trace`, async () => {
    const args = make();
    const withModel = args.includes('--model') ? args : ['--model', 'public/models/kvscope-tiny', ...args];
    const r = await kvscope('analyze', ...withModel);
    assert.equal(r.code, 2, `exit code (stderr: ${r.stderr})`);
    const lines = r.stderr.trim().split('\n');
    assert.equal(lines.length, 1, r.stderr);
    assert.match(lines[0]!, message);
    assert.doesNotMatch(r.stderr, /\n\s+at /);
    assert.equal(r.stdout, '');
  });
}

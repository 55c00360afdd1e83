// `kvscope ab` as a user runs it (a child process) on the embedded model: the text report and --json with
// --seeds 2, consistent with each other and with the library, and one clear stderr line with exit 2 for
// bad flags.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ArmAlignment, Region, RegionMasses, SharedRowsDiff } from '../lib/analysis/abCompare';
import { kvscope } from './helpers/cli';
import { tinySpecialId } from './helpers/embeddedIds';

interface ArmOut {
  arm: 'A' | 'B';
  variant: string;
  tokens: number;
  decisionPosition: number;
  regions: Region[];
  decisionTop: { id: number; token: string; p: number }[];
  masses: RegionMasses;
  generatedMasses: RegionMasses | null;
  decisions: { call: number; refuse: number };
  seeds: { seed: number; decision: 'call' | 'refuse'; stopped: string; newTokens: number; text: string; parsed: { toolCalls: { name: string }[]; complete: boolean } }[];
}
interface Out {
  model: string;
  scenario: string;
  layers: number;
  heads: number;
  arms: ArmOut[];
  alignment: ArmAlignment;
  sharedRows: SharedRowsDiff;
  generation: { sampling: { doSample: boolean; temperature: number; topK: number; topP: number; eosIds: number[] }; seeds: number[]; maxNewTokens: number };
}

test('kvscope ab --json --seeds 2: alignment, identical shared rows, masses summing to 1, decisions per seed', async () => {
  const r = await kvscope('ab', '--scenario', 'xfinity', '--seeds', '2', '--max-new-tokens', '24', '--json');
  assert.equal(r.code, 0, r.stderr);
  assert.equal(r.stderr, '');
  const out = JSON.parse(r.stdout) as Out;
  assert.match(out.model, /public\/models\/kvscope-tiny$/, 'the default model is the embedded one');
  assert.equal(out.scenario, 'xfinity');
  const [a, b] = out.arms as [ArmOut, ArmOut];
  assert.deepEqual([a.variant, b.variant], ['without-status', 'with-status']);
  assert.deepEqual(out.alignment.tokens, { a: a.tokens, b: b.tokens });
  assert.ok(out.alignment.sharedPrefix > 500 && out.alignment.sharedPrefix < a.tokens);
  assert.equal(out.alignment.decision.comparable, true);
  assert.equal(a.decisionPosition, a.tokens - 1);
  assert.equal(out.sharedRows.rows, out.alignment.sharedPrefix);
  assert.equal(out.sharedRows.perLayer.length, out.layers);
  assert.equal(out.sharedRows.bitIdentical, true);
  assert.equal(out.sharedRows.max, 0);
  assert.deepEqual(out.generation.sampling, { doSample: true, temperature: 0.6, topK: 20, topP: 0.95, eosIds: [tinySpecialId('<|im_end|>'), tinySpecialId('<|endoftext|>')] });
  assert.deepEqual(out.generation.seeds, [1, 2]);
  for (const arm of [a, b]) {
    assert.deepEqual(arm.masses.positions, [arm.tokens - 1]);
    assert.equal(arm.masses.regions.length, arm.regions.length);
    for (const s of arm.masses.sums) assert.ok(Math.abs(s - 1) < 1e-5);
    assert.equal(arm.masses.regions[0]!.id, 'first_token');
    assert.equal(arm.decisionTop.length, 5);
    assert.equal(arm.seeds.length, 2);
    assert.equal(arm.decisions.call + arm.decisions.refuse, 2);
    for (const s of arm.seeds) {
      assert.ok(s.newTokens >= 1 && s.newTokens <= 24);
      assert.ok(['eos', 'limit'].includes(s.stopped));
      assert.equal(s.decision, s.parsed.toolCalls.some((c) => c.name === 'phone_call') ? 'call' : 'refuse');
    }
    assert.equal(arm.decisions.call, arm.seeds.filter((s) => s.decision === 'call').length);
    if (arm.generatedMasses) for (const s of arm.generatedMasses.sums) assert.ok(Math.abs(s - 1) < 1e-5);
  }
  assert.ok(b.masses.regions.some((e) => e.id === 'status_bar' && e.tokens > 40));
  assert.ok(!a.masses.regions.some((e) => e.id === 'status_bar'));

  // The text report prints the same numbers.
  const t = await kvscope('ab', '--seeds', '2', '--max-new-tokens', '24');
  assert.equal(t.code, 0, t.stderr);
  const text = t.stdout;
  assert.match(text, new RegExp(`tokens: A ${a.tokens}, B ${b.tokens}; shared prefix ${out.alignment.sharedPrefix} tokens`));
  assert.match(text, /overall 0\.000e\+0 — bit-identical/);
  assert.match(text, /message 13 \(user\)\s+appended/);
  const status = b.masses.regions.find((e) => e.id === 'status_bar')!;
  assert.match(text, new RegExp(`status bar\\s+—\\s+${status.tokens}\\s+—\\s+${status.mean.toFixed(4)}`));
  const phone = (m: RegionMasses) => m.regions.find((e) => e.id === 'phone_history')!;
  assert.match(text, new RegExp(`phone history\\s+\\d+\\s+\\d+\\s+${phone(a.masses).mean.toFixed(4)}\\s+${phone(b.masses).mean.toFixed(4)}`));
  assert.match(text, new RegExp(`A without-status\\s+${a.decisions.call} calls?, ${a.decisions.refuse} refusals?`));
  assert.match(text, new RegExp(`B with-status\\s+${b.decisions.call} calls?, ${b.decisions.refuse} refusals?`));
  assert.match(text, /^\s+1\s+A\s+(call|refuse)\s/m);
  assert.match(text, /^\s+2\s+B\s+(call|refuse)\s/m);
});

test('kvscope ab: bad flags and inputs are one stderr line with exit 2', async () => {
  for (const [args, pattern] of [
    [['--seedz', '2'], /unknown flag --seedz/],
    [['--seeds', 'two'], /--seeds must be an integer ≥ 0/],
    [['--max-new-tokens', '0'], /--max-new-tokens must be an integer ≥ 1/],
    [['--scenario', 'vancouver'], /has no A\/B variants \(scenarios with two: xfinity\)/],
    [['--scenario', 'nope'], /unknown scenario "nope"/],
    [['--model', '/nonexistent/model'], /model folder not found: \/nonexistent\/model/],
    [['--seeds'], /--seeds needs a value/],
  ] as const) {
    const r = await kvscope('ab', ...args);
    assert.equal(r.code, 2, `${args.join(' ')}: exit ${r.code}`);
    assert.equal(r.stdout, '');
    const lines = r.stderr.trim().split('\n');
    assert.equal(lines.length, 1, r.stderr);
    assert.match(lines[0]!, /^kvscope ab: /);
    assert.match(lines[0]!, pattern);
  }
});

// lib/cache/statusEconomics: the book's replace-vs-append estimates, checked against an exact token-level
// simulation of both strategies (equal under the formulas' assumptions, with the exact correction
// otherwise), the crossovers, monotonicity, and the Xfinity status bar's real token counts.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  appendIsCheaper,
  commonStatusCost,
  crossoverSuffix,
  crossoverUpdates,
  exactStatusDifference,
  simulateStatus,
  statusCountsFromPrompt,
  statusEconomics,
  statusFormula,
  type StatusParams,
} from '../lib/cache/statusEconomics';
import { loadTokenizerDir } from '../lib/cli/tokenizerDir';
import { buildPrompt, messageTokenCounts } from '../lib/prompt/prompt';
import { XFINITY_WITH_STATUS } from '../lib/scenarios/xfinity';
import { Rng } from '../lib/util/rng';

const close = (a: number, b: number, what = '') => assert.ok(Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(b)), `${what} ${a} ≠ ${b}`);

test('the formulas by hand', () => {
  // S = 40, R = 300, N = 6, α = 1/8: replace (N−1)(1−α)R = 5 · 7/8 · 300; append αSN(N−1)/2 = 1/8 · 40 · 6 · 5 / 2
  assert.deepEqual(statusFormula({ S: 40, R: 300, N: 6, alpha: 0.125 }), { replace: 1312.5, append: 75, prefer: 'append' });
  assert.deepEqual(statusFormula({ S: 400, R: 30, N: 6, alpha: 0.125 }), { replace: 131.25, append: 750, prefer: 'replace' });
  assert.deepEqual(statusFormula({ S: 40, R: 300, N: 1, alpha: 0.125 }), { replace: 0, append: 0, prefer: 'either' });
  assert.deepEqual(statusFormula({ S: 40, R: 300, N: 0, alpha: 0.1 }), { replace: 0, append: 0, prefer: 'either' });
  assert.throws(() => statusFormula({ S: -1, R: 1, N: 1, alpha: 0.1 }), RangeError);
  assert.throws(() => statusFormula({ S: 1, R: 1, N: 1, alpha: 2 }), RangeError);
});

test('simulation = formula exactly under its assumptions (R cached before each update, update calls priced, block 1)', () => {
  const rng = new Rng(5);
  for (let trial = 0; trial < 40; trial++) {
    const p = { S: rng.int(0, 80), R: rng.int(0, 400), N: rng.int(1, 12), alpha: rng.pick([0, 0.1, 0.125, 0.5, 1]), prefix: rng.int(0, 200), callsBetween: rng.int(1, 4) };
    const sim = simulateStatus(p);
    const f = statusFormula(p);
    close(sim.replace.extra, f.replace, `replace ${JSON.stringify(p)}`);
    close(sim.append.extra, f.append, `append ${JSON.stringify(p)}`);
    // The common part is what both pay on update calls: α(P + R(k−1)) + S for update k.
    close(sim.replace.updateTotals.cost - f.replace, commonStatusCost(p));
    assert.equal(sim.replace.calls.filter((c) => c.kind === 'update').length, p.N);
    assert.equal(sim.append.calls.length, p.N + (p.N - 1) * p.callsBetween);
  }
});

test('simulation = exact difference over all priced calls; where it departs from the book', () => {
  const rng = new Rng(11);
  for (let trial = 0; trial < 40; trial++) {
    const p = { S: rng.int(1, 60), R: rng.int(0, 300), N: rng.int(1, 10), alpha: rng.pick([0.1, 0.25, 0.5]), prefix: rng.int(0, 100), callsBetween: rng.int(0, 3) };
    const sim = simulateStatus(p);
    close(sim.append.totals.cost - sim.replace.totals.cost, exactStatusDifference(p, p.callsBetween), JSON.stringify(p));
  }
  const p: StatusParams = { S: 40, R: 300, N: 6, alpha: 0.125 };
  // (b) calls between updates re-read the stale statuses too: append pays αS·m(N−1)(N−2)/2 more.
  const m2 = simulateStatus({ ...p, callsBetween: 2 });
  close(m2.append.totals.cost - m2.replace.totals.cost - (statusFormula(p).append - statusFormula(p).replace), 0.125 * 40 * 2 * 5 * 4 / 2);
  // (a) nobody saw R before the update: both strategies recompute it, replacing loses nothing.
  const m0 = simulateStatus({ ...p, callsBetween: 0 });
  close(m0.append.totals.cost - m0.replace.totals.cost, statusFormula(p).append);
  close(m0.replace.extra, statusFormula(p).replace); // relative to a "common" that assumed R cached
  close(m0.append.extra, statusFormula(p).append + statusFormula(p).replace);
  // Block rounding changes the numbers (the formulas assume block 1).
  const b16 = simulateStatus({ ...p, prefix: 100, blockSize: 16 });
  for (const c of [...b16.replace.calls, ...b16.append.calls]) assert.equal(c.cached % 16, 0);
  assert.throws(() => simulateStatus({ ...p, S: 2.5 }), RangeError);
  assert.throws(() => simulateStatus({ S: 1000, R: 1000, N: 200, alpha: 0.1 }), /too large/);
});

test('the simulated prompts: replace keeps one status at the end, append keeps them all', () => {
  const sim = simulateStatus({ S: 2, R: 3, N: 3, alpha: 0.1, prefix: 4, callsBetween: 1 });
  // replace: [P4 S2] [P4 S2 R3] [P4 R3 S2] [P4 R3 S2 R3] [P4 R3 R3 S2]; append: 6, 9, 11, 14, 16
  assert.deepEqual(sim.replace.calls.map((c) => [c.kind, c.sent, c.prefixMatch]), [
    ['update', 6, 4], ['between', 9, 6], ['update', 9, 4], ['between', 12, 9], ['update', 12, 7],
  ]);
  assert.deepEqual(sim.append.calls.map((c) => [c.kind, c.sent, c.prefixMatch]), [
    ['update', 6, 4], ['between', 9, 6], ['update', 11, 9], ['between', 14, 11], ['update', 16, 14],
  ]);
  assert.deepEqual(sim.append.calls.map((c) => c.update), [1, 1, 2, 2, 3]);
});

test('crossovers: append is cheaper below N* = 2(1−α)R/(αS) and above R* = αSN/(2(1−α))', () => {
  const [S, R, alpha] = [100, 500, 0.125];
  const nStar = crossoverUpdates(S, R, alpha); // 2 · 7/8 · 500 / 12.5 = 70
  assert.equal(nStar, 70);
  assert.equal(statusFormula({ S, R, N: 69, alpha }).prefer, 'append');
  assert.equal(statusFormula({ S, R, N: 70, alpha }).prefer, 'either');
  assert.equal(statusFormula({ S, R, N: 71, alpha }).prefer, 'replace');
  assert.equal(appendIsCheaper({ S, R, N: 69, alpha }), true);
  assert.equal(appendIsCheaper({ S, R, N: 71, alpha }), false);
  const rStar = crossoverSuffix(S, 70, alpha); // 12.5 · 70 / 1.75 = 500
  assert.equal(rStar, 500);
  assert.equal(statusFormula({ S, R: 501, N: 70, alpha }).prefer, 'append');
  assert.equal(statusFormula({ S, R: 499, N: 70, alpha }).prefer, 'replace');
  assert.equal(crossoverUpdates(0, R, alpha), Infinity);
  assert.equal(crossoverUpdates(S, R, 0), Infinity);
  assert.equal(crossoverSuffix(S, 5, 1), Infinity);
  // The crossover agrees with the simulation (update calls priced, R cached in between).
  for (const N of [68, 72]) {
    const sim = simulateStatus({ S: 10, R: 50, N, alpha, callsBetween: 1 }); // N* = 2 · 7/8 · 50 / 1.25 = 70
    assert.equal(sim.append.updateTotals.cost < sim.replace.updateTotals.cost, N < 70, `N = ${N}`);
  }
});

test('monotonicity', () => {
  const base: StatusParams = { S: 50, R: 200, N: 8, alpha: 0.1 };
  const f = (q: Partial<StatusParams>) => statusFormula({ ...base, ...q });
  for (let x = 1; x < 20; x++) {
    assert.ok(f({ R: 10 * (x + 1) }).replace > f({ R: 10 * x }).replace); // longer suffix: replacing costs more
    assert.ok(f({ N: x + 2 }).replace > f({ N: x + 1 }).replace);
    assert.ok(f({ N: x + 2 }).append > f({ N: x + 1 }).append); // quadratic in N
    assert.ok(f({ S: 10 * (x + 1) }).append > f({ S: 10 * x }).append);
    assert.equal(f({ S: 10 * x }).replace, f({}).replace); // replace does not depend on S
    assert.equal(f({ R: 10 * x }).append, f({}).append); // append does not depend on R
    assert.ok(f({ alpha: (x + 1) / 21 }).append > f({ alpha: x / 21 }).append); // dearer cache reads: stale statuses cost more
    assert.ok(f({ alpha: (x + 1) / 21 }).replace < f({ alpha: x / 21 }).replace); // …and recomputing loses less against them
  }
  assert.ok(crossoverUpdates(50, 400, 0.1) > crossoverUpdates(50, 200, 0.1));
  assert.ok(crossoverUpdates(100, 200, 0.1) < crossoverUpdates(50, 200, 0.1));
  // The simulation too: more calls between updates only make appending dearer.
  const costs = [0, 1, 2, 3].map((m) => simulateStatus({ ...base, callsBetween: m }).append.totals.cost - simulateStatus({ ...base, callsBetween: m }).replace.totals.cost);
  for (let m = 2; m < costs.length; m++) assert.ok(costs[m]! > costs[m - 1]!);
});

test('real counts: the Xfinity status bar as S, one call-and-search round as R', () => {
  const tok = loadTokenizerDir('public/models/kvscope-tiny');
  const prompt = buildPrompt(tok, XFINITY_WITH_STATUS, { addGenerationPrompt: true });
  const last = XFINITY_WITH_STATUS.messages.length - 1;
  // Messages 2–5: phone_call, its result, web_search, its result — what is appended between two updates.
  const { S, R } = statusCountsFromPrompt(prompt, last, [2, 3, 4, 5]);
  const counts = messageTokenCounts(prompt);
  assert.equal(S, counts.messages[last]);
  assert.equal(R, counts.messages[2]! + counts.messages[3]! + counts.messages[4]! + counts.messages[5]!);
  assert.ok(S > 30 && S < 80, `S = ${S}`);
  assert.ok(R > S, `R = ${R}`);
  const e = statusEconomics({ S, R, N: 3, alpha: 0.1 });
  assert.deepEqual(e.formula, statusFormula({ S, R, N: 3, alpha: 0.1 }));
  close(e.formula.replace, 2 * 0.9 * R);
  close(e.formula.append, 0.1 * S * 3);
  // A small status and a long round between updates: keeping every status is cheaper for a long while.
  assert.equal(e.appendIsCheaper, true);
  assert.equal(e.formula.prefer, 'append');
  close(e.crossoverUpdates, (2 * 0.9 * R) / (0.1 * S));
  assert.ok(e.crossoverUpdates > 20);
  close(e.crossoverSuffix, (0.1 * S * 3) / 1.8);
  assert.throws(() => statusCountsFromPrompt(prompt, 99, []), RangeError);
});

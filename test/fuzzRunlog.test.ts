// Fuzzing the run-log reader (lib/io/runlog, docs/FUZZING.md): raw result JSON, plain lists and page captures,
// mutated as values and as text, plus truncations of the real seed capture. parseRunLog never throws; its
// errors name the field path (`value.result.tracker_calls[3].prompt_tokens`), the line and column, or the
// input as a whole.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import fc from 'fast-check';
import { MAX_INPUT_CHARS, parseRunLog, parseRunLogValue, reassembleCapture, serializeRunLog, type ParseRunLogResult } from '../lib/io/runlog';
import { Tally, atLeast, guard, expect, NEVER_THROWS, fuzz, mutatedValue, mutatedText, hostileJson, deepText, setOwn, jsonText } from './helpers/fuzz';

const SEED = readFileSync('test/fixtures/runlog/translation-single-agent.page.txt', 'utf8');
const seedLog = (() => {
  const r = parseRunLog(SEED);
  assert.ok(r.ok);
  return r.log;
})();
const small = { ...seedLog, calls: seedLog.calls.slice(0, 4).map((c, i) => ({ ...c, agent: i % 2 ? 'Manager' : 'Worker', note: `call ${i}` })) };
const RESULT_JSON = serializeRunLog(small);
const LIST = small.calls.map((c) => ({ agent: c.agent, prompt_tokens: c.promptTokens, completion_tokens: c.completionTokens, note: c.note, latency_seconds: 1.5, provider: 'p', model: 'm', outcome: 'ok' }));

/** A page capture as a browser shows it: chrome above, `|` / `||` after each line, a long line wrapped. */
function capture(json: string): string {
  const lines = json.split('\n').flatMap((l, i) => (l.length > 40 && i % 3 === 0 ? [l.slice(0, 30), l.slice(30)] : [l]));
  return ['user', 'Build latest / build (push)', '328 lines', 'JSON', ...lines.flatMap((l, i) => [l, i % 2 ? '||' : '|']), 'Footer'].join('\n');
}

const BASE_VALUES: unknown[] = [JSON.parse(RESULT_JSON), LIST, { result: JSON.parse(RESULT_JSON).value.result }, JSON.parse(RESULT_JSON).value.result];
const BASE_TEXTS = [RESULT_JSON, JSON.stringify(LIST), JSON.stringify(LIST, null, 2), capture(RESULT_JSON), capture(JSON.stringify(LIST, null, 2))];
const FIELDS = ['value', 'result', 'tracker_calls', 'mode', 'main_context_peak', 'manager_context_peak', 'agent', 'prompt_tokens', 'completion_tokens', 'note', 'latency_seconds', 'provider', 'model', 'outcome'];

/** Where a run-log error can point: a field path, a line and column, or the input as a whole. */
const PLACE = /^(value\.result\.|result\.)?(tracker_calls|mode|main_context_peak|manager_context_peak)\b|^calls(\[\d+\]|: )|^(JSON|page capture \(after removing page chrome and \| separator lines\)): invalid JSON|^input |^no JSON found|^no tracker_calls|^the list of calls is empty|^expected a result object|^expected text/;

function check(r: ParseRunLogResult): string | null {
  if (r.ok) return r.log.calls.length > 0 && r.log.agents.length > 0 ? null : 'accepted a log without calls';
  return PLACE.test(r.error) ? null : `error without a place: ${r.error.slice(0, 300)}`;
}

test('fuzz: parseRunLog on mutated logs, lists and page captures', { timeout: 120_000 }, (t) => {
  const tally = new Tally();
  const text = (s: string) => expect(check(guard(tally, NEVER_THROWS, () => parseRunLog(s)).value!));
  const value = (v: unknown) => expect(check(guard(tally, NEVER_THROWS, () => parseRunLogValue(v)).value!));
  fuzz(4000, fc.constantFrom(...BASE_TEXTS.keys()).chain((i) => mutatedText(BASE_TEXTS[i]!)), text);
  fuzz(3500, fc.constantFrom(...BASE_VALUES.keys()).chain((i) => mutatedValue(BASE_VALUES[i], FIELDS)), (v) => {
    value(v);
    const s = jsonText(v); // null: deeper than JSON.stringify goes, or huge (the value path above covered it)
    if (s !== null) text(s);
  });
  fuzz(1500, hostileJson(FIELDS, 5), value);
  // The real capture (212 KiB), cut anywhere: fewer cases, each reads the whole page.
  fuzz(150, fc.nat(SEED.length), (n) => text(SEED.slice(0, n)));
  fuzz(150, fc.nat(SEED.length), fc.nat(2000), (at, len) => text(SEED.slice(0, at) + SEED.slice(at + len)));
  fuzz(1000, fc.constantFrom(...BASE_TEXTS.keys()).chain((i) => mutatedText(BASE_TEXTS[i]!)), (s) => {
    guard(tally, NEVER_THROWS, () => reassembleCapture(s));
    guard(tally, NEVER_THROWS, () => reassembleCapture(s, ''));
  });
  t.diagnostic(tally.summary('parseRunLog'));
  atLeast(tally, 10_000);
});

test('fuzz regressions: run logs at the limits', { timeout: 60_000 }, (t) => {
  const tally = new Tally();
  const run = (s: string) => {
    const r = guard(tally, NEVER_THROWS, () => parseRunLog(s)).value!;
    expect(check(r));
    return r;
  };
  // The largest accepted input, as one list of calls and as a page capture.
  const call = '{"agent":"a","prompt_tokens":1,"completion_tokens":2},';
  const list = '[' + call.repeat(Math.floor((MAX_INPUT_CHARS - 100) / call.length)).slice(0, -1) + ']';
  assert.equal(run(list).ok, false); // over MAX_CALLS
  assert.equal(run('[' + call.repeat(100_000).slice(0, -1) + ']').ok, true); // exactly MAX_CALLS
  // Millions of separator lines (9 MB, under the limit): the capture was split into an array and joined (2–4 s).
  run('x\n' + '[' + '\n|\n'.repeat(3_000_000));
  // A long run of blank lines: /\n\s*\|+\s*(\r?\n|$)/ backtracked quadratically (100,000 newlines: 13 s).
  assert.match((run('{' + '\n'.repeat(100_000) + 'x') as { error: string }).error, /^JSON: invalid JSON at line 100001, column 1/);
  assert.equal(run('{"tracker_calls": [{"prompt_tokens": 1, "completion_tokens": 2}]}' + '\n \n'.repeat(100_000)).ok, true);
  // The capture reader still joins a wrapped string and skips separator lines around blank ones.
  const wrapped = run('chrome\n{"tracker_calls": [{"agent": "wor\n|\nker", "prompt_tokens": 1,\n\n||\n\n"completion_tokens": 2}]}\nfooter');
  assert.ok(wrapped.ok && wrapped.log.calls[0]!.agent === 'worker' && wrapped.form === 'page-capture');
  run('[' + '"'.repeat(5_000_000));
  run(deepText(100_000, 'array'));
  run('\n|\n' + deepText(100_000, 'object'));
  const proto: Record<string, unknown> = { tracker_calls: [{ prompt_tokens: 1, completion_tokens: 1 }] };
  setOwn(proto, '__proto__', { tracker_calls: 'polluted' });
  assert.equal(guard(tally, NEVER_THROWS, () => parseRunLogValue({ result: proto })).value!.ok, true);
  t.diagnostic(tally.summary('parseRunLog, fixed cases'));
});

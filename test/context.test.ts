// lib/state/context: which prompt of an agent loop a choice names (docs/CONCEPTS.md#context).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { runOf } from '../lib/agent/run';
import { scenarioRequest } from '../lib/scenarios';
import { choiceOf, conversationDiffers, resolveContext } from '../lib/state/context';
import type { ChatRequest } from '../lib/scenarios/types';

test('a loop that ends with an answer: last call by default, the whole conversation on request', () => {
  const run = runOf(scenarioRequest('vancouver'));
  assert.equal(run.calls.length, 2);
  assert.equal(conversationDiffers(run), true);
  assert.deepEqual(resolveContext(run, 'last'), { kind: 'call', index: 1, calls: 2 });
  assert.deepEqual(resolveContext(run, 0), { kind: 'call', index: 0, calls: 2 });
  assert.deepEqual(resolveContext(run, 'all'), { kind: 'conversation', calls: 2 });
  // An index the run does not have (a scenario with fewer calls was chosen since): the last call.
  assert.deepEqual(resolveContext(run, 7), { kind: 'call', index: 1, calls: 2 });
  assert.equal(choiceOf(resolveContext(run, 'last')), 'last');
  assert.equal(choiceOf(resolveContext(run, 1)), 'last');
  assert.equal(choiceOf(resolveContext(run, 0)), 0);
  assert.equal(choiceOf(resolveContext(run, 'all')), 'all');
});

test('a loop that ends with the turn still to generate: the whole conversation is the last call', () => {
  const req: ChatRequest = { messages: [{ role: 'system', content: 's' }, { role: 'user', content: 'u' }] };
  const run = runOf(req);
  assert.equal(run.calls.length, 1);
  assert.equal(conversationDiffers(run), false);
  assert.deepEqual(resolveContext(run, 'all'), { kind: 'call', index: 0, calls: 1 });
});

test('no calls (only an assistant message): the conversation is all there is', () => {
  const run = runOf({ messages: [{ role: 'assistant', content: 'hi' }] });
  assert.equal(run.calls.length, 0);
  assert.deepEqual(resolveContext(run, 'last'), { kind: 'conversation', calls: 0 });
});

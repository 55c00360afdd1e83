// The custom scenario of the A/B harness (test/browser/abHarness.ts), importable by the Node side of the test.
import { VANCOUVER } from '../../lib/scenarios/vancouver';
import type { CustomScenario } from '../../lib/state/store';

/** Vancouver with one more user message: shares everything but the end with the built-in scenario. */
export const CUSTOM: CustomScenario = {
  id: 'c1',
  name: 'Vancouver + follow-up',
  text: '',
  lastGood: { ...VANCOUVER, messages: [...VANCOUVER.messages, { role: 'user', content: 'And tomorrow?' }] },
  createdAt: 0,
};

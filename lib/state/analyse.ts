// One request analysed for the views (lib/state/analysed.ts): the agent loop's calls rendered alike, the
// chosen context (docs/CONCEPTS.md#context) prefilled for every layer's attention. The page's attention run,
// the second-model views and the lesson tests share it; `render` and `prefill` are the worker's or a Node engine's.
import { runOf } from '../agent/run';
import { displayToken } from '../prompt/label';
import type { Prompt } from '../prompt/prompt';
import type { ChatRequest } from '../scenarios/types';
import type { Tensor } from '../tensor';
import type { Analysed } from './analysed';
import { conversationDiffers, resolveContext } from './context';
import type { ContextChoice } from './store';

export async function analyseRequest(
  request: ChatRequest,
  choice: ContextChoice,
  render: (request: ChatRequest) => Promise<Prompt>,
  prefill: (ids: number[]) => Promise<Tensor[]>,
): Promise<Analysed> {
  const conversation = await render(request);
  const run = runOf(request);
  const callPrompts: Prompt[] = [];
  for (const call of run.calls) callPrompts.push(await render(call.request));
  const context = resolveContext(run, choice);
  const prompt = context.kind === 'conversation' ? conversation : callPrompts[context.index]!;
  const attention = await prefill(prompt.ids);
  return {
    run,
    callPrompts,
    context,
    conversationTokens: conversation.ids.length,
    conversationDiffers: conversationDiffers(run),
    prompt,
    labels: prompt.tokens.map(displayToken),
    attention,
    tokens: prompt.ids.length,
  };
}

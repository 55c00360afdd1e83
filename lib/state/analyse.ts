// One request analysed for the views (lib/state/analysed.ts): the agent loop's calls rendered alike, the
// chosen context (docs/CONCEPTS.md#context) prefilled for every layer's attention. The page's attention run,
// the second-model views and the lesson tests share it; `render` and `prefill` are the worker's or a Node engine's.
// On a large model `prefill` returns one layer per head (`headLayer`, the engine's default when undefined) and
// the others as head means; `headLayers` records which, read off the tensors.
import { runOf } from '../agent/run';
import { displayToken } from '../prompt/label';
import type { Prompt } from '../prompt/prompt';
import type { ChatRequest } from '../scenarios/types';
import { layersWithHeads } from '../analysis/headLayers';
import type { Tensor } from '../tensor';
import type { Analysed } from './analysed';
import { conversationDiffers, resolveContext } from './context';
import type { ContextChoice } from './store';

/** `headLayer` goes to `prefill` as it is: the layer a large model returns per head (ignored by small models). */
export async function analyseRequest(
  request: ChatRequest,
  choice: ContextChoice,
  render: (request: ChatRequest) => Promise<Prompt>,
  prefill: (ids: number[], headLayer?: number) => Promise<Tensor[]>,
  headLayer?: number,
): Promise<Analysed> {
  const conversation = await render(request);
  const run = runOf(request);
  const callPrompts: Prompt[] = [];
  for (const call of run.calls) callPrompts.push(await render(call.request));
  const context = resolveContext(run, choice);
  const prompt = context.kind === 'conversation' ? conversation : callPrompts[context.index]!;
  const attention = await prefill(prompt.ids, headLayer);
  return {
    run,
    callPrompts,
    context,
    conversationTokens: conversation.ids.length,
    conversationDiffers: conversationDiffers(run),
    prompt,
    labels: prompt.tokens.map(displayToken),
    attention,
    headLayers: layersWithHeads(attention),
    tokens: prompt.ids.length,
  };
}

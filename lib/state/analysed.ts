// What the attention run of the page produced, shared by the lab shell and every tab that reads it.
// Types only: lives in lib/ so components import it from here instead of from each other.
import type { Run } from '../agent/run';
import type { Prompt } from '../prompt/prompt';
import type { Tensor } from '../tensor';

/** One scenario request run through the chat template and the model: its prompt, the agent loop's calls, attention. */
export interface Analysed {
  /** The agent loop behind the request (one request per call). */
  run: Run;
  /** Each call's request rendered by the same template (token counts for the inspector). */
  callPrompts: Prompt[];
  /** The request as sent (the last call, with the generation prompt). */
  prompt: Prompt;
  /** Display labels of the prompt's tokens (lib/prompt/label displayToken). */
  labels: string[];
  /** Per layer: [heads, tokens, tokens]. */
  attention: Tensor[];
  tokens: number;
}

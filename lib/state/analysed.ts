// What the attention run of the page produced, shared by the lab shell and every tab that reads it.
// Types only: lives in lib/ so components import it from here instead of from each other.
import type { Run } from '../agent/run';
import type { Prompt } from '../prompt/prompt';
import type { Tensor } from '../tensor';

/** Which prompt of the agent loop a run shows (docs/CONCEPTS.md#context). */
export type ShownContext =
  /** Call `index` (0-based) of `calls`, as that call sent it. */
  | { kind: 'call'; index: number; calls: number }
  /** The whole conversation, every message including the final answer, with a generation prompt after it. */
  | { kind: 'conversation'; calls: number };

/** One scenario request run through the chat template and the model: its prompt, the agent loop's calls, attention. */
export interface Analysed {
  /** Which prompt `prompt` is. */
  context: ShownContext;
  /** Tokens of the whole conversation rendered (equal to the last call's when the loop ends with a call). */
  conversationTokens: number;
  /** Whether the whole conversation is a prompt of its own (it ends with an assistant answer no call sent). */
  conversationDiffers: boolean;
  /** The agent loop behind the request (one request per call). */
  run: Run;
  /** Each call's request rendered by the same template (token counts for the inspector). */
  callPrompts: Prompt[];
  /** The prompt shown: one call's request as sent, or the whole conversation; with the generation prompt. */
  prompt: Prompt;
  /** Display labels of the prompt's tokens (lib/prompt/label displayToken). */
  labels: string[];
  /**
   * Per layer: [heads, tokens, tokens], or [tokens, tokens] (the head mean) on a large model's layers other than
   * the one it returned per head (lib/engine/session.ts largeModelPlan).
   */
  attention: Tensor[];
  /**
   * The layers of `attention` that hold per-head maps, ascending (lib/analysis/headLayers layersWithHeads): every
   * layer on the small models, one on a large model. Optional only for views built from hand-made runs (test
   * harnesses); analyseRequest always sets it, and views read it through headLayersOf.
   */
  headLayers?: number[];
  tokens: number;
}

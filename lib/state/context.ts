// Which prompt of an agent loop the attention run shows, resolved against the loop's calls
// (docs/CONCEPTS.md#context). Pure: the lab shell and tests share it.
import type { Run } from '../agent/run';
import type { ShownContext } from './analysed';
import type { ContextChoice } from './store';

/**
 * The context a choice names for `run`: 'last' and out-of-range indices give the last call; 'all' gives the
 * whole conversation, except when the conversation is exactly the last call's request (a loop that ends with
 * the turn still to generate), where it is that call. A run without calls can only show the conversation.
 */
export function resolveContext(run: Run, choice: ContextChoice): ShownContext {
  const calls = run.calls.length;
  if (calls === 0) return { kind: 'conversation', calls };
  if (choice === 'all' && conversationDiffers(run)) return { kind: 'conversation', calls };
  const index = typeof choice === 'number' && choice >= 0 && choice < calls ? choice : calls - 1;
  return { kind: 'call', index, calls };
}

/** Whether the whole conversation holds more than the last call sent (it ends with an assistant answer). */
export function conversationDiffers(run: Run): boolean {
  const last = run.calls[run.calls.length - 1];
  return !last || last.request.messages.length !== run.conversation.messages.length;
}

/** The choice that names `ctx` (for highlighting the picker). */
export function choiceOf(ctx: ShownContext): ContextChoice {
  if (ctx.kind === 'conversation') return 'all';
  return ctx.index === ctx.calls - 1 ? 'last' : ctx.index;
}

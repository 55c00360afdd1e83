// One corpus example: a request-shaped message list plus how it is split and weighted.
import type { ChatMessage, ToolDef } from '../../lib/scenarios/types';

export type Family = 'weather' | 'calllimit' | 'files' | 'prose';

export interface Example {
  family: Family;
  messages: ChatMessage[];
  tools?: ToolDef[];
}

export function toolCall(id: string, name: string, args: string): ChatMessage {
  return { role: 'assistant', content: '', tool_calls: [{ id, type: 'function', function: { name, arguments: args } }] };
}

// Plain-data shapes of an OpenAI chat-completions request, as scenarios hold them.
// Only types: validation lives in the request validator, rendering in lib/prompt.

export interface ToolCall {
  id: string;
  type: 'function';
  /** `arguments` is a JSON string, as the API sends it; the chat template pastes it verbatim. */
  function: { name: string; arguments: string };
}

export type ChatMessage =
  | { role: 'system'; content: string }
  | { role: 'user'; content: string }
  | { role: 'assistant'; content: string | null; tool_calls?: ToolCall[]; reasoning_content?: string }
  | { role: 'tool'; content: string; tool_call_id: string };

export interface ToolParameter {
  type: string;
  description?: string;
  enum?: string[];
}

export interface ToolDef {
  type: 'function';
  function: {
    name: string;
    /** Optional in the API; an imported request may omit either (the template renders what is there). */
    description?: string;
    parameters?: { type: 'object'; properties: Record<string, ToolParameter>; required?: string[] };
  };
}

export interface ChatRequest {
  messages: ChatMessage[];
  tools?: ToolDef[];
}

// The status bar a live agent loop keeps (docs/CONCEPTS.md#live-agent-loop): the text of its
// `<agent_status>` user message, and where each policy puts it in a call's message list.
// - off: no status message.
// - replace: one status message at a fixed place (right after the task: the first request's messages),
//   its text rewritten before each call — a change in the prefix, so the cache is reused only up to it.
//   `replaceAt: 'end'` is the variant lib/cache/statusEconomics.ts prices: the old status removed and the
//   new one put last.
// - append: a new status message appended at the end before each call; the old ones stay.
// Pure data: no tokenizer, no engine, no DOM.

import type { ChatMessage } from '../scenarios/types';
import { statusBar } from '../scenarios/xfinity';
import type { ToolBox } from './tools';

export type StatusPolicy = 'off' | 'replace' | 'append';
export const STATUS_POLICIES: readonly StatusPolicy[] = ['off', 'replace', 'append'];
export type ReplaceAt = 'fixed' | 'end';

const times = (n: number) => `${n} ${n === 1 ? 'time' : 'times'}`;

/**
 * The status text after the tool calls so far. When the request offers phone_call and a company has been
 * called, it is the Xfinity scenario's wording exactly (lib/scenarios/xfinity.ts statusBar, with the most
 * recently called company and the tool box's limit) — the text the embedded model was trained on.
 * Otherwise a summary of every tool's invocations (errors included).
 */
export function statusText(tools: ToolBox, offered: readonly string[]): string {
  const phone = [...tools.phoneCalls.entries()];
  if (offered.includes('phone_call') && phone.length > 0) {
    const company = tools.lastCompany ?? phone[phone.length - 1]![0];
    return statusBar({ company, limit: tools.phoneLimit, calls: phone.map(([c, n]) => [c, n.placed + n.refused]) });
  }
  const used = [...tools.invocations.entries()];
  const summary = used.length ? used.map(([name, n]) => `'${name}' has been invoked ${times(n)}`).join(', ') : 'no tool has been invoked yet';
  return ['<agent_status>', 'Current State:', `- Tool call summary: ${summary}`, '</agent_status>'].join('\n');
}

export interface StatusPlacement {
  /** The messages the call sends. */
  messages: ChatMessage[];
  /** Index of the current status message in them (null for 'off'). */
  statusIndex: number | null;
}

/**
 * Where a call's status goes. `trajectory` is the loop's own list: the first request's messages, then every
 * assistant turn and tool result — and, under 'append', every earlier status message (the loop keeps
 * them). `taskLength` is the first request's message count (the fixed place of 'replace').
 */
export function placeStatus(policy: StatusPolicy, trajectory: readonly ChatMessage[], taskLength: number, text: string, replaceAt: ReplaceAt = 'fixed'): StatusPlacement {
  const status: ChatMessage = { role: 'user', content: text };
  if (policy === 'off') return { messages: [...trajectory], statusIndex: null };
  if (policy === 'append' || replaceAt === 'end') return { messages: [...trajectory, status], statusIndex: trajectory.length };
  const at = Math.min(taskLength, trajectory.length);
  return { messages: [...trajectory.slice(0, at), status, ...trajectory.slice(at)], statusIndex: at };
}

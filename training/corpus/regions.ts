// Token ranges of named regions of a call-limit prompt, for the evaluation's attention read-outs.
// Found by locating each message's rendered form in order, then mapping byte offsets to tokens.
import type { ChatMessage } from '../../lib/scenarios/types';
import { tokenBytes } from '../../lib/prompt/byteLevel';

export type Range = [number, number]; // token indices, end exclusive

/** Byte offset at which each token starts (plus the total at the end). */
export function tokenByteStarts(tokens: string[], special: Set<string>): number[] {
  const enc = new TextEncoder();
  const starts = [0];
  for (const t of tokens) starts.push(starts[starts.length - 1]! + (special.has(t) ? enc.encode(t).length : tokenBytes(t).length));
  return starts;
}

function byteRangeToTokens(starts: number[], b0: number, b1: number): Range {
  let i = 0;
  while (i + 1 < starts.length && starts[i + 1]! <= b0) i++;
  let j = i;
  while (j < starts.length - 1 && starts[j]! < b1) j++;
  return [i, j];
}

export interface CallLimitRegions {
  system_tools: Range[];
  phone_target: Range[];
  phone_other: Range[];
  search: Range[];
  status_bar: Range[];
  latest_user: Range[];
}

export function callLimitRegions(text: string, tokens: string[], special: Set<string>, messages: ChatMessage[], company: string, statusIndex: number | null, lastUserIndex: number): CallLimitRegions {
  const enc = new TextEncoder();
  const starts = tokenByteStarts(tokens, special);
  if (starts[starts.length - 1] !== enc.encode(text).length) throw new Error('tokens do not cover the rendered text');
  const byteAt = (charIdx: number) => enc.encode(text.slice(0, charIdx)).length;
  const regions: CallLimitRegions = { system_tools: [], phone_target: [], phone_other: [], search: [], status_bar: [], latest_user: [] };
  const sysEnd = text.indexOf('<|im_end|>\n') + '<|im_end|>\n'.length;
  regions.system_tools.push(byteRangeToTokens(starts, 0, byteAt(sysEnd)));
  let cursor = sysEnd;
  let pendingKind: keyof CallLimitRegions | null = null;
  const locate = (needle: string): [number, number] => {
    const at = text.indexOf(needle, cursor);
    if (at < 0) throw new Error(`cannot locate ${JSON.stringify(needle.slice(0, 60))}`);
    cursor = at + needle.length;
    return [at, cursor];
  };
  messages.forEach((m, idx) => {
    if (idx === 0 && m.role === 'system') return;
    if (m.role === 'assistant' && m.tool_calls?.length) {
      for (const c of m.tool_calls) {
        const [a, b] = locate(`<tool_call>\n{"name": "${c.function.name}", "arguments": ${c.function.arguments}}\n</tool_call>`);
        const kind: keyof CallLimitRegions =
          c.function.name === 'web_search' ? 'search' : JSON.parse(c.function.arguments).company === company ? 'phone_target' : 'phone_other';
        regions[kind].push(byteRangeToTokens(starts, byteAt(a), byteAt(b)));
        pendingKind = kind;
      }
    } else if (m.role === 'tool') {
      const [a, b] = locate(`<tool_response>\n${m.content}\n</tool_response>`);
      if (pendingKind) regions[pendingKind].push(byteRangeToTokens(starts, byteAt(a), byteAt(b)));
    } else if (m.role === 'user' || m.role === 'system') {
      const [a, b] = locate(m.content);
      if (idx === statusIndex) regions.status_bar.push(byteRangeToTokens(starts, byteAt(a), byteAt(b)));
      if (idx === lastUserIndex) regions.latest_user.push(byteRangeToTokens(starts, byteAt(a), byteAt(b)));
    } else if (m.role === 'assistant' && m.content) {
      locate(m.content);
    }
  });
  return regions;
}

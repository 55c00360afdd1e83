'use client';
// The agent loop call by call: the full message list each request sends, what was appended since the
// previous call, the static prefix (system + tools), and token counts from lib/agent and lib/prompt.
import type { Run } from '../lib/agent/run';
import { callTokenCounts } from '../lib/agent/run';
import { messageTokenCounts, type Prompt } from '../lib/prompt/prompt';
import type { ChatMessage } from '../lib/scenarios/types';

const ROLE_COLOURS: Record<string, string> = { system: '#77AADD', user: '#EEDD88', assistant: '#44BB99', tool: '#BBCC33' };

function preview(m: ChatMessage): string {
  const calls = 'tool_calls' in m && m.tool_calls ? m.tool_calls.map((c) => `${c.function.name}(${c.function.arguments})`).join(' ') : '';
  const text = [typeof m.content === 'string' ? m.content : '', calls].filter(Boolean).join(' ');
  return text.length > 110 ? text.slice(0, 110) + '…' : text;
}

export function MessageInspector({ run, prompts }: { run: Run; prompts: Prompt[] }) {
  const totals = callTokenCounts(run, prompts);
  return (
    <section data-role="message-inspector" aria-label="message list per call" style={{ display: 'grid', gap: 8 }}>
      <h2 style={{ fontSize: 16, margin: '4px 0' }}>The agent loop: every call re-sends the whole list</h2>
      <div style={{ display: 'flex', gap: 12, overflowX: 'auto', alignItems: 'flex-start' }}>
        {run.calls.map((call, i) => {
          const counts = messageTokenCounts(prompts[i]!);
          const t = totals[i]!;
          const appended = new Set(call.appended);
          return (
            <div key={i} data-call={i + 1} style={{ minWidth: 300, maxWidth: 380, border: '1px solid #ccc', borderRadius: 6, background: '#fff', padding: 8, font: '12px system-ui' }}>
              <div style={{ fontWeight: 600 }}>call {i + 1}: {t.total} tokens</div>
              <div style={{ color: '#555', marginBottom: 6 }}>
                static prefix {t.static} · {i === 0 ? 'messages' : `new since call ${i}`}: {t.appended} · generation prompt {t.generation}
              </div>
              <div style={{ borderLeft: '4px solid #336', paddingLeft: 6, marginBottom: 4 }} title="static prefix: identical in every call">
                <div style={{ color: '#336', fontSize: 11 }}>static prefix</div>
                <div>tools block: {counts.tools} tokens</div>
                {call.request.messages.slice(0, call.staticPrefix).map((m, j) => (
                  <Row key={j} m={m} j={j} tokens={counts.messages[j] ?? 0} isNew={appended.has(j)} />
                ))}
              </div>
              <div style={{ borderLeft: '4px solid #aaa', paddingLeft: 6 }} title="the growing trajectory">
                <div style={{ color: '#666', fontSize: 11 }}>trajectory</div>
                {call.request.messages.slice(call.staticPrefix).map((m, k) => {
                  const j = k + call.staticPrefix;
                  return <Row key={j} m={m} j={j} tokens={counts.messages[j] ?? 0} isNew={appended.has(j)} />;
                })}
              </div>
            </div>
          );
        })}
      </div>
      <div style={{ fontSize: 12, color: '#555' }}>highlighted: messages appended since the previous call</div>
    </section>
  );
}

function Row({ m, j, tokens, isNew }: { m: ChatMessage; j: number; tokens: number; isNew: boolean }) {
  return (
    <div data-appended={isNew ? 'true' : 'false'} style={{ display: 'flex', gap: 6, padding: '2px 4px', margin: '2px 0', background: isNew ? '#fff3b0' : 'transparent', borderRadius: 3 }}>
      <span style={{ background: ROLE_COLOURS[m.role] ?? '#ddd', borderRadius: 3, padding: '0 4px', minWidth: 58, textAlign: 'center' }}>{m.role}</span>
      <span style={{ flex: 1, overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }} title={preview(m)}>
        [{j}] {preview(m)}
      </span>
      <span style={{ color: '#333', fontVariantNumeric: 'tabular-nums' }}>{tokens}</span>
    </div>
  );
}

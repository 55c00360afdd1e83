'use client';
// The agent loop call by call: the full message list each request sends, what was appended since the
// previous call, the static prefix (system + tools), and token counts from lib/agent and lib/prompt.
// Labels and role names come from lib/i18n (panels table).
import type { Run } from '../../lib/agent/run';
import { callTokenCounts } from '../../lib/agent/run';
import { messageTokenCounts, type Prompt } from '../../lib/prompt/prompt';
import type { ChatMessage } from '../../lib/scenarios/types';
import { STRINGS } from '../../lib/i18n';
import { ROLE_COLORS } from '../../lib/view/palette';
import { useT, type T } from '../common/i18n';


function preview(m: ChatMessage): string {
  const calls = 'tool_calls' in m && m.tool_calls ? m.tool_calls.map((c) => `${c.function.name}(${c.function.arguments})`).join(' ') : '';
  const text = [typeof m.content === 'string' ? m.content : '', calls].filter(Boolean).join(' ');
  return text.length > 110 ? text.slice(0, 110) + '…' : text;
}

export function MessageInspector({ run, prompts }: { run: Run; prompts: Prompt[] }) {
  const t = useT();
  const totals = callTokenCounts(run, prompts);
  return (
    <section data-role="message-inspector" aria-label={t('inspector.aria')} style={{ display: 'grid', gap: 8 }}>
      <h2 style={{ fontSize: 16, margin: '4px 0' }}>{t('inspector.title')}</h2>
      <div style={{ display: 'flex', gap: 12, overflowX: 'auto', alignItems: 'flex-start' }}>
        {run.calls.map((call, i) => {
          const counts = messageTokenCounts(prompts[i]!);
          const c = totals[i]!;
          const appended = new Set(call.appended);
          return (
            <div key={i} data-call={i + 1} style={{ minWidth: 300, maxWidth: 380, border: '1px solid #ccc', borderRadius: 6, background: '#fff', padding: 8, font: '12px system-ui' }}>
              <div style={{ fontWeight: 600 }}>{t('inspector.call', { n: i + 1, tokens: c.total })}</div>
              <div style={{ color: '#555', marginBottom: 6 }}>
                {i === 0
                  ? t('inspector.countsFirst', { static: c.static, appended: c.appended, generation: c.generation })
                  : t('inspector.countsNext', { static: c.static, prev: i, appended: c.appended, generation: c.generation })}
              </div>
              <div style={{ borderLeft: '4px solid #336', paddingLeft: 6, marginBottom: 4 }} title={t('inspector.staticTitle')}>
                <div style={{ color: '#336', fontSize: 11 }}>{t('inspector.static')}</div>
                <div>{t('inspector.toolsBlock', { tokens: counts.tools })}</div>
                {call.request.messages.slice(0, call.staticPrefix).map((m, j) => (
                  <Row key={j} m={m} j={j} tokens={counts.messages[j] ?? 0} isNew={appended.has(j)} t={t} />
                ))}
              </div>
              <div style={{ borderLeft: '4px solid #aaa', paddingLeft: 6 }} title={t('inspector.trajectoryTitle')}>
                <div style={{ color: '#666', fontSize: 11 }}>{t('inspector.trajectory')}</div>
                {call.request.messages.slice(call.staticPrefix).map((m, k) => {
                  const j = k + call.staticPrefix;
                  return <Row key={j} m={m} j={j} tokens={counts.messages[j] ?? 0} isNew={appended.has(j)} t={t} />;
                })}
              </div>
            </div>
          );
        })}
      </div>
      <div style={{ fontSize: 12, color: '#555' }}>
        <span style={{ background: '#fff3b0', padding: '0 4px', borderRadius: 3 }}>{t('inspector.highlight')}</span>
      </div>
    </section>
  );
}

function Row({ m, j, tokens, isNew, t }: { m: ChatMessage; j: number; tokens: number; isNew: boolean; t: T }) {
  return (
    <div data-appended={isNew ? 'true' : 'false'} style={{ display: 'flex', gap: 6, padding: '2px 4px', margin: '2px 0', background: isNew ? '#fff3b0' : 'transparent', borderRadius: 3 }}>
      <span style={{ background: ROLE_COLORS[m.role] ?? '#ddd', borderRadius: 3, padding: '0 4px', minWidth: 58, textAlign: 'center' }} data-message-role={m.role}>
        {`role.${m.role}` in STRINGS ? t(`role.${m.role}`) : m.role}
      </span>
      <span style={{ flex: 1, overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }} title={preview(m)}>
        [{j}] {preview(m)}
      </span>
      <span style={{ color: '#333', fontVariantNumeric: 'tabular-nums' }} title={t('inspector.rowTokens', { tokens })}>
        {tokens}
      </span>
    </div>
  );
}

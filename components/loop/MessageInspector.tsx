'use client';
// The agent loop call by call: the full message list each request sends, what was appended since the
// previous call, the static prefix (system + tools), and token counts from lib/agent and lib/prompt. Each
// call can be shown in the views above (the card of the shown call is outlined). Labels and role names come
// from lib/i18n (panels table).
import type { Run } from '../../lib/agent/run';
import { callTokenCounts } from '../../lib/agent/run';
import { messageTokenCounts, type Prompt } from '../../lib/prompt/prompt';
import type { ChatMessage } from '../../lib/scenarios/types';
import type { ShownContext } from '../../lib/state/analysed';
import type { ContextChoice } from '../../lib/state/store';
import { STRINGS } from '../../lib/i18n';
import { ROLE_COLORS } from '../../lib/view/palette';
import { useT, type T } from '../common/i18n';

function preview(m: ChatMessage): string {
  const calls = 'tool_calls' in m && m.tool_calls ? m.tool_calls.map((c) => `${c.function.name}(${c.function.arguments})`).join(' ') : '';
  const text = [typeof m.content === 'string' ? m.content : '', calls].filter(Boolean).join(' ');
  return text.length > 110 ? text.slice(0, 110) + '…' : text;
}

export interface MessageInspectorProps {
  run: Run;
  prompts: Prompt[];
  /** The prompt the views show (its card is outlined); without it no card is marked. */
  shown?: ShownContext;
  /** Show a call (or the whole conversation) in the views. */
  onShow?: (c: ContextChoice) => void;
  /** Tokens of the whole conversation when it is a prompt of its own (offered as a last choice), else null. */
  conversationTokens?: number | null;
}

export function MessageInspector({ run, prompts, shown, onShow, conversationTokens = null }: MessageInspectorProps) {
  const t = useT();
  const totals = callTokenCounts(run, prompts);
  const last = run.calls.length - 1;
  return (
    <section data-role="message-inspector" aria-label={t('inspector.aria')} style={{ display: 'grid', gap: 'var(--sp-2)' }}>
      <h2>{t('inspector.title')}</h2>
      <div style={{ display: 'flex', gap: 'var(--sp-3)', overflowX: 'auto', alignItems: 'flex-start', paddingBottom: 4 }}>
        {run.calls.map((call, i) => {
          const counts = messageTokenCounts(prompts[i]!);
          const c = totals[i]!;
          const appended = new Set(call.appended);
          const isShown = shown?.kind === 'call' && shown.index === i;
          return (
            <div
              key={i}
              data-call={i + 1}
              data-shown={isShown ? 'true' : 'false'}
              style={{
                minWidth: 300,
                maxWidth: 380,
                border: isShown ? '2px solid var(--c-accent)' : '1px solid var(--c-border)',
                margin: isShown ? 0 : 1,
                borderRadius: 'var(--radius)',
                background: 'var(--c-panel)',
                padding: 'var(--sp-2)',
                fontSize: 'var(--fs-xs)',
              }}
            >
              <div style={{ display: 'flex', gap: 'var(--sp-2)', alignItems: 'center', marginBottom: 2 }}>
                <strong style={{ flex: 1, fontSize: 'var(--fs-sm)' }}>{t('inspector.call', { n: i + 1, tokens: c.total })}</strong>
                {onShow &&
                  (isShown ? (
                    <span style={{ color: 'var(--c-accent)', fontWeight: 600 }}>{t('inspector.shown')}</span>
                  ) : (
                    <button type="button" data-role="inspector-show" onClick={() => onShow(i === last ? 'last' : i)} style={{ minHeight: 0, padding: '1px 8px', fontSize: 'var(--fs-xs)' }}>
                      {t('inspector.show')}
                    </button>
                  ))}
              </div>
              <div className="muted" style={{ marginBottom: 6 }}>
                {i === 0
                  ? t('inspector.countsFirst', { static: c.static, appended: c.appended, generation: c.generation })
                  : t('inspector.countsNext', { static: c.static, prev: i, appended: c.appended, generation: c.generation })}
              </div>
              <div style={{ borderLeft: '4px solid #336', paddingLeft: 6, marginBottom: 4 }} title={t('inspector.staticTitle')}>
                <div style={{ color: '#336', fontSize: 'var(--fs-xs)' }}>{t('inspector.static')}</div>
                <div>{t('inspector.toolsBlock', { tokens: counts.tools })}</div>
                {call.request.messages.slice(0, call.staticPrefix).map((m, j) => (
                  <Row key={j} m={m} j={j} tokens={counts.messages[j] ?? 0} isNew={appended.has(j)} t={t} />
                ))}
              </div>
              <div style={{ borderLeft: '4px solid #aaa', paddingLeft: 6 }} title={t('inspector.trajectoryTitle')}>
                <div style={{ color: 'var(--c-muted)', fontSize: 'var(--fs-xs)' }}>{t('inspector.trajectory')}</div>
                {call.request.messages.slice(call.staticPrefix).map((m, k) => {
                  const j = k + call.staticPrefix;
                  return <Row key={j} m={m} j={j} tokens={counts.messages[j] ?? 0} isNew={appended.has(j)} t={t} />;
                })}
              </div>
            </div>
          );
        })}
        {onShow && conversationTokens !== null && (
          <div
            data-conversation=""
            data-shown={shown?.kind === 'conversation' ? 'true' : 'false'}
            style={{
              minWidth: 180,
              border: shown?.kind === 'conversation' ? '2px solid var(--c-accent)' : '1px dashed var(--c-border-strong)',
              borderRadius: 'var(--radius)',
              padding: 'var(--sp-2)',
              fontSize: 'var(--fs-xs)',
              display: 'grid',
              gap: 6,
            }}
          >
            <strong style={{ fontSize: 'var(--fs-sm)' }}>{t('context.allButton', { tokens: conversationTokens })}</strong>
            <span className="muted">{t('context.allTitle', { tokens: conversationTokens })}</span>
            {shown?.kind === 'conversation' ? (
              <span style={{ color: 'var(--c-accent)', fontWeight: 600 }}>{t('inspector.shown')}</span>
            ) : (
              <button type="button" data-role="inspector-show" onClick={() => onShow('all')} style={{ justifySelf: 'start', minHeight: 0, padding: '1px 8px', fontSize: 'var(--fs-xs)' }}>
                {t('inspector.show')}
              </button>
            )}
          </div>
        )}
      </div>
      <div className="small muted">
        <span style={{ background: 'var(--c-new)', padding: '0 4px', borderRadius: 3 }}>{t('inspector.highlight')}</span>
      </div>
    </section>
  );
}

function Row({ m, j, tokens, isNew, t }: { m: ChatMessage; j: number; tokens: number; isNew: boolean; t: T }) {
  return (
    <div data-appended={isNew ? 'true' : 'false'} style={{ display: 'flex', gap: 6, padding: '2px 4px', margin: '2px 0', background: isNew ? 'var(--c-new)' : 'transparent', borderRadius: 3 }}>
      <span style={{ background: ROLE_COLORS[m.role] ?? '#ddd', borderRadius: 3, padding: '0 4px', minWidth: 58, textAlign: 'center' }} data-message-role={m.role}>
        {`role.${m.role}` in STRINGS ? t(`role.${m.role}`) : m.role}
      </span>
      <span style={{ flex: 1, overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }} title={preview(m)}>
        [{j}] {preview(m)}
      </span>
      <span style={{ fontVariantNumeric: 'tabular-nums' }} title={t('inspector.rowTokens', { tokens })}>
        {tokens}
      </span>
    </div>
  );
}

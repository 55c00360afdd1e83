'use client';
// The think-block drop (docs/CONCEPTS.md#prefix-invalidation): the calls of a two-question run of a thinking
// model, rendered with the page's chat template, and where the cache breaks although the agent only appends
// (lib/cache/thinkDrop). Shows the break as two token rows (cached call above, new call below) and in the
// earlier call's tokens.
import { useMemo, useState } from 'react';
import { runOf } from '../../lib/agent/run';
import { reasoningMessages, thinkDrops, type ThinkDropCall } from '../../lib/cache/thinkDrop';
import type { Prompt, Segment } from '../../lib/prompt/prompt';
import { displayToken } from '../../lib/prompt/label';
import { spanIndexAt } from '../../lib/prompt/prompt';
import { THINKING_REQUEST } from '../../lib/scenarios/thinking';
import { BatchStatus, batchSettled, ECON_COLORS, fmtInt, FONT, LegendRow, MONO, Swatch, useReportSettled } from './econParts';
import { SEGMENT_COLORS } from '../../lib/view/palette';
import { TokenView } from '../attention/TokenView';
import { usePromptBatch, type RenderPrompt } from '../hooks/usePromptBatch';
import { useT } from '../common/i18n';

const RUN = runOf(THINKING_REQUEST);
const REQUESTS = RUN.calls.map((c) => c.request);
const REASONING = RUN.calls.map((c) => reasoningMessages(c.request.messages));
/** Tokens shown before and after the break in the two-row strip. */
const BEFORE = 6;
const AFTER = 18;

/** `onSettled`: told whether the prompts have been rendered (the tab's data-ready). */
export function ThinkDropPanel({ render, onSettled }: { render: RenderPrompt | null; onSettled?: (settled: boolean) => void }) {
  const t = useT();
  const batch = usePromptBatch(render, 'thinking', REQUESTS);
  useReportSettled(batchSettled(batch), onSettled);
  const prompts = batch.ready?.prompts ?? null;
  const drops = useMemo(() => (prompts ? thinkDrops(prompts, REASONING) : null), [prompts]);
  const broken = drops?.find((d) => d.causedByThinkDrop) ?? drops?.find((d) => d.earlier !== null && !d.extendsEarlier) ?? null;
  const [sel, setSel] = useState<number | null>(null);

  return (
    <section className="panel" data-role="think-drop-panel" aria-label={t('econ.thinkTitle')} style={{ display: 'grid', gridTemplateColumns: 'minmax(0, 1fr)', gap: 'var(--sp-2)', font: FONT }}>
      <h3 style={{ margin: 0 }}>{t('econ.thinkTitle')}</h3>
      <p style={{ margin: 0, maxWidth: '80em' }}>{t('econ.thinkIntro')}</p>
      <BatchStatus batch={batch} what={t('econ.whatThinking')} />
      {!render && <p className="muted" style={{ margin: 0 }}>{t('econ.waiting')}</p>}
      {prompts && drops && (
        <>
          <div style={{ overflowX: 'auto' }}>
            <ThinkTable drops={drops} prompts={prompts} />
          </div>
          {broken && broken.earlier !== null && broken.breakAt !== null ? (
            <>
              <p data-role="think-summary" style={{ margin: 0, fontWeight: 600, maxWidth: '80em' }}>
                {broken.causedByThinkDrop
                  ? t('econ.thinkSummary', {
                      call: broken.index + 1,
                      earlier: broken.earlier + 1,
                      message: broken.dropped[0]!,
                      token: broken.breakAt,
                      lost: fmtInt(broken.lostTokens),
                      total: fmtInt(prompts[broken.earlier]!.ids.length),
                    })
                  : t('econ.thinkOtherBreak', { call: broken.index + 1, token: broken.breakAt, lost: fmtInt(broken.lostTokens) })}
              </p>
              <BreakStrip a={prompts[broken.earlier]!} b={prompts[broken.index]!} at={broken.breakAt} aCall={broken.earlier + 1} bCall={broken.index + 1} />
              <div style={{ display: 'grid', gap: 4 }}>
                <div style={{ fontWeight: 600 }}>{t('econ.thinkTokensTitle', { call: broken.earlier + 1, token: broken.breakAt })}</div>
                <TokenView tokens={prompts[broken.earlier]!.tokens} spans={prompts[broken.earlier]!.spans} selected={sel ?? broken.breakAt} onSelect={setSel} height={170} />
              </div>
            </>
          ) : (
            <p style={{ margin: 0 }}>{t('econ.thinkNoBreak')}</p>
          )}
        </>
      )}
    </section>
  );
}

function ThinkTable({ drops, prompts }: { drops: ThinkDropCall[]; prompts: Prompt[] }) {
  const t = useT();
  const th = { textAlign: 'right' as const, padding: '3px 8px', borderBottom: '1px solid var(--c-border-strong)', fontWeight: 600, whiteSpace: 'nowrap' as const };
  const td = { textAlign: 'right' as const, padding: '3px 8px', borderBottom: '1px solid var(--c-border)', fontVariantNumeric: 'tabular-nums' as const, verticalAlign: 'top' as const };
  const what = (d: ThinkDropCall) => {
    if (d.earlier === null) return t('econ.firstCall');
    if (d.extendsEarlier) return t('econ.extends', { call: d.earlier + 1, tokens: d.breakAt ?? 0 });
    return t('econ.thinkBreaksAt', { token: d.breakAt ?? 0, message: d.breakMessage ?? '—', segment: d.breakSegment ? t(`segment.${d.breakSegment}` as 'segment.think') : '—' });
  };
  return (
    <table data-role="think-table" style={{ borderCollapse: 'collapse', fontSize: 'var(--fs-sm)', width: '100%' }}>
      <thead>
        <tr>
          <th style={th}>{t('econ.colCall')}</th>
          <th style={th}>{t('econ.colSent')}</th>
          <th style={{ ...th, textAlign: 'left' }}>{t('econ.colVsEarlier')}</th>
          <th style={th}>{t('econ.colLost')}</th>
          <th style={{ ...th, textAlign: 'left' }}>{t('econ.colDropped')}</th>
        </tr>
      </thead>
      <tbody>
        {drops.map((d) => (
          <tr key={d.index} data-call={d.index} data-break={d.breakAt ?? ''} data-lost={d.lostTokens} data-dropped={d.dropped.join(' ')} style={{ background: d.causedByThinkDrop ? '#fde8ec' : undefined }}>
            <td style={td}>{d.index + 1}</td>
            <td style={td}>{fmtInt(prompts[d.index]!.ids.length)}</td>
            <td style={{ ...td, textAlign: 'left' }}>{what(d)}</td>
            <td style={{ ...td, color: d.lostTokens ? 'var(--c-error)' : undefined, fontWeight: d.lostTokens ? 700 : 400 }}>{fmtInt(d.lostTokens)}</td>
            <td style={{ ...td, textAlign: 'left' }}>{d.dropped.length ? t('econ.droppedList', { messages: d.dropped.join(', ') }) : '—'}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** Two rows of token chips aligned at the break: the cached call above, the new call below. */
function BreakStrip({ a, b, at, aCall, bCall }: { a: Prompt; b: Prompt; at: number; aCall: number; bCall: number }) {
  const t = useT();
  const from = Math.max(0, at - BEFORE);
  const row = (p: Prompt, side: 'a' | 'b') => {
    const end = Math.min(p.ids.length, at + AFTER);
    const chips = [];
    for (let i = from; i < end; i++) {
      const span = p.spans[spanIndexAt(p, i)];
      const after = i >= at;
      chips.push(
        <span
          key={i}
          data-token-index={i}
          title={`#${i} ${span ? t(`segment.${span.segment}` as 'segment.think') : ''} · ${t('econ.messageN', { message: span?.message ?? '—' })}`}
          style={{
            background: span ? SEGMENT_COLORS[span.segment] : '#fff',
            padding: '1px 3px',
            marginRight: 1,
            borderRadius: 2,
            whiteSpace: 'pre',
            fontWeight: p.tokens[i]!.special ? 700 : 400,
            outline: after ? `2px solid ${side === 'a' ? ECON_COLORS.recomputed : '#222'}` : undefined,
            outlineOffset: -2,
            opacity: after && side === 'a' ? 0.75 : 1,
            textDecoration: after && side === 'a' ? 'line-through' : undefined,
          }}
        >
          {displayToken(p.tokens[i]!)}
        </span>,
      );
      if (i === at - 1) chips.push(<span key="break" aria-hidden style={{ borderLeft: `3px solid ${ECON_COLORS.recomputed}`, margin: '0 3px' }} />);
    }
    if (end < p.ids.length) chips.push(<span key="more" className="muted"> …</span>);
    return chips;
  };
  const label = { width: 210, flex: 'none' as const, fontWeight: 600 };
  const present: Segment[] = [];
  for (const p of [a, b])
    for (let i = from; i < Math.min(p.ids.length, at + AFTER); i++) {
      const seg = p.spans[spanIndexAt(p, i)]?.segment;
      if (seg && !present.includes(seg)) present.push(seg);
    }
  return (
    <div data-role="think-strip" style={{ display: 'grid', gap: 6, border: '1px solid var(--c-border)', borderRadius: 'var(--radius)', padding: 8, overflowX: 'auto' }}>
      <div style={{ display: 'flex', alignItems: 'center' }}>
        <span style={label}>{t('econ.stripA', { call: aCall })}</span>
        <span style={{ font: `13px ${MONO}`, whiteSpace: 'nowrap' }}>{row(a, 'a')}</span>
      </div>
      <div style={{ display: 'flex', alignItems: 'center' }}>
        <span style={label}>{t('econ.stripB', { call: bCall })}</span>
        <span style={{ font: `13px ${MONO}`, whiteSpace: 'nowrap' }}>{row(b, 'b')}</span>
      </div>
      <LegendRow>
        {present.map((seg) => (
          <Swatch key={seg} color={SEGMENT_COLORS[seg]} label={t(`segment.${seg}` as 'segment.think')} />
        ))}
        <span style={{ display: 'inline-flex', alignItems: 'center', gap: 5 }}>
          <span style={{ width: 0, height: 14, borderLeft: `3px solid ${ECON_COLORS.recomputed}` }} />
          {t('econ.stripBreak', { token: at })}
        </span>
        <span style={{ display: 'inline-flex', alignItems: 'center', gap: 5 }}>
          <span style={{ width: 14, height: 12, outline: `2px solid ${ECON_COLORS.recomputed}`, outlineOffset: -2 }} />
          {t('econ.stripLost')}
        </span>
      </LegendRow>
    </div>
  );
}

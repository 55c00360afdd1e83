'use client';
// The stepper's tokens in reading order: chips coloured by segment (as in TokenView), a divider at each
// message start, the current query outlined, the next token dashed, and under each cached token a bar in the
// colour of the attention the current query gives it. Only the cached part and a short preview of what comes
// next are drawn (faded), then a note of how many tokens are not cached yet: the view grows with the cache.
// Generated tokens carry a marker. Shows what it is given.
import { useEffect, useMemo, useRef } from 'react';
import type { Span, TokenInfo } from '../../lib/prompt/prompt';
import { displayToken } from '../../lib/prompt/label';
import { rgbHex, sampleColormap, type ColormapName, type Scale } from '../../lib/view/colormap';
import { MARK_COLORS, SEGMENT_COLORS } from '../../lib/view/palette';
import { COPY_MARK } from '../../lib/view/copySource';
import { useT } from '../common/i18n';

export interface StepTokensProps {
  tokens: TokenInfo[];
  spans: Span[];
  /** Tokens in the cache. */
  cursor: number;
  /** Attention of the query (token cursor − 1) over the cached keys, or null. */
  weights: Float32Array | null;
  scale: Scale;
  map: ColormapName;
  /** A key picked on the strip (outlined and scrolled to), or null. */
  picked: number | null;
  /** First generated token, or null. */
  genStart: number | null;
  /** The copy source of the query's prediction (outlined, docs/CONCEPTS.md#copy-source), or null. */
  source?: number | null;
  height?: number;
  onPick?: (i: number) => void;
}

/** Tokens after the cache end shown (faded) as a preview of what the next steps add. */
const PREVIEW = 24;
/** Height of the attention bar under each cached chip, in px. */
const BAR_PX = 6;

export function StepTokens({ tokens, spans, cursor, weights, scale, map, picked, genStart, source = null, height = 300, onPick }: StepTokensProps) {
  // Drawn: the cache, the preview, and a picked key wherever it is.
  const shown = Math.min(tokens.length, Math.max(cursor + PREVIEW, picked !== null ? picked + 1 : 0));
  const hidden = tokens.length - shown;
  const t = useT();
  const boxRef = useRef<HTMLDivElement>(null);
  const { spanOf, starts } = useMemo(() => {
    const spanOf: (Span | undefined)[] = new Array(tokens.length);
    const starts = new Set<number>();
    let prev: number | undefined;
    for (const s of spans) {
      for (let i = s.start; i < Math.min(s.end, tokens.length); i++) spanOf[i] = s;
      if (s.start > 0 && s.message !== prev) starts.add(s.start);
      prev = s.message;
    }
    return { spanOf, starts };
  }, [tokens, spans]);

  // Keep the query token (or the picked key) in view, scrolling the box only (never the page).
  const focus = picked ?? cursor - 1;
  useEffect(() => {
    const box = boxRef.current;
    const chip = box?.querySelector<HTMLElement>(`[data-step-index="${focus}"]`);
    if (!box || !chip) return;
    const top = chip.offsetTop; // the box is the chips' offset parent (position: relative)
    if (top < box.scrollTop + 8 || top > box.scrollTop + box.clientHeight - 40) box.scrollTop = Math.max(0, top - box.clientHeight / 2);
  }, [focus, tokens.length]);

  const chips: React.ReactNode[] = [];
  tokens.slice(0, shown).forEach((tok, i) => {
    const span = spanOf[i];
    const cached = i < cursor;
    const w = cached && weights && i < weights.length ? weights[i]! : null;
    const bar = w === null ? 'transparent' : rgbHex(sampleColormap(map, scale.norm(w)));
    const isQuery = i === cursor - 1;
    const isNext = i === cursor;
    const generated = genStart !== null && i >= genStart;
    chips.push(
      <span
        key={i}
        data-step-index={i}
        data-cached={cached ? 'true' : 'false'}
        data-copy-source={i === source ? 'true' : undefined}
        title={
          t('step.chipTitle', { index: i, id: tok.id, segment: span ? t(`segment.${span.segment}`) : '—' }) +
          (w !== null ? '\n' + t('step.stripTipWeight', { w: w.toPrecision(4) }) : '\n' + t('step.stripTipFuture')) +
          (generated ? '\n' + t('step.chipGenerated') : '')
        }
        style={{
          background: span ? SEGMENT_COLORS[span.segment] : 'var(--c-panel)',
          opacity: cached ? 1 : 0.35,
          fontWeight: tok.special ? 700 : 400,
          borderBottom: `${BAR_PX}px solid ${bar}`,
          borderLeft: starts.has(i) ? `3px solid ${MARK_COLORS.ink}` : undefined,
          marginLeft: starts.has(i) ? 4 : 0,
          outline: isQuery
            ? `2px solid ${MARK_COLORS.select}`
            : isNext
              ? `2px dashed ${MARK_COLORS.ink}`
              : i === picked
                ? `2px solid ${MARK_COLORS.pin}`
                : i === source
                  ? `2px solid ${COPY_MARK}`
                  : undefined,
          outlineOffset: 0,
          boxShadow: generated ? 'inset 0 2px 0 #7b2cbf' : undefined,
          padding: '0 2px',
          marginRight: 1,
          borderRadius: 2,
          whiteSpace: 'pre',
          cursor: onPick ? 'pointer' : 'default',
        }}
      >
        {displayToken(tok)}
      </span>,
    );
    const newlines = tok.text.split('\n').length - 1;
    for (let n = 0; n < newlines; n++) chips.push(<br key={`${i}:br${n}`} />);
  });
  if (hidden > 0) {
    chips.push(
      <span key="more" data-role="step-tokens-more" data-count={hidden} className="muted" style={{ fontFamily: 'var(--font-sans)', fontSize: 'var(--fs-xs)', marginLeft: 6 }}>
        {t('step.tokensMore', { n: hidden })}
      </span>,
    );
  }

  return (
    <div style={{ display: 'grid', gap: 'var(--sp-1)' }}>
      <div style={{ display: 'flex', flexWrap: 'wrap', gap: 'var(--sp-1) var(--sp-3)', fontSize: 'var(--fs-xs)' }}>
        <Key style={{ outline: `2px solid ${MARK_COLORS.select}` }} text={t('step.keyQuery')} />
        <Key style={{ outline: `2px dashed ${MARK_COLORS.ink}` }} text={t('step.keyNext')} />
        <Key style={{ outline: `2px solid ${COPY_MARK}` }} text={t('copy.legend')} />
        <Key style={{ opacity: 0.35, background: SEGMENT_COLORS.tools }} text={t('step.keyFuture')} />
        <Key style={{ borderBottom: `${BAR_PX}px solid ${rgbHex(sampleColormap(map, 0.8))}` }} text={t('step.keyBar')} />
        {genStart !== null && <Key style={{ boxShadow: 'inset 0 2px 0 #7b2cbf', background: '#eee' }} text={t('step.keyGenerated')} />}
      </div>
      <div
        ref={boxRef}
        data-role="step-tokens"
        onClick={(e) => {
          const chip = (e.target as HTMLElement).closest<HTMLElement>('[data-step-index]');
          if (chip && onPick) onPick(Number(chip.dataset.stepIndex));
        }}
        style={{ maxHeight: height, overflow: 'auto', border: '1px solid var(--c-border)', borderRadius: 'var(--radius)', padding: 'var(--sp-2)', font: 'var(--fs-sm) var(--font-mono)', lineHeight: '26px', wordBreak: 'break-all', position: 'relative' }}
      >
        {chips}
      </div>
    </div>
  );
}

function Key({ style, text }: { style: React.CSSProperties; text: string }) {
  return (
    <span style={{ display: 'inline-flex', alignItems: 'center', gap: 4 }}>
      <span style={{ width: 14, height: 12, display: 'inline-block', borderRadius: 2, background: SEGMENT_COLORS.template, ...style }} />
      {text}
    </span>
  );
}

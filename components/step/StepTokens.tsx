'use client';
// The stepper's tokens in reading order: chips coloured by segment (as in TokenView), a divider at each
// message start, tokens not yet in the cache faded, the current query outlined, the next token dashed, and
// under each cached token a bar in the colour of the attention the current query gives it. Generated tokens
// carry a marker. Shows what it is given.
import { useEffect, useMemo, useRef } from 'react';
import type { Span, TokenInfo } from '../../lib/prompt/prompt';
import { displayToken } from '../../lib/prompt/label';
import { rgbHex, sampleColormap, type ColormapName, type Scale } from '../../lib/view/colormap';
import { SEGMENT_COLORS } from '../../lib/view/palette';
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
  height?: number;
  onPick?: (i: number) => void;
}

const MONO = 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace';

export function StepTokens({ tokens, spans, cursor, weights, scale, map, picked, genStart, height = 300, onPick }: StepTokensProps) {
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
  tokens.forEach((tok, i) => {
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
        title={
          t('step.chipTitle', { index: i, id: tok.id, segment: span ? t(`segment.${span.segment}`) : '—' }) +
          (w !== null ? '\n' + t('step.stripTipWeight', { w: w.toPrecision(4) }) : '\n' + t('step.stripTipFuture')) +
          (generated ? '\n' + t('step.chipGenerated') : '')
        }
        style={{
          background: span ? SEGMENT_COLORS[span.segment] : '#fff',
          opacity: cached ? 1 : 0.35,
          fontWeight: tok.special ? 700 : 400,
          borderBottom: `4px solid ${bar}`,
          borderLeft: starts.has(i) ? '3px solid #222' : undefined,
          marginLeft: starts.has(i) ? 4 : 0,
          outline: isQuery ? '2px solid #000' : isNext ? '2px dashed #d00' : i === picked ? '2px solid #06c' : undefined,
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

  return (
    <div style={{ display: 'grid', gap: 4 }}>
      <div style={{ display: 'flex', flexWrap: 'wrap', gap: 12, font: '12px system-ui', color: '#333' }}>
        <Key style={{ outline: '2px solid #000' }} text={t('step.keyQuery')} />
        <Key style={{ outline: '2px dashed #d00' }} text={t('step.keyNext')} />
        <Key style={{ opacity: 0.35, background: '#99DDFF' }} text={t('step.keyFuture')} />
        <Key style={{ borderBottom: `4px solid ${rgbHex(sampleColormap(map, 0.8))}` }} text={t('step.keyBar')} />
        {genStart !== null && <Key style={{ boxShadow: 'inset 0 2px 0 #7b2cbf', background: '#eee' }} text={t('step.keyGenerated')} />}
      </div>
      <div
        ref={boxRef}
        data-role="step-tokens"
        onClick={(e) => {
          const chip = (e.target as HTMLElement).closest<HTMLElement>('[data-step-index]');
          if (chip && onPick) onPick(Number(chip.dataset.stepIndex));
        }}
        style={{ height, overflow: 'auto', border: '1px solid #ccc', padding: 6, font: `13px ${MONO}`, lineHeight: '24px', wordBreak: 'break-all', position: 'relative' }}
      >
        {chips}
      </div>
    </div>
  );
}

function Key({ style, text }: { style: React.CSSProperties; text: string }) {
  return (
    <span style={{ display: 'inline-flex', alignItems: 'center', gap: 4 }}>
      <span style={{ width: 14, height: 12, display: 'inline-block', borderRadius: 2, background: '#ddd', ...style }} />
      {text}
    </span>
  );
}

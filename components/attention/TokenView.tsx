'use client';
// The prompt's tokens as chips in reading order, coloured by segment, with a divider at each message start,
// click/arrow-key selection and a segment legend. Shows what lib/prompt derived; computes nothing of its own.
// Segment and role names are shown translated (lib/i18n, panels table); data values stay as lib/prompt names them.
// With a `tint` (BertViz's view on our tokens) every key k ≤ q is tinted by its weight from the selected
// query's row, the segment colour kept as an underline, and the keys after q are faded.
import { useEffect, useId, useMemo, useRef } from 'react';
import { TOOLS_MESSAGE, type Span, type TokenInfo } from '../../lib/prompt/prompt';
import { displayToken } from '../../lib/prompt/label';
import { formatWeight } from '../../lib/view/heatmapAxis';
import { MARK_COLORS, SEGMENT_COLORS, SEGMENTS } from '../../lib/view/palette';
import { hexRgb } from '../../lib/view/raster';
import { lightInkOn, tintAlpha, type RowTint } from '../../lib/view/tokenTint';
import { useT } from '../common/i18n';

export interface TokenViewProps {
  tokens: TokenInfo[];
  /** Spans tiling the tokens (Prompt.spans). */
  spans: Span[];
  /** Selected token index, or null for none. */
  selected: number | null;
  onSelect: (i: number) => void;
  /** CSS pixels of the scrollable token box. */
  height?: number;
  /** The selected query's row: keys tinted by weight (lib/view/tokenTint rowTint). */
  tint?: RowTint | null;
  /** What the tint's weights are of ("layer 27 · mean of 16 heads"), named after its legend; absent: not named. */
  tintSource?: string;
}

/** The tint: the selection colour, so "selected query" and "where its attention goes" read as one thing. */
const TINT_RGB = hexRgb(MARK_COLORS.select).join(',');

/** The last message start before token i, or i itself when none. */
function prevStart(starts: number[], i: number): number {
  for (let k = starts.length - 1; k >= 0; k--) if (starts[k]! < i) return starts[k]!;
  return i;
}

const MONO = 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace';

export function TokenView({ tokens, spans, selected, onSelect, height = 360, tint = null, tintSource }: TokenViewProps) {
  const t = useT();
  const boxRef = useRef<HTMLDivElement>(null);
  const viewId = useId();

  // Per-token span index (-1 where no span covers it), and the token indices where a new message starts.
  const { spanOf, messageStarts } = useMemo(() => {
    const spanOf = new Int32Array(tokens.length).fill(-1);
    const messageStarts: number[] = [];
    let prevMessage: number | undefined;
    spans.forEach((s, si) => {
      const end = Math.min(s.end, tokens.length);
      for (let t = Math.max(0, s.start); t < end; t++) spanOf[t] = si;
      if (s.start < tokens.length && s.message !== prevMessage) messageStarts.push(s.start);
      prevMessage = s.message;
    });
    return { spanOf, messageStarts };
  }, [tokens, spans]);

  // Chips are built once per prompt; selection is styled by a scoped CSS rule, so moving it re-renders no chip.
  const chips = useMemo(() => {
    const starts = new Set(messageStarts);
    const out: React.ReactNode[] = [];
    tokens.forEach((tok, i) => {
      const span = spanOf[i]! >= 0 ? spans[spanOf[i]!] : undefined;
      const newMessage = starts.has(i) && i > 0;
      let title = span
        ? t(span.message === TOOLS_MESSAGE ? 'tokens.chipTools' : 'tokens.chip', {
            index: i,
            id: tok.id,
            segment: t(`segment.${span.segment}`),
            role: t(`role.${span.role}`),
            message: span.message,
          })
        : t('tokens.chipBare', { index: i, id: tok.id });
      if (tok.partial) title += '\n' + t('tokens.partialTitle');
      const seg = span ? SEGMENT_COLORS[span.segment] : '#fff';
      // Tinted: keys up to the query by weight over the segment colour's underline; later keys faded.
      const w = tint && i <= tint.query ? tint.weights[i]! : null;
      const alpha = w !== null ? tintAlpha(w, tint!.max) : 0;
      if (w !== null) title += '\n' + t('heatmap.chipWeight', { q: tint!.query, w: Number.isNaN(w) ? '—' : w.toPrecision(4) });
      out.push(
        <span
          key={i}
          data-token-index={i}
          data-weight={w !== null ? String(w) : undefined}
          title={title}
          style={{
            background: w !== null ? `rgba(${TINT_RGB},${alpha.toFixed(3)})` : seg,
            boxShadow: w !== null ? `inset 0 -3px 0 ${seg}` : undefined,
            color: w !== null && lightInkOn(alpha) ? '#fff' : undefined,
            opacity: tint && i > tint.query ? 0.35 : undefined,
            fontWeight: tok.special ? 700 : 400,
            outline: tok.partial ? '1px dashed #333' : undefined,
            outlineOffset: tok.partial ? -1 : undefined,
            borderLeft: newMessage ? '3px solid #222' : undefined,
            marginLeft: newMessage ? 4 : 0,
            padding: '0 2px',
            marginRight: 1,
            borderRadius: 2,
            whiteSpace: 'pre',
            cursor: 'pointer',
          }}
        >
          {displayToken(tok)}
        </span>,
      );
      const newlines = tok.text.split('\n').length - 1;
      for (let n = 0; n < newlines; n++) out.push(<br key={`${i}:br${n}`} />);
    });
    return out;
  }, [tokens, spans, spanOf, messageStarts, t, tint]);

  useEffect(() => {
    if (selected === null) return;
    const chip = boxRef.current?.querySelector<HTMLElement>(`[data-token-index="${selected}"]`);
    // Scroll the token box only: scrollIntoView would also scroll the page, pulling a box far below the
    // tab's main figure into view on opening.
    const box = boxRef.current;
    if (chip && box) {
      const c = chip.getBoundingClientRect();
      const b = box.getBoundingClientRect();
      if (c.top < b.top) box.scrollTop += c.top - b.top;
      else if (c.bottom > b.bottom) box.scrollTop += c.bottom - b.bottom;
    }
  }, [selected, chips]);

  const onClick = (e: React.MouseEvent<HTMLDivElement>) => {
    const chip = (e.target as HTMLElement).closest<HTMLElement>('[data-token-index]');
    if (!chip) return;
    const i = Number(chip.dataset.tokenIndex);
    if (Number.isInteger(i)) onSelect(i);
  };

  const onKeyDown = (e: React.KeyboardEvent<HTMLDivElement>) => {
    const n = tokens.length;
    if (n === 0) return;
    let next: number | undefined;
    switch (e.key) {
      case 'ArrowRight':
        next = selected === null ? 0 : Math.min(n - 1, selected + 1);
        break;
      case 'ArrowLeft':
        next = selected === null ? n - 1 : Math.max(0, selected - 1);
        break;
      case 'ArrowDown':
        next = selected === null ? 0 : (messageStarts.find((s) => s > selected) ?? selected);
        break;
      case 'ArrowUp':
        next = selected === null ? (messageStarts[messageStarts.length - 1] ?? 0) : prevStart(messageStarts, selected);
        break;
      default:
        return;
    }
    e.preventDefault();
    if (next !== selected) onSelect(next);
  };

  const present = useMemo(() => new Set(spans.map((s) => s.segment)), [spans]);
  const selectedRule =
    selected === null
      ? ''
      : `[data-token-view-id="${viewId}"] [data-token-index="${selected}"] { outline: 2px solid ${MARK_COLORS.select} !important; outline-offset: 1px !important; }`;

  return (
    <div style={{ display: 'flex', flexDirection: 'column', gap: 6 }}>
      <div data-role="token-legend" role="group" aria-label={t('tokens.legend')} style={{ display: 'flex', flexWrap: 'wrap', gap: 8, font: 'var(--fs-xs, 12px) var(--font-sans, system-ui, sans-serif)' }}>
        {SEGMENTS.map((seg) => (
          <span key={seg} data-segment={seg} style={{ display: 'inline-flex', alignItems: 'center', gap: 4, opacity: present.has(seg) ? 1 : 0.45 }}>
            <span style={{ width: 12, height: 12, background: SEGMENT_COLORS[seg], border: '1px solid #888', borderRadius: 2 }} />
            {t(`segment.${seg}`)}
          </span>
        ))}
        <span style={{ display: 'inline-flex', alignItems: 'center', gap: 4 }}>
          <span style={{ width: 12, height: 12, borderLeft: '3px solid #222' }} />
          {t('tokens.newMessage')}
        </span>
        <span style={{ display: 'inline-flex', alignItems: 'center', gap: 4 }}>
          <span style={{ width: 12, height: 12, outline: '1px dashed #333', outlineOffset: -1 }} />
          {t('tokens.partial')}
        </span>
        {tint && (
          <span data-role="token-tint-legend" data-query={tint.query} data-max={tint.max} style={{ display: 'inline-flex', alignItems: 'center', gap: 4 }}>
            <span style={{ width: 36, height: 12, background: `linear-gradient(90deg, rgba(${TINT_RGB},0), rgb(${TINT_RGB}))`, border: '1px solid #888', borderRadius: 2 }} />
            {t('heatmap.tintLegend', { q: tint.query, max: formatWeight(tint.max) })}
            {tintSource && <span data-role="token-tint-source">{t('heatmap.tintSource', { what: tintSource })}</span>}
            <span style={{ width: 12, height: 12, marginLeft: 6, background: SEGMENT_COLORS.template, opacity: 0.35, border: '1px solid #888', borderRadius: 2 }} />
            {t('heatmap.tintFuture')}
          </span>
        )}
      </div>
      <style>{selectedRule}</style>
      <div
        ref={boxRef}
        data-role="token-view"
        data-token-view-id={viewId}
        tabIndex={0}
        aria-label={t('tokens.aria')}
        onClick={onClick}
        onKeyDown={onKeyDown}
        style={{ height, overflow: 'auto', border: '1px solid var(--c-border, #ccc)', borderRadius: 'var(--radius, 4px)', padding: 6, font: `var(--fs-sm, 13px) var(--font-mono, ${MONO})`, lineHeight: '22px', wordBreak: 'break-all' }}
      >
        {chips}
      </div>
    </div>
  );
}

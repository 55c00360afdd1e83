'use client';
// The prompt's tokens as chips in reading order, coloured by segment, with a divider at each message start,
// click/arrow-key selection and a segment legend. Shows what lib/prompt derived; computes nothing of its own.
// Segment and role names are shown translated (lib/i18n, panels table); data values stay as lib/prompt names them.
import { useEffect, useId, useMemo, useRef } from 'react';
import { TOOLS_MESSAGE, type Span, type TokenInfo } from '../../lib/prompt/prompt';
import { displayToken } from '../../lib/prompt/label';
import { SEGMENT_COLORS, SEGMENTS } from '../../lib/view/palette';
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
}

/** The last message start before token i, or i itself when none. */
function prevStart(starts: number[], i: number): number {
  for (let k = starts.length - 1; k >= 0; k--) if (starts[k]! < i) return starts[k]!;
  return i;
}

const MONO = 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace';

export function TokenView({ tokens, spans, selected, onSelect, height = 360 }: TokenViewProps) {
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
      out.push(
        <span
          key={i}
          data-token-index={i}
          title={title}
          style={{
            background: span ? SEGMENT_COLORS[span.segment] : '#fff',
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
  }, [tokens, spans, spanOf, messageStarts, t]);

  useEffect(() => {
    if (selected === null) return;
    const chip = boxRef.current?.querySelector<HTMLElement>(`[data-token-index="${selected}"]`);
    chip?.scrollIntoView({ block: 'nearest', inline: 'nearest' });
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
      : `[data-token-view-id="${viewId}"] [data-token-index="${selected}"] { outline: 2px solid #000 !important; outline-offset: 0 !important; box-shadow: 0 0 0 3px #fff, 0 0 0 4px #000; }`;

  return (
    <div style={{ display: 'flex', flexDirection: 'column', gap: 6 }}>
      <div data-role="token-legend" role="group" aria-label={t('tokens.legend')} style={{ display: 'flex', flexWrap: 'wrap', gap: 8, font: '12px system-ui, sans-serif' }}>
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
        style={{ height, overflow: 'auto', border: '1px solid #ccc', padding: 6, font: `13px ${MONO}`, lineHeight: '22px', wordBreak: 'break-all' }}
      >
        {chips}
      </div>
    </div>
  );
}

'use client';
// The "copied from" line (docs/CONCEPTS.md#copy-source), in the Step tab under the attention strip and in the
// Attention tab under the heatmap: the token a query row predicts, where it occurs earlier in the context (the
// strongest attention to an occurrence, lib/analysis/copySource) with a few tokens either side, that head's layer,
// head and weight against uniform, whether the head attends there most, and what was searched. Or that the token
// does not occur earlier. Shows what it is given (the figures are lib/view/copySource's).
import type { Carrier, CopyCoverage, CopySource } from '../../lib/analysis/copySource';
import { contextWindow, copyFigures, COPY_MARK, offsetFigures, timesUniform } from '../../lib/view/copySource';
import { useT, type T } from '../common/i18n';

export interface CopySourceLineProps {
  /** The copy source of the row, or null where the row predicts no token of the sequence (see `empty`). */
  copy: CopySource | null;
  /** Display labels of the sequence's tokens (visible whitespace). */
  labels: readonly string[];
  /** What the layers and heads searched were. */
  coverage: CopyCoverage;
  /** A full run's check of the offset reading in the layers below (lib/analysis/copySource RunCopySource.carrier). */
  carrier?: Carrier | null;
  /** Where the source is marked: the Step tab's strip and tokens, or the heatmap. */
  markedIn: 'strip' | 'heatmap';
  /** What to say without a copy source: the sequence ends at the row, the row is a prompt's last, nothing selected. */
  empty?: { kind: 'end' } | { kind: 'lastRow'; row: number } | { kind: 'select' };
  /** Moves to the source (the Step tab: the query becomes the source token); no button without it. */
  onGoto?: (position: number) => void;
  gotoDisabled?: boolean;
}

/** Tokens shown either side of the source. */
const RADIUS = 4;

const chip: React.CSSProperties = { padding: '0 2px', borderRadius: 2, whiteSpace: 'pre', background: 'var(--c-panel, #fff)', border: '1px solid var(--c-border)' };

function coverText(t: T, c: CopyCoverage): string {
  if (c.kind === 'all') return t('copy.coverAll', { layers: c.layers.length, heads: c.heads });
  if (c.kind === 'headLayers') return t('copy.coverHeadLayers', { layers: c.layers.join(', '), heads: c.heads });
  return t('copy.coverMean', { layers: c.layers.length });
}

export function CopySourceLine({ copy, labels, coverage, carrier = null, markedIn, empty, onGoto, gotoDisabled }: CopySourceLineProps) {
  const t = useT();
  const box: React.CSSProperties = {
    display: 'grid',
    gap: 4,
    padding: '6px 10px',
    borderLeft: `4px solid ${COPY_MARK}`,
    background: 'var(--c-bg)',
    borderRadius: 'var(--radius)',
    fontSize: 'var(--fs-sm)',
    lineHeight: 1.5,
    minWidth: 0,
  };
  const title = (
    <b title={t('copy.note')} style={{ marginRight: 8 }}>
      {t('copy.title')}
    </b>
  );

  if (!copy) {
    const kind = empty?.kind ?? 'end';
    return (
      <div data-role="copy-source" data-state={kind} style={box}>
        <div>
          {title}
          <span className="muted">{kind === 'select' ? t('copy.selectHint') : kind === 'lastRow' && empty?.kind === 'lastRow' ? t('copy.lastRow', { row: empty.row }) : t('copy.atEnd')}</span>
        </div>
      </div>
    );
  }

  const next = copy.row + 1;
  const token = labels[next] ?? '';
  const f = copyFigures(copy);
  if (!f) {
    return (
      <div data-role="copy-source" data-state="none" data-row={copy.row} data-next={next} style={box}>
        <div>
          {title}
          <span data-role="copy-none">{t(copy.row === 0 ? 'copy.noContext' : 'copy.none', { token, next, row: copy.row })}</span>
        </div>
        <div className="muted" style={{ fontSize: 'var(--fs-xs)' }}>
          {coverText(t, coverage)}
        </div>
      </div>
    );
  }

  const win = contextWindow(labels, f.position, RADIUS, copy.row + 1);
  const times = timesUniform(copy.best!.weight, copy.uniform);
  const headText = coverage.kind === 'mean' ? t('copy.headMean', { layer: f.layer, w: f.weight }) : t('copy.head', { layer: f.layer, head: f.head, w: f.weight });
  const facts = [
    headText,
    t(times >= 1 ? 'copy.above' : 'copy.below', { times: f.times, u: f.uniform }),
    f.argmax ? t('copy.argmax') : t('copy.argmaxElsewhere', { position: f.argmaxPosition ?? 0, label: labels[f.argmaxPosition ?? 0] ?? '' }),
    f.occurrences === 1 ? t('copy.occurrence') : t('copy.occurrences', { n: f.occurrences }),
  ];
  const o = coverage.kind === 'mean' ? null : offsetFigures(copy, carrier);
  return (
    <div
      data-role="copy-source"
      data-state="found"
      data-row={copy.row}
      data-next={next}
      data-source={f.position}
      data-layer={f.layer}
      data-head={coverage.kind === 'mean' ? 'mean' : f.head}
      data-weight={copy.best!.weight}
      data-argmax={f.argmax ? 'true' : 'false'}
      style={box}
    >
      <div style={{ display: 'flex', flexWrap: 'wrap', alignItems: 'baseline', gap: '2px 10px' }}>
        <span>
          {title}
          <span data-role="copy-target" style={{ fontWeight: 600 }}>
            {t('copy.source', { token, next, position: f.position })}
          </span>
        </span>
        <span data-role="copy-context" style={{ display: 'inline-flex', flexWrap: 'wrap', alignItems: 'baseline', gap: 2, fontFamily: 'var(--font-mono)', fontSize: 'var(--fs-xs)' }}>
          <span className="muted" style={{ fontFamily: 'var(--font-sans)', marginRight: 4 }}>
            {t('copy.context')}
          </span>
          {win.cutBefore && <span className="muted">…</span>}
          {win.tokens.map((label, i) => (
            <span
              key={win.start + i}
              data-copy-context={win.start + i}
              style={i === win.at ? { ...chip, outline: `2px solid ${COPY_MARK}`, outlineOffset: 0, fontWeight: 700 } : chip}
            >
              {label}
            </span>
          ))}
          {win.cutAfter && <span className="muted">…</span>}
        </span>
        {onGoto && (
          <button type="button" data-role="copy-goto" onClick={() => onGoto(f.position)} disabled={gotoDisabled} title={t('copy.gotoTitle', { position: f.position })} style={{ marginLeft: 'auto' }}>
            {t('copy.goto', { position: f.position })}
          </button>
        )}
      </div>
      <div data-role="copy-facts" style={{ fontSize: 'var(--fs-xs)', fontVariantNumeric: 'tabular-nums' }}>
        {facts.join(' · ')}
      </div>
      {o && (
        <div
          data-role="copy-offset"
          data-layer={o.layer}
          data-head={o.head}
          data-position={o.position}
          data-offset={o.offset}
          title={t('copy.offsetTitle')}
          style={{ fontSize: 'var(--fs-xs)', fontVariantNumeric: 'tabular-nums' }}
        >
          {t('copy.offset', { offset: o.offset, layer: o.layer, head: o.head, position: o.position, label: labels[o.position] ?? '', w: o.weight, times: o.times, occurrence: o.occurrence })}
          {o.carrier && (
            <span data-role="copy-carrier" data-layer={o.carrier.layer} data-head={o.carrier.head} data-top={o.carrier.top ? 'true' : 'false'}>
              {' · '}
              {t(o.carrier.top ? 'copy.carrierTop' : 'copy.carrierWeak', { layer: o.carrier.layer, head: o.carrier.head, position: o.position, occurrence: o.occurrence, w: o.carrier.weight })}
            </span>
          )}
        </div>
      )}
      <div className="muted" style={{ fontSize: 'var(--fs-xs)', display: 'flex', flexWrap: 'wrap', gap: '2px 12px', alignItems: 'center' }}>
        <span style={{ display: 'inline-flex', alignItems: 'center', gap: 4 }}>
          <span style={{ width: 12, height: 9, border: `2px solid ${COPY_MARK}`, display: 'inline-block' }} />
          {markedIn === 'strip' ? t('copy.markStrip') : t('copy.markHeatmap', { row: copy.row, position: f.position })}
        </span>
        <span>{coverText(t, coverage)}</span>
      </div>
    </div>
  );
}

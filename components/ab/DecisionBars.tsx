'use client';
// The top of the A/B tab, where the eye lands first (docs/CONCEPTS.md#decision-position,
// docs/CONCEPTS.md#regions): attention mass per region at each arm's decision position as grouped bars,
// beside where each arm decides, whether the two are comparable and the model's own next-token
// probabilities there. Also the same bars over generated tokens (shown with the decisions) and the panel
// of the user's own regions. The masses are lib/analysis/abCompare's; nothing is computed here.
import { useMemo } from 'react';
import { barRows, type BarRow, type LayerChoice } from '../../lib/analysis/abArms';
import { topTokensFromLogits } from '../../lib/generate/sampling';
import { decodeTokens } from '../../lib/generate/decodeTokens';
import { visibleWhitespace } from '../../lib/prompt/label';
import { formatPercent1 } from '../../lib/view/scale';
import { useT } from '../common/i18n';
import { AbRegionPicker } from './AbRegionPicker';
import { RegionBars } from './RegionBars';
import type { AbRegions } from './useAbRegions';
import type { Prepared } from './useAbArms';
import type { Strings } from './useSeedRuns';
import { useBoxWidth } from '../common/useBoxWidth';

/** The model's own next-token probabilities at each decision position (plain softmax, top 5). */
function useNextTokens(prepared: Prepared, strings: Strings | null): { A: string; B: string } {
  return useMemo(() => {
    const text = (id: number) => {
      if (!strings) return `#${id}`;
      try {
        return visibleWhitespace(decodeTokens(strings.strings, [id], strings.special).text);
      } catch {
        return `#${id}`;
      }
    };
    const line = (logits: Float32Array) => topTokensFromLogits(logits, 5).map((x) => `“${text(x.id)}” ${formatPercent1(x.p)}`).join(' · ');
    return { A: line(prepared.a.lastLogits), B: line(prepared.b.lastLogits) };
  }, [prepared, strings]);
}

/** The layer choice of the bars: the mean over layers or one layer. */
export function BarsLayerSelect({ value, layers, onChange }: { value: LayerChoice; layers: number; onChange: (l: LayerChoice) => void }) {
  const t = useT();
  return (
    <label>
      {t('ab.bars.show')}{' '}
      <select data-control="ab-bars-layer" value={String(value)} onChange={(e) => onChange(e.target.value === 'mean' ? 'mean' : Number(e.target.value))}>
        <option value="mean">{t('ab.bars.meanLayers')}</option>
        {Array.from({ length: layers }, (_, i) => (
          <option key={i} value={i}>
            {t('ab.bars.layer', { layer: i })}
          </option>
        ))}
      </select>
    </label>
  );
}

export interface DecisionBarsProps {
  prepared: Prepared;
  rows: BarRow[];
  masses: NonNullable<AbRegions['decision']>;
  strings: Strings | null;
  armTitles: { a: string; b: string };
  layer: LayerChoice;
  onLayer: (l: LayerChoice) => void;
  /** Right end of the value axis, shared with the generated-token bars. */
  max: number;
}

/** Bars at the decision position, with the decision facts beside them; the first panel of the tab. */
export function DecisionBars({ prepared, rows, masses, strings, armTitles, layer, onLayer, max }: DecisionBarsProps) {
  const t = useT();
  const dec = prepared.alignment.decision;
  const nextTokens = useNextTokens(prepared, strings);
  const [ref, width] = useBoxWidth<HTMLElement>(1100);
  // The bars take what the facts column leaves (it wraps below them in a narrow panel).
  const barsW = Math.max(420, Math.min(680, width - 360));
  return (
    <section ref={ref} className="panel" style={{ display: 'grid', gap: 'var(--sp-2)' }} aria-label={t('ab.dec.title')} data-role="ab-decision" data-comparable={String(dec.comparable)}>
      <h3 style={{ margin: 0 }}>{t('ab.dec.title')}</h3>
      <div style={{ display: 'flex', gap: 'var(--sp-5)', flexWrap: 'wrap', alignItems: 'flex-start' }}>
        <RegionBars
          role="ab-bars-decision"
          title={t('ab.bars.decisionTitle')}
          subtitle={t('ab.bars.decisionSub', { pa: dec.a.position, pb: dec.b.position })}
          rows={rows}
          layer={layer}
          max={max}
          masses={masses}
          armTitles={armTitles}
          width={barsW}
        />
        <div style={{ flex: '1 1 300px', minWidth: 280, display: 'grid', gap: 'var(--sp-2)', fontSize: 'var(--fs-sm)' }}>
          <div className="controls">
            <BarsLayerSelect value={layer} layers={prepared.a.attention.length} onChange={onLayer} />
          </div>
          <div className="muted small">{t('ab.bars.how')}</div>
          <div data-role="ab-decision-positions">
            {t('ab.dec.positions', { pa: dec.a.position, pb: dec.b.position, ta: visibleWhitespace(dec.a.text), ida: dec.a.id, tb: visibleWhitespace(dec.b.text), idb: dec.b.id })}{' '}
            {dec.comparable ? (
              <span style={{ color: '#276' }}>{t('ab.dec.comparable')}</span>
            ) : (
              <div role="alert" data-role="ab-not-comparable" style={{ color: 'var(--c-warn)', background: 'var(--c-warn-soft)', padding: '6px 10px', borderRadius: 'var(--radius)', marginTop: 4 }}>
                {t('ab.dec.notComparable')}
                <ul style={{ margin: '2px 0 0', paddingLeft: 18 }}>
                  {!dec.a.endsWithGenerationPrompt && <li>{t('ab.dec.noGenPrompt', { arm: 'A' })}</li>}
                  {!dec.b.endsWithGenerationPrompt && <li>{t('ab.dec.noGenPrompt', { arm: 'B' })}</li>}
                  {!dec.sameToken && <li>{t('ab.dec.otherToken')}</li>}
                </ul>
              </div>
            )}
          </div>
          <div style={{ fontFamily: 'var(--font-mono)', fontSize: 'var(--fs-xs)', display: 'grid', gap: 'var(--sp-1)' }} data-role="ab-next-tokens">
            {(['A', 'B'] as const).map((arm) => (
              <div key={arm}>
                {t('ab.dec.next', { arm })} {nextTokens[arm]}
              </div>
            ))}
          </div>
          <p className="muted small" style={{ margin: 0 }} data-role="view-secondary">
            {t('ab.dec.intro')}
          </p>
        </div>
      </div>
    </section>
  );
}

/** The same regions over the generated tokens' rows (after a generation), or what to do to get them. */
export function GeneratedBars({ regions, armTitles, layer, max }: { regions: AbRegions; armTitles: { a: string; b: string }; layer: LayerChoice; max: number }) {
  const t = useT();
  const { generated } = regions;
  const rows = useMemo(() => (generated ? barRows(generated.a, generated.b) : []), [generated]);
  if (!generated)
    return (
      <div className="small muted" data-role="ab-bars-generated-empty">
        <b style={{ color: 'var(--c-text)' }}>{t('ab.bars.genTitle')}</b> — {t('ab.bars.genEmpty')}
      </div>
    );
  return (
    <RegionBars
      role="ab-bars-generated"
      title={t('ab.bars.genTitle')}
      subtitle={t('ab.bars.genSub', { na: generated.a?.positions.length ?? 0, nb: generated.b?.positions.length ?? 0 })}
      rows={rows}
      layer={layer}
      max={max}
      masses={generated}
      armTitles={armTitles}
    />
  );
}

/** The user's own regions: a token range of either arm, measured in the bars above. */
export function OwnRegions({ prepared, regions }: { prepared: Prepared; regions: AbRegions }) {
  const t = useT();
  return (
    <section className="panel" style={{ display: 'grid', gap: 'var(--sp-2)' }} aria-label={t('ab.pick.title')} data-role="ab-own-regions">
      <h3 style={{ margin: 0 }}>{t('ab.pick.title')}</h3>
      <p className="muted small" style={{ margin: 0 }}>
        {t('ab.pick.intro')}
      </p>
      <AbRegionPicker
        prompts={{ A: prepared.a.prompt, B: prepared.b.prompt }}
        sharedPrefix={prepared.alignment.sharedPrefix}
        ranges={regions.userRanges}
        onAdd={regions.addRange}
        onRemove={regions.removeRange}
      />
    </section>
  );
}

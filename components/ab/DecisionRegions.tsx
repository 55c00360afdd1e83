'use client';
// The A/B tab's decision position (docs/CONCEPTS.md#decision-position): where each arm decides, whether the
// two are comparable, the model's own next-token probabilities there, and the attention mass per region
// (docs/CONCEPTS.md#regions) at that position and over generated tokens, with the user's own regions.
import { useMemo, useState } from 'react';
import { barRows, type LayerChoice } from '../../lib/analysis/abArms';
import { topTokensFromLogits } from '../../lib/generate/sampling';
import { decodeTokens } from '../../lib/generate/decodeTokens';
import { visibleWhitespace } from '../../lib/prompt/label';
import { useT } from '../common/i18n';
import { AbRegionPicker } from './AbRegionPicker';
import { abStyle } from './abStyle';
import { axisMax, RegionBars } from './RegionBars';
import type { AbRegions } from './useAbRegions';
import type { Prepared } from './useAbArms';
import type { Strings } from './useSeedRuns';

export interface DecisionRegionsProps {
  prepared: Prepared;
  regions: AbRegions;
  strings: Strings | null;
  armTitles: { a: string; b: string };
}

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
    const line = (logits: Float32Array) => topTokensFromLogits(logits, 5).map((x) => `“${text(x.id)}” ${(100 * x.p).toFixed(1)} %`).join(' · ');
    return { A: line(prepared.a.lastLogits), B: line(prepared.b.lastLogits) };
  }, [prepared, strings]);
}

export function DecisionRegions({ prepared, regions, strings, armTitles }: DecisionRegionsProps) {
  const t = useT();
  const dec = prepared.alignment.decision;
  const nextTokens = useNextTokens(prepared, strings);
  const [layer, setLayer] = useState<LayerChoice>('mean');
  const layers = prepared.a.attention.length;
  const lc: LayerChoice = layer === 'mean' || layer < layers ? layer : 'mean';
  const { decision, generated } = regions;
  const decisionRows = useMemo(() => (decision ? barRows(decision.a, decision.b) : []), [decision]);
  const generatedRows = useMemo(() => (generated ? barRows(generated.a, generated.b) : []), [generated]);
  const barMax = axisMax([decisionRows, generatedRows], lc);
  if (!decision) return null;

  return (
    <section style={abStyle.box} aria-label={t('ab.dec.title')} data-role="ab-decision" data-comparable={String(dec.comparable)}>
      <h3 style={abStyle.h3}>{t('ab.dec.title')}</h3>
      <p style={abStyle.intro}>{t('ab.dec.intro')}</p>
      <div style={{ fontSize: 14 }}>
        {t('ab.dec.positions', { pa: dec.a.position, pb: dec.b.position, ta: visibleWhitespace(dec.a.text), ida: dec.a.id, tb: visibleWhitespace(dec.b.text), idb: dec.b.id })}{' '}
        {dec.comparable ? (
          <span style={{ color: '#276' }}>{t('ab.dec.comparable')}</span>
        ) : (
          <div role="alert" data-role="ab-not-comparable" style={{ color: '#7a4a00', background: '#fff3cd', padding: '6px 10px', borderRadius: 4, marginTop: 4 }}>
            {t('ab.dec.notComparable')}
            <ul style={{ margin: '2px 0 0', paddingLeft: 18 }}>
              {!dec.a.endsWithGenerationPrompt && <li>{t('ab.dec.noGenPrompt', { arm: 'A' })}</li>}
              {!dec.b.endsWithGenerationPrompt && <li>{t('ab.dec.noGenPrompt', { arm: 'B' })}</li>}
              {!dec.sameToken && <li>{t('ab.dec.otherToken')}</li>}
            </ul>
          </div>
        )}
      </div>
      <div style={{ fontSize: 13, fontFamily: 'ui-monospace, monospace' }} data-role="ab-next-tokens">
        {(['A', 'B'] as const).map((arm) => (
          <div key={arm}>
            {t('ab.dec.next', { arm })} {nextTokens[arm]}
          </div>
        ))}
      </div>
      <div style={{ display: 'flex', gap: 12, alignItems: 'center', fontSize: 14, flexWrap: 'wrap' }}>
        <label>
          {t('ab.bars.show')}{' '}
          <select data-control="ab-bars-layer" value={String(lc)} onChange={(e) => setLayer(e.target.value === 'mean' ? 'mean' : Number(e.target.value))}>
            <option value="mean">{t('ab.bars.meanLayers')}</option>
            {Array.from({ length: layers }, (_, i) => (
              <option key={i} value={i}>
                {t('ab.bars.layer', { layer: i })}
              </option>
            ))}
          </select>
        </label>
        <span style={{ color: '#555', fontSize: 13 }}>{t('ab.bars.how')}</span>
      </div>
      <div style={{ display: 'flex', gap: 24, flexWrap: 'wrap', alignItems: 'flex-start' }}>
        <RegionBars
          role="ab-bars-decision"
          title={t('ab.bars.decisionTitle')}
          subtitle={t('ab.bars.decisionSub', { pa: dec.a.position, pb: dec.b.position })}
          rows={decisionRows}
          layer={lc}
          max={barMax}
          masses={decision}
          armTitles={armTitles}
        />
        <div style={{ borderLeft: '3px dotted #bbb', paddingLeft: 18 }}>
          {generated ? (
            <RegionBars
              role="ab-bars-generated"
              title={t('ab.bars.genTitle')}
              subtitle={t('ab.bars.genSub', { na: generated.a?.positions.length ?? 0, nb: generated.b?.positions.length ?? 0 })}
              rows={generatedRows}
              layer={lc}
              max={barMax}
              masses={generated}
              armTitles={armTitles}
            />
          ) : (
            <div style={{ width: 460, color: '#555', fontSize: 13 }} data-role="ab-bars-generated-empty">
              <div style={{ fontWeight: 600, fontSize: 14, color: '#222' }}>{t('ab.bars.genTitle')}</div>
              {t('ab.bars.genEmpty')}
            </div>
          )}
        </div>
      </div>
      <h4 style={{ margin: '6px 0 0', fontSize: 14 }}>{t('ab.pick.title')}</h4>
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

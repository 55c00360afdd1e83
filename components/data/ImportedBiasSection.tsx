'use client';
// The imported-attention view's position-bias section: what the chart shows, which rows it uses, how chart
// positions map to the file's layers, and the PositionBiasChart itself.
import type { ImportedSummary } from '../../lib/analysis/importedViews';
import { PositionBiasChart } from '../charts/PositionBiasChart';
import { useT } from '../common/i18n';
import { layerName, noteStyle } from './importedParts';

export function BiasSection({ summary, name }: { summary: ImportedSummary; name: string }) {
  const t = useT();
  const { layers, minQuery } = summary;
  const bias = layers.map((l) => l.bias);
  const map = layers.map((l, i) => t('imported.biasMapEntry', { i, layer: layerName(t, l) })).join(' · ');
  return (
    <section data-role="imported-bias" style={{ display: 'grid', gap: 6 }}>
      <div>
        <h2 style={{ margin: '0 0 4px', fontSize: 'var(--fs-lg)' }}>{t('bias.title')}</h2>
        <p style={{ margin: 0, color: 'var(--c-muted)', maxWidth: 1000 }}>{t('bias.explain', { minQuery })}</p>
        <p style={noteStyle}>{t('imported.biasRows', { minQuery })}</p>
        {!summary.sameRows && <p style={{ ...noteStyle, color: 'var(--c-warn)' }}>{t('imported.biasRowsDiffer')}</p>}
        {layers.length < 2 ? (
          <p data-role="imported-bias-one" style={{ ...noteStyle, color: 'var(--c-warn)' }}>{t('imported.biasOne', { layer: layers[0] ? layerName(t, layers[0]) : '' })}</p>
        ) : (
          layers.some((l, i) => l.layer !== i) && <p data-role="imported-bias-map" style={noteStyle}>{t('imported.biasMap', { map })}</p>
        )}
      </div>
      {/* PositionBiasChart carries its own ExportFrame (its JSON numbers layers by chart position, mapped above). */}
      <PositionBiasChart bias={bias} uniform={summary.uniform} minQuery={minQuery} exportName={`imported-${name}-position-bias`} exportTitle={t('imported.biasExportTitle', { name, map })} />
    </section>
  );
}

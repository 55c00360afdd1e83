'use client';
// The imported-attention view's heatmap: the Heatmap and its Legend in an ExportFrame (the JSON holds the
// matrix as drawn), the colour range and what grey cells mean.
import type { ImportedLayer } from '../../lib/io/attention/types';
import { isComplete } from '../../lib/analysis/importedViews';
import { DEFAULT_MIN_QUERY } from '../../lib/analysis/sink';
import { MASK_RGB, rgbHex } from '../../lib/view/colormap';
import { matrixJson } from '../../lib/io/export';
import { ExportFrame } from '../common/ExportFrame';
import { Heatmap } from '../attention/Heatmap';
import { Legend } from '../charts/Legend';
import { useT } from '../common/i18n';
import { headName, layerName } from './importedParts';
import type { ImportedAttentionState } from './useImportedAttention';

const HEATMAP_PX = 640;

export function ImportedHeatmap({ name, state, layer, matrix }: { name: string; state: ImportedAttentionState; layer: ImportedLayer; matrix: Float32Array }) {
  const t = useT();
  const { shown: a, li, head, meanOnlyLayer, K, scaleKind, scale, map, hideSink, labels } = state;
  const hName = headName(t, head, meanOnlyLayer);
  const sourceName = a.source === 'attention_visualization' ? t('imported.sourceTrajectoryShort') : t('imported.sourceKvscopeShort');
  const stem = `imported-${name}-${layer.layer ?? `i${li}`}-${meanOnlyLayer ? 'mean' : head}`;
  return (
    <div style={{ flex: '0 0 auto' }}>
      <ExportFrame
        name={stem}
        title={t('imported.heatmapTitle', { name, source: sourceName, layer: layerName(t, layer), head: hName, scale: t(scaleKind === 'linear' ? 'control.scaleLinear' : scaleKind === 'log' ? 'control.scaleLog' : 'control.scalePower') })}
        json={() => ({
          kind: 'imported-attention-heatmap',
          imported: true,
          name,
          source: a.source,
          meta: a.meta,
          layer: layer.layer,
          label: layer.label,
          heads: layer.heads,
          head: meanOnlyLayer ? 'mean (as exported)' : head,
          hideSinkColumn: hideSink,
          scale: { kind: scale.kind, min: scale.min, max: scale.max, gamma: scale.gamma },
          colormap: map,
          queryPositions: layer.queryPositions,
          tokens: a.tokens.slice(0, K),
          // K × K as drawn: rows = query positions, absent cells (rows not in the file, keys after the row) null.
          matrix: matrixJson(matrix, K, K),
        })}
      >
        <div style={{ display: 'grid', gap: 8 }}>
          <div data-role="imported-heatmap-caption" style={{ fontWeight: 600 }}>
            {t('imported.heatmapCaption', { layer: layerName(t, layer), head: hName })}
          </div>
          <Heatmap matrix={matrix} size={K} labels={labels} scale={scale} map={map} px={HEATMAP_PX} absentText={t('imported.absentCell')} />
          <Legend scale={scale} map={map} />
        </div>
      </ExportFrame>
      <div style={{ color: '#555', fontSize: 12, maxWidth: 720, marginTop: 6, display: 'grid', gap: 3 }}>
        <div>{t('legend.range', { max: scale.max.toPrecision(3), minQuery: DEFAULT_MIN_QUERY })}</div>
        <div data-role="imported-absent-legend" style={{ display: 'flex', gap: 6, alignItems: 'center' }}>
          <span style={{ width: 12, height: 12, background: rgbHex(MASK_RGB), outline: '1px solid #bbb', flex: '0 0 auto' }} />
          {isComplete(layer) ? t('imported.greyCausal') : t('imported.greyAbsent', { rows: layer.queries, keys: K })}
        </div>
        {hideSink && <div>{t('legend.hiddenSink')}</div>}
      </div>
    </div>
  );
}

'use client';
// Attention computed elsewhere (lib/io/attention), shown with kvscope's views and clearly labelled as imported: a
// banner saying where the numbers come from and what they are not, then the Heatmap (+ Legend), the file's
// tokens, the sink section (layers × heads, first-token share per layer, where attention rests) and the
// position-bias chart. Every number comes from lib/analysis/importedViews.ts (state: useImportedAttention); token
// strings are user data and are rendered as text only (React text nodes and attributes, never HTML). Sections:
// ImportedBanner, ImportedCompare (the check against kvscope's engine), ImportedControls, ImportedHeatmap,
// ImportedTokens, ImportedSinkSection, ImportedBiasSection.
import type { ImportedAttention } from '../../lib/io/attention/types';
import { isComplete } from '../../lib/analysis/importedViews';
import { useT } from '../common/i18n';
import { Banner } from './ImportedBanner';
import { ImportedCompare } from './ImportedCompare';
import { BiasSection } from './ImportedBiasSection';
import { ImportedControls } from './ImportedControls';
import { ImportedHeatmap } from './ImportedHeatmap';
import { SinkSection } from './ImportedSinkSection';
import { TokenList, TopReceivers } from './ImportedTokens';
import { useImportedAttention } from './useImportedAttention';
import type { CompareEngine } from './useImportCompare';

export interface ImportedAttentionViewProps {
  attention: ImportedAttention;
  /** The import's name (file name or the user's). */
  name: string;
  /** The page's engine with its loaded model, for "Compare with the engine" (null: no model ready). */
  engine?: CompareEngine | null;
}

export function ImportedAttentionView({ attention, name, engine = null }: ImportedAttentionViewProps) {
  const t = useT();
  const state = useImportedAttention(attention);
  const { call, shown: a, layer, matrix, K, summary } = state;
  return (
    <section data-role="imported-attention-view" style={{ display: 'grid', gap: 16, font: 'var(--fs-sm) var(--font-sans)', color: 'var(--c-text)', maxWidth: 1300 }}>
      <Banner attention={attention} shown={a} call={call} name={name} summary={summary} />
      <ImportedCompare attention={a} name={name} engine={engine} />

      {a.layers.length === 0 || !layer || !matrix ? (
        <p style={{ color: 'var(--c-muted)' }}>{t('imported.noLayers')}</p>
      ) : (
        <>
          <ImportedControls attention={attention} state={state} />
          <div style={{ display: 'flex', gap: 28, flexWrap: 'wrap', alignItems: 'flex-start' }}>
            <ImportedHeatmap name={name} state={state} layer={layer} matrix={matrix} />
            <div style={{ flex: '1 1 380px', minWidth: 340, display: 'grid', gap: 14 }}>
              <TokenList tokens={a.tokens} keys={K} present={layer.queryPositions} complete={isComplete(layer)} />
              <TopReceivers summary={summary} tokens={a.tokens} name={name} />
            </div>
          </div>

          <SinkSection summary={summary} name={name} />
          <BiasSection summary={summary} name={name} />
        </>
      )}
    </section>
  );
}

// Shared pieces of the imported-attention view (ImportedAttentionView and its sections): styles, names of
// layers and heads, text cut to length.
import type { ImportedAttention } from '../../lib/io/attention/types';
import type { HeadReduction } from '../../lib/analysis/importedViews';
import type { T } from '../common/i18n';
import type { Message } from '../../lib/i18n/message';

export const mono = 'ui-monospace, monospace';
export const headStyle = { padding: '2px 5px', font: `11px ${mono}`, color: '#555', fontWeight: 'normal' as const };
export const h3Style = { margin: '0 0 4px', fontSize: 14 };
export const noteStyle = { margin: '4px 0 0', color: '#555', fontSize: 12, maxWidth: 900 };
/** Longest metadata string shown in full; longer ones are cut with their length noted. */
const META_CHARS = 160;

export const fmt = (v: number | null, na: string, digits = 3) => (v === null ? na : v.toFixed(digits));

/**
 * A layer's short name for tables and selects: "layer 27", or the importer's label when the index is unknown
 * (in the interface's language when the importer coded it: a key and plain parameters).
 */
export function layerName(t: T, l: { layer: number | null; label: string; labelCoded?: Message }): string {
  if (l.layer !== null) return t('imported.layerN', { layer: l.layer });
  return l.labelCoded && !l.labelCoded.parts && !l.labelCoded.where ? t(l.labelCoded.key, l.labelCoded.params) : l.label;
}


export function headName(t: T, h: HeadReduction, meanOnly: boolean): string {
  if (meanOnly) return t('imported.headMeanExported');
  return h === 'mean' ? t('head.mean') : h === 'max' ? t('head.max') : t('head.one', { head: h });
}

export function cut(v: string, t: T): string {
  return v.length <= META_CHARS ? v : v.slice(0, META_CHARS) + t('imported.cut', { chars: v.length });
}

export function callLabel(t: T, c: ImportedAttention['calls'][number]): string {
  const parts = [t('imported.callN', { index: c.index })];
  if (c.stepNum !== null) parts.push(t('imported.stepN', { step: c.stepNum }));
  if (c.stepType !== null) parts.push(c.stepType);
  return parts.join(' · ');
}

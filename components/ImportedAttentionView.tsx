'use client';
// CONTRACT STUB — to be implemented (imported-attention helper): heatmap, sink and position views of attention
// computed elsewhere, clearly labelled as imported.
import type { ImportedAttention } from '../lib/imported/types';

export interface ImportedAttentionViewProps {
  attention: ImportedAttention;
  /** The import's name (file name or the user's). */
  name: string;
}

export function ImportedAttentionView({ name }: ImportedAttentionViewProps) {
  return <section data-role="imported-attention-view">{name}</section>;
}

'use client';
// The Attention tab: the agent loop's calls (inspector), the prompt's tokens with the selected query's top
// keys, and the heatmap (controls, exportable picture, legend) beside the attention-sink panel.
import type { Analysed } from '../../lib/state/analysed';
import type { ViewSettings } from '../../lib/state/store';
import { MessageInspector } from '../loop/MessageInspector';
import { HeatmapSection } from './HeatmapSection';
import { TokensSection } from './TokensSection';
import type { AttentionView } from './useAttentionView';

export interface AttentionTabProps {
  data: Analysed | null;
  /** The reduced matrix and scale (the page computes them: its status line reads them too). */
  shown: AttentionView;
  view: ViewSettings;
  onView: (patch: Partial<ViewSettings>) => void;
  /** The selected query token, already checked against the run's length. */
  selected: number | null;
  onSelect: (i: number | null) => void;
  /** Names for the export's file and caption. */
  model: string;
  scenario: string;
}

export function AttentionTab({ data, shown, view, onView, selected, onSelect, model, scenario }: AttentionTabProps) {
  if (!data) return null;
  return (
    <>
      <MessageInspector run={data.run} prompts={data.callPrompts} />
      <TokensSection data={data} matrix={shown.matrix} selected={selected} onSelect={onSelect} />
      {shown.matrix && <HeatmapSection data={data} shown={shown} matrix={shown.matrix} view={view} onView={onView} model={model} scenario={scenario} />}
    </>
  );
}

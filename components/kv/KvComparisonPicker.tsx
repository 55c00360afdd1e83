'use client';
// What the KV-cache tab compares: the source of the two sequences (consecutive calls, a request pattern's
// calls, a one-token edit of the prompt picked in its tokens, or another scenario), how the worker computes
// the two caches, how positions pair up when the lengths differ, and whether it is computing.
import type { CompareMode } from '../../lib/engine/kvCompare';
import type { EditKind } from '../../lib/analysis/invalidation';
import { PATTERN_CALLS, PATTERN_MODES, type PatternMode } from '../../lib/agent/patterns';
import type { Prompt } from '../../lib/prompt/prompt';
import { displayToken } from '../../lib/prompt/label';
import { CATALOG } from '../../lib/scenarios/catalog';
import type { CustomScenario } from '../../lib/state/store';
import { TokenView } from '../attention/TokenView';
import { ScenarioOptions } from '../scenario/ScenarioOptions';
import { useT } from '../common/i18n';
import type { Source } from './useKvComparison';

export type PairAlignment = 'position' | 'token';

export interface KvComparisonPickerProps {
  source: Source;
  onSource: (s: Source) => void;
  mode: CompareMode;
  onMode: (m: CompareMode) => void;
  /** Offered only when the comparison has a token-aligned pairing (null: not offered). */
  alignment: PairAlignment | null;
  onAlignment: (a: PairAlignment) => void;
  /** Calls of the scenario's agent loop. */
  calls: number;
  /** The scenario's prompt (what an edit changes). */
  prompt: Prompt | null;
  custom: CustomScenario[];
  busy: boolean;
  editError: string | null;
}

/** The first pair of each kind of source. */
function startOf(kind: Source['kind'], calls: number, prompt: Prompt | null): Source {
  if (kind === 'calls') return { kind: 'calls', call: Math.max(1, calls - 1) };
  if (kind === 'pattern') return { kind: 'pattern', mode: 'dynamic_system', call: 1 };
  if (kind === 'edit') return { kind: 'edit', edit: 'replace', position: Math.min(40, (prompt?.ids.length ?? 1) - 1), text: ' the' };
  return { kind: 'scenario', ref: CATALOG[0]!.ref };
}

/** "call 1 vs call 2", … for `n` calls. */
function CallPairs({ n }: { n: number }) {
  const t = useT();
  return Array.from({ length: n - 1 }, (_, i) => (
    <option key={i + 1} value={i + 1}>
      {t('kv.callVsCall', { a: i + 1, b: i + 2 })}
    </option>
  ));
}

export function KvComparisonPicker(p: KvComparisonPickerProps) {
  const t = useT();
  const { source, onSource, prompt } = p;
  return (
    <>
      <div style={{ display: 'flex', gap: 14, flexWrap: 'wrap', alignItems: 'center' }}>
        <label>
          {t('kv.compare')}{' '}
          <select data-control="kv-source" value={source.kind} onChange={(e) => onSource(startOf(e.target.value as Source['kind'], p.calls, prompt))}>
            <option value="calls">{t('kv.sourceCalls')}</option>
            <option value="pattern">{t('kv.sourcePattern')}</option>
            <option value="edit">{t('kv.sourceEdit')}</option>
            <option value="scenario">{t('kv.sourceScenario')}</option>
          </select>
        </label>
        {source.kind === 'calls' && (
          <label>
            {t('kv.callPair')}{' '}
            <select data-control="kv-call" value={source.call} onChange={(e) => onSource({ kind: 'calls', call: Number(e.target.value) })}>
              <CallPairs n={p.calls} />
            </select>
          </label>
        )}
        {source.kind === 'pattern' && (
          <>
            <label>
              {t('kv.patternMode')}{' '}
              <select data-control="kv-pattern" value={source.mode} onChange={(e) => onSource({ ...source, mode: e.target.value as PatternMode })}>
                {PATTERN_MODES.map((m) => (
                  <option key={m} value={m}>
                    {m}
                  </option>
                ))}
              </select>
            </label>
            <label>
              {t('kv.callPair')}{' '}
              <select data-control="kv-pattern-call" value={source.call} onChange={(e) => onSource({ ...source, call: Number(e.target.value) })}>
                <CallPairs n={PATTERN_CALLS} />
              </select>
            </label>
          </>
        )}
        {source.kind === 'scenario' && (
          <label>
            {t('kv.otherScenario')}{' '}
            <select data-control="kv-other" value={source.ref} onChange={(e) => onSource({ kind: 'scenario', ref: e.target.value })}>
              <ScenarioOptions custom={p.custom} validOnly />
            </select>
          </label>
        )}
        <label>
          {t('kv.mode')}{' '}
          <select data-control="kv-mode" value={p.mode} onChange={(e) => p.onMode(e.target.value as CompareMode)}>
            <option value="shared">{t('kv.modeShared')}</option>
            <option value="separate">{t('kv.modeSeparate')}</option>
          </select>
        </label>
        {p.alignment && (
          <label>
            {t('kv.alignment')}{' '}
            <select data-control="kv-alignment" value={p.alignment} onChange={(e) => p.onAlignment(e.target.value as PairAlignment)}>
              <option value="position">{t('kv.alignPosition')}</option>
              <option value="token">{t('kv.alignToken')}</option>
            </select>
          </label>
        )}
        {p.busy && (
          <span>
            <progress style={{ width: 100, verticalAlign: 'middle' }} /> {t('kv.computing')}
          </span>
        )}
      </div>
      {source.kind === 'edit' && prompt && (
        <div style={{ display: 'grid', gap: 6 }}>
          <div style={{ display: 'flex', gap: 12, alignItems: 'center', flexWrap: 'wrap' }}>
            <label>
              {t('kv.edit')}{' '}
              <select data-control="kv-edit" value={source.edit} onChange={(e) => onSource({ ...source, edit: e.target.value as EditKind })}>
                <option value="replace">{t('kv.editReplace')}</option>
                <option value="insert">{t('kv.editInsert')}</option>
                <option value="delete">{t('kv.editDelete')}</option>
              </select>
            </label>
            <span>{t('kv.editAt', { position: source.position, token: prompt.tokens[source.position] ? displayToken(prompt.tokens[source.position]!) : '' })}</span>
            {source.edit !== 'delete' && (
              <label>
                {t('kv.newToken')}{' '}
                <input data-control="kv-token" value={source.text} onChange={(e) => onSource({ ...source, text: e.target.value })} style={{ width: 120, fontFamily: 'ui-monospace, monospace' }} />
              </label>
            )}
            {p.editError && (
              <span role="alert" style={{ color: '#a00' }}>
                {p.editError}
              </span>
            )}
          </div>
          <TokenView tokens={prompt.tokens} spans={prompt.spans} selected={source.position} onSelect={(i) => onSource({ ...source, position: i })} height={120} />
        </div>
      )}
    </>
  );
}

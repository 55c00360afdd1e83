'use client';
// What the KV-cache tab compares: the source of the two sequences as segmented buttons (a one-token edit of
// the shown prompt — the default —, consecutive calls of the scenario or of a request pattern, or another
// scenario), that source's own controls, how the worker computes the two caches, how positions pair up when
// the lengths differ, and whether it is computing. The edit's position is picked in the prompt's tokens
// (KvEditTokens, below the maps).
import type { CompareMode } from '../../lib/engine/kvCompare';
import type { EditKind } from '../../lib/analysis/invalidation';
import { PATTERN_CALLS, PATTERN_MODES, type PatternMode } from '../../lib/agent/patterns';
import type { Prompt } from '../../lib/prompt/prompt';
import { displayToken, visibleWhitespace } from '../../lib/prompt/label';
import type { StringKey } from '../../lib/i18n';
import type { CustomScenario } from '../../lib/state/store';
import { TokenView } from '../attention/TokenView';
import { ScenarioOptions } from '../scenario/ScenarioOptions';
import { useT } from '../common/i18n';
import type { Source } from './useKvComparison';

export type PairAlignment = 'position' | 'token';

export const SOURCE_KINDS: readonly Source['kind'][] = ['edit', 'calls', 'pattern', 'scenario'];

const SOURCE_LABEL: Record<Source['kind'], StringKey> = {
  edit: 'kv.sourceEdit',
  calls: 'kv.sourceCalls',
  pattern: 'kv.sourcePattern',
  scenario: 'kv.sourceScenario',
};
const SOURCE_TITLE: Record<Source['kind'], StringKey> = {
  edit: 'kv.sourceEditTitle',
  calls: 'kv.sourceCallsTitle',
  pattern: 'kv.sourcePatternTitle',
  scenario: 'kv.sourceScenarioTitle',
};

export interface KvComparisonPickerProps {
  source: Source;
  /** A source kind picked: the owner starts it at its first pair. */
  onKind: (k: Source['kind']) => void;
  onSource: (s: Source) => void;
  mode: CompareMode;
  onMode: (m: CompareMode) => void;
  /** Offered only when the comparison has a token-aligned pairing (null: not offered). */
  alignment: PairAlignment | null;
  onAlignment: (a: PairAlignment) => void;
  /** Calls of the scenario's agent loop. */
  calls: number;
  /** The shown prompt (what an edit changes). */
  prompt: Prompt | null;
  custom: CustomScenario[];
  busy: boolean;
  editError: string | null;
}

/** "call 1 → call 2", … for `n` calls. */
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
    <div className="controls" data-role="kv-controls">
      <span role="group" aria-label={t('kv.compare')} style={{ display: 'inline-flex', gap: 'var(--sp-1)', alignItems: 'center', flexWrap: 'wrap' }}>
        <span>{t('kv.compare')}</span>
        {SOURCE_KINDS.map((k) => {
          const off = k === 'calls' && p.calls < 2;
          return (
            <button
              key={k}
              type="button"
              data-control="kv-source"
              data-source={k}
              aria-pressed={source.kind === k}
              disabled={off}
              title={off ? t('kv.oneCall') : t(SOURCE_TITLE[k])}
              onClick={() => source.kind !== k && p.onKind(k)}
            >
              {t(SOURCE_LABEL[k])}
            </button>
          );
        })}
      </span>
      {source.kind === 'calls' && p.calls > 2 && (
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
      {source.kind === 'edit' && prompt && (
        <>
          <label>
            {t('kv.edit')}{' '}
            <select data-control="kv-edit" value={source.edit} onChange={(e) => onSource({ ...source, edit: e.target.value as EditKind })}>
              <option value="replace">{t('kv.editReplace')}</option>
              <option value="insert">{t('kv.editInsert')}</option>
              <option value="delete">{t('kv.editDelete')}</option>
            </select>
          </label>
          <span data-role="kv-edit-at">{t('kv.editAt', { position: source.position, token: prompt.tokens[source.position] ? displayToken(prompt.tokens[source.position]!) : '' })}</span>
          {source.edit !== 'delete' && (
            <label>
              {source.edit === 'replace' ? t('kv.newToken') : t('kv.insertToken')}{' '}
              <input data-control="kv-token" value={source.text} onChange={(e) => onSource({ ...source, text: e.target.value })} style={{ width: 110, fontFamily: 'var(--font-mono)' }} />
            </label>
          )}
          {p.editError && (
            <span role="alert" style={{ color: 'var(--c-error)' }}>
              {p.editError}
            </span>
          )}
        </>
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
        <span data-role="kv-busy">
          <progress style={{ width: 80, verticalAlign: 'middle' }} /> {t('kv.computing')}
        </span>
      )}
    </div>
  );
}

/** The shown prompt's tokens, to pick the edited one (an edit source only). */
export function KvEditTokens({ source, prompt, onSource }: { source: Extract<Source, { kind: 'edit' }>; prompt: Prompt; onSource: (s: Source) => void }) {
  const t = useT();
  return (
    <div data-role="kv-edit-tokens" style={{ display: 'grid', gap: 'var(--sp-1)' }}>
      <h3 style={{ margin: 0 }}>{t('kv.editTokensTitle')}</h3>
      <p className="muted small" style={{ margin: 0 }}>
        {t('kv.editTokensNote', { position: source.position, text: visibleWhitespace(source.text) })}
      </p>
      <TokenView tokens={prompt.tokens} spans={prompt.spans} selected={source.position} onSelect={(i) => onSource({ ...source, position: i })} height={140} />
    </div>
  );
}

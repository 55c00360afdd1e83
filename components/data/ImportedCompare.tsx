'use client';
// The imported view's trust check: "Compare with the engine" (enabled when a model is loaded and the file has
// token ids, else a one-line reason), the progress line and Cancel while it runs, then one row per layer —
// heads compared, max and mean |Δ|, cells, verdict — with which engine model and which file. Numbers from
// lib/analysis/importCompare (state: useImportCompare); the verdict is recomputed from max |Δ| when the
// tolerance changes, without running again.
import type { ImportedAttention } from '../../lib/io/attention/types';
import { defaultTolerance, TOLERANCE, type LayerComparison } from '../../lib/analysis/importCompare';
import { useDescribe, useT, type T } from '../common/i18n';
import { cut, h3Style, headStyle, mono, noteStyle } from './importedParts';
import { useImportCompare, type Blocker, type CompareEngine, type ImportCompareState } from './useImportCompare';

export type CompareViewState = Pick<ImportCompareState, 'blocker' | 'run' | 'cancel' | 'running' | 'slow' | 'error' | 'outcome' | 'tolerance' | 'setTolerance'> & { failure?: ImportCompareState['failure'] };

/** Tolerances offered besides the one from the file's dtype. */
const CHOICES = [1e-5, TOLERANCE.float32, 1e-3, 1e-2, TOLERANCE.half];

const cell = { padding: '2px 8px', textAlign: 'right' as const, font: `var(--fs-xs) ${mono}` };
const sci = (v: number) => (v === 0 ? '0' : Number.isFinite(v) ? v.toExponential(2) : String(v));

function blockerText(t: T, b: Blocker): string {
  const p = b.params;
  switch (b.code) {
    case 'no-model':
      return t('imported.cmp.noModel');
    case 'reduced-graph':
      return t('imported.cmp.reducedGraph', p);
    case 'no-token-ids':
      return t('imported.cmp.noIds');
    case 'no-layers':
      return t('imported.cmp.noLayers');
    case 'unknown-layer':
      return t('imported.cmp.unknownLayer', p);
    case 'no-such-layer':
      return t('imported.cmp.noSuchLayer', p);
    case 'vocab':
      return t('imported.cmp.vocab', p);
    case 'too-long':
      return t('imported.cmp.tooLong', p);
    case 'ids-differ':
      return t('imported.cmp.idsDiffer', p);
    case 'heads-differ':
      return t('imported.cmp.headsDiffer', p);
    case 'bad-engine-tensor':
      return t('imported.cmp.badEngine', p);
    case 'no-overlap':
      return t('imported.cmp.noOverlap', p);
  }
}

function headsText(t: T, l: LayerComparison): string {
  if (l.heads !== 'mean') return t('imported.cmp.headsN', { heads: l.heads });
  return t(l.meanBecause === 'engine' ? 'imported.cmp.meanEngine' : l.meanBecause === 'both' ? 'imported.cmp.meanBoth' : 'imported.cmp.meanFile');
}

export function ImportedCompare({ attention, name, engine }: { attention: ImportedAttention; name: string; engine: CompareEngine | null }) {
  const s = useImportCompare(attention, name, engine);
  return <CompareView attention={attention} name={name} model={engine?.loaded.id ?? null} s={s} />;
}

/** The section itself, from the hook's state (separate so it renders from a given state too). */
export function CompareView({ attention, name, model, s }: { attention: ImportedAttention; name: string; model: string | null; s: CompareViewState }) {
  const t = useT();
  const describe = useDescribe();
  const auto = defaultTolerance(attention.meta);
  const tol = s.tolerance ?? auto.tolerance;
  const done = s.outcome?.kind === 'done' ? s.outcome : null;
  const refused = s.outcome?.kind === 'refused' ? s.outcome.blocker : null;
  const failed = done ? done.comparison.layers.filter((l) => l.maxAbs > tol).length : 0;
  const fileModel = done?.comparison.fileModel ?? null;
  const dtype = typeof attention.meta.dtype === 'string' ? attention.meta.dtype : '';
  const basisLine = s.tolerance !== null ? t('imported.cmp.basis.given') : t(`imported.cmp.basis.${auto.basis === 'given' ? 'unknown' : auto.basis}`, { dtype });
  return (
    <section data-role="imported-compare" style={{ display: 'grid', gap: 8, border: '1px solid var(--c-border)', borderRadius: 'var(--radius)', padding: 'var(--sp-2) var(--sp-3)' }}>
      <div>
        <h3 style={h3Style}>{t('imported.cmp.title')}</h3>
        <p style={{ ...noteStyle, marginTop: 0 }}>{t('imported.cmp.lead')}</p>
      </div>
      <div className="controls">
        <button data-role="compare-run" className="primary" disabled={s.blocker !== null || s.running} onClick={s.run}>
          {done || refused ? t('imported.cmp.again') : t('imported.cmp.button')}
        </button>
        {s.running && (
          <button data-role="compare-cancel" onClick={s.cancel}>
            {t('imported.cmp.cancel')}
          </button>
        )}
        <label>
          {t('imported.cmp.tolerance')}{' '}
          <select data-control="compare-tolerance" value={s.tolerance === null ? 'auto' : String(s.tolerance)} onChange={(e) => s.setTolerance(e.target.value === 'auto' ? null : Number(e.target.value))}>
            <option value="auto">{t('imported.cmp.toleranceAuto', { value: sci(auto.tolerance) })}</option>
            {CHOICES.map((v) => (
              <option key={v} value={String(v)}>
                {sci(v)}
              </option>
            ))}
          </select>
        </label>
        {s.blocker && (
          <span data-role="compare-reason" className="muted small">
            {blockerText(t, s.blocker)}
          </span>
        )}
      </div>
      <p className="muted small" style={{ margin: 0 }}>{basisLine}</p>
      {s.slow && (
        <div data-role="compare-progress" aria-live="polite">
          <progress style={{ width: 120, verticalAlign: 'middle' }} /> {t('imported.cmp.running', { tokens: attention.tokenIds?.length ?? 0, model: model ?? '' })}
        </div>
      )}
      {s.error && (
        <div role="alert" style={{ color: 'var(--c-error)' }}>
          {t('imported.cmp.failed', { message: describe(s.failure ?? s.error) })}

        </div>
      )}
      {refused && (
        <div role="alert" data-role="compare-refused" style={{ color: 'var(--c-error)' }}>
          {blockerText(t, refused)}
        </div>
      )}
      {done && (
        <div data-role="compare-result" data-pass={failed === 0} style={{ display: 'grid', gap: 6 }}>
          <div className="small" style={{ color: 'var(--c-muted)', overflowWrap: 'anywhere' }}>
            {t('imported.cmp.which', { model: done.model, provider: done.provider, name: cut(name, t), tokens: done.comparison.tokens, seconds: (done.ms / 1000).toFixed(1) })}
            {fileModel !== null && <> · {t('imported.cmp.fileModel', { model: cut(fileModel, t) })}</>}
          </div>
          {fileModel !== null && !sameModel(fileModel, done.model) && (
            <div data-role="compare-model-mismatch" className="small" style={{ color: 'var(--c-warn)' }}>
              {t('imported.cmp.modelMismatch', { fileModel: cut(fileModel, t), model: done.model })}
            </div>
          )}
          <strong data-role="compare-summary" style={{ color: failed === 0 ? 'var(--c-text)' : 'var(--c-error)' }}>
            {failed === 0
              ? t('imported.cmp.summaryPass', { layers: done.comparison.layers.length, tolerance: sci(tol), max: sci(done.comparison.maxAbs) })
              : t('imported.cmp.summaryFail', { failed, layers: done.comparison.layers.length, tolerance: sci(tol), max: sci(done.comparison.maxAbs) })}
          </strong>
          <div style={{ overflowX: 'auto', maxHeight: 420, overflowY: 'auto' }}>
            <table data-role="compare-table" style={{ borderCollapse: 'collapse' }}>
              <thead>
                <tr>
                  <th style={{ ...headStyle, textAlign: 'left' }}>{t('imported.cmp.colLayer')}</th>
                  <th style={{ ...headStyle, textAlign: 'left' }}>{t('imported.cmp.colHeads')}</th>
                  <th style={headStyle}>{t('imported.cmp.colMax')}</th>
                  <th style={headStyle}>{t('imported.cmp.colMean')}</th>
                  <th style={headStyle}>{t('imported.cmp.colCells')}</th>
                  <th style={{ ...headStyle, textAlign: 'left' }}>{t('imported.cmp.colVerdict')}</th>
                </tr>
              </thead>
              <tbody>
                {done.comparison.layers.map((l) => {
                  const pass = l.maxAbs <= tol;
                  const w = l.worst;
                  const worst = w ? t('imported.cmp.worst', { head: w.head === null ? '' : t('imported.cmp.worstHead', { head: w.head }), query: w.query, key: w.key, file: w.file.toPrecision(6), engine: w.engine.toPrecision(6) }) : undefined;
                  return (
                    <tr key={l.layer} data-layer={l.layer} data-pass={pass} style={{ borderTop: '1px solid var(--c-border)' }}>
                      <td style={{ ...cell, textAlign: 'left' }}>{l.layer}</td>
                      <td style={{ ...cell, textAlign: 'left', fontFamily: 'inherit' }}>{headsText(t, l)}</td>
                      <td style={cell} title={worst}>{sci(l.maxAbs)}</td>
                      <td style={cell}>{sci(l.meanAbs)}</td>
                      <td style={cell}>{l.cells.toLocaleString('en-US')}</td>
                      <td style={{ ...cell, textAlign: 'left', fontFamily: 'inherit', color: pass ? 'var(--c-text)' : 'var(--c-error)', fontWeight: pass ? 400 : 600 }}>
                        {pass ? '✓ ' + t('imported.cmp.pass') : '✗ ' + t('imported.cmp.fail')}
                      </td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </div>
        </div>
      )}
    </section>
  );
}

/** The file's model and the engine's are the same name, up to case and an org prefix one of them lacks. */
function sameModel(a: string, b: string): boolean {
  const base = (s: string) => s.toLowerCase().replace(/\/+$/, '').split('/').pop()!;
  return a.toLowerCase() === b.toLowerCase() || base(a) === base(b);
}

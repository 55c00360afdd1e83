'use client';
// The status-bar A/B (brief §5): two arms — built in, the Xfinity scenario without (A) and with (B) the
// <agent_status> message; or any two scenarios of the user's — rendered by the worker's chat template and
// prefilled separately (attention of every layer and head kept on the page). Shows how the arms align
// (shared prefix), the measured identity of the shared-prefix rows, the rows that can differ side by side
// with the decision row's difference, attention mass per region at the decision position (and, as an
// addition, over generated tokens), and what the model decides over several seeds. Every number comes from
// lib/analysis and lib/generate on the engine's tensors.
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { EngineClient } from '../../lib/engine/client';
import type { Tensor } from '../../lib/tensor';
import type { PromptResult } from '../../lib/engine/promptHook';
import { alignArms, regionMasses, regionMassesOverRows, sharedRowsDiff, type ArmAlignment, type Region, type RegionMasses, type SharedRowsDiff } from '../../lib/analysis/abCompare';
import { barRows, conversationTargets, regionsForRef, withUserRanges, type LayerChoice, type UserRange } from '../../lib/analysis/abArms';
import { lastRow } from '../../lib/generate/generate';
import { runSeeds, type SeedEngine, type SeedRun } from '../../lib/generate/abSeeds';
import { parseGenerationConfig, topTokensFromLogits, type SamplingSettings } from '../../lib/generate/sampling';
import { decodeTokens, specialTokenIds, tokenStrings } from '../../lib/generate/decodeTokens';
import { TOOLS_MESSAGE, type Prompt } from '../../lib/prompt/prompt';
import { displayToken, visibleWhitespace } from '../../lib/prompt/label';
import type { Vocab } from '../../lib/prompt/vocab';
import type { ChatRequest } from '../../lib/scenarios/types';
import { CATALOG } from '../../lib/scenarios/catalog';
import { parseScenarioRef, scenarioRequest } from '../../lib/scenarios';
import { customOf, type CustomScenario } from '../../lib/state/store';
import type { Analysed } from '../../lib/state/analysed';
import { AbHeatmaps, type AbArmView } from './AbHeatmaps';
import { ARM_COLORS, axisMax, RegionBars } from './RegionBars';
import { AbRegionPicker } from './AbRegionPicker';
import { DecisionOutcomes, type GenProgress, type GenResult, type GenSettings } from './DecisionOutcomes';
import { useLang, useT, type T } from '../common/i18n';
import { ScenarioOptions } from '../scenario/ScenarioOptions';

export interface AbLabProps {
  client: EngineClient;
  analysed: Analysed | null;
  /** The page's current scenario ref (built-in `id[:variant]` or `custom:<id>`). */
  scenario: string;
  custom: CustomScenario[];
  generationConfig: unknown | null;
  /** The tokenizer's vocabulary, to turn generated ids into text in the page (Lab.tsx passes it). */
  vocab?: Vocab | null;
}

/** The built-in pair: Xfinity without (A) and with (B) the status bar. */
export const BUILTIN_ARMS = ['xfinity:without-status', 'xfinity:with-status'] as const;

interface Arm {
  name: 'A' | 'B';
  ref: string;
  request: ChatRequest;
  prompt: Prompt;
  labels: string[];
  attention: Tensor[];
  lastLogits: Float32Array;
  ms: number;
}

interface Prepared {
  key: string;
  a: Arm;
  b: Arm;
  alignment: ArmAlignment;
  shared: SharedRowsDiff;
  base: { A: Region[]; B: Region[] };
}

type Stage = 'render' | 'prefillA' | 'prefillB' | 'compare';

function refTitle(ref: string, custom: CustomScenario[], lang: 'en' | 'zh'): string {
  if (ref.startsWith('custom:')) return customOf({ custom }, ref)?.name ?? ref;
  return CATALOG.find((e) => e.ref === ref)?.title[lang] ?? ref;
}

function requestOf(ref: string, custom: CustomScenario[]): ChatRequest | null {
  if (ref.startsWith('custom:')) return customOf({ custom }, ref)?.lastGood ?? null;
  try {
    const { id, variant } = parseScenarioRef(ref);
    return scenarioRequest(id, variant);
  } catch {
    return null;
  }
}

/** Where token `i` sits, in words: the tools block, the generation prompt, or message n. */
function partName(t: T, p: Prompt, i: number): string {
  const s = p.spans.find((x) => x.start <= i && i < x.end);
  if (!s) return '—';
  if (s.message === TOOLS_MESSAGE) return t('ab.part.tools');
  if (s.message === p.messageCount) return t('ab.part.generation');
  return t('ab.part.message', { n: s.message, role: t(`role.${s.role}`) });
}

const box = { border: '1px solid #ddd', borderRadius: 6, padding: '10px 14px', display: 'grid', gap: 8 } as const;
const h3 = { fontSize: 16, margin: 0 } as const;
const intro = { margin: 0, color: '#444', fontSize: 14, maxWidth: 1150 } as const;

export function AbLab({ client, analysed: _analysed, scenario, custom, generationConfig, vocab }: AbLabProps) {
  const t = useT();
  const lang = useLang();

  // ---- which two arms ----
  const [mode, setMode] = useState<'builtin' | 'own'>('builtin');
  const [own, setOwn] = useState<{ a: string; b: string }>(() => {
    const a = scenario;
    const b = CATALOG.find((e) => e.ref !== a)?.ref ?? BUILTIN_ARMS[1];
    return { a, b };
  });
  const refs: [string, string] = mode === 'builtin' ? [BUILTIN_ARMS[0], BUILTIN_ARMS[1]] : [own.a, own.b];
  const reqA = useMemo(() => requestOf(refs[0], custom), [refs[0], custom]); // eslint-disable-line react-hooks/exhaustive-deps
  const reqB = useMemo(() => requestOf(refs[1], custom), [refs[1], custom]); // eslint-disable-line react-hooks/exhaustive-deps
  const pairError = refs[0] === refs[1] ? t('ab.arms.same') : !reqA || !reqB ? t('ab.arms.noValid', { name: refTitle(!reqA ? refs[0] : refs[1], custom, lang) }) : null;
  const armTitles = mode === 'builtin' ? { A: t('ab.arms.builtinA'), B: t('ab.arms.builtinB') } : { A: refTitle(refs[0], custom, lang), B: refTitle(refs[1], custom, lang) };
  const titlesAB = useMemo(() => ({ a: armTitles.A, b: armTitles.B }), [armTitles.A, armTitles.B]);

  // ---- render and prefill both arms ----
  const [prepared, setPrepared] = useState<Prepared | null>(null);
  const [stage, setStage] = useState<Stage | null>(null);
  const [error, setError] = useState<string | null>(null);
  const abortGen = useRef<AbortController | null>(null);
  const runKey = `${refs[0]}|${refs[1]}|${JSON.stringify(reqA)}|${JSON.stringify(reqB)}`;

  useEffect(() => {
    if (pairError || !reqA || !reqB) {
      setPrepared(null);
      return;
    }
    let stale = false;
    abortGen.current?.abort();
    setError(null);
    setStage('render');
    (async () => {
      const render = async (req: ChatRequest) => {
        const r = (await client.prompt(req, { addGenerationPrompt: true })) as PromptResult;
        if (!r.ok) throw new Error(r.errors.map((e) => `${e.path}: ${e.message}`).join('; '));
        return r.prompt;
      };
      const pa = await render(reqA);
      const pb = await render(reqB);
      if (stale) return;
      // Each arm from an empty cache (other tabs share the worker's cache; nothing is assumed about it).
      const prefill = async (p: Prompt) => {
        const t0 = performance.now();
        const r = await client.prefill(p.ids);
        if (!r.attention.length) throw new Error(t('ab.err.noAttention'));
        if (!r.logits) throw new Error(t('ab.err.noLogits'));
        return { attention: r.attention, lastLogits: lastRow(r.logits).slice(), ms: performance.now() - t0 };
      };
      setStage('prefillA');
      const ra = await prefill(pa);
      if (stale) return;
      setStage('prefillB');
      const rb = await prefill(pb);
      if (stale) return;
      setStage('compare');
      await new Promise((r) => setTimeout(r, 0)); // let the stage show
      const alignment = alignArms(pa, pb);
      const shared = sharedRowsDiff(ra.attention, rb.attention, alignment.sharedPrefix);
      const arm = (name: 'A' | 'B', ref: string, request: ChatRequest, prompt: Prompt, r: typeof ra): Arm => ({
        name,
        ref,
        request,
        prompt,
        labels: prompt.tokens.map(displayToken),
        attention: r.attention,
        lastLogits: r.lastLogits,
        ms: r.ms,
      });
      if (stale) return;
      setPrepared({
        key: runKey,
        a: arm('A', refs[0], reqA, pa, ra),
        b: arm('B', refs[1], reqB, pb, rb),
        alignment,
        shared,
        base: { A: regionsForRef(refs[0], pa), B: regionsForRef(refs[1], pb) },
      });
      setStage(null);
    })().catch((e: Error) => {
      if (stale) return;
      setStage(null);
      setError(e.message);
    });
    return () => {
      stale = true;
    };
  }, [runKey, client]); // eslint-disable-line react-hooks/exhaustive-deps

  // ---- regions: the arm's own, the user's ranges first ----
  const [userRanges, setUserRanges] = useState<UserRange[]>([]);
  const nextRange = useRef(1);
  useEffect(() => setUserRanges([]), [prepared?.key]);
  const regions = useMemo(() => {
    if (!prepared) return null;
    const P = prepared.alignment.sharedPrefix;
    return {
      A: withUserRanges('A', prepared.base.A, userRanges, P, prepared.a.prompt),
      B: withUserRanges('B', prepared.base.B, userRanges, P, prepared.b.prompt),
    };
  }, [prepared, userRanges]);
  const decisionMasses = useMemo(() => {
    if (!prepared || !regions) return null;
    const m = (arm: Arm, rs: Region[]) => regionMasses(arm.attention, arm.prompt, rs, arm.prompt.ids.length - 1);
    return { a: m(prepared.a, regions.A), b: m(prepared.b, regions.B) };
  }, [prepared, regions]);

  // ---- generation ----
  const [settings, setSettings] = useState<GenSettings>({ seeds: 5, firstSeed: 1, maxNewTokens: 48 });
  const [gen, setGen] = useState<GenResult | null>(null);
  const [progress, setProgress] = useState<GenProgress | null>(null);
  const [running, setRunning] = useState(false);
  const [genError, setGenError] = useState<string | null>(null);
  const sampling = useMemo((): { ok: true; settings: SamplingSettings; fromFile: boolean } | { ok: false; error: string } => {
    try {
      return { ok: true, settings: parseGenerationConfig(generationConfig ?? undefined), fromFile: generationConfig !== null && generationConfig !== undefined };
    } catch (e) {
      return { ok: false, error: (e as Error).message };
    }
  }, [generationConfig]);
  const strings = useMemo(() => (vocab ? { strings: tokenStrings(vocab), special: specialTokenIds(vocab) } : null), [vocab]);
  useEffect(() => {
    abortGen.current?.abort();
    setGen(null);
    setProgress(null);
    setRunning(false);
    setGenError(null);
  }, [prepared?.key]);
  useEffect(() => () => abortGen.current?.abort(), []);

  const generateAll = useCallback(async () => {
    if (!prepared || !sampling.ok || !strings) return;
    const ctrl = new AbortController();
    abortGen.current?.abort();
    abortGen.current = ctrl;
    const seeds = Array.from({ length: settings.seeds }, (_, i) => settings.firstSeed + i);
    const base: GenResult = { seeds, maxNewTokens: settings.maxNewTokens, sampling: sampling.settings, runs: { A: [], B: [] }, aborted: false, finished: false };
    setGen(base);
    setRunning(true);
    setGenError(null);
    const engine: SeedEngine = {
      // The prompt's attention is already on the page: it stays in the worker ('keep'); only logits come back.
      prefill: (ids) => client.prefill(ids, { attention: 'keep' }),
      extend: (ids) => client.extend(ids),
      fork: (n) => client.fork(n),
      get ids() {
        return client.ids;
      },
    };
    const decode = (ids: number[]) => decodeTokens(strings.strings, ids, strings.special).text;
    let aborted = false;
    try {
      for (const arm of [prepared.a, prepared.b]) {
        if (ctrl.signal.aborted) {
          aborted = true;
          break;
        }
        const r = await runSeeds(engine, arm.prompt.ids, seeds, {
          maxNewTokens: settings.maxNewTokens,
          sampling: sampling.settings,
          decode,
          signal: ctrl.signal,
          onToken: (seed, _s, index) =>
            setProgress((p) => ({ arm: arm.name, seed, index, seeds: seeds.length, tokens: p && p.arm === arm.name && p.seed === seed ? p.tokens + 1 : 1, maxNewTokens: settings.maxNewTokens })),
          onSeed: (run) => setGen((g) => (g && abortGen.current === ctrl ? { ...g, runs: { ...g.runs, [arm.name]: [...g.runs[arm.name], run] } } : g)),
        });
        if (r.aborted) {
          aborted = true;
          break;
        }
      }
    } catch (e) {
      if (abortGen.current === ctrl) setGenError((e as Error).message);
    }
    if (abortGen.current !== ctrl) return; // superseded (new arms, unmount)
    setGen((g) => g && { ...g, aborted, finished: !aborted });
    setRunning(false);
    setProgress(null);
  }, [prepared, sampling, strings, settings, client]);

  const generatedMasses = useMemo(() => {
    if (!prepared || !regions || !gen) return null;
    const m = (arm: Arm, runs: SeedRun[], rs: Region[]): RegionMasses | null => {
      const rows = runs.flatMap((r) => r.rows);
      return rows.length ? regionMassesOverRows(rows, arm.prompt, rs) : null;
    };
    const a = m(prepared.a, gen.runs.A, regions.A);
    const b = m(prepared.b, gen.runs.B, regions.B);
    return a || b ? { a, b } : null;
  }, [prepared, regions, gen]);

  // ---- bars ----
  const [layer, setLayer] = useState<LayerChoice>('mean');
  const layers = prepared?.a.attention.length ?? 0;
  const lc: LayerChoice = layer === 'mean' || layer < layers ? layer : 'mean';
  const decisionRows = useMemo(() => (decisionMasses ? barRows(decisionMasses.a, decisionMasses.b) : []), [decisionMasses]);
  const generatedRows = useMemo(() => (generatedMasses ? barRows(generatedMasses.a, generatedMasses.b) : []), [generatedMasses]);
  const barMax = axisMax([decisionRows, generatedRows], lc);

  const views = useMemo((): { a: AbArmView; b: AbArmView } | null => {
    if (!prepared) return null;
    const v = (arm: Arm): AbArmView => ({ name: arm.name, title: armTitles[arm.name], prompt: arm.prompt, labels: arm.labels, attention: arm.attention });
    return { a: v(prepared.a), b: v(prepared.b) };
  }, [prepared, armTitles.A, armTitles.B]); // eslint-disable-line react-hooks/exhaustive-deps

  // The model's own next-token probabilities at each decision position (plain softmax, top 5).
  const nextTokens = useMemo(() => {
    if (!prepared) return null;
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

  const catalogOptions = <ScenarioOptions custom={custom} validOnly />;

  const P = prepared?.alignment.sharedPrefix ?? 0;
  const dec = prepared?.alignment.decision;

  return (
    <div style={{ display: 'grid', gap: 16 }} data-role="ab-lab" data-ready={prepared && !stage ? 'true' : 'false'}>
      <section style={{ display: 'grid', gap: 8 }} aria-label={t('ab.title')}>
        <h2 style={{ fontSize: 17, margin: 0 }}>{t('ab.title')}</h2>
        <p style={intro}>{t('ab.intro')}</p>
        <div style={{ display: 'flex', gap: 16, flexWrap: 'wrap', alignItems: 'center', fontSize: 14 }} data-role="ab-arms">
          <label>
            <input type="radio" name="ab-mode" data-control="ab-mode-builtin" checked={mode === 'builtin'} onChange={() => setMode('builtin')} /> {t('ab.arms.builtin')}
          </label>
          <label>
            <input type="radio" name="ab-mode" data-control="ab-mode-own" checked={mode === 'own'} onChange={() => setMode('own')} /> {t('ab.arms.own')}
          </label>
          {mode === 'own' && (
            <>
              <label>
                A ={' '}
                <select data-control="ab-arm-a" value={own.a} onChange={(e) => setOwn((o) => ({ ...o, a: e.target.value }))}>
                  {catalogOptions}
                </select>
              </label>
              <label>
                B ={' '}
                <select data-control="ab-arm-b" value={own.b} onChange={(e) => setOwn((o) => ({ ...o, b: e.target.value }))}>
                  {catalogOptions}
                </select>
              </label>
            </>
          )}
        </div>
        <div style={{ fontSize: 14 }}>
          {(['A', 'B'] as const).map((n) => (
            <div key={n}>
              <span style={{ display: 'inline-block', width: 12, height: 12, background: ARM_COLORS[n], marginRight: 6, verticalAlign: 'middle' }} />
              <b>{n}</b>: {armTitles[n]}
              {prepared && ` — ${t('ab.tokens', { n: (n === 'A' ? prepared.a : prepared.b).prompt.ids.length })}, ${t('ab.arms.prefillMs', { ms: Math.round((n === 'A' ? prepared.a : prepared.b).ms) })}`}
            </div>
          ))}
        </div>
        {pairError && <div role="alert" style={{ color: '#a15c00' }}>{pairError}</div>}
        {error && (
          <div role="alert" style={{ color: '#a00', background: '#fde2e1', padding: '6px 10px', borderRadius: 4 }}>
            {t('error.prefix', { message: error })}
          </div>
        )}
        {stage && (
          <div aria-live="polite" data-role="ab-progress">
            <progress value={['render', 'prefillA', 'prefillB', 'compare'].indexOf(stage) + 0.5} max={4} style={{ width: 200, verticalAlign: 'middle' }} /> {t(`ab.stage.${stage}`)}
          </div>
        )}
      </section>

      {prepared && views && regions && decisionMasses && dec && (
        <>
          <section style={box} aria-label={t('ab.align.title')} data-role="ab-alignment" data-shared-prefix={P}>
            <h3 style={h3}>{t('ab.align.title')}</h3>
            <p style={intro}>
              {prepared.alignment.firstDifference !== null
                ? t('ab.align.summary', {
                    ta: prepared.alignment.tokens.a,
                    tb: prepared.alignment.tokens.b,
                    p: P,
                    last: P - 1,
                    first: prepared.alignment.firstDifference,
                    fa: prepared.a.labels[P] ?? '',
                    fb: prepared.b.labels[P] ?? '',
                  })
                : t('ab.align.prefixOnly', { ta: prepared.alignment.tokens.a, tb: prepared.alignment.tokens.b, p: P })}
            </p>
            {P > 0 && partName(t, prepared.a.prompt, P - 1) !== partName(t, prepared.b.prompt, P - 1) && (
              <p style={{ ...intro, background: '#fff8e0', padding: '6px 10px', borderRadius: 4 }} data-role="ab-imstart-note">
                {t('ab.align.imStart', { i: P - 1, token: prepared.a.labels[P - 1] ?? '', pa: partName(t, prepared.a.prompt, P - 1), pb: partName(t, prepared.b.prompt, P - 1) })}
              </p>
            )}
            <details>
              <summary style={{ cursor: 'pointer', fontSize: 14 }}>{t('ab.align.parts', { n: prepared.alignment.parts.length })}</summary>
              <table style={{ borderCollapse: 'collapse', fontSize: 13, marginTop: 4 }} data-role="ab-parts">
                <thead>
                  <tr style={{ textAlign: 'left', borderBottom: '1px solid #ccc' }}>
                    <th style={{ padding: '2px 10px 2px 0' }}>{t('ab.align.part')}</th>
                    <th style={{ padding: '2px 10px' }}>{t('ab.align.status')}</th>
                    <th style={{ padding: '2px 10px' }}>{t('ab.align.tokensA')}</th>
                    <th style={{ padding: '2px 10px' }}>{t('ab.align.tokensB')}</th>
                  </tr>
                </thead>
                <tbody>
                  {prepared.alignment.parts.map((p, i) => (
                    <tr key={i} data-status={p.status}>
                      <td style={{ padding: '2px 10px 2px 0' }}>
                        {p.part === 'tools' ? t('ab.part.tools') : p.part === 'generation' ? t('ab.part.generation') : t('ab.part.message', { n: p.message.a ?? p.message.b ?? 0, role: t(`role.${p.role}`) })}
                      </td>
                      <td style={{ padding: '2px 10px' }} title={t(`ab.status.${p.status}Title`)}>{t(`ab.status.${p.status}`)}</td>
                      <td style={{ padding: '2px 10px' }}>{p.a ? `${p.a.start}–${p.a.end - 1}` : '—'}</td>
                      <td style={{ padding: '2px 10px' }}>{p.b ? `${p.b.start}–${p.b.end - 1}` : '—'}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </details>
          </section>

          <section style={box} aria-label={t('ab.shared.title')} data-role="ab-shared" data-max={prepared.shared.max} data-bit-identical={String(prepared.shared.bitIdentical)}>
            <h3 style={h3}>{t('ab.shared.title')}</h3>
            <p style={intro}>{t('ab.shared.intro', { p: P, last: P - 1 })}</p>
            <div style={{ fontSize: 15 }} data-role="ab-shared-verdict">
              {prepared.shared.bitIdentical
                ? t('ab.shared.identical', { rows: prepared.shared.rows, values: prepared.shared.perLayer.reduce((s, l) => s + l.compared, 0).toLocaleString('en-US') })
                : t('ab.shared.differs', { rows: prepared.shared.rows, max: prepared.shared.max.toExponential(2) })}
            </div>
            {!prepared.shared.bitIdentical && (
              <p style={{ ...intro, color: prepared.shared.max < 1e-5 ? '#444' : '#a00' }}>
                {prepared.shared.max < 1e-5 ? t('ab.shared.rounding', { ta: prepared.alignment.tokens.a, tb: prepared.alignment.tokens.b }) : t('ab.shared.tooLarge')}
              </p>
            )}
            <table style={{ borderCollapse: 'collapse', fontSize: 13 }} data-role="ab-shared-table">
              <thead>
                <tr style={{ textAlign: 'left', borderBottom: '1px solid #ccc' }}>
                  <th style={{ padding: '2px 12px 2px 0' }}>{t('control.layer')}</th>
                  <th style={{ padding: '2px 12px' }}>{t('ab.shared.maxAbs')}</th>
                  <th style={{ padding: '2px 12px' }}>{t('ab.shared.bits')}</th>
                  <th style={{ padding: '2px 12px' }}>{t('ab.shared.where')}</th>
                  <th style={{ padding: '2px 12px' }}>{t('ab.shared.compared')}</th>
                </tr>
              </thead>
              <tbody>
                {prepared.shared.perLayer.map((l) => (
                  <tr key={l.layer} data-layer={l.layer} data-max={l.maxAbs} data-bit-identical={String(l.bitIdentical)}>
                    <td style={{ padding: '2px 12px 2px 0' }}>{l.layer}</td>
                    <td style={{ padding: '2px 12px', fontFamily: 'ui-monospace, monospace' }}>{l.maxAbs === 0 ? '0' : l.maxAbs.toExponential(2)}</td>
                    <td style={{ padding: '2px 12px' }}>{l.bitIdentical ? t('ab.shared.yes') : t('ab.shared.no')}</td>
                    <td style={{ padding: '2px 12px' }}>{l.at ? t('ab.shared.at', { head: l.at.head, q: l.at.query, k: l.at.key }) : '—'}</td>
                    <td style={{ padding: '2px 12px' }}>{l.compared.toLocaleString('en-US')}</td>
                  </tr>
                ))}
                <tr style={{ borderTop: '1px solid #ccc', fontWeight: 600 }}>
                  <td style={{ padding: '2px 12px 2px 0' }}>{t('ab.shared.overall')}</td>
                  <td style={{ padding: '2px 12px', fontFamily: 'ui-monospace, monospace' }}>{prepared.shared.max === 0 ? '0' : prepared.shared.max.toExponential(2)}</td>
                  <td style={{ padding: '2px 12px' }}>{prepared.shared.bitIdentical ? t('ab.shared.yes') : t('ab.shared.no')}</td>
                  <td />
                  <td />
                </tr>
              </tbody>
            </table>
          </section>

          <section style={box} aria-label={t('ab.heat.title')}>
            <h3 style={h3}>{t('ab.heat.title')}</h3>
            <AbHeatmaps a={views.a} b={views.b} alignment={prepared.alignment} />
          </section>

          <section style={box} aria-label={t('ab.dec.title')} data-role="ab-decision" data-comparable={String(dec.comparable)}>
            <h3 style={h3}>{t('ab.dec.title')}</h3>
            <p style={intro}>{t('ab.dec.intro')}</p>
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
                  {t('ab.dec.next', { arm })} {nextTokens?.[arm]}
                </div>
              ))}
            </div>
            <div style={{ display: 'flex', gap: 12, alignItems: 'center', fontSize: 14, flexWrap: 'wrap' }}>
              <label>
                {t('ab.bars.show')}{' '}
                <select data-control="ab-bars-layer" value={String(lc)} onChange={(e) => setLayer(e.target.value === 'mean' ? 'mean' : Number(e.target.value))}>
                  <option value="mean">{t('ab.bars.meanLayers')}</option>
                  {Array.from({ length: layers }, (_, i) => (
                    <option key={i} value={i}>{t('ab.bars.layer', { layer: i })}</option>
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
                masses={decisionMasses}
                armTitles={titlesAB}
              />
              <div style={{ borderLeft: '3px dotted #bbb', paddingLeft: 18 }}>
                {generatedMasses ? (
                  <RegionBars
                    role="ab-bars-generated"
                    title={t('ab.bars.genTitle')}
                    subtitle={t('ab.bars.genSub', { na: generatedMasses.a?.positions.length ?? 0, nb: generatedMasses.b?.positions.length ?? 0 })}
                    rows={generatedRows}
                    layer={lc}
                    max={barMax}
                    masses={generatedMasses}
                    armTitles={titlesAB}
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
              sharedPrefix={P}
              ranges={userRanges}
              onAdd={(r) => setUserRanges((rs) => [...rs, { ...r, id: `user-${nextRange.current++}` }])}
              onRemove={(id) => setUserRanges((rs) => rs.filter((r) => r.id !== id))}
            />
          </section>

          <section style={box} aria-label={t('ab.gen.title')}>
            <h3 style={h3}>{t('ab.gen.title')}</h3>
            <p style={intro}>{t('ab.gen.intro')}</p>
            {![prepared.a.request, prepared.b.request].some((r) => r.tools?.some((x) => x.function.name === 'phone_call')) && (
              <div style={{ color: '#a15c00', fontSize: 13 }} data-role="ab-no-phone-tool">{t('ab.gen.noPhoneTool')}</div>
            )}
            <DecisionOutcomes
              settings={settings}
              onSettings={setSettings}
              sampling={sampling}
              canRun={!!strings && sampling.ok && !stage}
              whyNot={!strings ? t('ab.gen.noVocab') : null}
              running={running}
              progress={progress}
              onRun={() => void generateAll()}
              onStop={() => abortGen.current?.abort()}
              result={gen}
              armTitles={armTitles}
              targets={{ A: conversationTargets(prepared.a.request), B: conversationTargets(prepared.b.request) }}
            />
            {genError && (
              <div role="alert" style={{ color: '#a00', background: '#fde2e1', padding: '6px 10px', borderRadius: 4 }}>
                {t('error.prefix', { message: genError })}
              </div>
            )}
          </section>
        </>
      )}
    </div>
  );
}

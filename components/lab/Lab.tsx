'use client';
// The lab page: owns the persisted store and wires data one way — scenario request → chat template (in the
// worker) → forward pass → tensors → lib/analysis → views. The engine, the run and the boot live in hooks
// beside this file; the tabs receive what they need and derive nothing the page already has.
import { useEffect, useMemo, useState } from 'react';
import { useStore } from 'zustand';
import { parseScenarioRef, scenarioRequest } from '../../lib/scenarios';
import type { ChatRequest } from '../../lib/scenarios/types';
import { createKvscopeStore, customOf, type KvscopeStore } from '../../lib/state/store';
import { LangProvider, useT } from '../common/i18n';
import { AttentionTab } from '../attention/AttentionTab';
import { headLabel, useAttentionView } from '../attention/useAttentionView';
import { ScenarioPicker } from '../scenario/ScenarioPicker';
import { CustomEditor } from '../scenario/CustomEditor';
import { KvLab } from '../kv/KvLab';
import { StepLab } from '../step/StepLab';
import { AbLab } from '../ab/AbLab';
import { DataLab, ImportNoteView } from '../data/DataLab';
import { useImports } from '../hooks/useImports';
import { ModelPicker, useModelCards } from './ModelPicker';
import { Alert, DropOverlay, LoadProgress, RunStatus, WorkerNotice } from './Notices';
import { ShareBar } from './ShareBar';
import { Header, TabBar } from './TabBar';
import { useAttentionRun } from './useAttentionRun';
import { useShareBoot, useUrlImport, type Boot } from './useBoot';
import { useEngine } from './useEngine';

// Kept for callers that still import the type from here; new code imports lib/state/analysed.

function browserStorage() {
  // Private modes may refuse localStorage: the store then reports persistError and keeps working in memory.
  try {
    return window.localStorage;
  } catch {
    const m = new Map<string, string>();
    return { getItem: (k: string) => m.get(k) ?? null, setItem: (k: string, v: string) => void m.set(k, v), removeItem: (k: string) => void m.delete(k) };
  }
}

export function Lab() {
  const [store] = useState<KvscopeStore>(() =>
    createKvscopeStore({
      storage: typeof window === 'undefined' ? { getItem: () => null, setItem: () => {}, removeItem: () => {} } : browserStorage(),
    }),
  );
  const boot = useShareBoot(store);
  const lang = useStore(store, (s) => s.lang);
  useEffect(() => {
    document.documentElement.lang = lang === 'zh' ? 'zh-CN' : 'en';
  }, [lang]);
  return (
    <LangProvider lang={lang}>
      <LabBody store={store} boot={boot} />
    </LangProvider>
  );
}

function LabBody({ store, boot }: { store: KvscopeStore; boot: Boot }) {
  const t = useT();
  const s = useStore(store);
  const imports = useImports(store);
  useUrlImport(boot.booted, imports.importUrl);
  const models = useModelCards();
  const engine = useEngine(boot.booted ? s.model : null);
  const { client, phase } = engine;
  const [dragging, setDragging] = useState(false);

  const custom = customOf(s, s.scenario);
  // The request the views show: a built-in scenario's, or the custom scenario's last valid version.
  const request: ChatRequest | null = useMemo(() => {
    if (custom) return custom.lastGood;
    const { id, variant } = parseScenarioRef(s.scenario);
    return scenarioRequest(id, variant);
  }, [custom?.lastGood, s.scenario]); // eslint-disable-line react-hooks/exhaustive-deps

  const { data, stage, error: runError } = useAttentionRun(engine, s.model, request);
  const shown = useAttentionView(data, s.view);
  const selected = data && s.selectedToken !== null && s.selectedToken < data.tokens ? s.selectedToken : null;
  // The other tabs need a loaded model (they run their own requests on the worker).
  const engineTab = client && phase.kind === 'ready' ? client : null;

  return (
    <main
      style={{ padding: '12px 20px 40px', display: 'grid', gap: 14, maxWidth: 1400, position: 'relative' }}
      // Files dropped anywhere on the page are imported (request bodies, run logs, attention files).
      onDragOver={(e) => {
        if (!e.dataTransfer.types.includes('Files')) return;
        e.preventDefault();
        setDragging(true);
      }}
      onDragLeave={(e) => e.currentTarget === e.target && setDragging(false)}
      onDrop={(e) => {
        if (!e.dataTransfer.files.length) return;
        e.preventDefault();
        setDragging(false);
        void imports.importFiles(e.dataTransfer.files);
      }}
    >
      {dragging && <DropOverlay />}
      <Header lang={s.lang} onLang={s.setLang} />

      <ModelPicker models={models} value={s.model} onChange={s.setModel} disabled={phase.kind === 'loading'} provider={phase.kind === 'ready' ? phase.info : null} />
      {phase.kind === 'loading' && <LoadProgress model={s.model} stage={phase.stage} fraction={phase.fraction} />}
      {phase.kind === 'failed' && <Alert>{t('error.prefix', { message: phase.message })}</Alert>}
      {engine.workerNote && <WorkerNotice note={engine.workerNote} onRestart={engine.restart} />}
      {s.persistError && <div role="status" style={{ color: '#a15c00' }}>{t('error.persist', { message: s.persistError })}</div>}

      <ScenarioPicker
        value={s.scenario}
        custom={s.custom}
        onChange={s.setScenario}
        onCopy={(name) => {
          const req = request ?? { messages: [] };
          s.createCustom(name, JSON.stringify(req, null, 2), request);
        }}
        onNew={(name) => s.createCustom(name, JSON.stringify({ messages: [{ role: 'user', content: '' }] }, null, 2), null)}
        onRename={s.renameCustom}
        onDelete={s.deleteCustom}
      />

      <ShareBar store={store} note={boot.shareNote} onNote={boot.setShareNote} />

      {imports.note && <ImportNoteView note={imports.note} onDismiss={() => imports.setNote(null)} onOpenAnyway={imports.openAnyway} />}

      {custom && <CustomEditor key={custom.id} custom={custom} onText={s.editCustomText} onAccept={s.acceptCustom} />}

      {runError && <Alert>{t('error.prefix', { message: runError })}</Alert>}
      <RunStatus ready={Boolean(data && shown.matrix && !stage)} tokens={data?.tokens ?? null} layer={shown.layer} stage={stage} head={headLabel(t, shown.head)} />

      <TabBar value={s.tab} onChange={s.setTab} />
      {s.tab === 'attention' && (
        <AttentionTab data={data} shown={shown} view={s.view} onView={s.setView} selected={selected} onSelect={s.setSelectedToken} model={s.model} scenario={s.scenario} />
      )}
      {s.tab === 'step' && engineTab && <StepLab client={engineTab} analysed={data} vocab={engine.loaded?.vocab ?? null} generationConfig={engine.loaded?.generationConfig ?? null} />}
      {s.tab === 'ab' && engineTab && (
        <AbLab client={engineTab} analysed={data} scenario={s.scenario} custom={s.custom} generationConfig={engine.loaded?.generationConfig ?? null} vocab={engine.loaded?.vocab ?? null} />
      )}
      {s.tab === 'data' && <DataLab imports={imports} />}
      {s.tab === 'kv' && engineTab && <KvLab client={engineTab} analysed={data} vocab={engine.loaded?.vocab ?? null} layers={data?.attention.length ?? 0} custom={s.custom} />}
    </main>
  );
}

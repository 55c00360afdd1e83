'use client';
// The lab page: owns the persisted store and wires data one way — scenario request → chat template (in the
// worker) → forward pass → tensors → lib/analysis → views. The engine, the run and the boot live in hooks
// beside this file; the tabs receive what they need and derive nothing the page already has.
import { useEffect, useMemo, useState } from 'react';
import { useStore } from 'zustand';
import { parseScenarioRef, scenarioRequest } from '../../lib/scenarios';
import type { ChatRequest } from '../../lib/scenarios/types';
import { createKvscopeStore, customOf, type CustomScenario, type KvscopeStore } from '../../lib/state/store';
import { CATALOG } from '../../lib/scenarios/catalog';
import { LangProvider, useDescribe, useLang, useT } from '../common/i18n';
import { contextLabel } from '../common/contextLabel';
import { AttentionTab } from '../attention/AttentionTab';
import { useAttentionView } from '../attention/useAttentionView';
import { useWarmSinkSummary } from '../attention/useWarmSinkSummary';
import { ScenarioPicker } from '../scenario/ScenarioPicker';
import { CustomEditor } from '../scenario/CustomEditor';
import { KvLab } from '../kv/KvLab';
import { StepLab } from '../step/StepLab';
import { AbLab } from '../ab/AbLab';
import { DataLab, ImportNoteView } from '../data/DataLab';
import { useImports } from '../hooks/useImports';
import { ModelDescription, ModelPicker, ProviderSwitch, RuntimeNote, useModelCards } from './ModelPicker';
import { Alert, DropOverlay, RunStatus, WorkerNotice } from './Notices';
import { SecondModelTab } from './SecondModelTab';
import { ShareButton, ShareNoteView } from './ShareBar';
import { Header, TAB_ORDER, TabBar } from './TabBar';
import { usePresentation } from './usePresentation';
import { useAttentionRun } from './useAttentionRun';
import { useShareBoot, useUrlImport, type Boot } from './useBoot';
import { LinkConfirm } from './LinkConfirm';
import { useEngine } from './useEngine';
import { StorageNotice } from './StorageNotice';
import { browserStoreOptions } from '../hooks/kvscopeDb';
import { WorkspacePanel } from '../data/WorkspacePanel';
import { formatModelChoice, hubChoice, modelDisplayName } from '../../lib/state/modelChoice';
import { OpenModelDialog } from '../models/OpenModelDialog';
import { ModelLoadProgress } from '../models/ModelLoadProgress';
import { registerFolder } from '../models/folderRegistry';
import { useModelLink } from '../models/useModelLink';

export function Lab() {
  // IndexedDB (moving older versions' localStorage state in once); see components/hooks/kvscopeDb.ts.
  const [store] = useState<KvscopeStore>(() => createKvscopeStore(browserStoreOptions()));
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
  const describe = useDescribe();
  const s = useStore(store);
  const imports = useImports(store);
  const linkPrompt = useUrlImport(boot.booted, imports);
  const models = useModelCards();
  const engine = useEngine(boot.booted ? s.model : null, { provider: s.provider, hubEndpoint: s.hubEndpoint });
  const { client, phase } = engine;
  // "Open a model…": null when closed; a ?model= link opens it with the repo filled in and checked.
  const [dialog, setDialog] = useState<{ repo?: string; autoCheck?: boolean } | null>(null);
  useModelLink(boot.booted, (repo) => setDialog({ repo, autoCheck: true }));
  const [dragging, setDragging] = useState(false);
  const { present, setPresent } = usePresentation(TAB_ORDER, s.tab, s.setTab);

  const custom = customOf(s, s.scenario);
  // The request the views show: a built-in scenario's, or the custom scenario's last valid version.
  const request: ChatRequest | null = useMemo(() => {
    if (custom) return custom.lastGood;
    const { id, variant } = parseScenarioRef(s.scenario);
    return scenarioRequest(id, variant);
  }, [custom?.lastGood, s.scenario]); // eslint-disable-line react-hooks/exhaustive-deps

  const { data, stage, error: runError, perHead } = useAttentionRun(engine, s.model, request, s.context, s.view.layer);
  const shown = useAttentionView(data, s.view);
  useWarmSinkSummary(data);
  const selected = data && s.selectedToken !== null && s.selectedToken < data.tokens ? s.selectedToken : null;
  // The other tabs need a loaded model (they run their own requests on the worker).
  const engineTab = client && phase.kind === 'ready' ? client : null;
  const scenarioName = useScenarioName(s.scenario, s.custom);

  return (
    <main
      // Saved state has been read (and a shared link applied): until then the page shows the defaults.
      data-booted={boot.booted ? 'true' : 'false'}
      style={{ padding: 'var(--sp-3) var(--sp-5) 40px', display: 'grid', gridTemplateColumns: 'minmax(0, 1fr)', gap: 'var(--sp-3)', maxWidth: 1400, position: 'relative' }}
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
      {/* The chrome: everything a projector does not need (hidden in presentation mode). */}
      <div data-chrome="" style={{ display: 'grid', gridTemplateColumns: 'minmax(0, 1fr)', gap: 'var(--sp-2)' }}>
        <Header lang={s.lang} onLang={s.setLang}>
          <a href="/lessons/" data-role="lessons-link" style={{ fontSize: 'var(--fs-sm)' }}>
            {t('lessons.title')}
          </a>
          <RunStatus ready={Boolean(data && shown.matrix && !stage)} tokens={data?.tokens ?? null} layer={shown.layer} stage={stage} context={data ? contextLabel(t, data.context) : ''} relevant={s.tab === 'attention' || s.tab === 'step' || s.tab === 'kv'} />
          <RuntimeNote loaded={phase.kind === 'ready' ? engine.loaded : null} />
        </Header>
        <div style={{ display: 'flex', gap: 'var(--sp-2) var(--sp-4)', alignItems: 'center', flexWrap: 'wrap' }}>
          <ModelPicker models={models} value={s.model} onChange={s.setModel} disabled={phase.kind === 'loading'} recent={s.recent} onOpen={() => setDialog({})} />
          <ProviderSwitch value={s.provider} onChange={s.setProvider} />
          <label title={t('compare.title')}>
            {t('compare.shellLabel')}{' '}
            <select data-control="compare-shell" value={s.compare && s.compare !== s.model ? s.compare : ''} onChange={(e) => s.setCompare(e.target.value || null)}>
              <option value="">{t('compare.none')}</option>
              {models
                .filter((m) => m.id !== s.model)
                .map((m) => (
                  <option key={m.id} value={m.id}>
                    {m.id}
                  </option>
                ))}
            </select>
          </label>
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
          <ShareButton store={store} onNote={boot.setShareNote} />
          <ModelDescription models={models} value={s.model} hubEndpoint={s.hubEndpoint} />
        </div>
      </div>

      {phase.kind === 'loading' && <ModelLoadProgress model={s.model} stage={phase.stage} fraction={phase.fraction} file={phase.file} />}
      {s.lostFolder && (
        <div role="status" data-role="lost-folder" style={{ background: 'var(--c-warn-soft)', padding: '6px 10px', borderRadius: 'var(--radius)' }}>
          {t('models.lostFolder', { label: s.lostFolder, model: modelDisplayName(s.model) })}{' '}
          <button type="button" onClick={() => setDialog({})}>
            {t('models.open')}
          </button>{' '}
          <button type="button" onClick={s.clearLostFolder}>
            {t('models.dismiss')}
          </button>
        </div>
      )}
      {phase.kind === 'failed' && <Alert>{t('error.prefix', { message: describe(phase.failure) })}</Alert>}
      {engine.workerNote && <WorkerNotice note={engine.workerNote} onRestart={engine.restart} />}
      <StorageNotice problem={s.persistProblem} />
      <ShareNoteView note={boot.shareNote} onNote={boot.setShareNote} />
      {linkPrompt && <LinkConfirm prompt={linkPrompt} />}
      {imports.note && <ImportNoteView note={imports.note} onDismiss={() => imports.setNote(null)} onOpenAnyway={imports.openAnyway} />}
      {custom && (
        <div data-chrome="">
          <CustomEditor key={custom.id} custom={custom} onText={s.editCustomText} onAccept={s.acceptCustom} />
        </div>
      )}
      {runError && <Alert>{t('error.prefix', { message: describe(runError) })}</Alert>}

      <TabBar value={s.tab} onChange={s.setTab} present={present} onPresent={setPresent} />
      {s.tab === 'attention' && (
        <AttentionTab
          data={data}
          headRun={perHead}
          shown={shown}
          view={s.view}
          onView={s.setView}
          selected={selected}
          onSelect={s.setSelectedToken}
          model={s.model}
          scenario={s.scenario}
          scenarioName={scenarioName}
          context={s.context}
          onContext={s.setContext}
          request={request}
          compare={s.compare}
          onCompare={s.setCompare}
          models={models.map((m) => m.id)}
          loop={
            engineTab
              ? { client: engineTab, vocab: engine.loaded?.vocab ?? null, generationConfig: engine.loaded?.generationConfig ?? null, contextLimit: engine.loaded?.info.config.maxPositions ?? null }
              : null
          }
        />
      )}
      {s.tab === 'step' && engineTab && <StepLab client={engineTab} analysed={data} model={s.model} scenario={s.scenario} custom={s.custom} vocab={engine.loaded?.vocab ?? null} generationConfig={engine.loaded?.generationConfig ?? null} />}
      {s.tab === 'ab' && engineTab && (
        <AbLab client={engineTab} analysed={data} model={s.model} scenario={s.scenario} custom={s.custom} generationConfig={engine.loaded?.generationConfig ?? null} vocab={engine.loaded?.vocab ?? null} />
      )}
      {s.tab === 'data' && <DataLab imports={imports} engine={engineTab && engine.loaded ? { client: engineTab, loaded: engine.loaded } : null} />}
      {s.tab === 'data' && <WorkspacePanel store={store} imports={imports} />}
      {s.tab === 'kv' && engineTab && <KvLab client={engineTab} analysed={data} model={s.model} scenarioName={scenarioName} vocab={engine.loaded?.vocab ?? null} layers={data?.attention.length ?? 0} custom={s.custom} />}
      {s.compare && s.compare !== s.model && engineTab && (s.tab === 'step' || s.tab === 'ab' || s.tab === 'kv') && (
        <SecondModelTab key={`${s.tab}:${s.compare}`} tab={s.tab} model={s.compare} request={request} context={s.context} scenario={s.scenario} scenarioName={scenarioName} custom={s.custom} />
      )}
      {dialog && (
        <OpenModelDialog
          onClose={() => setDialog(null)}
          initialRepo={dialog.repo}
          autoCheck={dialog.autoCheck}
          endpoint={s.hubEndpoint}
          provider={s.provider}
          onLoadHub={(repo, revision, endpoint, switchTo) => {
            const id = hubChoice(repo, revision);
            const same = id === s.model && endpoint === s.hubEndpoint && !switchTo;
            s.setHubEndpoint(endpoint);
            if (switchTo) s.setProvider(switchTo);
            s.setModel(id);
            // The same model again after a failed load: nothing in the key changed, so load it explicitly.
            if (same && phase.kind === 'failed') engine.reload();
            setDialog(null);
          }}
          onLoadFolder={(folder, switchTo) => {
            // A new registration (new generation) changes the load's key, so the same name loads the new files.
            registerFolder(folder.label, folder.entries);
            if (switchTo) s.setProvider(switchTo);
            s.setModel(formatModelChoice({ kind: 'folder', label: folder.label }));
            setDialog(null);
          }}
        />
      )}
    </main>
  );
}

/** The shown scenario's name in the page's language (a built-in's title, or the user's name for their own). */
function useScenarioName(ref: string, custom: CustomScenario[]): string {
  const lang = useLang();
  const own = customOf({ custom }, ref);
  if (own) return own.name;
  return CATALOG.find((e) => e.ref === ref)?.title[lang] ?? ref;
}

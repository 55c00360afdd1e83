'use client';
// "Open a model…": a Hugging Face repo (or a mirror's), a folder on this computer, or a model kept in the
// browser's cache. Check runs preflight (config.json and the safetensors headers only, through range reads)
// and shows what loading costs and whether this browser can run it; nothing large is fetched before Load.
// Esc closes; the repo input has the focus when the dialog opens.
import { useEffect, useRef, useState } from 'react';
import { preflight, type PreflightReport } from '../../lib/model/preflight';
import { browserBlobCache } from '../../lib/model/source/browserCache';
import { FolderFiles } from '../../lib/model/source/folder';
import { DEFAULT_ENDPOINT, HubFiles, normaliseEndpoint, parseRepoId } from '../../lib/model/source/hub';
import { messageText } from '../../lib/i18n/message';
import { hubChoice, loadPlan, modelDisplayName, type ProviderChoice } from '../../lib/state/modelChoice';
import { useDescribe, useLang, useT } from '../common/i18n';
import { CachedModels } from './CachedModels';
import { FolderSource, type PickedFolder } from './FolderSource';
import { LoadButton, PreflightView } from './PreflightView';
import { isAbort } from './reasonText';
import { browserBudget, probeWebGpu } from './webgpu';

const TOKENIZER_FILES = ['tokenizer.json', 'tokenizer_config.json'] as const;

export const EXAMPLE_REPOS = ['Qwen/Qwen3-0.6B', 'HuggingFaceTB/SmolLM2-135M-Instruct', 'Qwen/Qwen2.5-0.5B-Instruct'] as const;

type Target = { kind: 'hub'; repo: string; revision: string; endpoint: string } | { kind: 'folder'; folder: PickedFolder };

type Check =
  | { status: 'idle' }
  | { status: 'running'; target: Target }
  | { status: 'done'; target: Target; report: PreflightReport; hasAdapter: boolean }
  | { status: 'error'; kind: Target['kind']; error: unknown };

export interface OpenModelDialogProps {
  onClose: () => void;
  /** The repo to fill in (from a ?model= link); `autoCheck` runs preflight at once (never Load). */
  initialRepo?: string;
  autoCheck?: boolean;
  /** The store's endpoint: the field's starting value. */
  endpoint: string;
  provider: ProviderChoice;
  onLoadHub: (repo: string, revision: string, endpoint: string, switchTo: 'webgpu' | 'wasm' | null) => void;
  onLoadFolder: (folder: PickedFolder, switchTo: 'webgpu' | 'wasm' | null) => void;
}

export function OpenModelDialog({ onClose, initialRepo, autoCheck, endpoint, provider, onLoadHub, onLoadFolder }: OpenModelDialogProps) {
  const t = useT();
  const lang = useLang();
  const describe = useDescribe();
  const [repo, setRepo] = useState(initialRepo ?? '');
  const [endpointText, setEndpointText] = useState(endpoint);
  const [check, setCheck] = useState<Check>({ status: 'idle' });
  const abort = useRef<AbortController | null>(null);
  const repoInput = useRef<HTMLInputElement>(null);

  const run = async (target: Target) => {
    abort.current?.abort();
    const ac = new AbortController();
    abort.current = ac;
    setCheck({ status: 'running', target });
    try {
      const budget = await browserBudget();
      let report: PreflightReport;
      if (target.kind === 'hub') {
        const files = new HubFiles({ repo: target.repo, revision: target.revision, endpoint: target.endpoint, cache: browserBlobCache() });
        report = await preflight(files, budget, ac.signal);
      } else {
        const files = new FolderFiles(target.folder.entries, target.folder.label);
        report = await preflight(files, budget, ac.signal, { fileNames: await files.list() });
      }
      if (ac.signal.aborted) return;
      // As the engine decides (useEngine): Auto does not count a software adapter; WebGPU asked for does.
      const { adapter } = await probeWebGpu();
      setCheck({ status: 'done', target, report, hasAdapter: adapter !== null && (!adapter.fallback || provider === 'webgpu') });
    } catch (e) {
      if (ac.signal.aborted || isAbort(e)) return;
      setCheck({ status: 'error', kind: target.kind, error: e });
    }
  };

  const checkHub = (text = repo) => {
    try {
      const ref = parseRepoId(text);
      // The endpoint field decides where files come from (a pasted huggingface.co URL still goes through a mirror).
      const ep = normaliseEndpoint(endpointText);
      void run({ kind: 'hub', repo: ref.repo, revision: ref.revision, endpoint: ep });
    } catch (e) {
      abort.current?.abort();
      setCheck({ status: 'error', kind: 'hub', error: e });
    }
  };

  useEffect(() => {
    repoInput.current?.focus();
    if (autoCheck && initialRepo) checkHub(initialRepo);
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') {
        e.stopPropagation();
        onClose();
      }
    };
    window.addEventListener('keydown', onKey, true);
    return () => {
      window.removeEventListener('keydown', onKey, true);
      abort.current?.abort();
    };
  }, []); // eslint-disable-line react-hooks/exhaustive-deps -- once, when the dialog opens

  const result = (kind: Target['kind']) => {
    if (check.status === 'running' && check.target.kind === kind) {
      return (
        <div role="status" className="small">
          <progress style={{ width: 90, verticalAlign: 'middle' }} /> {t('models.checking')}
        </div>
      );
    }
    if (check.status === 'error' && check.kind === kind) {
      return (
        <div role="alert" data-role="model-error" style={{ color: 'var(--c-error)', background: 'var(--c-error-soft)', padding: '6px 10px', borderRadius: 'var(--radius)', fontSize: 'var(--fs-sm)' }}>
          {describe(check.error)}
        </div>
      );
    }
    if (check.status !== 'done' || check.target.kind !== kind) return null;
    const target = check.target;
    const plan = loadPlan(check.report, provider, check.hasAdapter);
    // Preflight weighs the weights; the worker also needs the tokenizer files, so their absence stops Load here.
    const missing = check.report.supported ? TOKENIZER_FILES.filter((n) => !check.report.files.some((f) => f.name === n)) : [];
    const blocked = missing.length > 0 ? missing.map((file) => messageText(lang, { key: 'msg.model.src.labelMissing', params: { label: check.report.label, file } })).join(' ') : null;
    return (
      <div style={{ display: 'grid', gap: 'var(--sp-2)' }}>
        <PreflightView report={check.report} label={target.kind === 'hub' ? modelDisplayName(hubChoice(target.repo, target.revision)) : target.folder.label} />
        <LoadButton
          blocked={blocked}
          plan={plan}
          onLoad={(switchTo) => (target.kind === 'hub' ? onLoadHub(target.repo, target.revision, target.endpoint, switchTo) : onLoadFolder(target.folder, switchTo))}
        />
      </div>
    );
  };

  const endpointChanged = endpointText.trim() !== '' && endpointText.trim().replace(/\/+$/, '') !== DEFAULT_ENDPOINT;

  return (
    <div
      style={{ position: 'fixed', inset: 0, background: 'rgba(16, 24, 40, 0.35)', display: 'grid', placeItems: 'start center', paddingTop: '4vh', zIndex: 60 }}
      onMouseDown={(e) => e.target === e.currentTarget && onClose()}
      // Files dropped on the dialog are never imported by the page underneath.
      onDragOver={(e) => {
        e.stopPropagation();
        e.preventDefault();
      }}
      onDrop={(e) => {
        e.stopPropagation();
        e.preventDefault();
      }}
    >
      <div
        role="dialog"
        aria-modal="true"
        aria-labelledby="model-dialog-title"
        data-role="model-dialog"
        className="panel"
        style={{ width: 'min(860px, 94vw)', maxHeight: '92vh', overflow: 'auto', display: 'grid', gap: 'var(--sp-3)', padding: 'var(--sp-4) var(--sp-5)', boxShadow: '0 8px 32px rgba(16, 24, 40, 0.25)' }}
      >
        <div style={{ display: 'flex', alignItems: 'baseline', gap: 'var(--sp-3)' }}>
          <h2 id="model-dialog-title" style={{ margin: 0, fontSize: 'var(--fs-lg)', flex: 1 }}>
            {t('models.dialogTitle')}
          </h2>
          <button type="button" data-role="model-dialog-close" onClick={onClose}>
            {t('models.close')}
          </button>
        </div>
        <p className="muted small" style={{ margin: 0 }}>
          {t('models.intro')}
        </p>

        <section aria-labelledby="model-hub-title" style={{ display: 'grid', gap: 'var(--sp-2)' }}>
          <h3 id="model-hub-title" style={{ margin: 0, fontSize: 'var(--fs-md)' }}>
            {t('models.hubTitle')}
          </h3>
          <form
            className="controls"
            onSubmit={(e) => {
              e.preventDefault();
              checkHub();
            }}
          >
            <label style={{ display: 'flex', gap: 'var(--sp-2)', alignItems: 'center', flex: '1 1 360px' }}>
              {t('models.hubRepo')}
              <input
                ref={repoInput}
                data-role="hub-repo"
                value={repo}
                onChange={(e) => setRepo(e.target.value)}
                placeholder={t('models.hubPlaceholder')}
                spellCheck={false}
                autoComplete="off"
                style={{ flex: 1, minWidth: 0 }}
              />
            </label>
            <button type="submit" data-role="hub-check" title={t('models.checkTitle')} disabled={repo.trim() === ''}>
              {t('models.check')}
            </button>
          </form>
          <div className="controls">
            <span className="muted">{t('models.examples')}</span>
            {EXAMPLE_REPOS.map((r) => (
              <button
                key={r}
                type="button"
                data-role="hub-example"
                style={{ borderRadius: 999, padding: '0 10px' }}
                onClick={() => {
                  setRepo(r);
                  checkHub(r);
                }}
              >
                {r}
              </button>
            ))}
          </div>
          <details open={endpointChanged}>
            <summary className="small">{t('models.endpoint')}</summary>
            <div className="controls" style={{ marginTop: 'var(--sp-1)' }}>
              <input data-role="hub-endpoint" value={endpointText} onChange={(e) => setEndpointText(e.target.value)} placeholder={DEFAULT_ENDPOINT} spellCheck={false} style={{ flex: '1 1 320px' }} />
              {endpointChanged && (
                <button type="button" onClick={() => setEndpointText(DEFAULT_ENDPOINT)}>
                  {t('models.endpointReset')}
                </button>
              )}
            </div>
            <p className="muted small" style={{ margin: 'var(--sp-1) 0 0' }}>
              {t('models.endpointHelp', { url: `${endpointText.trim().replace(/\/+$/, '') || DEFAULT_ENDPOINT}/<org>/<name>/resolve/<revision>/<file>` })}
            </p>
          </details>
          {result('hub')}
        </section>

        <FolderSource onPicked={(folder) => void run({ kind: 'folder', folder })} onError={(error) => setCheck({ status: 'error', kind: 'folder', error })}>
          {result('folder')}
        </FolderSource>

        <CachedModels onLoad={(m) => onLoadHub(m.repo, m.revision, m.endpoint, null)} />
      </div>
    </div>
  );
}

// Which model the page shows, as one string the store persists: an embedded model's id (`kvscope-tiny`), a
// Hub repo at a revision (`hub:Qwen/Qwen3-0.6B@main`), or a folder the user picked (`folder:<label>`; its
// File objects live in the page only, so such a choice cannot survive a reload). Also the runtime choice
// (auto / webgpu / wasm) and the short list of Hub models the user loaded. Pure: no DOM, no React.
import { EMBEDDED_MODELS } from '../model/embedded';
import type { PreflightReason, PreflightReport } from '../model/preflight';
import { DEFAULT_ENDPOINT, normaliseEndpoint, parseRepoId } from '../model/source/hub';

export type ModelChoice = { kind: 'embedded'; id: string } | { kind: 'hub'; repo: string; revision: string } | { kind: 'folder'; label: string };

export const HUB_PREFIX = 'hub:';
export const FOLDER_PREFIX = 'folder:';
/** Hub models remembered in the picker at most (newest first). */
export const MAX_RECENT = 8;
const MAX_LABEL = 200;

/** A folder label as shown and stored: trimmed, no control characters, at most 200 characters; null when empty. */
export function cleanFolderLabel(text: string): string | null {
  // eslint-disable-next-line no-control-regex -- control characters are what is being removed
  const t = text.replace(/[\u0000-\u001f\u007f]/g, '').trim().slice(0, MAX_LABEL);
  return t === '' ? null : t;
}

/** The choice a string names, or null when it names none (an unknown embedded id, a malformed repo id). */
export function parseModelChoice(text: unknown): ModelChoice | null {
  if (typeof text !== 'string') return null;
  if (text.startsWith(HUB_PREFIX)) {
    const rest = text.slice(HUB_PREFIX.length);
    // Only `org/name[@rev]` here: a URL belongs in the dialog's input, not in a stored choice.
    if (/^https?:/i.test(rest.trim())) return null;
    try {
      const { repo, revision } = parseRepoId(rest);
      return { kind: 'hub', repo, revision };
    } catch {
      return null;
    }
  }
  if (text.startsWith(FOLDER_PREFIX)) {
    const label = cleanFolderLabel(text.slice(FOLDER_PREFIX.length));
    return label === null ? null : { kind: 'folder', label };
  }
  return EMBEDDED_MODELS.some((m) => m.id === text) ? { kind: 'embedded', id: text } : null;
}

/** The stored form; revisions are always written, so `hub:a/b` and `hub:a/b@main` are one model. */
export function formatModelChoice(c: ModelChoice): string {
  if (c.kind === 'hub') return `${HUB_PREFIX}${c.repo}@${c.revision}`;
  if (c.kind === 'folder') return `${FOLDER_PREFIX}${c.label}`;
  return c.id;
}

/** The canonical form of a choice string, or null when it names none. */
export function canonicalModelChoice(text: unknown): string | null {
  const c = parseModelChoice(text);
  return c ? formatModelChoice(c) : null;
}

export function hubChoice(repo: string, revision = 'main'): string {
  return formatModelChoice({ kind: 'hub', repo, revision });
}

/** A short name for the picker and the load line: the id, `org/name` (with `@rev` unless main), or the folder's label. */
export function modelDisplayName(choice: string): string {
  const c = parseModelChoice(choice);
  if (!c) return choice;
  if (c.kind === 'hub') return c.revision === 'main' ? c.repo : `${c.repo}@${c.revision}`;
  if (c.kind === 'folder') return c.label;
  return c.id;
}

// ---------------------------------------------------------------------------------------------------------
// Runtime

export type ProviderChoice = 'auto' | 'webgpu' | 'wasm';
export const PROVIDER_CHOICES: readonly ProviderChoice[] = ['auto', 'webgpu', 'wasm'];

export function isProviderChoice(v: unknown): v is ProviderChoice {
  return PROVIDER_CHOICES.includes(v as ProviderChoice);
}

/** What to ask the engine for: auto means WebGPU where the browser gave an adapter, else WASM. */
export function resolveProvider(choice: ProviderChoice, hasAdapter: boolean): 'webgpu' | 'wasm' {
  return choice === 'auto' ? (hasAdapter ? 'webgpu' : 'wasm') : choice;
}

// ---------------------------------------------------------------------------------------------------------
// Settings made safe

/** A stored endpoint normalised, or the default when it is not an http(s) URL. */
export function sanitizeEndpoint(v: unknown): string {
  if (typeof v !== 'string') return DEFAULT_ENDPOINT;
  try {
    return normaliseEndpoint(v);
  } catch {
    return DEFAULT_ENDPOINT;
  }
}

/** Recent Hub models: valid hub choices only, canonical, without duplicates, newest first, at most MAX_RECENT. */
export function sanitizeRecent(v: unknown): string[] {
  if (!Array.isArray(v)) return [];
  const out: string[] = [];
  for (const x of v) {
    const c = parseModelChoice(x);
    if (c?.kind !== 'hub') continue;
    const id = formatModelChoice(c);
    if (!out.includes(id)) out.push(id);
  }
  return out.slice(0, MAX_RECENT);
}

/** `id` first in the recent list (moved there if already listed). */
export function addRecent(list: readonly string[], id: string): string[] {
  return [id, ...list.filter((x) => x !== id)].slice(0, MAX_RECENT);
}

// ---------------------------------------------------------------------------------------------------------
// Whether the dialog's Load may run, after preflight

export type LoadPlan =
  /** `switchTo`: the runtime chosen now cannot run it but the other one can; Load switches to it. */
  | { ok: true; provider: 'webgpu' | 'wasm'; switchTo: 'webgpu' | 'wasm' | null }
  /** The reasons that refuse it (every provider's, or the chosen one's when neither runs it). */
  | { ok: false; reasons: PreflightReason[] };

/**
 * Load on the runtime the choice resolves to when its verdict allows; else on the other one when that one can
 * run it (WebGPU only where there is an adapter); else refused with the reasons.
 */
export function loadPlan(report: Pick<PreflightReport, 'supported' | 'refusals' | 'verdicts'>, choice: ProviderChoice, hasAdapter: boolean): LoadPlan {
  if (!report.supported) return { ok: false, reasons: report.refusals };
  const want = resolveProvider(choice, hasAdapter);
  if (report.verdicts[want].ok && (want === 'wasm' || hasAdapter)) return { ok: true, provider: want, switchTo: null };
  const other = want === 'webgpu' ? 'wasm' : 'webgpu';
  if (report.verdicts[other].ok && (other === 'wasm' || hasAdapter)) return { ok: true, provider: other, switchTo: other };
  const fails = report.verdicts[want].reasons.filter((r) => r.level === 'fail');
  return { ok: false, reasons: fails.length > 0 ? fails : report.verdicts[want].reasons };
}

// Preflight reasons as sentences in the page's language. Each reason carries its message (lib/i18n
// msgModel 'msg.model.pf.*', or the refusing error's own message); the English is the sentence lib/model
// wrote, which for a wrapped error ends with a full stop its message lacks. Source errors are CodedErrors:
// components show them with useDescribe().
import type { Lang } from '../../lib/i18n';
import { messageText } from '../../lib/i18n/message';
import type { PreflightReason } from '../../lib/model/preflight';

export function reasonSentence(lang: Lang, r: PreflightReason): string {
  return lang === 'en' ? r.text : messageText(lang, r.message);
}

/** True for a cancelled read (a newer check replaced it, or the dialog closed): nothing to show. */
export function isAbort(e: unknown): boolean {
  if (!(e instanceof Error)) return false;
  return e.name === 'AbortError' || (e.name === 'ModelSourceError' && (e as Error & { code?: unknown }).code === 'aborted');
}

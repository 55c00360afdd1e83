// Messages from lib/ (errors, warnings, notes) as a code and parameters instead of English text, so the
// interface can show them in the user's language (docs/I18N.md). The code is a key of the string tables;
// `.message` of a coded error is its English text, so logs, the CLI and tests read as before.
import { translate, STRINGS, type Lang, type Params, type StringKey } from './index';

/** A message for the user: a string-table key and its parameters. Plain data, so it crosses postMessage. */
export interface Message {
  readonly key: StringKey;
  readonly params?: Params;
  /** Where in the input the problem is (a JSON path, a file name, a line): shown before the text. */
  readonly where?: string;
  /** Parameters that are messages of their own (the reason inside a refusal): shown in the same language. */
  readonly parts?: Readonly<Record<string, Message>>;
}

export function message(key: StringKey, params?: Params, where?: string, parts?: Record<string, Message>): Message {
  const m: Message = where ? { key, params, where } : params ? { key, params } : { key };
  return parts ? { ...m, parts } : m;
}

/** The message in `lang`, its place first ("messages[2].role: …"). */
export function messageText(lang: Lang, m: Message): string {
  let params = m.params;
  if (m.parts) {
    const shown: Record<string, string | number> = { ...params };
    for (const [k, p] of Object.entries(m.parts)) shown[k] = messageText(lang, p);
    params = shown;
  }
  const text = translate(lang, m.key, params);
  return m.where ? `${m.where}${lang === 'zh' ? '：' : ': '}${text}` : text;
}

/**
 * An error that carries its message as a code. Subclasses (ImportError, ConfigError, …) keep their names
 * so callers can tell them apart; the English text is `.message`.
 */
export class CodedError extends Error implements Message {
  readonly key: StringKey;
  readonly params?: Params;
  readonly where?: string;
  readonly parts?: Readonly<Record<string, Message>>;
  constructor(key: StringKey, params?: Params, where?: string, parts?: Record<string, Message>) {
    super(messageText('en', { key, params, where, parts }));
    this.name = 'CodedError';
    this.key = key;
    this.params = params;
    this.where = where;
    if (parts) this.parts = parts;
  }
}

export function isStringKey(k: unknown): k is StringKey {
  return typeof k === 'string' && Object.prototype.hasOwnProperty.call(STRINGS, k);
}

/** The message inside `v` when it has one (a coded error, or one that crossed a worker as plain data). */
export function messageOf(v: unknown): Message | null {
  if (!v || typeof v !== 'object') return null;
  const o = v as { key?: unknown; params?: unknown; where?: unknown; parts?: unknown };
  if (!isStringKey(o.key)) return null;
  const params = o.params && typeof o.params === 'object' ? (o.params as Params) : undefined;
  let parts: Record<string, Message> | undefined;
  if (o.parts && typeof o.parts === 'object') {
    parts = {};
    for (const [k, p] of Object.entries(o.parts)) {
      const inner = messageOf(p);
      if (inner) parts[k] = inner;
    }
  }
  return message(o.key, params, typeof o.where === 'string' ? o.where : undefined, parts);
}

/** The plain-data form of an error for postMessage: its English text and, when coded, its message. */
export function errorData(e: unknown): { message: string; coded?: Message } {
  const coded = messageOf(e) ?? undefined;
  const text = e instanceof Error ? e.message : String(e);
  return coded ? { message: text, coded } : { message: text };
}

/**
 * What to show for an error or a note in `lang`: its coded message when it has one (also one nested as
 * `coded` by `errorData`), else its text as it is (a message from outside kvscope: the browser, onnxruntime).
 */
export function describe(lang: Lang, v: unknown): string {
  const m = messageOf(v) ?? (v && typeof v === 'object' ? messageOf((v as { coded?: unknown }).coded) : null);
  if (m) return messageText(lang, m);
  if (v instanceof Error) return v.message;
  if (v && typeof v === 'object' && typeof (v as { message?: unknown }).message === 'string') return (v as { message: string }).message;
  return String(v);
}

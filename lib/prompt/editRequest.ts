// The request editor's check, without the DOM: text → JSON (with positions) → the request validator →
// each error placed at the line of the field it names (or of the nearest enclosing value that exists).
import type { ChatRequest } from '../scenarios/types';
import { parseJsonLocated, locatePath, type JsonNode } from './jsonLocate';
import { validateRequest, type RequestError, type RequestLimits } from './request';
import type { Params, StringKey } from '../i18n';
import { msg, verbatim, type Message } from '../io/msg';

export interface LocatedError {
  /** The validator's path (`request` for a JSON syntax error). */
  path: string;
  /** The validator's message, or the syntax error's reason. */
  message: string;
  /** Where the caret goes: the value's first character, or the opening bracket of the nearest ancestor. */
  offset: number;
  line: number;
  column: number;
  /** End (exclusive) of the value the path names; equals `offset` + 1 at most for ancestors and syntax errors. */
  end: number;
  /** Lines to mark: from the member's key (or the value) to the value's end (scalars) or its opening line (objects, arrays). */
  fromLine: number;
  toLine: number;
  /** True when the path names a value in the text; false when the error is shown at an ancestor (a missing field). */
  exact: boolean;
  syntax: boolean;
  /**
   * The error as a coded message (lib/i18n/message.ts): the validator's, with `where` = `path` ("path: text"
   * as errorText shows it), or the syntax error's reason without a place.
   */
  key?: StringKey;
  params?: Params;
  parts?: Record<string, Message>;
  where?: string;
}

/** `notes` in English; `codedNotes` the same as messages, for the interface's language. */
export type RequestCheck =
  | { ok: true; request: ChatRequest; notes: string[]; codedNotes?: Message[]; root: JsonNode }
  | { ok: false; syntax: boolean; errors: LocatedError[]; notes: string[]; codedNotes?: Message[] };

/** The coded part of a validator error or a located one (absent: its English text as it is). */
function codedOf(e: Pick<RequestError, 'key' | 'params' | 'parts' | 'where'>): Pick<LocatedError, 'key' | 'params' | 'parts' | 'where'> {
  if (!e.key) return {};
  const out: Pick<LocatedError, 'key' | 'params' | 'parts' | 'where'> = { key: e.key };
  if (e.params) out.params = e.params;
  if (e.parts) out.parts = e.parts;
  if (e.where) out.where = e.where;
  return out;
}

/** Places validator errors in the parsed document. */
export function locateErrors(root: JsonNode, errors: readonly RequestError[]): LocatedError[] {
  return errors.map((e) => {
    const { path, message } = e;
    const { node, exact } = locatePath(root, path);
    const r = node.range;
    const scalar = node.type !== 'object' && node.type !== 'array';
    const fromLine = exact && node.key ? node.key.line : r.line;
    const toLine = exact && scalar ? r.endLine : r.line;
    return { path, message, offset: r.offset, line: r.line, column: r.column, end: exact ? r.end : r.offset + 1, fromLine, toLine, exact, syntax: false, ...codedOf(e) };
  });
}

/** Parses and validates editor text; every error comes with its place in the text. */
export function checkRequestText(text: string, limits: Partial<RequestLimits> = {}): RequestCheck {
  const parsed = parseJsonLocated(text);
  if (!parsed.ok) {
    const e = parsed.error;
    const error: LocatedError = {
      path: 'request',
      message: e.reason,
      offset: e.offset,
      line: e.line,
      column: e.column,
      end: Math.min(e.offset + 1, text.length),
      fromLine: e.line,
      toLine: e.line,
      exact: true,
      syntax: true,
      ...codedOf(e.coded),
    };
    return { ok: false, syntax: true, errors: [error], notes: [], codedNotes: [] };
  }
  const v = validateRequest(parsed.value, limits);
  if (v.ok) return { ok: true, request: v.request, notes: v.notes, codedNotes: v.codedNotes, root: parsed.root };
  return { ok: false, syntax: false, errors: locateErrors(parsed.root, v.errors), notes: v.notes, codedNotes: v.codedNotes };
}

/** How many errors the validator found: its list, plus those it only counted ("N more error(s) not shown"). */
export function errorCount(errors: readonly { path: string; message: string; key?: StringKey; params?: Params }[]): number {
  let n = errors.length;
  const last = errors[errors.length - 1];
  if (last?.key === 'msg.import.req.more' && typeof last.params?.n === 'number') return n + last.params.n - 1;
  const more = last && last.path === 'request' ? /^(\d+) more error\(s\) not shown$/.exec(last.message) : null;
  if (more) n += Number(more[1]) - 1;
  return n;
}

/** "line 14: messages[3].tool_call_id: missing" (syntax errors: "line 3, column 21: expected …"). */
export function formatLocatedError(e: LocatedError): string {
  return e.syntax ? `line ${e.line}, column ${e.column}: ${e.message}` : `line ${e.line}: ${e.path}: ${e.message}`;
}

/** The error as a message, its place in the text first: formatLocatedError in the interface's language. */
export function locatedMessage(e: LocatedError): Message {
  const error = e.key ? msg(e.key, e.params, e.syntax ? undefined : e.where ?? e.path, e.parts) : verbatim(e.syntax ? e.message : `${e.path}: ${e.message}`);
  return e.syntax ? msg('msg.import.edit.atLineColumn', { line: e.line, column: e.column }, undefined, { error }) : msg('msg.import.edit.atLine', { line: e.line }, undefined, { error });
}


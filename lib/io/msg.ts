// Small helpers for the coded messages (lib/i18n/message.ts) of the importers, the request validator and
// the stored state: the English text of a message, text from outside kvscope kept as it is, and several
// messages shown as lines of one. Keys live in lib/i18n/msgImport.ts ('msg.import.*').
import type { Params, StringKey } from '../i18n';
import { message, messageText, type Message } from '../i18n/message';

export type { Message } from '../i18n/message';

/** A message: key, parameters, place, and parameters that are messages themselves. */
export function msg(key: StringKey, params?: Params, where?: string, parts?: Record<string, Message>): Message {
  return message(key, params, where, parts);
}

/** The English text (what `.message`, logs, the CLI and tests read). */
export function en(m: Message): string {
  return messageText('en', m);
}

/** Text from outside kvscope (a browser's or a parser's own words, a user's name), shown as it is in every language. */
export function verbatim(text: string): Message {
  return message('msg.import.verbatim', { text });
}

/** Several messages as one, a line each (English: the lines joined with "\n"). */
export function joinLines(lines: readonly Message[]): Message {
  if (lines.length === 0) return verbatim('');
  if (lines.length === 1) return lines[0]!;
  let out = lines[lines.length - 1]!;
  for (let i = lines.length - 2; i >= 0; i--) out = message('msg.import.lines', undefined, undefined, { first: lines[i]!, rest: out });
  return out;
}

/** A list of notes as the results carry them: English text, and the same as messages. */
export class NoteList {
  readonly coded: Message[] = [];
  add(key: StringKey, params?: Params, where?: string, parts?: Record<string, Message>): void {
    this.coded.push(message(key, params, where, parts));
  }
  push(...ms: Message[]): void {
    this.coded.push(...ms);
  }
  get texts(): string[] {
    return this.coded.map(en);
  }
}

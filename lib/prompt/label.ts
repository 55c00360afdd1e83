// Token text made visible for labels: whitespace shown as ↵ ␣ ⇥, partial characters as <0xNN> bytes.
// Display strings only; offsets and spans stay in lib/prompt/prompt.ts.
import { tokenLabel, type TokenInfo } from './prompt';

const MARKS: Record<string, string> = { '\n': '↵', ' ': '␣', '\t': '⇥', '\r': '␍' };

/** A string with whitespace replaced by visible marks. */
export function visibleWhitespace(s: string): string {
  return s.replace(/[\n \t\r]/g, (c) => MARKS[c]!);
}

/** What a view or the CLI prints for a token. */
export function displayToken(t: TokenInfo): string {
  return t.partial ? tokenLabel(t) : visibleWhitespace(t.text);
}

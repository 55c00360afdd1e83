// GPT-2 style byte-level alphabet: each byte maps to one printable character in BPE token strings.
// Used to turn token strings back into bytes (offsets, decoding, byte-fallback markers).
import { PromptError } from './promptError';

function buildTables(): { byteToChar: string[]; charToByte: Map<string, number> } {
  const bs: number[] = [];
  for (let b = 0x21; b <= 0x7e; b++) bs.push(b);
  for (let b = 0xa1; b <= 0xac; b++) bs.push(b);
  for (let b = 0xae; b <= 0xff; b++) bs.push(b);
  const cs = [...bs];
  let n = 0;
  for (let b = 0; b < 256; b++) {
    if (!bs.includes(b)) {
      bs.push(b);
      cs.push(256 + n++);
    }
  }
  const byteToChar: string[] = new Array(256);
  const charToByte = new Map<string, number>();
  bs.forEach((b, i) => {
    const ch = String.fromCharCode(cs[i]!);
    byteToChar[b] = ch;
    charToByte.set(ch, b);
  });
  return { byteToChar, charToByte };
}

const { byteToChar, charToByte } = buildTables();

/** The 256 single-byte symbols, indexed by byte value. */
export const BYTE_SYMBOLS: readonly string[] = byteToChar;

/** Bytes of a byte-level token string; throws on a character outside the alphabet. */
export function tokenBytes(token: string): Uint8Array {
  const out = new Uint8Array(token.length);
  for (let i = 0; i < token.length; i++) {
    const b = charToByte.get(token[i]!);
    if (b === undefined) throw new PromptError('msg.import.prompt.notByteLevel', { token: JSON.stringify(token) });

    out[i] = b;
  }
  return out;
}

/** Byte-level string of arbitrary bytes (inverse of tokenBytes). */
export function bytesToSymbols(bytes: Uint8Array): string {
  let s = '';
  for (const b of bytes) s += byteToChar[b];
  return s;
}

// Token texts from token bytes: the bytes of all tokens decoded as one UTF-8 string, and each token's
// character range in it (a character belongs to the token holding its first byte; a token that starts or
// ends inside a character is `partial`). Shared by the prompt pipeline and the decoding of generated ids.
import type { TokenInfo } from './prompt';

function utf8Length(cp: number): number {
  return cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;
}

/** Whether the bytes end inside a multi-byte UTF-8 character (its lead byte came, not all of the rest). */
export function endsInsideCharacter(bytes: Uint8Array): boolean {
  for (let back = 1; back <= Math.min(4, bytes.length); back++) {
    const b = bytes[bytes.length - back]!;
    if ((b & 0xc0) === 0x80) continue; // continuation byte: keep looking for the lead
    const need = b >= 0xf0 ? 4 : b >= 0xe0 ? 3 : b >= 0xc0 ? 2 : 1;
    return need > back;
  }
  return false;
}

export interface TokenPart {
  bytes: Uint8Array;
  special: boolean;
}

export function tokensFromBytes(ids: readonly number[], parts: readonly TokenPart[]): { tokens: TokenInfo[]; text: string; byteStarts: number[] } {
  const total = parts.reduce((s, p) => s + p.bytes.length, 0);
  const all = new Uint8Array(total);
  const byteStarts: number[] = [];
  let b = 0;
  for (const p of parts) {
    byteStarts.push(b);
    all.set(p.bytes, b);
    b += p.bytes.length;
  }
  const text = new TextDecoder().decode(all);
  // Walk code points alongside the token byte offsets (both increase): a token starts at the first character
  // whose first byte is at or after the token's first byte. Invalid bytes decode to U+FFFD, one per maximal
  // invalid subsequence, so byte counting is exact only for valid UTF-8; the walk is clamped to the text so
  // that offsets stay in range on invalid input.
  let cpByte = 0;
  let ci = 0;
  const starts: number[] = [];
  const mid: boolean[] = [];
  for (const b0 of byteStarts) {
    while (cpByte < b0 && ci < text.length) {
      const cp = text.codePointAt(ci)!;
      cpByte += utf8Length(cp);
      ci += cp > 0xffff ? 2 : 1;
    }
    starts.push(ci);
    mid.push(cpByte !== b0);
  }
  const cutTail = endsInsideCharacter(all);
  const tokens = ids.map((id, t): TokenInfo => {
    const start = starts[t]!;
    const end = t + 1 < ids.length ? starts[t + 1]! : text.length;
    const p = parts[t]!;
    return { id, text: text.slice(start, end), bytes: p.bytes.slice(), start, end, partial: mid[t]! || (t + 1 < ids.length ? mid[t + 1]! : cutTail), special: p.special };
  });
  return { tokens, text, byteStarts };
}

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { BYTE_SYMBOLS, bytesToSymbols, tokenBytes } from '../lib/prompt/byteLevel';

test('the byte-level alphabet is a bijection of 256 printable symbols', () => {
  assert.equal(new Set(BYTE_SYMBOLS).size, 256);
  const all = Uint8Array.from({ length: 256 }, (_, i) => i);
  assert.deepEqual(tokenBytes(bytesToSymbols(all)), all);
  // GPT-2's convention: space is Ġ, newline is Ċ, printable ASCII maps to itself.
  assert.equal(BYTE_SYMBOLS[0x20], 'Ġ');
  assert.equal(BYTE_SYMBOLS[0x0a], 'Ċ');
  assert.equal(BYTE_SYMBOLS[0x41], 'A');
});

test('tokenBytes rejects characters outside the alphabet', () => {
  assert.throws(() => tokenBytes('a b'), /not a byte-level token/);
});

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseSafetensors, readFloat32 } from '../lib/model/safetensors';

function build(header: object, data: Uint8Array): Uint8Array {
  const h = new TextEncoder().encode(JSON.stringify(header));
  const out = new Uint8Array(8 + h.length + data.length);
  new DataView(out.buffer).setBigUint64(0, BigInt(h.length), true);
  out.set(h, 8);
  out.set(data, 8 + h.length);
  return out;
}

test('reads F32, F16 and BF16 tensors (values checked against hand-encoded bit patterns)', () => {
  const data = new Uint8Array(8 + 4 + 4);
  const v = new DataView(data.buffer);
  v.setFloat32(0, 1.5, true);
  v.setFloat32(4, -2, true);
  v.setUint16(8, 0x3c00, true); // F16 1.0
  v.setUint16(10, 0xc500, true); // F16 -5.0
  v.setUint16(12, 0x3f80, true); // BF16 1.0
  v.setUint16(14, 0x4049, true); // BF16 3.140625
  const f = parseSafetensors(build({
    a: { dtype: 'F32', shape: [2], data_offsets: [0, 8] },
    b: { dtype: 'F16', shape: [2], data_offsets: [8, 12] },
    c: { dtype: 'BF16', shape: [1, 2], data_offsets: [12, 16] },
    __metadata__: { format: 'pt' },
  }, data));
  assert.deepEqual([...readFloat32(f, 'a')], [1.5, -2]);
  assert.deepEqual([...readFloat32(f, 'b')], [1, -5]);
  assert.deepEqual([...readFloat32(f, 'c')], [1, 3.140625]);
  assert.equal(f.metadata.format, 'pt');
});

test('fails clearly on truncated, inconsistent or unsupported files', () => {
  const ok = { a: { dtype: 'F32', shape: [2], data_offsets: [0, 8] } };
  assert.throws(() => parseSafetensors(new Uint8Array(3)), /shorter than the 8-byte header/);
  assert.throws(() => parseSafetensors(build(ok, new Uint8Array(4))), /truncated/);
  assert.throws(() => parseSafetensors(build(ok, new Uint8Array(8)).subarray(0, 20)), /header claims/);
  assert.throws(() => parseSafetensors(build({ a: { dtype: 'F32', shape: [3], data_offsets: [0, 8] } }, new Uint8Array(8))), /expected 12/);
  assert.throws(() => parseSafetensors(build({ a: { dtype: 'I8', shape: [8], data_offsets: [0, 8] } }, new Uint8Array(8))), /unsupported dtype/);
  assert.throws(() => parseSafetensors(build({ a: { dtype: 'F32', shape: [2], data_offsets: [0, 8] }, b: { dtype: 'F32', shape: [1], data_offsets: [4, 8] } }, new Uint8Array(8))), /overlaps/);
  const bad = build(ok, new Uint8Array(8));
  bad[9] = 0x7b; // corrupt the JSON
  bad[8] = 0x5d;
  assert.throws(() => parseSafetensors(bad), /not valid JSON/);
});

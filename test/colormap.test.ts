// Colour maps (matplotlib endpoints and midpoints), linear / log / power scales, legend ticks and RGBA
// painting with masked cells, checked against hand-computed values.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  colormap,
  COLORMAP_NAMES,
  defaultLogFloor,
  formatTick,
  makeScale,
  MASK_RGB,
  paintRgba,
  rgbHex,
  sampleColormap,
  ticks,
} from '../lib/view/colormap';

const close = (a: number, b: number, tol: number, what = '') => assert.ok(Math.abs(a - b) <= tol, `${what} ${a} vs ${b} (±${tol})`);

test('colour maps: 256 entries, matplotlib endpoints and midpoints (exact 8-bit)', () => {
  for (const name of COLORMAP_NAMES) assert.equal(colormap(name).lut.length, 256 * 3);
  const expected: Record<string, [string, string, string]> = {
    // [t = 0, t = 0.5 (matplotlib's floor(0.5·256) = entry 128), t = 1]
    viridis: ['#440154', '#21918c', '#fde725'],
    magma: ['#000004', '#b73779', '#fcfdbf'],
    cividis: ['#00224e', '#7d7c78', '#fee838'],
  };
  for (const [name, [lo, mid, hi]] of Object.entries(expected)) {
    const n = name as 'viridis' | 'magma' | 'cividis';
    assert.equal(rgbHex(sampleColormap(n, 0)), lo, `${name}(0)`);
    assert.equal(rgbHex(sampleColormap(n, 0.5)), mid, `${name}(0.5)`);
    assert.equal(rgbHex(sampleColormap(n, 1)), hi, `${name}(1)`);
    // clamped outside [0, 1]
    assert.equal(rgbHex(sampleColormap(n, -3)), lo);
    assert.equal(rgbHex(sampleColormap(n, 7)), hi);
  }
  assert.equal(colormap().name, 'viridis');
});

test('colour maps are smooth: no channel jumps more than 4/255 between neighbouring entries', () => {
  for (const name of COLORMAP_NAMES) {
    const lut = colormap(name).lut;
    for (let i = 3; i < lut.length; i++) assert.ok(Math.abs(lut[i]! - lut[i - 3]!) <= 4, `${name} entry ${Math.floor(i / 3)}`);
  }
});

test('linear scale: (v − min)/(max − min), clamped; degenerate range → 0', () => {
  const s = makeScale({ kind: 'linear', min: 0, max: 2 });
  close(s.norm(0.5), 0.25, 1e-12);
  assert.equal(s.norm(-1), 0);
  assert.equal(s.norm(3), 1);
  assert.equal(makeScale({ kind: 'linear', min: 1, max: 1 }).norm(1), 0);
});

test('log scale: log10 with a floor (default 1e-4 × max, or 1e-6 when max ≤ 0)', () => {
  const s = makeScale({ kind: 'log', min: 0, max: 1 }); // floor 1e-4 → [−4, 0]
  assert.equal(s.logFloor, 1e-4);
  close(s.norm(1e-2), 0.5, 1e-12, 'log 1e-2');
  close(s.norm(1e-3), 0.25, 1e-12, 'log 1e-3');
  assert.equal(s.norm(0), 0);
  assert.equal(s.norm(1e-9), 0);
  assert.equal(s.norm(1), 1);
  assert.equal(defaultLogFloor(0), 1e-6);
  const e = makeScale({ kind: 'log', min: 0, max: 10, logFloor: 1e-3 }); // [−3, 1]
  close(e.norm(0.1), 0.5, 1e-12, 'explicit floor');
  const m = makeScale({ kind: 'log', min: 0.01, max: 1 }); // min above the floor is the low end: [−2, 0]
  close(m.norm(0.1), 0.5, 1e-12, 'min above floor');
});

test('power scale: linear normalisation, then ^gamma (default 0.5)', () => {
  const s = makeScale({ kind: 'power', min: 0, max: 4 });
  assert.equal(s.gamma, 0.5);
  close(s.norm(1), 0.5, 1e-12); // (1/4)^0.5
  const g = makeScale({ kind: 'power', gamma: 2, min: 0, max: 4 });
  close(g.norm(2), 0.25, 1e-12); // (2/4)^2
  assert.equal(g.norm(-1), 0);
  assert.equal(g.norm(9), 1);
  assert.throws(() => makeScale({ kind: 'power', gamma: 0, min: 0, max: 1 }));
});

test('ticks: nice values and clean labels for linear, log and power', () => {
  const lin = ticks(makeScale({ kind: 'linear', min: 0, max: 1 }), 5);
  assert.deepEqual(lin.map((t) => t.value), [0, 0.25, 0.5, 0.75, 1]);
  assert.deepEqual(lin.map((t) => t.label), ['0', '0.25', '0.5', '0.75', '1']);
  assert.deepEqual(lin.map((t) => t.t), [0, 0.25, 0.5, 0.75, 1]);

  const tenths = ticks(makeScale({ kind: 'linear', min: 0, max: 0.3 }), 4);
  assert.deepEqual(tenths.map((t) => t.label), ['0', '0.1', '0.2', '0.3']); // no float noise

  const log = ticks(makeScale({ kind: 'log', min: 0, max: 1 }), 5);
  assert.deepEqual(log.map((t) => t.label), ['1e-4', '0.001', '0.01', '0.1', '1']);
  log.forEach((t, i) => close(t.t, i / 4, 1e-12, 'log tick position'));

  const thinned = ticks(makeScale({ kind: 'log', min: 0, max: 1, logFloor: 1e-8 }), 3); // 9 decades → every 3rd
  assert.deepEqual(thinned.map((t) => t.label), ['1e-6', '0.001', '1']);

  for (const spec of [
    { kind: 'power' as const, gamma: 0.5, min: 0, max: 0.83 },
    { kind: 'linear' as const, min: -3, max: 17 },
    { kind: 'log' as const, min: 0, max: 0.37 },
  ]) {
    const ts = ticks(makeScale(spec), 6);
    assert.ok(ts.length >= 2 && ts.length <= 8, `${spec.kind}: ${ts.length} ticks`);
    for (let i = 0; i < ts.length; i++) {
      assert.ok(ts[i]!.t >= 0 && ts[i]!.t <= 1);
      if (i > 0) assert.ok(ts[i]!.value > ts[i - 1]!.value && ts[i]!.t >= ts[i - 1]!.t, 'ascending');
    }
  }
  assert.equal(formatTick(2.5e-5), '2.5e-5');
  assert.equal(formatTick(0.0038), '0.0038');
  assert.equal(formatTick(120000), '1.2e5');
});

test('paintRgba: colours from the map, masked and non-finite cells grey, alpha 255', () => {
  // 2×2: [0, 1; 0.5, NaN], causal mask hides (0, 1)
  const values = new Float32Array([0, 1, 0.5, NaN]);
  const out = new Uint8ClampedArray(16);
  paintRgba(values, 2, 2, makeScale({ kind: 'linear', min: 0, max: 1 }), 'viridis', out, (r, c) => c > r);
  const px = (i: number) => [...out.subarray(i * 4, i * 4 + 4)];
  assert.deepEqual(px(0), [0x44, 0x01, 0x54, 255]);
  assert.deepEqual(px(1), [...MASK_RGB, 255]);
  assert.deepEqual(px(2), [0x21, 0x91, 0x8c, 255]);
  assert.deepEqual(px(3), [...MASK_RGB, 255]);
  // grey is not a colour of any map, so masked cells never read as data
  for (const name of COLORMAP_NAMES) {
    const lut = colormap(name).lut;
    for (let i = 0; i < 256; i++) {
      const d = Math.abs(lut[3 * i]! - MASK_RGB[0]) + Math.abs(lut[3 * i + 1]! - MASK_RGB[1]) + Math.abs(lut[3 * i + 2]! - MASK_RGB[2]);
      assert.ok(d > 30, `${name} entry ${i} is too close to the mask grey`);
    }
  }
  assert.throws(() => paintRgba(values, 2, 2, makeScale({ kind: 'linear', min: 0, max: 1 }), 'magma', new Uint8ClampedArray(8)));
});

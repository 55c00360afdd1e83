// lib/view/streamingChart: the StreamingLLM chart's geometry — x over token positions 1 … tokens − 1 exactly,
// y over a nice perplexity axis covering every curve, one path vertex per token at the curve's value, the
// window-fill marker, and the i18n strings the component draws.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { movingPerplexity, runningPerplexity } from '../lib/analysis/streaming';
import { STRINGS, translate } from '../lib/i18n';
import { curve, streamingChartGeometry, STRATEGY_COLORS, type StreamingChartData } from '../lib/view/streamingChart';

const box = { left: 50, right: 450, top: 10, bottom: 210 };

/** A synthetic result: full flat at ln 2, window jumping to ln 8 after the window fills, sink in between. */
function data(n: number, window: number): StreamingChartData {
  const full = Array.from({ length: n }, () => Math.log(2));
  const win = full.map((x, i) => (i >= window ? Math.log(8) : x));
  const sink = full.map((x, i) => (i >= window ? Math.log(4) : x));
  const run = (nll: number[]) => ({ nll, perplexity: null, perplexityAfterFill: null });
  return { window, sink: 4, firstEvictedQuery: window, runs: { window: run(win), sink: run(sink), full: run(full) } };
}

/** Vertices of an "M x,y L x,y …" path. */
const vertices = (path: string) => path.split(' ').map((p) => p.slice(1).split(',').map(Number) as [number, number]);

test('x spans token positions 1 … n exactly; y covers every curve on a nice axis', () => {
  const d = data(200, 50);
  const g = streamingChartGeometry(d, box, 'moving', 10);
  assert.equal(g.x(1), box.left);
  assert.equal(g.x(200), box.right);
  assert.equal(g.y(g.yLo), box.bottom);
  assert.equal(g.y(g.yHi), box.top);
  assert.ok(g.yLo <= 2 && g.yHi >= 8, `${g.yLo}…${g.yHi}`);
  assert.deepEqual(g.yTicks.map((t) => t.label), ['2', '4', '6', '8']);
  assert.deepEqual(g.xTicks.map((t) => t.value), [50, 100, 150, 200]);
  for (const t of g.xTicks) assert.equal(t.at, g.x(t.value));
  assert.equal(g.fillX, g.x(51), 'the first prediction on a thinned cache is token 51 (query 50)');
});

test('one vertex per token at the curve value; running and moving curves from lib/analysis', () => {
  const d = data(120, 30);
  for (const mode of ['running', 'moving'] as const) {
    const g = streamingChartGeometry(d, box, mode, 16);
    assert.deepEqual(g.lines.map((l) => l.strategy), ['window', 'sink', 'full']);
    for (const l of g.lines) {
      assert.equal(l.color, STRATEGY_COLORS[l.strategy]);
      const want = mode === 'running' ? runningPerplexity(d.runs[l.strategy].nll) : movingPerplexity(d.runs[l.strategy].nll, 16);
      assert.deepEqual(l.values, want);
      assert.deepEqual(curve(d.runs[l.strategy].nll, mode, 16), want);
      const vs = vertices(l.path);
      assert.equal(vs.length, 120);
      vs.forEach(([x, y], i) => {
        assert.ok(Math.abs(x - g.x(i + 1)) <= 0.05, `x of vertex ${i}`);
        assert.ok(Math.abs(y - g.y(want[i]!)) <= 0.05, `y of vertex ${i}`);
      });
    }
  }
  // Moving perplexity over 16 reaches the window line's 8 sixteen tokens after the fill; running never does.
  const mov = streamingChartGeometry(d, box, 'moving', 16).lines[0]!.values;
  assert.ok(Math.abs(mov[30 + 15]! - 8) < 1e-9 && mov[30 + 14]! < 8);
  const run = streamingChartGeometry(d, box, 'running', 16).lines[0]!.values;
  assert.ok(run.at(-1)! < 8 && run.at(-1)! > 2);
});

test('a window that never fills has no marker; the three lines coincide', () => {
  const d = data(40, 64);
  const g = streamingChartGeometry(d, box, 'running');
  assert.equal(g.fillX, null);
  assert.equal(g.lines[0]!.path, g.lines[2]!.path);
  assert.ok(g.yHi > g.yLo, 'a flat curve still gets a non-empty axis');
});

test('every string of the chart exists in both languages', () => {
  const keys = Object.keys(STRINGS).filter((k) => k.startsWith('streaming.'));
  assert.ok(keys.length >= 12);
  for (const k of keys) {
    const e = STRINGS[k as keyof typeof STRINGS];
    assert.ok(e.en.trim() && e.zh.trim() && e.en !== e.zh, k);
    assert.match(e.zh, /[\u4e00-\u9fff]/, `${k}: zh has Chinese text`);
  }
  assert.equal(translate('zh', 'streaming.sink', { k: 4, rest: 124 }), '汇点：前 4 个 + 最近 124 个 token');
});

// Imported-attention files for test/importedViewBrowser.test.ts, built the same way in Node (the test) and in
// the page (test/browser/importedHarness.ts): a kvscope-format file with 2 layers × 2 heads (written with
// writeKvscopeAttention and read back), an output_only trajectory with ragged generated rows, and a ReAct
// trajectory with 2 llm_calls carrying attention. Deterministic; token strings include markup that must stay text.
import { parseAttentionTrajectory, parseKvscopeAttention, writeKvscopeAttention, type ImportedAttention, type ImportedLayer } from '../../lib/io/attention/index';

export type FixtureCase = 'kvscope' | 'trajectory' | 'react' | 'big';
/** 'big' (36 layers × 32 heads, 96 tokens, a Qwen3-8B-sized grid) is for looking at the layout, not asserted on. */
export const FIXTURE_CASES: readonly FixtureCase[] = ['kvscope', 'trajectory', 'react', 'big'];
export const XSS = '<script>alert(1)</script>';

const WORDS = ['<|im_start|>', 'user', '\n', XSS, ' What', ' is', ' the', ' capital', ' of', ' France', '?', '<|im_end|>', '\n', '<|im_start|>', 'assistant', '\n', ' The', ' capital', ' is', ' Paris', '.', ' It', ' has', ' a', ' river', ',', ' the', ' Seine', '.', '\t', ' Done', '.'];
export const tokensOf = (n: number) => Array.from({ length: n }, (_, i) => WORDS[i % WORDS.length]!);

/** Row of causal attention at position q: weight on key 0 (sink), on recent keys, and a k-dependent ripple. */
function row(q: number, sink: number, recent: number, seed: number): number[] {
  const w = Array.from({ length: q + 1 }, (_, k) => {
    let v = 0.3 + 0.25 * Math.sin(0.7 * k + seed) ** 2;
    if (k === 0) v += sink * (q + 1);
    if (q - k < 3) v += recent * (3 - (q - k));
    return v;
  });
  const s = w.reduce((a, b) => a + b, 0);
  return w.map((x) => x / s);
}

function kvscopeFile(): ImportedAttention {
  const T = 24;
  const layer = (index: number, specs: [number, number, number][]): ImportedLayer => {
    const H = specs.length;
    const data = new Float32Array(H * T * T).fill(NaN);
    specs.forEach(([sink, recent, seed], h) => {
      for (let q = 0; q < T; q++) row(q, sink, recent, seed).forEach((v, k) => (data[(h * T + q) * T + k] = v));
    });
    return { layer: index, label: `layer ${index}`, heads: H, queries: T, keys: T, data, queryPositions: Array.from({ length: T }, (_, i) => i) };
  };
  const a: ImportedAttention = {
    source: 'kvscope-attention',
    tokens: tokensOf(T),
    layers: [layer(3, [[0.02, 0.5, 1], [0.2, 0.1, 2]]), layer(27, [[0.6, 0.05, 3], [0.0, 1.5, 4]])],
    meta: { model: 'Qwen/Qwen3-8B', exporter: 'tools/export_attention.py', device: 'cuda', dtype: 'bfloat16' },
    notes: [],
    calls: [],
  };
  return parseKvscopeAttention(writeKvscopeAttention(a, 'json'));
}

export const TRAJ_T = 40;
export const TRAJ_CTX = 28;

function trajectoryData(T: number, ctx: number, sink: number, recent: number, seed: number) {
  const rows: number[][] = [];
  for (let q = ctx; q < T; q++) rows.push(row(q, sink, recent, seed));
  return { tokens: tokensOf(T), attention_matrix: rows, output_only: ctx > 0, ...(ctx > 0 ? { context_length: ctx } : {}), num_layers: 36, num_heads: 32 };
}

function trajectoryFile(): ImportedAttention {
  return parseAttentionTrajectory({
    id: 'run-7',
    timestamp: '2025-06-01T12:00:00',
    test_case: { category: 'sink', query: 'What is the capital of France?' },
    response: 'The capital is Paris.',
    tokens: tokensOf(TRAJ_T),
    attention_data: trajectoryData(TRAJ_T, TRAJ_CTX, 0.08, 0.4, 5),
    metadata: { model: 'Qwen/Qwen3-8B', device: 'cuda', temperature: 0.7, max_tokens: 256 },
  });
}

function reactFile(): ImportedAttention {
  return parseAttentionTrajectory({
    id: 'react-1',
    test_case: { category: 'react', query: 'Weather in Paris?' },
    metadata: { model: 'Qwen/Qwen3-8B', device: 'cuda', total_llm_calls: 3 },
    llm_calls: [
      { step_num: 1, step_type: 'thought', prompt: 'p1', response: 'r1', tokens: tokensOf(20), attention_data: trajectoryData(20, 0, 0.3, 0.2, 6) },
      { step_num: 2, step_type: 'action', prompt: 'p2', response: 'r2', tokens: tokensOf(26), attention_data: null },
      { step_num: 3, step_type: 'answer', prompt: 'p3', response: 'r3', tokens: tokensOf(30), attention_data: trajectoryData(30, 0, 0.01, 1.2, 7) },
    ],
  });
}

function bigFile(): ImportedAttention {
  const T = 96;
  const H = 32;
  const layers: ImportedLayer[] = Array.from({ length: 36 }, (_, L) => {
    const data = new Float32Array(H * T * T).fill(NaN);
    for (let h = 0; h < H; h++) {
      const sink = L < 2 ? 0.002 : 0.02 * (((h * 7 + L * 3) % 11) / 3);
      for (let q = 0; q < T; q++) row(q, sink, (h % 5) * 0.3, h + L).forEach((v, k) => (data[(h * T + q) * T + k] = v));
    }
    return { layer: L, label: `layer ${L}`, heads: H, queries: T, keys: T, data, queryPositions: Array.from({ length: T }, (_, i) => i) };
  });
  return { source: 'kvscope-attention', tokens: tokensOf(T), layers, meta: { model: 'Qwen/Qwen3-8B', device: 'cuda', dtype: 'bfloat16', exporter: 'tools/export_attention.py' }, notes: layers.map((l, i) => `layers[${i}] (${l.label}): rows sum to 1 within 3.0e-8 (max |sum − 1|)`), calls: [] };
}

export function fixture(c: FixtureCase): ImportedAttention {
  return c === 'kvscope' ? kvscopeFile() : c === 'trajectory' ? trajectoryFile() : c === 'react' ? reactFile() : bigFile();
}

export const fixtureName = (c: FixtureCase) => ({ kvscope: 'qwen3-8b-layers.json', trajectory: 'trajectory-output-only.json', react: 'react-run.json', big: 'qwen3-8b-all-layers.safetensors' })[c];

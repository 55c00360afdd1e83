// Memory the Step tab's session holds per step (issue 17): lib/generate/stepSession on the embedded model
// (kvscope-tiny, WASM in Node), at a 2,048-token context, keeping every query row (what the tab did before)
// and keeping only the rows near the cursor (keepRows = components/step/useStepSession KEEP_ROWS).
// Each mode: one prefill of 2,048 − STEPS tokens, then STEPS one-token steps to 2,048. Reports the bytes the
// rows hold (attention weights + logits, each buffer counted once), the bytes one step adds at the end, and
// the ArrayBuffer memory the process frees when the session is dropped.
//   node --import tsx bench/stepMemory.ts [--tokens 2048] [--steps 64]   (each mode runs in its own process)
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { readModelDir } from '../lib/cli/modelDir';
import { nodeOrt } from '../lib/cli/ort';
import { EngineSession } from '../lib/engine/session';
import { StepSession } from '../lib/generate/stepSession';
import { KEEP_ROWS } from '../components/step/useStepSession';
import { benchIds } from './common';

const arg = (name: string, dflt: number) => {
  const i = process.argv.indexOf(name);
  return i > 0 ? Number(process.argv[i + 1]) : dflt;
};
const TOKENS = arg('--tokens', 2048);
const STEPS = arg('--steps', 64);
const gc = (globalThis as { gc?: () => void }).gc;

/** Bytes the rows keep alive: each distinct buffer once (logits views share their run's buffer). */
function heldBytes(s: StepSession): number {
  const seen = new Set<ArrayBufferLike>();
  let n = 0;
  for (const r of s.rows) {
    if (!r) continue;
    for (const a of [...r.attention, ...(r.logits ? [r.logits] : [])]) {
      if (seen.has(a.buffer)) continue;
      seen.add(a.buffer);
      n += a.buffer.byteLength;
    }
  }
  return n;
}

const MB = (b: number) => `${(b / 2 ** 20).toFixed(1)} MB`;
const KB = (b: number) => `${(b / 1024).toFixed(1)} KB`;

const MODE = process.argv.includes('--mode') ? process.argv[process.argv.indexOf('--mode') + 1] : null;

if (MODE === null) {
  // Each mode in its own process, so the process figures of one do not include the other's garbage.
  console.log(`kvscope-tiny, ${TOKENS} tokens: prefill ${TOKENS - STEPS}, then ${STEPS} one-token steps`);
  for (const mode of ['all', 'kept']) {
    const out = execFileSync(process.execPath, ['--expose-gc', '--import', 'tsx', fileURLToPath(import.meta.url), '--mode', mode, '--tokens', String(TOKENS), '--steps', String(STEPS)], { encoding: 'utf8' });
    process.stdout.write(out);
  }
} else {
  const model = readModelDir('public/models/kvscope-tiny');
  const engine = await EngineSession.create(nodeOrt(), model.checkpoint, { graph: { logits: 'all', attention: 'full', attentionRows: 'all', presentKv: true } });
  const ids = benchIds(TOKENS, model.checkpoint.config.vocabSize);
  const label = MODE === 'all' ? 'every row (before)' : `keepRows ${KEEP_ROWS} (after)`;
  let s: StepSession | null = new StepSession(engine, ids, MODE === 'all' ? {} : { keepRows: KEEP_ROWS });
  await s.establish(TOKENS - STEPS);
  let before = heldBytes(s);
  let last = 0;
  const t0 = performance.now();
  for (let c = TOKENS - STEPS + 1; c <= TOKENS; c++) {
    await s.moveTo(c);
    const now = heldBytes(s);
    last = now - before;
    before = now;
  }
  const ms = (performance.now() - t0) / STEPS;
  // What dropping the session frees: the memory it held, as the process sees it.
  gc?.();
  const alive = process.memoryUsage().arrayBuffers;
  s = null;
  gc?.();
  const freed = alive - process.memoryUsage().arrayBuffers;
  console.log(`${label}: rows hold ${MB(before)} at ${TOKENS} tokens; the last step added ${KB(last)}; ${ms.toFixed(1)} ms per step` + (gc ? `; dropping the session frees ${MB(freed)} of ArrayBuffers` : ''));
  await engine.dispose();
}

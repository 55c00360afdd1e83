// One-token `extend` steps at a long context (issue 17): the K/V cache returned whole and replaced per step
// (graph kvLayout 'head', what the engine did before) against new rows appended in place ('position', what it
// does now on WASM). Each layout runs in its own process, so its memory figures are its own.
//   node --import tsx bench/extendSteps.ts [--model DIR] [--tokens 2048] [--steps 32]
// Prints per layout: median / p90 ms per step, bytes of K/V the step moves between JS and ORT, the JS
// ArrayBuffer memory after the prefill and its peak over the steps, and the process's peak RSS.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { readModelDir } from '../lib/cli/modelDir';
import { nodeOrt } from '../lib/cli/ort';
import { EngineSession } from '../lib/engine/session';
import { benchIds } from './common';

const argv = process.argv.slice(2);
const opt = (name: string, dflt: string) => (argv.includes(name) ? argv[argv.indexOf(name) + 1]! : dflt);
const MODEL = opt('--model', 'public/models/kvscope-tiny');
const TOKENS = Number(opt('--tokens', '2048'));
const STEPS = Number(opt('--steps', '32'));
const LAYOUT = argv.includes('--layout') ? opt('--layout', 'head') : null;
const MiB = (b: number) => (b / 2 ** 20).toFixed(1);
const hwmMiB = () => Number(/VmHWM:\s+(\d+)/.exec(readFileSync('/proc/self/status', 'utf8'))![1]) / 1024;

if (LAYOUT === null) {
  console.log(`extend steps: ${MODEL}, prefill ${TOKENS} tokens, then ${STEPS} one-token steps; Node ${process.version}`);
  console.log('layout    | ms/step median | p90   | K/V bytes per step (in + out) | JS buffers after prefill / peak | peak RSS');
  for (const layout of ['head', 'position']) {
    const out = execFileSync(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url), ...argv, '--layout', layout], { encoding: 'utf8' });
    process.stdout.write(out);
  }
} else {
  const model = readModelDir(MODEL);
  const c = model.checkpoint.config;
  const engine = await EngineSession.create(nodeOrt(), model.checkpoint, { graph: { kvLayout: LAYOUT as 'head' | 'position' } });
  const ids = benchIds(TOKENS + STEPS, c.vocabSize);
  await engine.prefill(ids.slice(0, TOKENS));
  const afterPrefill = process.memoryUsage().arrayBuffers;
  let peak = afterPrefill;
  const ms: number[] = [];
  for (let i = 0; i < STEPS; i++) {
    const t = performance.now();
    await engine.extend([ids[TOKENS + i]!]);
    ms.push(performance.now() - t);
    peak = Math.max(peak, process.memoryUsage().arrayBuffers);
  }
  ms.sort((a, b) => a - b);
  // 'head': the whole past goes in and the whole cache comes back (float32 K and V per layer);
  // 'position': the past goes in as it is kept and only the new position's K/V come back.
  const perPosition = c.numLayers * c.numKvHeads * c.headDim * 2 * 4;
  const moved = LAYOUT === 'head' ? 2 * perPosition * (TOKENS + STEPS / 2) : perPosition * (TOKENS + STEPS / 2) + perPosition;
  console.log(
    `${LAYOUT.padEnd(9)} | ${ms[Math.floor(STEPS / 2)]!.toFixed(1).padStart(14)} | ${ms[Math.floor(STEPS * 0.9)]!.toFixed(1).padStart(5)} | ${MiB(moved).padStart(25)} MiB | ${MiB(afterPrefill)} / ${MiB(peak)} MiB | ${hwmMiB().toFixed(0)} MiB`,
  );
  await engine.dispose();
}

// `npm run bench`: kvscope (onnxruntime-web WASM in Node) against PyTorch eager (training/py/model.py) on
// this machine. Every case runs in its own child process (thread count and VmHWM are per process).
//   (a) prefill 1,024 tokens on kvscope-tiny with every layer's per-head attention, logits and K/V
//   (b) one incremental step (extend by 1) at that 1,024-token context
//   (c) prefill 512 tokens of a Qwen3-0.6B-shaped model (random fp16 weights, generated on the fly), attention
//       reduced on-graph (mean over heads), logits at the last position; time and peak RSS
//   plus an investigation of where kvscope's time and memory go (graph/session variants, ORT profile).
// Writes bench/results.json. Flags: --quick (fewer repetitions, one thread count for (c)),
// --skip-ab, --skip-big, --skip-torch, --skip-investigation, --out FILE (instead of bench/results.json).

import { execFileSync, spawn } from 'node:child_process';
import { closeSync, existsSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expectedTensors, parseConfig } from '../lib/model/config';
import { benchIds, type CaseSpec, type OrtResult } from './common';
import { QWEN3_06B_CONFIG } from './randomWeights';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
/** The embedded default model's vocabulary size, from its config (it changes when the model is retrained). */
const TINY_VOCAB = (JSON.parse(readFileSync(join(ROOT, 'public/models/kvscope-tiny/config.json'), 'utf8')) as { vocab_size: number }).vocab_size;
const argv = new Set(process.argv.slice(2));
const QUICK = argv.has('--quick');
const SKIP_BIG = argv.has('--skip-big');
const SKIP_TORCH = argv.has('--skip-torch');
const SKIP_INV = argv.has('--skip-investigation');
const SKIP_AB = argv.has('--skip-ab');
const outArg = process.argv.indexOf('--out');
const OUT = outArg > 0 && process.argv[outArg + 1] ? process.argv[outArg + 1]! : 'bench/results.json';
if (outArg > 0) argv.delete(OUT);
const PY = '/usr/bin/python3';

// ---------------------------------------------------------------- machine load

/** Busy and total jiffies of all CPUs (from /proc/stat). */
function cpuJiffies(): { busy: number; total: number } {
  const f = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).slice(1).map(Number);
  const idle = (f[3] ?? 0) + (f[4] ?? 0);
  const total = f.slice(0, 8).reduce((a, b) => a + b, 0);
  return { busy: total - idle, total };
}
const HZ = 100;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Waits (at most maxMs) until the machine is nearly idle: other sessions may share these 2 cores. */
async function waitQuiet(maxMs = 30000): Promise<number> {
  const t0 = Date.now();
  let busy = 1;
  while (Date.now() - t0 < maxMs) {
    const a = cpuJiffies();
    await sleep(1000);
    const b = cpuJiffies();
    busy = (b.busy - a.busy) / Math.max(1, b.total - a.total);
    if (busy < 0.15) break;
  }
  return busy;
}

interface Child {
  stdout: string;
  wallMs: number;
  /** Share of the machine's CPU time used by other processes while the child ran (0…1). */
  otherLoad: number;
  quietBefore: number;
}

/** Runs one child; a child that ends without a RESULT line (or passes `timeoutMs`) gives `RESULT {"error": …}`. */
async function runChild(cmd: string, args: string[], input: string | undefined, env: NodeJS.ProcessEnv, childCpuMs: (out: string) => number, timeoutMs = 15 * 60 * 1000): Promise<Child> {
  const quietBefore = await waitQuiet();
  const a = cpuJiffies();
  const t0 = performance.now();
  // The child's stdout goes to a file, not a pipe: onnxruntime-web's profiler writing its trace to a
  // (non-blocking) pipe stalled the process in this setup.
  const dir = mkdtempSync(join(tmpdir(), 'kvscope-bench-'));
  const outPath = join(dir, 'stdout');
  const outFd = openSync(outPath, 'w');
  const stdout = await new Promise<string>((resolve, reject) => {
    const p = spawn(cmd, args, { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['pipe', outFd, 'pipe'] });
    let err = '';
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      p.kill('SIGKILL');
    }, timeoutMs);
    p.stderr?.on('data', (d: Buffer) => {
      err += d.toString();
      if (err.length > 20000) err = err.slice(-20000);
    });
    p.on('error', reject);
    p.on('close', (code, signal) => {
      clearTimeout(timer);
      closeSync(outFd);
      const s = readFileSync(outPath, 'utf8');
      rmSync(dir, { recursive: true, force: true });
      if (s.includes('RESULT ')) return resolve(s);
      const why = timedOut ? `no result after ${timeoutMs / 1000} s (killed)` : `exited ${code ?? signal}: ${err.trim().split('\n').slice(-3).join(' ').slice(0, 300)}`;
      resolve(`${s}\nRESULT ${JSON.stringify({ error: why, peakRssMB: NaN })}\n`);
    });
    if (input !== undefined) p.stdin?.end(input);
    else p.stdin?.end();
  });
  const wallMs = performance.now() - t0;
  const b = cpuJiffies();
  const totalCpuMs = ((b.busy - a.busy) / HZ) * 1000;
  const otherLoad = Math.max(0, (totalCpuMs - childCpuMs(stdout)) / (wallMs * cpus().length));
  return { stdout, wallMs, otherLoad, quietBefore };
}

const resultLine = (s: string) => JSON.parse(s.slice(s.lastIndexOf('RESULT ') + 7).split('\n')[0]!) as Record<string, unknown>;

// ---------------------------------------------------------------- cases

type OrtRun = OrtResult & { otherLoad: number; wallMs: number; profile?: ProfileSummary; processMedians?: number[] };

async function ort(spec: CaseSpec): Promise<OrtRun> {
  process.stderr.write(`  kvscope: ${spec.name} (threads ${spec.threads}) …`);
  const c = await runChild(process.execPath, ['--expose-gc', '--import', 'tsx', 'bench/ortCase.ts', JSON.stringify(spec)], undefined, {}, (o) => Number(resultLine(o).cpuMs ?? 0));
  const r = { ...(resultLine(c.stdout) as unknown as OrtResult) };
  r.spec ??= spec;
  const profile = spec.profile ? summariseProfile(c.stdout, spec.reps) : undefined;
  process.stderr.write(r.error ? ` error: ${r.error}\n` : ` median ${fmt(r.prefillMedianMs)} ms, peak ${fmt(r.peakRssMB, 0)} MB\n`);
  return { ...r, otherLoad: c.otherLoad, wallMs: c.wallMs, profile };
}

interface TorchResult {
  prefill_ms: number[];
  prefill_median_ms: number;
  prefill_min_ms: number;
  step_ms?: number[];
  step_median_ms?: number;
  step_min_ms?: number;
  peak_rss_mb: number;
  cpu_ms: number;
  num_threads: number;
  torch: string;
  dtype: string;
  blas: string;
  checksum: number[];
  attention_shape: number[];
  logits_shape: number[];
  otherLoad: number;
  /** OPENBLAS_NUM_THREADS used (torch.set_num_threads is `num_threads`). */
  blasThreads: number;
  error?: string;
}

let torchAvailable: string | false | undefined;
function torchVersion(): string | false {
  if (torchAvailable !== undefined) return torchAvailable;
  try {
    torchAvailable = execFileSync(PY, ['-c', 'import torch, numpy; print(torch.__version__)'], { encoding: 'utf8' }).trim();
  } catch {
    torchAvailable = false;
  }
  return torchAvailable;
}

async function torch(model: 'tiny' | 'qwen3-0.6b', threads: number, tokens: number, warmup: number, reps: number, stepReps: number, blasThreads = threads): Promise<TorchResult | undefined> {
  if (SKIP_TORCH || !torchVersion()) return undefined;
  process.stderr.write(`  PyTorch: ${model} (torch threads ${threads}, OpenBLAS threads ${blasThreads}) …`);
  const vocab = model === 'tiny' ? TINY_VOCAB : (QWEN3_06B_CONFIG.vocab_size as number);
  const spec = { model, threads, warmup, reps, step_reps: stepReps, ids: benchIds(tokens + 1, vocab), config: model === 'tiny' ? undefined : QWEN3_06B_CONFIG };
  const env = { OPENBLAS_NUM_THREADS: String(blasThreads), OMP_NUM_THREADS: String(threads), MKL_NUM_THREADS: String(threads) };
  try {
    const c = await runChild(PY, ['bench/torch_bench.py'], JSON.stringify(spec), env, (o) => Number(resultLine(o).cpu_ms ?? 0));
    const r = resultLine(c.stdout) as unknown as TorchResult;
    if (r.error) throw new Error(r.error);
    process.stderr.write(` median ${fmt(r.prefill_median_ms)} ms\n`);
    return { ...r, otherLoad: c.otherLoad, blasThreads };
  } catch (e) {
    process.stderr.write(` failed: ${(e as Error).message.slice(0, 300)}\n`);
    return undefined;
  }
}

// ---------------------------------------------------------------- ORT profile

interface ProfileSummary {
  runMs: number;
  byOp: { op: string; ms: number; count: number }[];
  top: { node: string; ms: number; shapes: string }[];
}

/** Kernel time per op type, averaged over the last `reps` runs of an onnxruntime-web profile trace. */
function summariseProfile(stdout: string, reps: number): ProfileSummary | undefined {
  const i = stdout.startsWith('[') ? -1 : stdout.indexOf('\n[');
  const j = stdout.indexOf('\n]', i + 1);
  if ((i < 0 && !stdout.startsWith('[')) || j < 0) return undefined;
  type Ev = { cat: string; name: string; dur: number; ts: number; args: { op_name?: string; input_type_shape?: unknown } };
  const ev = JSON.parse(stdout.slice(i + 1, j + 2)) as Ev[];
  const runs = ev.filter((e) => e.cat === 'Session' && e.name === 'model_run').slice(-reps);
  const inRun = (e: Ev) => runs.some((r) => e.ts >= r.ts && e.ts <= r.ts + r.dur);
  const byOp = new Map<string, { ms: number; count: number }>();
  const byNode = new Map<string, { ms: number; shapes: string }>();
  for (const e of ev) {
    if (e.cat !== 'Node' || !e.name.endsWith('_kernel_time') || !inRun(e)) continue;
    const op = e.args.op_name ?? '?';
    const a = byOp.get(op) ?? { ms: 0, count: 0 };
    a.ms += e.dur / 1000 / runs.length;
    a.count += 1 / runs.length;
    byOp.set(op, a);
    const n = byNode.get(e.name) ?? { ms: 0, shapes: JSON.stringify(e.args.input_type_shape ?? '') };
    n.ms += e.dur / 1000 / runs.length;
    byNode.set(e.name, n);
  }
  return {
    runMs: runs.reduce((a, r) => a + r.dur / 1000, 0) / runs.length,
    byOp: [...byOp].map(([op, v]) => ({ op, ms: v.ms, count: Math.round(v.count) })).sort((a, b) => b.ms - a.ms),
    top: [...byNode].map(([node, v]) => ({ node: node.replace(/_kernel_time$/, ''), ms: v.ms, shapes: v.shapes })).sort((a, b) => b.ms - a.ms).slice(0, 8),
  };
}

// ---------------------------------------------------------------- helpers

function fmt(x: number | undefined, digits = 1): string {
  return x === undefined || !Number.isFinite(x) ? '—' : x.toFixed(digits);
}
const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length === 0 ? NaN : s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};
function table(head: string[], rows: (string | number)[][]): string {
  const cells = [head, ...rows.map((r) => r.map(String))];
  const w = head.map((_, i) => Math.max(...cells.map((r) => (r[i] ?? '').length)));
  const line = (r: string[]) => '| ' + r.map((c, i) => (i === 0 ? c.padEnd(w[i]!) : c.padStart(w[i]!))).join(' | ') + ' |';
  return [line(head), '|' + w.map((n, i) => (i === 0 ? '-'.repeat(n + 1) + '-' : '-'.repeat(n + 1) + ':')).join('|') + '|', ...rows.map((r) => line(r.map(String)))].join('\n');
}
const maxAbs = (a?: number[], b?: number[]) => (a && b && a.length && b.length ? Math.max(...a.map((x, i) => Math.abs(x - (b[i] ?? NaN)))) : undefined);

function machine() {
  const sh = (c: string) => {
    try {
      return execFileSync('bash', ['-c', c], { encoding: 'utf8' }).trim();
    } catch {
      return '';
    }
  };
  const ortPkg = JSON.parse(readFileSync(join(ROOT, 'node_modules/onnxruntime-web/package.json'), 'utf8')) as { version: string };
  return {
    date: new Date().toISOString(),
    lscpu: sh('lscpu | head -20'),
    nproc: Number(sh('nproc')),
    memory: sh("free -m | awk '/Mem:/{print $2\" MiB\"}'"),
    node: process.version,
    onnxruntimeWeb: ortPkg.version,
    torch: torchVersion() || 'not available',
    python: sh(`${PY} --version`),
    blas: sh('readlink -f /etc/alternatives/libblas.so.3-x86_64-linux-gnu'),
    loadAverageAtStart: sh('cat /proc/loadavg'),
  };
}

// ---------------------------------------------------------------- main

async function main() {
  const info = machine();
  process.stderr.write(`kvscope bench — ${info.date}, ${info.nproc} CPUs, node ${info.node}, onnxruntime-web ${info.onnxruntimeWeb}, torch ${info.torch}\n`);
  const reps = QUICK ? 5 : 12;
  // This VM's speed varies from process to process (±30 %): every case runs in several processes and
  // the repetitions of all of them are pooled.
  const rounds = QUICK ? 1 : 3;
  const stepReps = QUICK ? 10 : 30;
  const out: Record<string, unknown> = { machine: info, command: `npm run bench${process.argv.length > 2 ? ' -- ' + process.argv.slice(2).join(' ') : ''}` };

  // ORT's default thread count in Node (no numThreads set).
  const defaultThreads = (await ort({ name: 'default threads probe', model: 'tiny', path: 'engine', threads: 0, tokens: 16, warmup: 0, reps: 1, stepReps: 0, graph: {} })).numThreads;
  out.ortDefaultThreads = defaultThreads;

  // ---------------- (a) + (b)
  const ab: Record<string, unknown>[] = [];
  if (!SKIP_AB) process.stderr.write('(a)/(b) kvscope-tiny, 1,024 tokens, full attention + logits + K/V\n');
  for (const threads of SKIP_AB ? [] : [1, 2]) {
    const kv: OrtRun[] = [];
    const byBlas = new Map<number, TorchResult[]>();
    // PyTorch: torch.set_num_threads(threads); OpenBLAS threads 1 or `threads` (oversubscription on this
    // 2-vCPU VM can make 2 BLAS threads slower): both are run, the faster one is compared.
    const blasOptions = threads > 1 ? [1, threads] : [1];
    for (let r = 0; r < rounds; r++) {
      kv.push(await ort({ name: `engine default, ${threads} thread(s)`, model: 'tiny', path: 'engine', threads, tokens: 1024, warmup: 3, reps, stepReps, graph: {} }));
      for (const bt of blasOptions) {
        const t = await torch('tiny', threads, 1024, 3, reps, stepReps, bt);
        if (t) byBlas.set(bt, [...(byBlas.get(bt) ?? []), t]);
      }
    }
    const torchBy = [...byBlas].map(([bt, ts]) => ({ blasThreads: bt, prefillMedianMs: median(ts.flatMap((t) => t.prefill_ms)), stepMedianMs: median(ts.flatMap((t) => t.step_ms ?? [])) }));
    const bestBlas = torchBy.sort((a, b) => a.prefillMedianMs - b.prefillMedianMs)[0]?.blasThreads;
    const pt = bestBlas === undefined ? [] : byBlas.get(bestBlas)!;
    const kPre = kv.flatMap((k) => k.prefillMs ?? []);
    const kStep = kv.flatMap((k) => k.stepMs ?? []);
    const tPre = pt.flatMap((t) => t.prefill_ms);
    const tStep = pt.flatMap((t) => t.step_ms ?? []);
    ab.push({
      threads,
      kvscope: { prefillMedianMs: median(kPre), prefillMinMs: Math.min(...kPre), stepMedianMs: median(kStep), stepMinMs: Math.min(...kStep), peakRssMB: Math.max(...kv.map((k) => k.peakRssMB)), outputBytes: kv[0]?.outputBytes, otherLoad: kv.map((k) => k.otherLoad) },
      torch: pt.length ? { blasThreads: bestBlas, byBlasThreads: torchBy, prefillMedianMs: median(tPre), prefillMinMs: Math.min(...tPre), stepMedianMs: median(tStep), stepMinMs: Math.min(...tStep), peakRssMB: Math.max(...pt.map((t) => t.peak_rss_mb)), otherLoad: pt.map((t) => t.otherLoad), attentionShape: pt[0]!.attention_shape, logitsShape: pt[0]!.logits_shape } : undefined,
      ratio: pt.length ? median(kPre) / median(tPre) : undefined,
      ratioOfMins: pt.length ? Math.min(...kPre) / Math.min(...tPre) : undefined,
      stepShareOfPrefill: median(kStep) / median(kPre),
      logitsMaxAbsDiff: maxAbs(kv[0]?.checksum, pt[0]?.checksum),
      raw: { kvscope: kv, torch: [...byBlas.values()].flat() },
    });
  }
  if (!SKIP_AB) out.ab = ab;
  writeFileSync(join(ROOT, OUT), JSON.stringify(out, null, 1) + '\n');

  // ---------------- investigation (tiny, 1 thread)
  if (!SKIP_INV) {
    process.stderr.write('investigation: kvscope-tiny variants, 1 thread\n');
    const v = (name: string, graph: CaseSpec['graph'], session?: CaseSpec['session'], profile = false): CaseSpec => ({
      name, model: 'tiny', path: 'lib', threads: 1, tokens: 1024, warmup: 2, reps: QUICK ? 5 : 9, stepReps: 0, graph, session, profile,
    });
    // The fp16 rows get the engine's fp16 session settings (lib/engine/session.ts), as the engine would use.
    const fp16Session = { extra: { optimization: { constant_folding_max_output_size_in_bytes: String(1 << 20), disable_specified_optimizers: 'FuseFp16InitializerToFp32NodeTransformer' } } };
    const variants = [
      v('lib graph, bare session (as engine)', {}),
      v('ORT profile of the same', {}, undefined, true),
      v("logits 'last'", { logits: 'last' }),
      v("attention 'none'", { attention: 'none' }),
      v("attention 'none', logits 'none'", { attention: 'none', logits: 'none' }),
      v("attention 'mean' (heads reduced on-graph)", { attention: 'mean' }),
      v("attention 'mean' + attentionInLayer", { attention: 'mean', attentionInLayer: true }),
      v('externalData (weights streamed to ORT)', { externalData: true }),
      v("weights 'float16'", { weights: 'float16' }, fp16Session),
      v("weights 'float16' + castOnDemand + lmHeadChunks 8", { weights: 'float16', castOnDemand: true, lmHeadChunks: 8 }, fp16Session),
      v("graphOptimizationLevel 'disabled'", {}, { graphOptimizationLevel: 'disabled' }),
      v("graphOptimizationLevel 'basic'", {}, { graphOptimizationLevel: 'basic' }),
      v("graphOptimizationLevel 'extended'", {}, { graphOptimizationLevel: 'extended' }),
    ];
    variants.push({ ...variants[0]!, name: 'lib graph, bare session, 2 threads', threads: 2 });
    variants.push({ ...variants[0]!, name: "2 threads + logits 'last'", threads: 2, graph: { logits: 'last' } });
    const inv: OrtRun[] = [];
    for (const s of variants) {
      const runs: OrtRun[] = [];
      for (let r = 0; r < (s.profile ? 1 : rounds); r++) runs.push(await ort(s));
      const all = runs.flatMap((x) => x.prefillMs ?? []);
      inv.push({ ...runs[0]!, prefillMs: all, prefillMedianMs: median(all), prefillMinMs: Math.min(...all), peakRssMB: Math.max(...runs.map((x) => x.peakRssMB)), otherLoad: Math.max(...runs.map((x) => x.otherLoad)), processMedians: runs.map((x) => x.prefillMedianMs ?? NaN) } as OrtRun);
    }
    out.investigation = inv;
    writeFileSync(join(ROOT, OUT), JSON.stringify(out, null, 1) + '\n');
  }

  // ---------------- (c) Qwen3-0.6B shape, 512 tokens
  if (!SKIP_BIG) {
    process.stderr.write('(c) Qwen3-0.6B shape (random fp16 weights), 512 tokens, attention mean, logits last\n');
    const fold = { optimization: { constant_folding_max_output_size_in_bytes: String(1 << 20) } };
    const noFuse = { 'optimization.disable_specified_optimizers': 'FuseFp16InitializerToFp32NodeTransformer' };
    const g = { weights: 'float16', attention: 'mean', logits: 'last' } as const;
    // lib/model/graph.ts's memory options (once bench proposals): external data, on-demand casts, chunked head, attention in layer.
    const best = { externalData: true, lmHeadChunks: 8, castOnDemand: true, attentionInLayer: true };
    const c = (name: string, path: CaseSpec['path'], threads: number, session?: CaseSpec['session'], graph?: CaseSpec['graph'], externalSource?: CaseSpec['externalSource'], reps = 2, profile = false): CaseSpec => ({
      name, model: 'qwen3-0.6b', path, threads, tokens: 512, warmup: 1, reps, stepReps: 0, graph: { ...g, ...graph }, session, externalSource, profile,
    });
    const big: OrtRun[] = [];
    const cases: CaseSpec[] = [
      c('engine as shipped (graphOptimizationLevel all)', 'engine', 2),
      c('engine + fold limit 1 MiB', 'engine', 2, { extra: fold }),
      c('engine + fold limit + FuseFp16 off (session.ts patch only)', 'engine', 2, { extra: { ...fold, ...noFuse } }),
      c("lib graph, level 'disabled'", 'lib', 2, { graphOptimizationLevel: 'disabled' }),
      { ...c('memory options: external data (streamed) + on-demand casts + attention in layer + fold limit − FuseFp16', 'lib', 2, { extra: { ...fold, ...noFuse } }, best, 'lazy', QUICK ? 2 : 3), stepReps: 3 },
      c('engine with the memory options (external data in one JS buffer)', 'engine', 2, undefined, best),
    ];
    if (!QUICK) {
      cases.push(
        c('memory options, 1 thread', 'lib', 1, { extra: { ...fold, ...noFuse } }, best, 'lazy'),
        c('memory options, weights in one JS buffer (whole shard in memory)', 'lib', 2, { extra: { ...fold, ...noFuse } }, best, 'buffer'),
        c('memory options with FuseFp16 left on (its casts are not constant: no effect)', 'lib', 2, { extra: fold }, best, 'lazy'),
        c('memory options without castOnDemand / attentionInLayer', 'lib', 2, { extra: { ...fold, ...noFuse } }, { externalData: true, lmHeadChunks: 8 }, 'lazy'),
        c('memory options + session.disable_prepacking', 'lib', 2, { extra: { ...fold, ...noFuse, session: { disable_prepacking: '1' } } }, best, 'lazy'),
        c('memory options + enableCpuMemArena + enableMemPattern', 'lib', 2, { extra: { ...fold, ...noFuse }, enableCpuMemArena: true, enableMemPattern: true }, best, 'lazy'),
        // ORT profiling with 2 WASM threads hung (process asleep, no output) in this setup: profile on 1 thread.
        c('memory options, ORT profile (1 thread)', 'lib', 1, { extra: { ...fold, ...noFuse } }, best, 'lazy', 1, true),
      );
    }
    for (const s of cases) big.push(await ort(s));
    const pt: TorchResult[] = [];
    for (const [threads, bt] of QUICK ? [[2, 2]] : [[1, 1], [2, 1], [2, 2]]) {
      const t = await torch('qwen3-0.6b', threads!, 512, 1, QUICK ? 2 : 3, 0, bt);
      if (t) pt.push(t);
    }
    const cfg = parseConfig(QWEN3_06B_CONFIG);
    let params = 0;
    for (const [, shape] of expectedTensors(cfg)) params += shape.reduce((a, b) => a * b, 1);
    out.c = { parameters: params, fp16WeightMB: (2 * params) / 2 ** 20, kvscope: big, torch: pt };
  }

  writeFileSync(join(ROOT, OUT), JSON.stringify(out, null, 1) + '\n');
  report(out);
}

// ---------------------------------------------------------------- report

function report(out: Record<string, unknown>) {
  const m = out.machine as ReturnType<typeof machine>;
  const lines: string[] = [];
  lines.push(`\nkvscope benchmark, ${m.date}`);
  lines.push(`machine: ${m.nproc} CPUs (${/Model name:\s*(.*)/.exec(m.lscpu)?.[1] ?? '?'}), ${m.memory}; node ${m.node}; onnxruntime-web ${m.onnxruntimeWeb} (WASM, SIMD); torch ${m.torch}; BLAS ${m.blas}`);
  lines.push(`onnxruntime-web default ort.env.wasm.numThreads in Node: ${String(out.ortDefaultThreads)}`);
  const ab = (out.ab ?? []) as { threads: number; kvscope: Record<string, number>; torch?: Record<string, number>; ratio?: number; ratioOfMins?: number; stepShareOfPrefill: number; logitsMaxAbsDiff?: number }[];
  if (ab.length) {
    lines.push('\n(a) prefill 1,024 tokens, kvscope-tiny, all-layer per-head attention + logits (all positions) + K/V');
    lines.push('(b) one incremental step (extend by 1 token) at a 1,024-token context');
    lines.push(
      table(
        ['threads', 'kvscope prefill ms (median / min)', 'PyTorch prefill ms (median / min)', 'ratio (target ≤ 1.0)', 'kvscope step ms (median)', 'step ÷ prefill (target ≤ 5 %)', 'PyTorch step ms (median)'],
        ab.map((r) => [
          r.torch ? `${r.threads} (PyTorch BLAS ${r.torch.blasThreads})` : String(r.threads),
          `${fmt(r.kvscope.prefillMedianMs)} / ${fmt(r.kvscope.prefillMinMs)}`,
          r.torch ? `${fmt(r.torch.prefillMedianMs)} / ${fmt(r.torch.prefillMinMs)}` : 'n/a',
          r.ratio ? `${fmt(r.ratio, 2)} (mins ${fmt(r.ratioOfMins, 2)})` : 'n/a',
          fmt(r.kvscope.stepMedianMs, 2),
          `${fmt(100 * r.stepShareOfPrefill, 2)} %`,
          r.torch ? fmt(r.torch.stepMedianMs, 2) : 'n/a',
        ]),
      ),
    );
    for (const r of ab as unknown as { threads: number; raw: { kvscope: OrtRun[]; torch: TorchResult[] } }[]) {
      lines.push(`other processes' share of the CPUs during the ${r.threads}-thread runs: kvscope ${r.raw.kvscope.map((k) => fmt(100 * k.otherLoad, 0) + ' %').join(', ')}; PyTorch ${r.raw.torch.map((t) => fmt(100 * t.otherLoad, 0) + ' %').join(', ')}`);
    }
    if (ab[0]?.logitsMaxAbsDiff !== undefined) lines.push(`same token ids; last-position logits agree with PyTorch to ${ab[0].logitsMaxAbsDiff.toExponential(1)}`);
  }
  const inv = out.investigation as OrtRun[] | undefined;
  if (inv) {
    lines.push('\nInvestigation (kvscope-tiny, 1,024 tokens, session.run wall time incl. output copies)');
    lines.push(table(['variant', 'threads', 'median ms', 'min ms', 'per-process medians', 'outputs MB', 'peak RSS MB', 'other load'], inv.map((r) => [r.spec.name, String(r.spec.threads), fmt(r.prefillMedianMs), fmt(r.prefillMinMs), (r.processMedians ?? []).map((x) => fmt(x, 0)).join(', '), fmt((r.outputBytes ?? 0) / 1e6), fmt(r.peakRssMB, 0), `${fmt(100 * r.otherLoad, 0)} %`])));
    const prof = inv.find((r) => r.profile)?.profile;
    if (prof) {
      lines.push(`\nORT profile (1 thread): kernel time per op type, run ${fmt(prof.runMs)} ms`);
      lines.push(table(['op', 'ms / run', 'nodes'], prof.byOp.slice(0, 10).map((o) => [o.op, fmt(o.ms), String(o.count)])));
    }
  }
  const c = out.c as { kvscope: OrtRun[]; torch: TorchResult[]; fp16WeightMB: number } | undefined;
  if (c) {
    lines.push(`\n(c) prefill 512 tokens, Qwen3-0.6B shape, random fp16 weights (${fmt(c.fp16WeightMB, 0)} MiB), attention mean over heads, logits last`);
    lines.push(
      table(
        ['case', 'threads', 'create s', 'prefill s (median)', 'step s', 'peak RSS MB (target ≤ 1,536)', 'note'],
        c.kvscope.map((r) => [r.spec.name, String(r.spec.threads), fmt((r.createMs ?? NaN) / 1000), fmt((r.prefillMedianMs ?? NaN) / 1000, 2), fmt((r.stepMedianMs ?? NaN) / 1000, 2), fmt(r.peakRssMB, 0), r.error ? `error: ${r.error.slice(0, 60)}` : '']),
      ),
    );
    if (c.torch.length) {
      lines.push(table(['PyTorch eager (float32, OpenBLAS)', 'torch threads', 'BLAS threads', 'prefill s (median / min)', 'peak RSS MB'], c.torch.map((t) => ['forward, mean attention, last logits', String(t.num_threads), String(t.blasThreads), `${fmt(t.prefill_median_ms / 1000, 2)} / ${fmt(t.prefill_min_ms / 1000, 2)}`, fmt(t.peak_rss_mb, 0)])));
      const bestTorch = [...new Set(c.torch.map((t) => t.num_threads))].map((n) => c.torch.filter((t) => t.num_threads === n).sort((a, b) => a.prefill_median_ms - b.prefill_median_ms)[0]!);
      for (const t of bestTorch) {
        const k = c.kvscope.find((r) => r.spec.path === 'lib' && r.spec.graph.castOnDemand === true && r.spec.externalSource !== 'buffer' && r.spec.threads === t.num_threads && !r.error && !r.spec.profile);
        if (k) lines.push(`ratio kvscope (memory options) ÷ PyTorch at ${t.num_threads} thread(s): ${fmt((k.prefillMedianMs ?? NaN) / t.prefill_median_ms, 2)} (target ≤ 1.0); logits agree to ${maxAbs(k.checksum, t.checksum)?.toExponential(1) ?? '—'}`);
      }
    }
  }
  const bigProf = c?.kvscope.find((r) => r.profile)?.profile;
  if (bigProf) {
    lines.push(`\nORT profile of (c) memory options (1 thread): kernel time per op type, run ${fmt(bigProf.runMs / 1000, 2)} s`);
    lines.push(table(['op', 'ms / run', 'nodes'], bigProf.byOp.slice(0, 10).map((o) => [o.op, fmt(o.ms), String(o.count)])));
  }
  lines.push(`\nwritten: ${OUT}`);
  process.stdout.write(lines.join('\n') + '\n');
}

if (!existsSync(join(ROOT, 'node_modules/onnxruntime-web'))) {
  process.stderr.write('node_modules missing: run `ONNXRUNTIME_NODE_INSTALL=skip npm ci` first\n');
  process.exit(1);
}
main().catch((e: Error) => {
  process.stderr.write(`bench failed: ${e.stack ?? e.message}\n`);
  process.exit(1);
});

// The token stepper over a real engine: a timeline of token ids (the prompt, or a prefix of it plus
// generated tokens), a cursor (how many of them are in the engine's K/V cache) and, per cached position,
// the query row that computed it (attention of every layer and head over the keys before it, and its
// logits row). Moves go through lib/generate/stepper.ts planMove: any step or jump forward is ONE extend,
// any step or jump back ONE fork; nothing is re-run from position 0 except to (re)establish the cache at
// the start, or when another user of the same engine has changed the cache since (then one prefill of
// the timeline up to the cursor). Generation runs lib/generate/generate.ts on the same cache.
// Memory: a row at position p holds layers × heads × (p + 1) weights, so keeping every row is O(T²). With
// `keepRows` only the rows near the cursor (and row 0) are kept — memory linear in T — and a step back to a
// row no longer kept re-decodes that one token (a fork one back and a one-token extend, 'redo').
// No DOM: EngineClient (the page's worker) and EngineSession (Node) both fit StepEngine.
import type { Tensor } from '../tensor';
import { generate, type GenerateOptions, type GenerateResult } from './generate';
import { CodedError } from '../i18n/message';
import { attentionRow, planMove } from './stepper';

/** What an engine run returns that the stepper reads (EngineClient's and EngineSession's results fit). */
export interface StepRun {
  /** [new tokens or 1, vocab]. */
  logits?: Tensor;
  /** Per layer [heads, rows, keys]. */
  attention: Tensor[];
  /** Absolute positions of the attention rows. */
  rows: number[];
  pastLength: number;
  length: number;
  ms?: number;
}

export interface StepEngine {
  prefill(ids: number[]): Promise<StepRun>;
  extend(ids: number[]): Promise<StepRun>;
  fork(length: number): unknown;
  /** Ids in the engine's cache as far as the engine knows: used to notice that someone else changed it. */
  readonly ids?: readonly number[];
  readonly length: number;
}

/** Which operation computed a row. */
export type Via = 'prefill' | 'step' | 'jump' | 'generate' | 'redo';

export interface Row {
  position: number;
  /** Per layer: [heads, position + 1] (the causal row, every head), copied out of the run's tensor. */
  attention: Float32Array[];
  heads: number;
  /** The logits row that predicts position + 1 (a view into the run's logits; a copy with keepRows), or null when the run had none for it. */
  logits: Float32Array | null;
  via: Via;
  /** Size of the run that computed it (1 for a step). */
  runTokens: number;
}

export interface Op {
  kind: 'prefill' | 'extend' | 'fork';
  /** Cache length before and after. */
  from: number;
  to: number;
  via: Via | 'back';
  ms: number;
  /** A prefill that was needed because the cache no longer held this timeline. */
  resync?: boolean;
}

function sameIds(a: readonly number[], b: readonly number[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

export interface StepSessionOptions {
  /**
   * Rows kept before the cursor (positions cursor − keepRows … cursor − 1; row 0 too); older ones are
   * dropped and recomputed by one re-decode when a step back needs them. Default: every row.
   */
  keepRows?: number;
}

export class StepSession {
  /** The timeline the cursor walks. */
  seq: number[];
  /** The prompt (restored by backToPrompt). */
  readonly prompt: number[];
  /** Where generated tokens start in seq, or null when seq is the prompt. */
  genStart: number | null = null;
  /** Bumped whenever seq changes (views key their derived tokens on it). */
  revision = 0;
  /** Tokens in the cache (0 until established). */
  cursor = 0;
  /** rows[p]: the query row of position p, for p < cursor (with keepRows: only those near the cursor). */
  rows: (Row | undefined)[] = [];
  /** The operations run, latest last (at most 50 kept). */
  ops: Op[] = [];
  /** How many operations of each kind ran since the session began (prefills, one-token and chunked extends, forks). */
  counts = { prefill: 0, resync: 0, step: 0, jump: 0, generate: 0, fork: 0, redo: 0 };
  private chain: Promise<unknown> = Promise.resolve();
  private readonly keepRows: number;
  /** No row below this position is held except row 0 (where the next pruning starts). */
  private keptFrom = 1;

  constructor(
    private readonly engine: StepEngine,
    prompt: readonly number[],
    opts: StepSessionOptions = {},
  ) {
    this.prompt = [...prompt];
    this.seq = [...prompt];
    const k = opts.keepRows ?? Infinity;
    if (!(k >= 1)) throw new Error(`keepRows must be at least 1 (got ${k})`);
    this.keepRows = k;
  }

  /** Drops the rows before cursor − keepRows (row 0 stays: it is tiny, and the cursor's lowest place). */
  private prune(): void {
    if (this.keepRows === Infinity) return;
    const below = Math.min(this.cursor - this.keepRows, this.rows.length);
    for (let q = Math.max(1, this.keptFrom); q < below; q++) this.rows[q] = undefined;
    this.keptFrom = Math.max(this.keptFrom, below);
  }

  /** Runs `fn` after everything queued before it (moves never interleave). */
  private queue<T>(fn: () => Promise<T>): Promise<T> {
    const next = this.chain.then(fn, fn);
    this.chain = next.catch(() => undefined);
    return next;
  }

  private log(op: Op): void {
    if (op.kind === 'prefill') this.counts[op.resync ? 'resync' : 'prefill']++;
    else if (op.via === 'redo') this.counts.redo++;
    else if (op.kind === 'fork') this.counts.fork++;
    else if (op.via !== 'prefill' && op.via !== 'back') this.counts[op.via]++;
    this.ops.push(op);
    if (this.ops.length > 50) this.ops.splice(0, this.ops.length - 50);
  }

  /** Whether the engine's cache holds exactly seq[0 … cursor). */
  inSync(): boolean {
    if (this.cursor === 0) return false;
    if (this.engine.length !== this.cursor) return false;
    return this.engine.ids === undefined || sameIds(this.engine.ids, this.seq.slice(0, this.cursor));
  }

  /** Stores the rows of a run whose new tokens start at `start`. */
  private record(r: StepRun, start: number, via: Via): void {
    const count = r.length - r.pastLength;
    if (r.pastLength !== start) throw new CodedError('msg.engine.step.position', { ran: r.pastLength, expected: start });
    const V = r.logits ? r.logits.dims[r.logits.dims.length - 1]! : 0;
    const logitRows = r.logits && V > 0 ? r.logits.data.length / V : 0;
    this.rows.length = start;
    const bounded = this.keepRows !== Infinity;
    const from = bounded ? Math.max(start, r.length - this.keepRows) : start;
    for (let i = 0; i < r.rows.length; i++) {
      const q = r.rows[i]!;
      if (q >= r.length || (q < from && q !== 0) || q < start) continue;
      // Logits rows cover the run's last `logitRows` tokens ('all': every new token; 'last': the last one).
      const li = q - (r.length - logitRows);
      const view = r.logits && li >= 0 && li < logitRows ? r.logits.data.subarray(li * V, (li + 1) * V) : null;
      // Bounded: a copy, so a long run's whole logits block is not kept alive by the few rows held.
      const logits = view && bounded ? view.slice() : view;
      if (q < this.keptFrom) this.keptFrom = Math.max(1, q);
      this.rows[q] = {
        position: q,
        attention: r.attention.map((a) => attentionRow(a, i, q + 1)),
        heads: r.attention[0]?.dims[0] ?? 0,
        logits,
        via,
        runTokens: count,
      };
    }
    this.prune();
  }

  private async prefillTo(n: number, resync: boolean): Promise<void> {
    const t0 = Date.now();
    const from = this.engine.length;
    const r = await this.engine.prefill(this.seq.slice(0, n));
    this.cursor = n;
    this.rows = [];
    this.record(r, 0, 'prefill');
    this.log({ kind: 'prefill', from, to: n, via: 'prefill', ms: r.ms ?? Date.now() - t0, resync });
  }

  /** (Re)establishes the cache as seq[0 … n) with one prefill, unless it already holds exactly that. */
  establish(n: number): Promise<void> {
    return this.queue(async () => {
      const target = Math.max(1, Math.min(n, this.seq.length));
      if (this.inSync() && this.cursor === target) return;
      await this.prefillTo(target, false);
    });
  }

  /** Before a move: a cache someone else changed is rebuilt by one prefill up to the cursor. */
  private async ensureSync(): Promise<void> {
    if (this.inSync()) return;
    await this.prefillTo(Math.max(1, Math.min(this.cursor, this.seq.length)), this.cursor > 0);
  }

  private async extendBy(ids: number[], via: Via): Promise<StepRun> {
    const start = this.cursor;
    const t0 = Date.now();
    const r = await this.engine.extend(ids);
    this.cursor = r.length;
    this.record(r, start, via);
    this.log({ kind: 'extend', from: start, to: r.length, via, ms: r.ms ?? Date.now() - t0 });
    return r;
  }

  private async forkTo(n: number, via: Via | 'back'): Promise<void> {
    const from = this.cursor;
    const t0 = Date.now();
    await this.engine.fork(n);
    this.cursor = n;
    this.rows.length = n;
    this.log({ kind: 'fork', from, to: n, via, ms: Date.now() - t0 });
  }

  /** Moves the cursor to `target` (clamped to 1 … seq.length) with one extend or one fork. */
  moveTo(target: number): Promise<void> {
    return this.queue(async () => {
      await this.ensureSync();
      const to = Math.max(1, Math.min(target, this.seq.length));
      const m = planMove(this.seq, this.cursor, to);
      if (m.kind === 'extend') await this.extendBy(m.ids, m.ids.length === 1 ? 'step' : 'jump');
      else if (m.kind === 'fork') {
        await this.forkTo(m.length, 'back');
        await this.restoreRow();
      }
    });
  }

  /** With keepRows: the cursor's query row, re-decoded when it was dropped (a step back past the rows kept). */
  private async restoreRow(): Promise<void> {
    const c = this.cursor;
    if (c < 1 || this.rows[c - 1]) return;
    if (c < 2) {
      await this.prefillTo(c, false);
      return;
    }
    await this.forkTo(c - 1, 'redo');
    await this.extendBy([this.seq[c - 1]!], 'redo');
  }

  /** The logits predicting position cursor: the last cached row's, re-decoding that one token if its run kept no logits for it. */
  private async lastLogits(): Promise<Float32Array> {
    const row = this.rows[this.cursor - 1];
    if (row?.logits) return row.logits;
    const c = this.cursor;
    if (c < 2) {
      await this.prefillTo(c, false);
    } else {
      await this.forkTo(c - 1, 'redo');
      await this.extendBy([this.seq[c - 1]!], 'redo');
    }
    const again = this.rows[this.cursor - 1]?.logits;
    if (!again) throw new Error('the engine returned no logits (the graph was built without logits)');
    return again;
  }

  /**
   * Generates from the cursor: the timeline becomes seq[0 … cursor) plus the generated tokens (each one
   * extend of one token, its row recorded as 'generate'); `onToken` sees each token once it is in the cache.
   */
  generate(opts: Omit<GenerateOptions, 'onStep' | 'keepAttention'> & { onToken?: (id: number) => void }): Promise<GenerateResult> {
    return this.queue(async () => {
      await this.ensureSync();
      const logits = await this.lastLogits();
      const start = this.cursor;
      this.seq = this.seq.slice(0, start);
      this.genStart = start;
      this.revision++;
      const adapter = {
        extend: async (ids: number[]) => {
          this.seq.push(...ids);
          this.revision++;
          try {
            return await this.extendBy(ids, 'generate');
          } catch (e) {
            this.seq.length = this.cursor;
            this.revision++;
            throw e;
          }
        },
      };
      return generate(adapter, logits, start, {
        maxNewTokens: opts.maxNewTokens,
        sampling: opts.sampling,
        seed: opts.seed,
        signal: opts.signal,
        onStep: (s) => opts.onToken?.(s.id),
      });
    });
  }

  /** Drops generated tokens: the timeline is the prompt again (a cursor inside the generated part forks back to where it began). */
  backToPrompt(): Promise<void> {
    return this.queue(async () => {
      if (this.genStart === null) return;
      const g = this.genStart;
      if (this.cursor > g) {
        await this.forkTo(g, 'back');
        await this.restoreRow();
      }
      this.seq = [...this.prompt];
      this.genStart = null;
      this.revision++;
    });
  }

  /** Waits for everything queued. */
  idle(): Promise<void> {
    return this.queue(async () => undefined);
  }
}

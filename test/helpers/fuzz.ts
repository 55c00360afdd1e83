// Shared pieces of the fuzz suite (test/fuzz*.test.ts, docs/FUZZING.md): the fixed seed, the per-case
// contract (a value or our typed error naming the place; no generic exception, no case over 1 s, no change
// to the built-in prototypes), hostile leaves (deep nesting, huge numbers and strings, lone surrogates,
// prototype keys) and mutators of valid inputs (values, JSON text, bytes).
//
// Re-run one failing case: the failure prints `FUZZ_SEED=… FUZZ_PROPERTY=… FUZZ_PATH=…`; run the same file
// with those three set and only that property runs, only that case. FUZZ_SEED alone runs everything from
// another seed; FUZZ_RUNS scales every property's run count (e.g. FUZZ_RUNS=10 for a long soak).
import fc from 'fast-check';
import { messageOf, messageText } from '../../lib/i18n/message';

export const FUZZ_SEED = Number(process.env.FUZZ_SEED ?? 17_017);
const SCALE = Number(process.env.FUZZ_RUNS ?? 1);
/** Longest time one call to a reader may take. */
export const MAX_CASE_MS = 1000;

// ---------------------------------------------------------------------------------------------------
// Counting and running

/** Cases run per reader, printed by each test with t.diagnostic. */
export class Tally {
  cases = 0;
  values = 0;
  errors = 0;
  /** Time spent inside the reader, and the slowest single call (ms). */
  ms = 0;
  slowest = 0;
  summary(reader: string): string {
    const n = (x: number) => x.toLocaleString('en-US');
    return `${reader}: ${n(this.cases)} cases (${n(this.values)} values, ${n(this.errors)} typed errors; ${n(Math.round(this.ms))} ms in the reader, slowest call ${this.slowest.toFixed(1)} ms), seed ${FUZZ_SEED}`;
  }
}

/**
 * Fails unless the reader ran at least `n` cases (scaled by FUZZ_RUNS; skipped when replaying one FUZZ_PATH).
 * An explicit message: node:assert would otherwise parse this file's source to word its own.
 */
export function atLeast(tally: Tally, n: number): void {
  if (process.env.FUZZ_PATH) return;
  const want = Math.round(n * Math.min(1, SCALE));
  if (tally.cases < want) throw new Error(`only ${tally.cases} cases ran; at least ${want} are required`);
}

/** Strings cut short and deep structures elided, so a counterexample with a 1 MB string stays readable. */
export function brief(v: unknown, depth = 0): string {
  if (typeof v === 'string') return JSON.stringify(v.length > 160 ? `${v.slice(0, 120)}…(${v.length} chars)` : v);
  if (v instanceof Uint8Array) {
    const head = Array.from(v.subarray(0, 48), (b) => b.toString(16).padStart(2, '0')).join(' ');
    return `bytes(${v.length})[${head}${v.length > 48 ? ' …' : ''}]`;
  }
  if (typeof v !== 'object' || v === null) return typeof v === 'bigint' ? `${v}n` : String(Object.is(v, -0) ? '-0' : v);
  if (depth > 12) return Array.isArray(v) ? '[…deep]' : '{…deep}';
  if (Array.isArray(v)) {
    const items = v.slice(0, 12).map((x) => brief(x, depth + 1));
    return `[${items.join(', ')}${v.length > 12 ? `, …(${v.length})` : ''}]`;
  }
  const entries = Object.entries(v).slice(0, 16).map(([k, x]) => `${JSON.stringify(k)}: ${brief(x, depth + 1)}`);
  return `{${entries.join(', ')}}`;
}

/** Properties run so far in this file (one process per test file), so a failure can name its own. */
let propertyCount = 0;

/** With FUZZ_PATH set, only the property numbered FUZZ_PROPERTY runs (replaying that path). */
function skipped(index: number): boolean {
  const only = process.env.FUZZ_PROPERTY;
  return process.env.FUZZ_PATH !== undefined && only !== undefined && Number(only) !== index;
}

function report(out: fc.RunDetails<unknown>, index: number): void {
  if (!out.failed) return;
  const example = Array.isArray(out.counterexample) ? (out.counterexample as unknown[]).map((x) => brief(x)).join(', ') : '(none)';
  const err = out.errorInstance instanceof Error ? `${out.errorInstance.name}: ${out.errorInstance.message}` : String(out.errorInstance);
  throw new Error(
    `fuzz property failed after ${out.numRuns} runs (${out.numShrinks} shrinks)\n` +
      `  re-run: FUZZ_SEED=${out.seed} FUZZ_PROPERTY=${index} FUZZ_PATH=${out.counterexamplePath ?? ''} (same test file)\n` +
      `  counterexample: ${example.slice(0, 4000)}\n  error: ${err.slice(0, 4000)}`,
  );
}

/** Every guarded object, values included, after a whole property (cases check keys, and values of the two usual targets). */
function fullCheck(before: Snapshot): void {
  const changes = prototypeChanges(before);
  if (changes.length) throw new Error(`built-in prototypes changed during the property: ${changes.join(', ')}`);
}

function params(numRuns: number): fc.Parameters<unknown> {
  const path = process.env.FUZZ_PATH;
  return { seed: FUZZ_SEED, numRuns: Math.max(1, Math.round(numRuns * SCALE)), endOnFailure: false, ...(path ? { path } : {}) };
}

/** fc.assert with the suite's seed and a short report. */
export function fuzz<Ts extends [unknown, ...unknown[]]>(numRuns: number, ...args: [...arbs: { [K in keyof Ts]: fc.Arbitrary<Ts[K]> }, predicate: (...v: Ts) => unknown]): void {
  // The predicate's own return value is dropped: fast-check fails a property whose predicate returns anything but true or undefined.
  const predicate = args.pop() as (...v: unknown[]) => void;
  const prop = (fc.property as unknown as (...a: unknown[]) => fc.IProperty<unknown>)(...args, (...v: unknown[]) => void predicate(...v));
  const index = propertyCount++;
  if (skipped(index)) return;
  const t0 = performance.now();
  const before = snapshotPrototypes();
  report(fc.check(prop, params(numRuns)) as fc.RunDetails<unknown>, index);
  fullCheck(before);
  if (process.env.FUZZ_VERBOSE) console.error(`fuzz(${numRuns}) ${(performance.now() - t0).toFixed(0)} ms`);
}

export async function fuzzAsync<Ts extends [unknown, ...unknown[]]>(numRuns: number, ...args: [...arbs: { [K in keyof Ts]: fc.Arbitrary<Ts[K]> }, predicate: (...v: Ts) => Promise<unknown>]): Promise<void> {
  const predicate = args.pop() as (...v: unknown[]) => Promise<void>;
  const prop = (fc.asyncProperty as unknown as (...a: unknown[]) => fc.IAsyncProperty<unknown>)(...args, async (...v: unknown[]) => void (await predicate(...v)));
  const index = propertyCount++;
  if (skipped(index)) return;
  const before = snapshotPrototypes();
  report((await fc.check(prop, params(numRuns))) as fc.RunDetails<unknown>, index);
  fullCheck(before);
}

// ---------------------------------------------------------------------------------------------------
// Built-in prototypes: a reader must leave them as they were

const GUARDED: [string, object][] = [
  ['Object.prototype', Object.prototype],
  ['Array.prototype', Array.prototype],
  ['Function.prototype', Function.prototype],
  ['String.prototype', String.prototype],
  ['Number.prototype', Number.prototype],
  ['Map.prototype', Map.prototype],
  ['Set.prototype', Set.prototype],
  ['Promise.prototype', Promise.prototype],
  ['Uint8Array.prototype', Uint8Array.prototype],
  ['Object', Object],
  ['JSON', JSON],
];

/** Per guarded object: its prototype, own keys and each key's value (or getter), in key order. */
type Snapshot = { proto: unknown; keys: (string | symbol)[]; values: unknown[] }[];

// Kept before any case runs: a polluted Array.prototype must not break the check itself.
const { ownKeys, getPrototypeOf } = Reflect;
const describe = Object.getOwnPropertyDescriptor;

/**
 * `full: false` (per case, cheap): only Object.prototype and Array.prototype, the usual pollution targets;
 * `fuzz()` checks every guarded object after each property.
 */
export function snapshotPrototypes(full = true): Snapshot {
  const out: Snapshot = [];
  for (let i = 0; i < (full ? GUARDED.length : 2); i++) {
    const o = GUARDED[i]![1];
    const keys = ownKeys(o);
    const values: unknown[] = [];
    if (full) {
      for (let j = 0; j < keys.length; j++) {
        const d = describe(o, keys[j]!)!;
        values[j] = 'value' in d ? d.value : d.get;
      }
    } else if (i < 2) {
      // A plain read is much cheaper than a descriptor; neither object has a getter that throws.
      for (let j = 0; j < keys.length; j++) values[j] = (o as Record<string | symbol, unknown>)[keys[j]!];
    }
    out[i] = { proto: getPrototypeOf(o), keys, values };
  }
  return out;
}

export function prototypeChanges(before: Snapshot, after: Snapshot = snapshotPrototypes(before.length > 2)): string[] {
  const out: string[] = [];
  for (let i = 0; i < before.length; i++) {
    const name = GUARDED[i]![0];
    const b = before[i]!;
    const a = after[i]!;
    if (a.proto !== b.proto) out.push(`${name}: [[Prototype]] changed`);
    let same = a.keys.length === b.keys.length;
    for (let j = 0; same && j < a.keys.length; j++) same = a.keys[j] === b.keys[j] && a.values[j] === b.values[j];
    if (same) continue;
    const was = new Map<string | symbol, unknown>();
    for (let j = 0; j < b.keys.length; j++) was.set(b.keys[j]!, b.values[j]);
    for (let j = 0; j < a.keys.length; j++) {
      const k = a.keys[j]!;
      if (!was.has(k)) out.push(`added ${name}.${String(k)}`);
      else if (was.get(k) !== a.values[j]) out.push(`changed ${name}.${String(k)}`);
      was.delete(k);
    }
    for (const k of was.keys()) out.push(`removed ${name}.${String(k)}`);
  }
  return out;
}

// ---------------------------------------------------------------------------------------------------
// The per-case contract

export interface Contract {
  /** Our deliberate error types for this reader. */
  ours: (e: unknown) => boolean;
  /** True when the error's message (or fields) names the place: a key path, a line, a byte offset, a file. */
  place: (e: Error) => boolean;
}

/** A contract broken: fails the property (and so the test) with what happened. */
export class Violation extends Error {
  override name = 'Violation';
}

function escaped(e: unknown): Violation {
  const what = e instanceof Error ? `${e.name}: ${e.message}\n${(e.stack ?? '').split('\n').slice(1, 8).join('\n')}` : `non-error thrown: ${String(e)}`;
  return new Violation(`unexpected exception escaped the reader: ${what.slice(0, 3000)}`);
}

/**
 * A call over the limit by wall time is timed again by process CPU time: wall time grows when other processes
 * share the cores, and reading the CPU clock on every call costs more than most calls (a system call each).
 * The readers are pure, so running one again gives the same work.
 */
/** CPU time of a run (ms), capped by its wall-clock time: a second measure of a case that looked slow. */
function cpuSince(cpu: NodeJS.CpuUsage, wall: number): number {
  const used = process.cpuUsage(cpu);
  return Math.min(performance.now() - wall, (used.user + used.system) / 1000);
}

function confirmSlow(fn: () => unknown): number {
  const cpu = process.cpuUsage();
  const wall = performance.now();
  try {
    fn();
  } catch {
    // its outcome was judged on the first run
  }
  return cpuSince(cpu, wall);
}

async function confirmSlowAsync(fn: () => Promise<unknown>): Promise<number> {
  const cpu = process.cpuUsage();
  const wall = performance.now();
  await fn().catch(() => {});
  return cpuSince(cpu, wall);
}

/** What one call did: returned a value, or threw `error` (a Violation from inside is passed on, not judged). */
interface Outcome<T> {
  value?: T;
  error?: unknown;
  threw: boolean;
}
function thrown(e: unknown): Outcome<never> {
  if (e instanceof Violation) throw e;
  return { error: e, threw: true };
}

function settle<T>(tally: Tally, contract: Contract, ms: number, before: Snapshot, { value, error, threw }: Outcome<T>): { value?: T; error?: Error } {
  tally.cases++;
  tally.ms += ms;
  tally.slowest = Math.max(tally.slowest, ms);
  const changes = prototypeChanges(before);
  if (changes.length) throw new Violation(`built-in prototypes changed: ${changes.join(', ')}`);
  if (ms > MAX_CASE_MS) throw new Violation(`one call took ${ms.toFixed(0)} ms (limit ${MAX_CASE_MS} ms)`);
  if (!threw) {
    tally.values++;
    return { value };
  }
  if (!contract.ours(error)) throw escaped(error);
  const e = error as Error;
  if (!e.message || !contract.place(e)) throw new Violation(`typed error does not name the place: ${e.name}: ${e.message.slice(0, 500)}`);
  // Issue 17 item 5: what the user reads comes from the string tables in both languages (lib/i18n/message.ts).
  const coded = messageOf(e);
  if (!coded) throw new Violation(`typed error carries no coded message (it cannot be shown in 简体中文): ${e.name}: ${e.message.slice(0, 500)}`);
  if (messageText('en', coded) !== e.message) throw new Violation(`coded message and .message differ: ${messageText('en', coded).slice(0, 300)} / ${e.message.slice(0, 300)}`);
  if (/\{\w+\}/.test(messageText('zh', coded).replace(/\{[^}]*\}/g, (m) => (e.message.includes(m) ? '' : m)))) throw new Violation(`a parameter left unfilled in Chinese: ${messageText('zh', coded).slice(0, 300)}`);
  tally.errors++;
  return { error: e };
}

/** Calls a reader once under the contract; returns its value or our error. */
export function guard<T>(tally: Tally, contract: Contract, fn: () => T): { value?: T; error?: Error } {
  const before = snapshotPrototypes(false);
  const start = performance.now();
  let o: Outcome<T>;
  try {
    o = { value: fn(), threw: false };
  } catch (e) {
    o = thrown(e);
  }
  const ms = performance.now() - start;
  return settle(tally, contract, ms > MAX_CASE_MS ? Math.min(ms, confirmSlow(fn)) : ms, before, o);
}

/** guard for a reader that returns a promise. */
export async function guardAsync<T>(tally: Tally, contract: Contract, fn: () => Promise<T>): Promise<{ value?: T; error?: Error }> {
  const before = snapshotPrototypes(false);
  const start = performance.now();
  let o: Outcome<T>;
  try {
    o = { value: await fn(), threw: false }; // a reader that throws before returning its promise is caught too
  } catch (e) {
    o = thrown(e);
  }
  const ms = performance.now() - start;
  return settle(tally, contract, ms > MAX_CASE_MS ? Math.min(ms, await confirmSlowAsync(fn)) : ms, before, o);
}

/** For readers that return errors as values: fails with `why` unless it is null. */
export function expect(why: string | null): void {
  if (why) throw new Violation(why);
}

/** A reader that never throws on bad input: any exception at all is a violation. */
export const NEVER_THROWS: Contract = { ours: () => false, place: () => false };

// ---------------------------------------------------------------------------------------------------
// Hostile leaves

export const PROTO_KEYS = ['__proto__', 'constructor', 'prototype', 'toString', 'valueOf', 'hasOwnProperty', '__defineGetter__', 'isPrototypeOf', 'toJSON', 'then', 'length'] as const;
export const protoKey = fc.constantFrom(...PROTO_KEYS);

const LONE = ['\uD800', '\uDBFF', '\uDC00', '\uDFFF'];
const odd = fc.constantFrom(
  '',
  ' ',
  '\u0000',
  '\uFEFF',
  '\uD800',
  '\uDFFF',
  'a\uD800b',
  '\uDC00\uD800',
  '😀',
  '\u202E',
  '\r\n',
  '"',
  '\\',
  '</script><script>alert(1)</script>',
  '{{ 7*7 }}',
  '%',
  '%E0%A4%A',
  '${x}',
  '__proto__',
  'constructor',
  'NaN',
  '-0',
  '1e999',
  'null',
  'undefined',
);

/** Strings with lone surrogates spliced in. */
const withSurrogates = fc.tuple(fc.string({ maxLength: 12 }), fc.constantFrom(...LONE), fc.string({ maxLength: 12 })).map(([a, s, b]) => a + s + b);

/** A long string (up to `max` characters) without generating it character by character. */
export const bigString = (max = 1_100_000) =>
  fc.tuple(fc.integer({ min: 1000, max }), fc.constantFrom('a', ' ', '\uD800', '"', '\\', '\n', 'é', '😀', '[', '{')).map(([n, c]) => c.repeat(Math.ceil(n / c.length)));

export const hostileString = fc.oneof(
  { weight: 4, arbitrary: fc.string({ maxLength: 24 }) },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 24 }) },
  { weight: 3, arbitrary: odd },
  { weight: 2, arbitrary: withSurrogates },
);

export const hostileNumber = fc.oneof(
  fc.integer(),
  fc.double(),
  fc.constantFrom(0, -0, 1, -1, 0.5, 2 ** 31, 2 ** 32, 2 ** 53, 2 ** 53 + 2, 2 ** 64, 1e21, 1e308, -1e308, Number.MAX_VALUE, Number.MIN_VALUE, 5e-324, Infinity, -Infinity, NaN),
);

/** Nested arrays or objects `depth` levels deep (built without recursion). */
export function deepValue(depth: number, as: 'array' | 'object', leaf: unknown = 0): unknown {
  let v: unknown = leaf;
  for (let i = 0; i < depth; i++) v = as === 'array' ? [v] : { a: v };
  return v;
}

export function deepText(depth: number, as: 'array' | 'object', leaf = '0'): string {
  return as === 'array' ? '['.repeat(depth) + leaf + ']'.repeat(depth) : '{"a":'.repeat(depth) + leaf + '}'.repeat(depth);
}

export const DEPTHS = [64, 513, 1000, 4000, 10_000] as const;

/**
 * Large values built once and shared by every case (building a 50,000-deep value per case would dominate the
 * run). Frozen, so a reader that writes into its input fails loudly; the mutators never descend into them.
 */
const SHARED = new WeakSet<object>();
function share<T>(v: T): T {
  const stack: unknown[] = [v];
  while (stack.length) {
    const x = stack.pop();
    if (typeof x !== 'object' || x === null || Object.isFrozen(x)) continue;
    Object.freeze(x);
    stack.push(...(Array.isArray(x) ? x : Object.values(x)));
  }
  SHARED.add(v as object);
  return v;
}
const DEEP_VALUES = DEPTHS.flatMap((d) => [share(deepValue(d, 'array')), share(deepValue(d, 'object'))]);
export const deep = fc.constantFrom(...DEEP_VALUES);
const WIDE_VALUES = [1000, 20_000].flatMap((n) => [0, 'x', null, {}, []].map((x) => share(new Array<unknown>(n).fill(x))));

/** Large values (long strings, wide arrays, deep nesting): rare, since each costs every reader real time. */
export const hugeLeaf: fc.Arbitrary<unknown> = fc.oneof(bigString(200_000), deep, fc.constantFrom(...WIDE_VALUES));

/** A value JSON.parse could give that breaks readers: wrong types, deep nesting, huge numbers and strings. */
export const smallLeaf: fc.Arbitrary<unknown> = fc.oneof(
  // Fresh [] and {} each time: constantFrom would hand out one shared instance that the mutators then grow.
  { weight: 4, arbitrary: fc.constantFrom(null, true, false, 'array', 'object').map((v) => (v === 'array' ? [] : v === 'object' ? {} : v)) },
  { weight: 6, arbitrary: hostileNumber },
  { weight: 8, arbitrary: hostileString },
);
export const hostileLeaf: fc.Arbitrary<unknown> = fc.oneof({ weight: 12, arbitrary: smallLeaf }, { weight: 1, arbitrary: hugeLeaf });

/** An own property, as JSON.parse makes it (an assignment to `__proto__` would set the prototype). */
export function setOwn(o: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(o, key, { value, enumerable: true, writable: true, configurable: true });
}

/**
 * JSON-like values whose keys mix the reader's own field names, prototype keys and random keys, with
 * hostile leaves: a grammar-aware generator, so random values reach deep into each reader.
 */
export function hostileJson(fields: readonly string[], maxDepth = 4): fc.Arbitrary<unknown> {
  const key = fc.oneof({ weight: 6, arbitrary: fc.constantFrom(...fields) }, { weight: 2, arbitrary: protoKey }, { weight: 1, arbitrary: fc.string({ maxLength: 8 }) });
  const leaf = fc.oneof({ weight: 40, arbitrary: smallLeaf }, { weight: 20, arbitrary: fc.constantFrom(...fields) }, { weight: 1, arbitrary: hugeLeaf });
  const { value } = fc.letrec((tie) => ({
    value: fc.oneof({ depthSize: 'small', maxDepth, withCrossShrink: true }, leaf, tie('array'), tie('object')),
    array: fc.array(tie('value'), { maxLength: 5 }),
    object: fc.array(fc.tuple(key, tie('value')), { maxLength: 6 }).map((entries) => {
      const o: Record<string, unknown> = {};
      for (const [k, v] of entries) setOwn(o, k, v);
      return o;
    }),
  }));
  return value;
}

// ---------------------------------------------------------------------------------------------------
// Mutators of valid inputs

type Slot = { parent: Record<string, unknown> | unknown[]; key: string | number };

/** Every (container, key) slot in a value, breadth first; a slot is where a mutation can go. */
function slots(root: unknown, limit = 4000): Slot[] {
  const out: Slot[] = [];
  const queue: unknown[] = [root];
  const seen = new Set<unknown>();
  for (let i = 0; i < queue.length && out.length < limit && queue.length < 100_000; i++) {
    const v = queue[i];
    if (typeof v === 'object' && v !== null && (SHARED.has(v) || seen.has(v))) continue;
    seen.add(v);
    if (Array.isArray(v)) {
      v.forEach((x, j) => {
        out.push({ parent: v, key: j });
        queue.push(x);
      });
    } else if (typeof v === 'object' && v !== null) {
      for (const [k, x] of Object.entries(v)) {
        out.push({ parent: v as Record<string, unknown>, key: k });
        queue.push(x);
      }
    }
  }
  return out;
}

function containers(root: unknown, limit = 4000): (Record<string, unknown> | unknown[])[] {
  const out: (Record<string, unknown> | unknown[])[] = [];
  const queue: unknown[] = [root];
  const seen = new Set<unknown>();
  for (let i = 0; i < queue.length && out.length < limit && queue.length < 100_000; i++) {
    const v = queue[i];
    if (typeof v !== 'object' || v === null || SHARED.has(v) || seen.has(v)) continue;
    seen.add(v);
    out.push(v as Record<string, unknown>);
    queue.push(...(Array.isArray(v) ? v : Object.values(v)));
  }
  return out;
}

export type ValueOp =
  | { op: 'replace'; at: number; with: unknown }
  | { op: 'delete'; at: number }
  | { op: 'wrap'; at: number }
  | { op: 'stringify'; at: number }
  | { op: 'addKey'; at: number; key: string; with: unknown }
  | { op: 'grow'; at: number; times: number };

export function valueOp(fields: readonly string[]): fc.Arbitrary<ValueOp> {
  const at = fc.nat();
  const key = fc.oneof(protoKey, fc.constantFrom(...fields), fc.string({ maxLength: 6 }));
  const w = fc.oneof({ weight: 10, arbitrary: hostileJson(fields, 2) }, { weight: 1, arbitrary: hugeLeaf });
  return fc.oneof(
    { weight: 5, arbitrary: fc.record({ op: fc.constant('replace' as const), at, with: w }) },
    { weight: 2, arbitrary: fc.record({ op: fc.constant('delete' as const), at }) },
    { weight: 1, arbitrary: fc.record({ op: fc.constant('wrap' as const), at }) },
    { weight: 1, arbitrary: fc.record({ op: fc.constant('stringify' as const), at }) },
    { weight: 3, arbitrary: fc.record({ op: fc.constant('addKey' as const), at, key, with: w }) },
    { weight: 1, arbitrary: fc.record({ op: fc.constant('grow' as const), at, times: fc.constantFrom(2, 100, 1000) }) },
  );
}

/** A deep copy of `base` (plain JSON data) with the ops applied in turn. */
export function applyOps(base: unknown, ops: readonly ValueOp[]): unknown {
  const root = { root: JSON.parse(JSON.stringify(base)) as unknown };
  for (const op of ops) {
    // A copy of the generated value: the same instance must not land twice (a cycle) or leak into later cases.
    const o = 'with' in op ? { ...op, with: fresh(op.with) } : op;
    if (o.op === 'addKey' || o.op === 'grow') {
      const cs = containers(root.root);
      if (cs.length === 0) continue;
      const c = cs[o.at % cs.length]!;
      if (o.op === 'grow') {
        // Repeated references: the value's logical size (what its JSON text would hold) is capped.
        if (Array.isArray(c) && c.length > 0 && logicalSize(c, 20_000) * o.times <= 20_000) c.push(...Array.from({ length: c.length * (o.times - 1) }, (_, i) => c[i % c.length]));
      } else if (Array.isArray(c)) c.push(o.with);
      else setOwn(c, o.key, o.with);
      continue;
    }
    const ss = slots(root);
    if (ss.length === 0) continue; // the root itself was deleted
    const s = ss[o.at % ss.length]!;
    const p = s.parent as Record<string | number, unknown>;
    if (o.op === 'replace') p[s.key] = o.with;
    else if (o.op === 'wrap') p[s.key] = [p[s.key]];
    else if (o.op === 'stringify') p[s.key] = typeof p[s.key] === 'string' ? Number(p[s.key]) : safeText(p[s.key]);
    else if (Array.isArray(p)) p.splice(s.key as number, 1);
    else delete p[s.key];
  }
  return root.root;
}

/** A copy of generated data: new objects and arrays (own keys kept as own), shared large values kept as they are. */
function fresh(v: unknown, depth = 0): unknown {
  if (typeof v !== 'object' || v === null || SHARED.has(v) || depth > 64) return v;
  if (Array.isArray(v)) return v.map((x) => fresh(x, depth + 1));
  const o: Record<string, unknown> = {};
  for (const [k, x] of Object.entries(v)) setOwn(o, k, fresh(x, depth + 1));
  return o;
}

/**
 * Values and string characters / 64 in `v`, counted through repeated references (as its JSON text would
 * repeat them), stopping once past `cap`. Shared large values count as `cap`.
 */
export function logicalSize(v: unknown, cap: number): number {
  let n = 0;
  const stack: unknown[] = [v];
  while (stack.length && n <= cap) {
    const x = stack.pop();
    n++;
    if (typeof x === 'string') n += x.length >> 6;
    else if (typeof x === 'object' && x !== null) {
      if (SHARED.has(x)) n += cap;
      else stack.push(...(Array.isArray(x) ? x : Object.values(x)));
    }
  }
  return n;
}

/** JSON text of a generated value, or null where it would be too deep for JSON.stringify or over `maxChars`. */
export function jsonText(v: unknown, space?: number, maxChars = 1_000_000): string | null {
  // Counted first: repeated references (from `grow`) would otherwise stringify to far more than maxChars.
  if (logicalSize(v, maxChars / 16) > maxChars / 16) return null;
  try {
    const text = JSON.stringify(v, null, space);
    return text !== undefined && text.length <= maxChars ? text : null;
  } catch {
    return null;
  }
}

function safeText(v: unknown): string {
  try {
    return JSON.stringify(v) ?? 'undefined';
  } catch {
    return '[deep]';
  }
}

export const mutatedValue = (base: unknown, fields: readonly string[]) => fc.array(valueOp(fields), { minLength: 1, maxLength: 4 }).map((ops) => applyOps(base, ops));

/** Snippets that break JSON text in interesting ways. */
const SNIPPETS = [
  '{', '}', '[', ']', '"', '\\', ',', ':', ' ', '\n', '\r', '\t', '\u0000', '\uFEFF', '\uD800', '\uDFFF', '\\u', '\\ud800', '\\uDFFF"', '\\x41',
  '1e999', '-1e999', '1e-999', '-0', '012', '0x10', 'NaN', 'Infinity', 'undefined', 'True', 'nul', 'tru', "'a'", '// c', '/* c */',
  ',,', '[,]', '{,}', '"__proto__":{"polluted":1},', '"constructor":{"prototype":{"polluted":1}},', '|', '\n|\n', '\n||\n', '😀', '\u2028',
  '9'.repeat(400), '0.' + '0'.repeat(400) + '1', '[[[[[[[[', ']]]]]]]]', '{"a":{"a":{"a":',
];
/** Long runs of one kind of character: where a backtracking regular expression goes quadratic (rare: each is 60,000 characters). */
const RUNS = ['\n', '\n ', ' ', '\t\r\n', '|', '\n|', '"', '\\', 'a', '0', '[', '{"a":'].map((c) => c.repeat(Math.ceil(60_000 / c.length)));
export const snippet = fc.oneof(
  { weight: 60, arbitrary: fc.constantFrom(...SNIPPETS) },
  { weight: 24, arbitrary: fc.string({ maxLength: 6 }) },
  { weight: 12, arbitrary: fc.string({ unit: 'binary', maxLength: 6 }) },
  { weight: 1, arbitrary: fc.constantFrom(...RUNS) },
);

export type TextOp =
  | { op: 'truncate'; at: number }
  | { op: 'delete'; at: number; len: number }
  | { op: 'insert'; at: number; text: string }
  | { op: 'replace'; at: number; text: string }
  | { op: 'dupKey'; at: number; value: string; before: boolean }
  | { op: 'repeat'; at: number; len: number; times: number }
  | { op: 'deep'; at: number; depth: number; as: 'array' | 'object' };

/** JSON text of hostile values, to splice in as a duplicate key's value. */
const hostileValueText = fc.oneof(
  fc.constantFrom('null', 'true', '[]', '{}', '""', '-1', '0.5', '1e400', '"\\ud800"', '"__proto__"', '{"__proto__":{"x":1}}', '[1,2,3]', '"x"'),
  fc.constantFrom(...DEPTHS).map((d) => deepText(d, 'array')),
);

export const textOp: fc.Arbitrary<TextOp> = fc.oneof(
  { weight: 4, arbitrary: fc.record({ op: fc.constant('truncate' as const), at: fc.nat() }) },
  { weight: 2, arbitrary: fc.record({ op: fc.constant('delete' as const), at: fc.nat(), len: fc.integer({ min: 1, max: 64 }) }) },
  { weight: 4, arbitrary: fc.record({ op: fc.constant('insert' as const), at: fc.nat(), text: snippet }) },
  { weight: 3, arbitrary: fc.record({ op: fc.constant('replace' as const), at: fc.nat(), text: snippet }) },
  { weight: 4, arbitrary: fc.record({ op: fc.constant('dupKey' as const), at: fc.nat(), value: hostileValueText, before: fc.boolean() }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('repeat' as const), at: fc.nat(), len: fc.integer({ min: 1, max: 200 }), times: fc.constantFrom(2, 50, 500) }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('deep' as const), at: fc.nat(), depth: fc.constantFrom(...DEPTHS), as: fc.constantFrom('array' as const, 'object' as const) }) },
);

/**
 * Applies text ops. `dupKey` repeats a key of the text inside its own object: before it (the original
 * value then wins, as the last one does in JSON.parse) or just after the object's `{` of a later key.
 */
export function applyTextOps(base: string, ops: readonly TextOp[]): string {
  let t = base;
  for (const o of ops) {
    const n = t.length;
    const at = n === 0 ? 0 : o.at % (n + 1);
    switch (o.op) {
      case 'truncate':
        t = t.slice(0, at);
        break;
      case 'delete':
        t = t.slice(0, at) + t.slice(at + o.len);
        break;
      case 'insert':
        t = t.slice(0, at) + o.text + t.slice(at);
        break;
      case 'replace':
        t = t.slice(0, at) + o.text + t.slice(at + o.text.length);
        break;
      case 'repeat':
        t = t.slice(0, at) + t.slice(at, at + o.len).repeat(o.times) + t.slice(at + o.len);
        break;
      case 'deep':
        t = t.slice(0, at) + deepText(o.depth, o.as) + t.slice(at);
        break;
      case 'dupKey': {
        const keys = [...t.matchAll(/"((?:[^"\\\n]|\\.){0,80})"\s*:/g)];
        if (keys.length === 0) break;
        const k = keys[o.at % keys.length]!;
        const member = `"${k[1]}": ${o.value}`;
        if (o.before) t = t.slice(0, k.index) + member + ', ' + t.slice(k.index);
        else {
          // After the key's own member: find the next ',' or '}' at the same depth (a cheap scan of the text).
          const end = memberEnd(t, k.index + k[0].length);
          if (end < 0) break;
          t = t.slice(0, end) + ', ' + member + t.slice(end);
        }
        break;
      }
    }
  }
  return t;
}

/** Offset just after the value starting at or after `from` (depth 0, outside strings), or -1. */
function memberEnd(t: string, from: number): number {
  let depth = 0;
  let inString = false;
  for (let i = from; i < t.length; i++) {
    const c = t[i];
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === '{' || c === '[') depth++;
    else if (c === '}' || c === ']') {
      if (depth === 0) return i;
      depth--;
    } else if (c === ',' && depth === 0) return i;
  }
  return -1;
}

export const mutatedText = (base: string) => fc.array(textOp, { minLength: 1, maxLength: 4 }).map((ops) => applyTextOps(base, ops));

/** Byte sequences that are not UTF-8: lone continuation bytes, overlongs, surrogates, truncated sequences. */
export const INVALID_UTF8: readonly number[][] = [[0xff], [0xfe], [0x80], [0xbf], [0xc0, 0xaf], [0xc1, 0xbf], [0xe0, 0x80, 0xaf], [0xed, 0xa0, 0x80], [0xed, 0xbf, 0xbf], [0xf4, 0x90, 0x80, 0x80], [0xf8, 0x88, 0x80, 0x80, 0x80], [0xe2, 0x82], [0xf0, 0x9f, 0x98], [0xc3]];

export type ByteOp =
  | { op: 'truncate'; at: number }
  | { op: 'flip'; at: number; bit: number }
  | { op: 'set'; at: number; byte: number }
  | { op: 'insert'; at: number; bytes: number[] }
  | { op: 'delete'; at: number; len: number }
  | { op: 'length'; value: bigint };

export const byteOp: fc.Arbitrary<ByteOp> = fc.oneof(
  { weight: 3, arbitrary: fc.record({ op: fc.constant('truncate' as const), at: fc.nat() }) },
  { weight: 3, arbitrary: fc.record({ op: fc.constant('flip' as const), at: fc.nat(), bit: fc.nat(7) }) },
  { weight: 2, arbitrary: fc.record({ op: fc.constant('set' as const), at: fc.nat(), byte: fc.constantFrom(0, 0x22, 0x5c, 0x7b, 0x7d, 0x5b, 0x5d, 0x2c, 0x3a, 0x30, 0x39, 0xff, 0x80) }) },
  { weight: 3, arbitrary: fc.record({ op: fc.constant('insert' as const), at: fc.nat(), bytes: fc.constantFrom(...INVALID_UTF8) }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('delete' as const), at: fc.nat(), len: fc.integer({ min: 1, max: 32 }) }) },
  {
    weight: 2,
    arbitrary: fc.record({
      op: fc.constant('length' as const),
      value: fc.oneof(fc.constantFrom(0n, 1n, 2n, 7n, 8n, 2n ** 31n, 2n ** 32n, 2n ** 53n, 2n ** 53n + 1n, 2n ** 63n, 2n ** 64n - 1n, 100n * 1024n * 1024n, 100n * 1024n * 1024n + 1n), fc.bigInt({ min: 0n, max: 2n ** 64n - 1n })),
    }),
  },
);

/** Applies byte ops; `length` overwrites the first 8 bytes (a safetensors header length) when there are 8. */
export function applyByteOps(base: Uint8Array, ops: readonly ByteOp[]): Uint8Array {
  let b = base.slice();
  for (const o of ops) {
    const n = b.length;
    if (o.op === 'length') {
      if (n >= 8) new DataView(b.buffer, b.byteOffset, 8).setBigUint64(0, o.value, true);
      continue;
    }
    const at = n === 0 ? 0 : o.at % (n + 1);
    if (o.op === 'truncate') b = b.slice(0, at);
    else if (o.op === 'flip') {
      if (at < n) b[at]! ^= 1 << o.bit;
    } else if (o.op === 'set') {
      if (at < n) b[at] = o.byte;
    } else if (o.op === 'insert') {
      const c = new Uint8Array(n + o.bytes.length);
      c.set(b.subarray(0, at));
      c.set(o.bytes, at);
      c.set(b.subarray(at), at + o.bytes.length);
      b = c;
    } else {
      const c = new Uint8Array(Math.max(0, n - Math.min(o.len, n - at)));
      c.set(b.subarray(0, at));
      c.set(b.subarray(at + o.len), at);
      b = c;
    }
  }
  return b;
}

export const mutatedBytes = (base: Uint8Array) => fc.array(byteOp, { minLength: 1, maxLength: 4 }).map((ops) => applyByteOps(base, ops));

/** A safetensors file from a header's JSON text and `dataBytes` bytes of data (all zero). */
export function safetensorsFrom(headerText: string, dataBytes: number): Uint8Array {
  const h = new TextEncoder().encode(headerText);
  const out = new Uint8Array(8 + h.length + dataBytes);
  new DataView(out.buffer).setBigUint64(0, BigInt(h.length), true);
  out.set(h, 8);
  return out;
}

/** The header JSON text and data section of a safetensors file (for mutating the header alone). */
export function splitSafetensors(file: Uint8Array): { header: string; data: Uint8Array } {
  const n = Number(new DataView(file.buffer, file.byteOffset, 8).getBigUint64(0, true));
  return { header: new TextDecoder().decode(file.subarray(8, 8 + n)), data: file.subarray(8 + n) };
}

export function joinSafetensors(headerText: string, data: Uint8Array): Uint8Array {
  const out = safetensorsFrom(headerText, data.length);
  out.set(data, out.length - data.length);
  return out;
}

/** Readable place names: a key path (`a.b[2]`, `["x"]`), a line/column, a byte offset or a file name. */
export const PATH_LIKE = /[A-Za-z_$][\w$]*(\[\d+\]|\["|\.[A-Za-z_$])|\[\d+\]|^[A-Za-z_$][\w$]*: |line \d+|column \d+|byte \d+|offset \d+|\.json|\.safetensors|__metadata__/;

// lib/util/latestTask (the core of components/hooks/useEngineTask): only the latest task's value, progress
// and error land; starting a task aborts the previous one; cancellations are not errors.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { LatestTask, isCancellation, type TaskSnapshot } from '../lib/util/latestTask';

function deferred<T>() {
  let resolve!: (v: T) => void;
  let reject!: (e: unknown) => void;
  const promise = new Promise<T>((ok, no) => ((resolve = ok), (reject = no)));
  return { promise, resolve, reject };
}
const tick = () => new Promise((r) => setTimeout(r, 0));

test('a newer task aborts the older one, whose late value, progress and error are dropped', async () => {
  const seen: TaskSnapshot<string, number>[] = [];
  const runner = new LatestTask<string, number>((s) => seen.push(s));
  const first = deferred<string>();
  let firstSignal: AbortSignal | null = null;
  let firstProgress: ((p: number) => void) | null = null;
  runner.start('a', (ctx) => ((firstSignal = ctx.signal), (firstProgress = ctx.progress), first.promise));
  assert.equal(runner.snapshot.running, true);
  assert.equal(runner.snapshot.key, 'a');
  const second = deferred<string>();
  runner.start('b', (ctx) => (ctx.progress(7), second.promise));
  assert.equal(firstSignal!.aborted, true);
  assert.equal(runner.snapshot.progress, 7);
  firstProgress!(99);
  first.resolve('A');
  await tick();
  assert.equal(runner.snapshot.value, null, 'the stale value never lands');
  assert.equal(runner.snapshot.progress, 7, 'stale progress is ignored');
  second.resolve('B');
  await tick();
  assert.deepEqual({ ...runner.snapshot }, { key: 'b', running: false, progress: null, value: 'B', valueKey: 'b', error: null });
  assert.ok(seen.every((s) => s.value !== 'A'));
});

test('errors of the latest task are reported, cancellations are not, and the last value stays', async () => {
  const runner = new LatestTask<number>(() => undefined);
  runner.start('x', async () => 1);
  await tick();
  runner.start('y', async () => {
    throw new Error('prefill failed');
  });
  await tick();
  assert.equal(runner.snapshot.error, 'prefill failed');
  assert.equal(runner.snapshot.value, 1);
  assert.equal(runner.snapshot.valueKey, 'x');
  runner.start('z', async () => {
    throw Object.assign(new Error('cancelled before it was sent'), { code: 'cancelled' });
  });
  await tick();
  assert.equal(runner.snapshot.error, null);
  assert.equal(runner.snapshot.running, false);
  // a task that throws synchronously is an error like any other
  runner.start('w', () => {
    throw new Error('sync');
  });
  await tick();
  assert.equal(runner.snapshot.error, 'sync');
});

test('cancel keeps the value; clear forgets everything; isCancellation recognises both kinds', async () => {
  const runner = new LatestTask<number>(() => undefined);
  runner.start('x', async () => 5);
  await tick();
  const d = deferred<number>();
  let signal: AbortSignal | null = null;
  runner.start('y', (ctx) => ((signal = ctx.signal), d.promise));
  runner.cancel();
  assert.equal(signal!.aborted, true);
  d.resolve(6);
  await tick();
  assert.equal(runner.snapshot.value, 5);
  assert.equal(runner.snapshot.running, false);
  runner.clear();
  assert.equal(runner.snapshot.value, null);
  assert.equal(runner.snapshot.key, null);
  assert.equal(isCancellation(new DOMException('x', 'AbortError')), true);
  assert.equal(isCancellation({ code: 'cancelled' }), true);
  assert.equal(isCancellation(new Error('x')), false);
});

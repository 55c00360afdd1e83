// Test-only: what the page's main thread did, from a DevTools trace. Wall-clock durations on a shared machine
// include time the page waited for a CPU; a trace also gives each task's own CPU time (thread time).
// Phases are marked in the page with performance.mark('kvscope:<name>:start' / ':end').
import assert from 'node:assert/strict';
import type { BrowserContext, CDPSession, Page } from 'playwright-core';

export interface TraceEvent {
  name: string;
  ph: string;
  pid: number;
  tid: number;
  ts: number;
  dur?: number;
  tdur?: number;
}

export const TRACE_CATEGORIES = 'devtools.timeline,disabled-by-default-devtools.timeline,blink.user_timing';

export async function startTrace(context: BrowserContext, page: Page): Promise<CDPSession> {
  const cdp = await context.newCDPSession(page);
  await cdp.send('Tracing.start', { categories: TRACE_CATEGORIES, transferMode: 'ReturnAsStream' });
  return cdp;
}

export async function stopTrace(cdp: CDPSession): Promise<TraceEvent[]> {
  const done = new Promise<{ stream?: string }>((resolve) => cdp.once('Tracing.tracingComplete', resolve));
  await cdp.send('Tracing.end');
  const { stream } = await done;
  let text = '';
  for (;;) {
    const chunk = await cdp.send('IO.read', { handle: stream! });
    text += chunk.base64Encoded ? Buffer.from(chunk.data, 'base64').toString('utf8') : chunk.data;
    if (chunk.eof) break;
  }
  await cdp.send('IO.close', { handle: stream! });
  const parsed = JSON.parse(text) as TraceEvent[] | { traceEvents: TraceEvent[] };
  return Array.isArray(parsed) ? parsed : parsed.traceEvents;
}

/** Marks the start or end of a phase in the page (and so in the trace, on the main thread). */
export const mark = (page: Page, phase: string, edge: 'start' | 'end') => page.evaluate((n) => performance.mark(n).startTime, `kvscope:${phase}:${edge}`);

/** Per phase: the main thread's longest task between the phase's marks, wall-clock and CPU (ms), and its CPU in all. */
export function phaseTasks(events: TraceEvent[], phases: readonly string[]): Record<string, { wall: number; cpu: number; totalCpu: number }> {
  const marks = events.filter((e) => e.name.startsWith('kvscope:'));
  const main = marks[0];
  assert.ok(main, 'the phase marks are in the trace');
  const at = (n: string) => {
    const m = marks.find((x) => x.name === n);
    assert.ok(m, `mark ${n} in the trace`);
    return m.ts;
  };
  const tasks = events.filter((e) => e.ph === 'X' && e.name === 'RunTask' && e.pid === main.pid && e.tid === main.tid);
  const out: Record<string, { wall: number; cpu: number; totalCpu: number }> = {};
  for (const p of phases) {
    const [from, to] = [at(`kvscope:${p}:start`), at(`kvscope:${p}:end`)];
    const mine = tasks.filter((e) => e.ts >= from && e.ts < to);
    out[p] = {
      wall: Math.max(0, ...mine.map((e) => (e.dur ?? 0) / 1000)),
      cpu: Math.max(0, ...mine.map((e) => (e.tdur ?? 0) / 1000)),
      totalCpu: mine.reduce((s, e) => s + (e.tdur ?? 0) / 1000, 0),
    };
  }
  return out;
}

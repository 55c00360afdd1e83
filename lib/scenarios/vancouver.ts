// The chapter's canonical walk-through (docs/CONCEPTS.md#the-message-list): time and weather in
// Vancouver, two parallel tool calls, two tool results, final answer. Exact strings from the book; plain
// data only.
import type { ChatMessage, ChatRequest, ToolDef } from './types';

export const WEATHER_SYSTEM =
  'You are a helpful assistant. Use the provided tools to get real-time information when needed.';

export const WEATHER_TOOLS: ToolDef[] = [
  {
    type: 'function',
    function: {
      name: 'get_current_time',
      description: 'Get the current date and time in a specific timezone',
      parameters: {
        type: 'object',
        properties: { timezone: { type: 'string', description: 'Timezone name, e.g. America/Vancouver' } },
      },
    },
  },
  {
    type: 'function',
    function: {
      name: 'get_weather',
      description: 'Get the current weather for a specific city',
      parameters: {
        type: 'object',
        properties: {
          city: { type: 'string', description: 'City name' },
          unit: { type: 'string', enum: ['celsius', 'fahrenheit'] },
        },
      },
    },
  },
];

/** The full trajectory; request n of the run sends the messages up to each assistant turn. */
export const VANCOUVER_MESSAGES: ChatMessage[] = [
  { role: 'system', content: WEATHER_SYSTEM },
  { role: 'user', content: "What's the current time and weather in Vancouver?" },
  {
    role: 'assistant',
    content: null,
    tool_calls: [
      { id: 'call_abc123', type: 'function', function: { name: 'get_current_time', arguments: '{"timezone": "America/Vancouver"}' } },
      { id: 'call_def456', type: 'function', function: { name: 'get_weather', arguments: '{"city": "Vancouver", "unit": "celsius"}' } },
    ],
  },
  {
    role: 'tool',
    tool_call_id: 'call_abc123',
    content: '{"timezone": "America/Vancouver", "datetime": "2025-09-13T05:18:47", "day_of_week": "Saturday"}',
  },
  {
    role: 'tool',
    tool_call_id: 'call_def456',
    content: '{"city": "Vancouver", "temperature": 13.2, "unit": "celsius", "conditions": "clear", "humidity": 93}',
  },
  {
    role: 'assistant',
    content:
      "It's currently 5:18 AM on Saturday, September 13, 2025 in Vancouver.\n\nWeather: 13.2°C with clear skies and 93% humidity. It's quite cool this morning - you might want to grab a jacket.",
  },
];

export const VANCOUVER: ChatRequest = { messages: VANCOUVER_MESSAGES, tools: WEATHER_TOOLS };

/** The chapter's short attention-visualization prompt (experiment 2-2). */
export const BEIJING_PROMPT: ChatMessage[] = [{ role: 'user', content: '北京 的 天气 怎么样' }];

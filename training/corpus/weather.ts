// The time/weather family (docs/CONCEPTS.md#the-message-list): parallel tool calls, tool results, a
// final answer with reasoning. The Vancouver walk-through of the chapter is one instance of it.
import { WEATHER_SYSTEM, WEATHER_TOOLS } from '../../lib/scenarios/vancouver';
import { pyJson } from '../../lib/scenarios/json';
import type { ChatMessage, ToolCall } from '../../lib/scenarios/types';
import type { City } from './entities';
import type { Example } from './example';
import type { Rng } from '../../lib/util/rng';

const CONDITIONS = ['clear', 'partly cloudy', 'cloudy', 'light rain', 'heavy rain', 'fog', 'snow', 'thunderstorms', 'windy', 'sunny'];
const CONDITIONS_ZH: Record<string, string> = {
  clear: '晴朗', 'partly cloudy': '多云间晴', cloudy: '多云', 'light rain': '小雨', 'heavy rain': '大雨', fog: '有雾',
  snow: '下雪', thunderstorms: '雷阵雨', windy: '有风', sunny: '晴天',
};
const DAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'];
const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

export type Ask = 'both' | 'weather' | 'time';

function question(rng: Rng, city: City, ask: Ask, zh: boolean): string {
  if (zh && city.zh) {
    return rng.pick(
      ask === 'both'
        ? ['{z}现在几点，天气怎么样？', '请告诉我{z}的当前时间和天气。']
        : ask === 'weather'
          ? ['{z}的天气怎么样？', '{z} 的 天气 怎么样', '今天{z}天气如何？']
          : ['{z}现在几点？', '{z}现在是什么时间？'],
    ).replaceAll('{z}', city.zh);
  }
  return rng.pick(
    ask === 'both'
      ? ["What's the current time and weather in {c}?", 'What time is it in {c}, and how is the weather?', 'Can you tell me the time and the weather in {c} right now?']
      : ask === 'weather'
        ? ["What's the weather like in {c} right now?", 'How is the weather in {c}?', 'Is it raining in {c}?']
        : ['What time is it in {c}?', "What's the local time in {c}?"],
  ).replaceAll('{c}', city.name);
}

function pad(n: number) {
  return String(n).padStart(2, '0');
}

/** The question of a held-out evaluation case: a fresh city, sometimes with its timezone stated. */
export function weatherQuestion(rng: Rng, city: City, ask: Ask, tzGiven: boolean): string {
  const q = question(rng, city, ask, false);
  return tzGiven ? `${q} ${rng.pick(['Its timezone is {t}.', 'The timezone there is {t}.', '(timezone: {t})'])}`.replaceAll('{t}', city.timezone) : q;
}

/** `pickCity` draws the city of each round (a fixed list or fresh names, see names.ts). Fresh cities
 * (no `zh`) state their timezone in the question half of the time, since it cannot be known otherwise;
 * the tool call must copy the city (and the timezone or its city part) from the question. */
export function makeWeatherExample(rng: Rng, pickCity: () => City): Example {
  const city = pickCity();
  const fresh = !city.zh;
  const zh = !fresh && rng.chance(0.2);
  const ask: Ask = rng.pick(['both', 'both', 'weather', 'time']);
  // Some examples end right after the tool calls, with no reasoning, as the app's Step tab asks for them.
  const stopAtCalls = rng.chance(0.15);
  const unit = !zh && rng.chance(0.3) ? 'fahrenheit' : 'celsius';
  const messages: ChatMessage[] = [{ role: 'system', content: WEATHER_SYSTEM }];
  const tools = rng.chance(0.5) ? WEATHER_TOOLS : [...WEATHER_TOOLS].reverse();
  const rounds = rng.chance(0.25) ? 2 : 1;
  let current = city;
  for (let round = 0; round < rounds; round++) {
    if (round > 0) {
      do current = pickCity(); while (current.name === city.name);
      const tz = !current.zh && ask !== 'weather' && rng.chance(0.5) ? ` Its timezone is ${current.timezone}.` : '';
      messages.push({ role: 'user', content: zh && current.zh ? `那${current.zh}呢？` : rng.pick([`And in ${current.name}?`, `What about ${current.name}?`]) + tz });
    } else {
      messages.push({ role: 'user', content: fresh ? weatherQuestion(rng, city, ask, ask !== 'weather' && rng.chance(0.5)) : question(rng, city, ask, zh) });
    }
    const calls: ToolCall[] = [];
    const results: ChatMessage[] = [];
    const year = rng.int(2024, 2026);
    const month = rng.int(1, 12);
    const day = rng.int(1, 28);
    const hour = rng.int(0, 23);
    const minute = rng.int(0, 59);
    const weekday = rng.pick(DAYS);
    const tempC = Math.round((rng.next() * 45 - 10) * 10) / 10;
    const temp = unit === 'celsius' ? tempC : Math.round((tempC * 1.8 + 32) * 10) / 10;
    const cond = rng.pick(CONDITIONS);
    const humidity = rng.int(15, 99);
    if (ask !== 'weather') {
      const id = `call_${rng.id()}`;
      calls.push({ id, type: 'function', function: { name: 'get_current_time', arguments: pyJson({ timezone: current.timezone }) } });
      results.push({ role: 'tool', tool_call_id: id, content: pyJson({ timezone: current.timezone, datetime: `${year}-${pad(month)}-${pad(day)}T${pad(hour)}:${pad(minute)}:${pad(rng.int(0, 59))}`, day_of_week: weekday }) });
    }
    if (ask !== 'time') {
      const id = `call_${rng.id()}`;
      calls.push({ id, type: 'function', function: { name: 'get_weather', arguments: pyJson({ city: current.name, unit }) } });
      results.push({ role: 'tool', tool_call_id: id, content: pyJson({ city: current.name, temperature: temp, unit, conditions: cond, humidity }) });
    }
    const wants = calls.map((c) => c.function.name).join(' and ');
    messages.push({
      role: 'assistant',
      content: '',
      reasoning_content: zh
        ? `用户想知道${current.zh ?? current.name}的${ask === 'both' ? '时间和天气' : ask === 'weather' ? '天气' : '时间'}。我需要调用 ${wants}，时区是 ${current.timezone}。`
        : `The user wants the ${ask === 'both' ? 'current time and weather' : ask === 'weather' ? 'weather' : 'local time'} in ${current.name}. I should call ${wants}${ask !== 'weather' ? ` with the timezone ${current.timezone}` : ''}. The calls do not depend on each other, so I can make them in parallel.`,
      tool_calls: calls,
    });
    if (stopAtCalls && rounds === 1) {
      delete (messages[messages.length - 1] as { reasoning_content?: string }).reasoning_content;
      return { family: 'weather', messages, tools };
    }
    messages.push(...results);
    const h12 = hour % 12 === 0 ? 12 : hour % 12;
    const ampm = hour < 12 ? 'AM' : 'PM';
    const deg = unit === 'celsius' ? '°C' : '°F';
    const timeText = `It's currently ${h12}:${pad(minute)} ${ampm} on ${weekday}, ${MONTHS[month - 1]} ${day}, ${year} in ${current.name}.`;
    const weatherText = `Weather: ${temp}${deg} with ${cond} conditions and ${humidity}% humidity.${tempC < 8 ? ' It is quite cold - you might want to grab a jacket.' : tempC > 28 ? ' It is hot, so stay hydrated.' : ''}`;
    const zhText =
      (ask !== 'weather' ? `${current.zh ?? current.name}现在是${year}年${month}月${day}日${weekday === 'Sunday' ? '星期日' : ''} ${pad(hour)}:${pad(minute)}。` : '') +
      (ask !== 'time' ? `天气${CONDITIONS_ZH[cond]}，气温${temp}°C，湿度${humidity}%。` : '');
    messages.push({
      role: 'assistant',
      reasoning_content: zh
        ? '工具已经返回了结果，我可以直接回答用户。'
        : `The tools returned the ${ask === 'both' ? 'time and the weather' : ask === 'weather' ? 'weather' : 'time'}. I can now answer with the ${ask === 'time' ? 'local time' : 'temperature, conditions and humidity'}.`,
      content: zh ? zhText : [ask !== 'weather' ? timeText : '', ask !== 'time' ? weatherText : ''].filter(Boolean).join('\n\n'),
    });
  }
  return { family: 'weather', messages, tools };
}

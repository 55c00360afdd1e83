// The live loop's simulated tools (lib/agent/tools.ts): the schemas are the scenarios' own; results agree
// with the scenarios' scripted results where they overlap, and with an independent computation (Intl's
// time-zone database for the clock, a plain line scan for grep) elsewhere; bad input of every kind is an
// error result and never a throw; the phone tool enforces its per-company limit.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { DEFAULT_PHONE_LIMIT, SIMULATED_NOW_UTC, SIMULATED_TOOLS, TIME_ZONES, ToolBox, weatherOf } from '../lib/agent/tools';
import { REPO_FILES } from '../lib/scenarios/fileRepo';
import { statusText, placeStatus } from '../lib/agent/statusBar';
import { FILE_TOOLS } from '../lib/scenarios/fileTools';
import { getScenario } from '../lib/scenarios/index';
import type { ChatMessage } from '../lib/scenarios/types';
import { VANCOUVER_MESSAGES, WEATHER_TOOLS } from '../lib/scenarios/vancouver';
import { CALL_LIMIT_TOOLS, XFINITY_STATUS, XFINITY_WITH_STATUS } from '../lib/scenarios/xfinity';
import { Rng } from '../lib/util/rng';

const content = (m: ChatMessage | undefined) => (m as { content: string }).content;
const argsOf = (m: ChatMessage | undefined, k = 0) => JSON.parse((m as { tool_calls: { function: { arguments: string } }[] }).tool_calls[k]!.function.arguments) as unknown;

test('the schemas are the scenarios’ own objects, one per tool, each with an object of parameters', () => {
  assert.deepEqual(SIMULATED_TOOLS, [...WEATHER_TOOLS, ...FILE_TOOLS, ...CALL_LIMIT_TOOLS]);
  for (const t of [...WEATHER_TOOLS, ...FILE_TOOLS, ...CALL_LIMIT_TOOLS]) assert.ok(SIMULATED_TOOLS.includes(t), t.function.name);
  const names = SIMULATED_TOOLS.map((t) => t.function.name);
  assert.deepEqual(names, ['get_current_time', 'get_weather', 'read_file', 'find', 'grep', 'phone_call', 'web_search']);
  for (const t of SIMULATED_TOOLS) assert.equal(t.function.parameters?.type, 'object');
});

test('Vancouver: the time and weather results are the chapter’s, character for character', () => {
  const box = new ToolBox();
  const [, , call, timeResult, weatherResult] = VANCOUVER_MESSAGES;
  assert.deepEqual(box.run('get_current_time', argsOf(call, 0)), { content: content(timeResult) });
  assert.deepEqual(box.run('get_weather', argsOf(call, 1)), { content: content(weatherResult) });
  // the arguments as a JSON string (as the API sends them) read the same
  assert.deepEqual(box.run('get_weather', '{"city": "Vancouver", "unit": "celsius"}'), { content: content(weatherResult) });
});

test('get_current_time agrees with Intl’s time-zone database for every zone, and takes a city name', () => {
  const box = new ToolBox();
  for (const zone of Object.keys(TIME_ZONES)) {
    const parts = Object.fromEntries(
      new Intl.DateTimeFormat('en-US', { timeZone: zone, year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit', weekday: 'long', hourCycle: 'h23' })
        .formatToParts(new Date(SIMULATED_NOW_UTC))
        .map((p) => [p.type, p.value]),
    );
    const want = { timezone: zone, datetime: `${parts.year}-${parts.month}-${parts.day}T${parts.hour}:${parts.minute}:${parts.second}`, day_of_week: parts.weekday };
    const out = box.run('get_current_time', { timezone: zone });
    assert.equal(out.error, undefined, zone);
    assert.deepEqual(JSON.parse(out.content), want, zone);
  }
  assert.equal(JSON.parse(box.run('get_current_time', { timezone: 'new york' }).content).timezone, 'America/New_York');
  assert.equal(JSON.parse(box.run('get_current_time', { timezone: 'asia/TOKYO' }).content).timezone, 'Asia/Tokyo');
  assert.match(box.run('get_current_time', { timezone: 'Mars/Olympus' }).error!, /unknown timezone "Mars\/Olympus"/);
});

test('get_weather: units convert, unknown cities get stable made-up weather in range', () => {
  const box = new ToolBox();
  const f = JSON.parse(box.run('get_weather', { city: 'Vancouver', unit: 'fahrenheit' }).content);
  assert.deepEqual(f, { city: 'Vancouver', temperature: 55.8, unit: 'fahrenheit', conditions: 'clear', humidity: 93 }); // 13.2 × 9/5 + 32 = 55.76
  assert.equal(JSON.parse(box.run('get_weather', { city: 'Vancouver' }).content).unit, 'celsius');
  const a = box.run('get_weather', { city: 'Reykjavik' }).content;
  assert.equal(box.run('get_weather', { city: ' reykjavik ' }).content.replace('reykjavik', 'Reykjavik'), a);
  const seen = new Set<string>();
  for (let i = 0; i < 200; i++) {
    const w = weatherOf(`town ${i}`);
    assert.ok(w.temperature >= -5 && w.temperature < 35, `${w.temperature}`);
    assert.ok(w.humidity >= 30 && w.humidity <= 95);
    seen.add(w.conditions);
  }
  assert.ok(seen.size >= 5, 'the hash spreads over the conditions');
  assert.match(box.run('get_weather', { city: 'Paris', unit: 'kelvin' }).error!, /unit must be/);
});

test('file tools: the file-tools scenario’s scripted results come out of the simulated repository', () => {
  const msgs = getScenario('file-tools').request.messages;
  const box = new ToolBox();
  let compared = 0;
  for (let i = 0; i < msgs.length; i++) {
    const m = msgs[i]!;
    if (m.role !== 'assistant' || !m.tool_calls) continue;
    const call = m.tool_calls[0]!.function;
    const want = content(msgs[i + 1]);
    const got = box.run(call.name, call.arguments);
    assert.equal(got.error, undefined, `${call.name} ${call.arguments}`);
    if (call.name === 'grep' && call.arguments.includes('"port"')) {
      // The scenario shortened this one; a real grep also finds `import` (im-port). Every scripted line is among ours.
      for (const line of want.split('\n')) assert.ok(got.content.split('\n').includes(line), line);
    } else assert.equal(got.content, want, `${call.name} ${call.arguments}`);
    compared++;
  }
  assert.equal(compared, 6);
});

test('grep finds exactly the lines a plain scan finds, numbered as read_file numbers them', () => {
  const box = new ToolBox();
  for (const [pattern, dir] of [['port', 'src'], ['^\\[', '.'], ['TINYSHOP_', 'deploy'], ['def ', 'src/tinyshop']] as const) {
    const want: string[] = [];
    for (const f of Object.keys(REPO_FILES).sort()) {
      if (dir !== '.' && !f.startsWith(dir + '/')) continue;
      REPO_FILES[f]!.forEach((line, i) => {
        if (new RegExp(pattern).test(line)) want.push(`${f}:${i}:${line}`);
      });
    }
    const got = box.run('grep', { pattern, directory: dir }).content.split('\n');
    assert.deepEqual([...got].sort(), [...want].sort(), `${pattern} in ${dir}`);
    for (const hit of got) {
      const [file, line] = hit.split(':') as [string, string];
      const read = box.run('read_file', { file_path: file, offset: Number(line), size: 1 }).content;
      assert.equal(read, `${line.padStart(4)}  ${hit.slice(file.length + line.length + 2)}`);
    }
  }
  assert.equal(box.run('grep', { pattern: 'port', file_path: 'config/default.toml' }).content, 'config/default.toml:2:port = 8080');
  assert.match(box.run('grep', { pattern: 'nothing-like-this' }).content, /^no matches/);
});

test('find matches names by glob under a directory', () => {
  const box = new ToolBox();
  assert.equal(box.run('find', { pattern: '*.py', directory: 'src' }).content, 'src/tinyshop/__init__.py\nsrc/tinyshop/app.py\nsrc/tinyshop/db.py\nsrc/tinyshop/settings.py');
  assert.equal(box.run('find', { pattern: 'docker-compose.*.yml' }).content, './deploy/docker-compose.prod.yml');
  assert.equal(box.run('find', { pattern: 'test_?ettings.py', directory: './tests/' }).content, './tests/test_settings.py');
  assert.match(box.run('find', { pattern: '*.rs' }).content, /^no files named \*\.rs/);
  assert.match(box.run('find', { pattern: '*', directory: 'nowhere' }).error!, /no such directory/);
});

test('bad input of every kind is an error result, never a throw', () => {
  const box = new ToolBox();
  const cases: [string, unknown, RegExp][] = [
    ['get_weather', 'not json', /not valid JSON/],
    ['get_weather', [1, 2], /must be a JSON object/],
    ['get_weather', 42, /must be a JSON object/],
    ['get_weather', {}, /missing argument "city"/],
    ['get_weather', { city: 3 }, /"city" must be a string/],
    ['get_weather', { city: 'Oslo', country: 'NO' }, /unexpected argument "country"/],
    ['get_current_time', undefined, /missing argument "timezone"/],
    ['read_file', { file_path: 'nope.txt' }, /no such file: nope.txt/],
    ['read_file', { file_path: 'config' }, /config is a directory/],
    ['read_file', { file_path: '../etc/passwd' }, /leaves the repository/],
    ['read_file', { file_path: 'README.md', offset: -1 }, /"offset" must be from 0/],
    ['read_file', { file_path: 'README.md', offset: 1.5 }, /"offset" must be an integer/],
    ['read_file', { file_path: 'README.md', offset: 99 }, /past the end of README.md \(5 lines/],
    ['read_file', { file_path: 'README.md', path: 'README.md' }, /given twice/],
    ['grep', { pattern: '(' }, /not a valid regular expression/],
    ['phone_call', { city: 'São Paulo', directory: 'lib/parser/ast.ts' }, /unexpected argument "city"/],
    ['phone_call', { company: '' }, /missing argument "company"/],
    ['web_search', {}, /missing argument "query"/],
    ['send_email', { to: 'x' }, /unknown tool "send_email"/],
  ];
  for (const [name, args, re] of cases) {
    const out = box.run(name, args);
    assert.match(out.error ?? '', re, `${name} ${JSON.stringify(args)}`);
    assert.deepEqual(JSON.parse(out.content), { error: out.error });
  }
  // a simulated tool the request does not offer is unknown to this agent
  assert.match(box.run('web_search', { query: 'x' }, ['read_file', 'find', 'grep']).error!, /unknown tool "web_search" \(tools: read_file, find, grep\)/);
  // random garbage: never a throw, always a string
  const rng = new Rng(7);
  const junk = () => rng.pick<unknown>([null, 0, -3, 2.5, '', 'x', '{"a":1}', '{', [], [1], {}, { pattern: '*' }, { file_path: 1 }, { city: null }, { offset: '3' }, true]);
  for (let i = 0; i < 500; i++) {
    const name = rng.pick([...SIMULATED_TOOLS.map((t) => t.function.name), 'nope', '']);
    const raw = rng.chance(0.5) ? junk() : { [rng.pick(['city', 'timezone', 'file_path', 'pattern', 'company', 'query', 'offset', 'size', 'directory'])]: junk() };
    const out = box.run(name, raw);
    assert.equal(typeof out.content, 'string');
  }
});

test('phone_call places calls up to the limit per company; later calls are refused and not placed', () => {
  const box = new ToolBox();
  assert.equal(box.phoneLimit, DEFAULT_PHONE_LIMIT);
  const xfinity = getScenario('xfinity').request.messages.filter((m) => m.role === 'tool' && m.tool_call_id.startsWith('call_phone_')).map(content);
  for (let n = 1; n <= 3; n++) assert.deepEqual(box.run('phone_call', { company: n === 2 ? 'xfinity' : 'Xfinity' }), { content: xfinity[n - 1] });
  const refused = box.run('phone_call', { company: 'Xfinity' });
  assert.match(refused.error!, /call limit reached: Xfinity has already been called 3 times \(limit 3\); this call was not placed/);
  assert.equal(box.run('phone_call', { company: 'Comcast' }).content.slice(0, 20), 'PHONE_EVENT_COMCAST_');
  assert.deepEqual([...box.phoneCalls.entries()], [['Xfinity', { placed: 3, refused: 1 }], ['Comcast', { placed: 1, refused: 0 }]]);
  const none = new ToolBox({ phoneLimit: 0 });
  assert.ok(none.run('phone_call', { company: 'A' }).error);
  assert.throws(() => new ToolBox({ phoneLimit: -1 }), RangeError);
});

test('status text: the Xfinity wording once a company was called, a tool summary otherwise; placement per policy', () => {
  const box = new ToolBox();
  const offered = CALL_LIMIT_TOOLS.map((t) => t.function.name);
  assert.equal(statusText(box, offered), "<agent_status>\nCurrent State:\n- Tool call summary: no tool has been invoked yet\n</agent_status>");
  for (let n = 0; n < 3; n++) box.run('phone_call', { company: 'Xfinity' });
  box.run('web_search', { query: 'q' });
  assert.equal(statusText(box, offered), XFINITY_STATUS); // exactly the status message arm B of the A/B carries
  assert.equal(content(XFINITY_WITH_STATUS.messages.at(-1)), XFINITY_STATUS);
  assert.equal(statusText(box, ['web_search']), "<agent_status>\nCurrent State:\n- Tool call summary: 'phone_call' has been invoked 3 times, 'web_search' has been invoked 1 time\n</agent_status>");

  const traj: ChatMessage[] = [{ role: 'system', content: 's' }, { role: 'user', content: 'u' }, { role: 'assistant', content: 'a' }, { role: 'tool', tool_call_id: 'c', content: 't' }];
  const st = { role: 'user' as const, content: 'S' };
  assert.deepEqual(placeStatus('off', traj, 2, 'S'), { messages: traj, statusIndex: null });
  assert.deepEqual(placeStatus('replace', traj, 2, 'S'), { messages: [traj[0], traj[1], st, traj[2], traj[3]], statusIndex: 2 });
  assert.deepEqual(placeStatus('replace', traj, 2, 'S', 'end'), { messages: [...traj, st], statusIndex: 4 });
  assert.deepEqual(placeStatus('append', traj, 2, 'S'), { messages: [...traj, st], statusIndex: 4 });
});

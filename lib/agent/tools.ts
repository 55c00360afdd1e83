// Simulated tools for the live agent loop (docs/CONCEPTS.md#live-agent-loop): deterministic stand-ins for
// the tools the built-in scenarios declare — get_current_time and get_weather (Vancouver), read_file, find
// and grep over a small made-up repository (file-tools), phone_call with an enforced call limit and
// web_search (Xfinity). The schemas are the scenarios' own objects, so the embedded model, trained on them,
// sees exactly what it was trained on. Every result is a string (a tool message's content); bad input —
// unknown tool, arguments that are not a JSON object, a missing or mistyped or unexpected argument —
// gives an error result, never a throw. Pure: no clock, no randomness, no I/O, no DOM.

import { FILE_TOOLS } from '../scenarios/fileTools';
import { REPO_FILES } from '../scenarios/fileRepo';
import { pyJson } from '../scenarios/json';
import type { ToolDef } from '../scenarios/types';
import { WEATHER_TOOLS } from '../scenarios/vancouver';
import { CALL_LIMIT_TOOLS } from '../scenarios/xfinity';

/** Every tool the simulator runs, with the schema a scenario declares for it (OpenAI tools format). */
export const SIMULATED_TOOLS: readonly ToolDef[] = [...WEATHER_TOOLS, ...FILE_TOOLS, ...CALL_LIMIT_TOOLS];

export const SIMULATED_TOOL_NAMES: readonly string[] = SIMULATED_TOOLS.map((t) => t.function.name);

/** The default per-company limit of phone_call (the Xfinity scenario's system prompt says 3). */
export const DEFAULT_PHONE_LIMIT = 3;

export interface ToolOutcome {
  /** The tool message's content: the result, or `{"error": "…"}` for an error. */
  content: string;
  /** Set when the call failed (unknown tool, bad arguments, the phone limit, a missing file …). */
  error?: string;
}

class ToolArgError extends Error {}

const fail = (msg: string): never => {
  throw new ToolArgError(msg);
};
const errorResult = (msg: string): ToolOutcome => ({ content: pyJson({ error: msg }), error: msg });

// ---- arguments ----

type Kind = 'string' | 'integer';
interface ArgSpec {
  kind: Kind;
  required?: boolean;
  /** Other names accepted for the same argument (the model sometimes writes `path` for `file_path`). */
  aliases?: string[];
  min?: number;
  max?: number;
}

/**
 * Reads `raw` (an object, or a JSON string holding one) against `spec`: every key must be known (or an
 * alias), of its kind, within range; required keys must be there. Throws ToolArgError with one line.
 */
function readArgs(raw: unknown, spec: Record<string, ArgSpec>): Record<string, string | number | undefined> {
  let value = raw;
  if (typeof raw === 'string') {
    try {
      value = JSON.parse(raw);
    } catch {
      fail('arguments are not valid JSON');
    }
  }
  if (value === undefined || value === null) value = {};
  if (typeof value !== 'object' || Array.isArray(value)) fail('arguments must be a JSON object');
  const obj = value as Record<string, unknown>;
  const nameOf = new Map<string, string>();
  for (const [name, s] of Object.entries(spec)) {
    nameOf.set(name, name);
    for (const a of s.aliases ?? []) nameOf.set(a, name);
  }
  const out: Record<string, string | number | undefined> = {};
  for (const [key, v] of Object.entries(obj)) {
    const name = nameOf.get(key);
    if (name === undefined) fail(`unexpected argument "${key}" (expected: ${Object.keys(spec).join(', ')})`);
    if (out[name!] !== undefined) fail(`argument "${name}" given twice`);
    const s = spec[name!]!;
    if (v === null) continue;
    if (s.kind === 'string') {
      if (typeof v !== 'string') fail(`argument "${key}" must be a string`);
      out[name!] = v as string;
    } else {
      const n = typeof v === 'string' && /^-?\d+$/.test(v.trim()) ? Number(v) : v;
      if (typeof n !== 'number' || !Number.isInteger(n)) fail(`argument "${key}" must be an integer`);
      if ((s.min !== undefined && (n as number) < s.min) || (s.max !== undefined && (n as number) > s.max))
        fail(`argument "${key}" must be from ${s.min ?? '−∞'} to ${s.max ?? '∞'} (got ${n as number})`);
      out[name!] = n as number;
    }
  }
  for (const [name, s] of Object.entries(spec)) if (s.required && (out[name] === undefined || out[name] === '')) fail(`missing argument "${name}"`);
  return out;
}

// ---- time zones: one fixed instant, offsets in force on that date ----

/** The simulated "now": the chapter's Vancouver result is this instant at UTC−7 (2025-09-13T05:18:47, a Saturday). */
export const SIMULATED_NOW_UTC = Date.UTC(2025, 8, 13, 12, 18, 47);

/** UTC offsets in hours on 2025-09-13 (summer time where it applies then). */
export const TIME_ZONES: Readonly<Record<string, number>> = {
  UTC: 0,
  'America/Vancouver': -7,
  'America/Los_Angeles': -7,
  'America/Denver': -6,
  'America/Chicago': -5,
  'America/New_York': -4,
  'America/Toronto': -4,
  'America/Sao_Paulo': -3,
  'Europe/London': 1,
  'Europe/Paris': 2,
  'Europe/Berlin': 2,
  'Europe/Madrid': 2,
  'Europe/Moscow': 3,
  'Asia/Dubai': 4,
  'Asia/Kolkata': 5.5,
  'Asia/Shanghai': 8,
  'Asia/Hong_Kong': 8,
  'Asia/Taipei': 8,
  'Asia/Singapore': 8,
  'Asia/Tokyo': 9,
  'Asia/Seoul': 9,
  'Australia/Sydney': 10,
};

const DAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];

/** An IANA name (any case), or the city part of one (`Vancouver`, `new york`); undefined when unknown. */
export function resolveTimeZone(name: string): string | undefined {
  const key = name.trim().toLowerCase().replace(/\s+/g, '_');
  return Object.keys(TIME_ZONES).find((z) => z.toLowerCase() === key || z.split('/').pop()!.toLowerCase() === key);
}

function getCurrentTime(raw: unknown): string {
  const { timezone } = readArgs(raw, { timezone: { kind: 'string', required: true } });
  const zone = resolveTimeZone(timezone as string) ?? fail(`unknown timezone "${timezone as string}"`);
  const local = new Date(SIMULATED_NOW_UTC + TIME_ZONES[zone]! * 3600_000);
  return pyJson({ timezone: zone, datetime: local.toISOString().slice(0, 19), day_of_week: DAYS[local.getUTCDay()] });
}

// ---- weather: a table, and a hash of the name for any other city ----

interface Weather {
  temperature: number;
  conditions: string;
  humidity: number;
}

export const WEATHER: Readonly<Record<string, Weather>> = {
  vancouver: { temperature: 13.2, conditions: 'clear', humidity: 93 },
  beijing: { temperature: 24.1, conditions: 'cloudy', humidity: 60 },
  北京: { temperature: 24.1, conditions: 'cloudy', humidity: 60 },
  shanghai: { temperature: 27.5, conditions: 'light rain', humidity: 82 },
  tokyo: { temperature: 26.3, conditions: 'partly cloudy', humidity: 70 },
  osaka: { temperature: 27, conditions: 'sunny', humidity: 64 },
  taipei: { temperature: 29, conditions: 'thunderstorms', humidity: 85 },
  london: { temperature: 15.8, conditions: 'overcast', humidity: 77 },
  paris: { temperature: 17.4, conditions: 'clear', humidity: 68 },
  madrid: { temperature: 24.9, conditions: 'sunny', humidity: 38 },
  berlin: { temperature: 16.2, conditions: 'light rain', humidity: 80 },
  'new york': { temperature: 21.6, conditions: 'partly cloudy', humidity: 58 },
  toronto: { temperature: 16.9, conditions: 'clear', humidity: 71 },
  'são paulo': { temperature: 22.3, conditions: 'cloudy', humidity: 66 },
  sydney: { temperature: 14.5, conditions: 'windy', humidity: 55 },
};

const CONDITIONS = ['clear', 'partly cloudy', 'cloudy', 'overcast', 'light rain', 'rain', 'fog', 'windy', 'sunny'];

/** FNV-1a over UTF-16 code units: a stable hash for made-up weather. */
function fnv1a(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193) >>> 0;
  return h;
}

/** The weather of `city`: from the table, else derived from a hash of its lower-cased name (−5.0…34.9 °C). */
export function weatherOf(city: string): Weather {
  const key = city.trim().toLowerCase().replace(/\s+/g, ' ');
  const known = WEATHER[key];
  if (known) return known;
  const h = fnv1a(key);
  return { temperature: -5 + (h % 400) / 10, conditions: CONDITIONS[(h >>> 9) % CONDITIONS.length]!, humidity: 30 + ((h >>> 17) % 66) };
}

function getWeather(raw: unknown): string {
  const { city, unit } = readArgs(raw, { city: { kind: 'string', required: true }, unit: { kind: 'string' } });
  const u = ((unit as string | undefined) ?? 'celsius').toLowerCase();
  if (u !== 'celsius' && u !== 'fahrenheit') fail(`unit must be "celsius" or "fahrenheit" (got "${unit as string}")`);
  const w = weatherOf(city as string);
  const temperature = u === 'celsius' ? w.temperature : Math.round((w.temperature * 9) / 5 * 10 + 320) / 10;
  return pyJson({ city: (city as string).trim(), temperature, unit: u, conditions: w.conditions, humidity: w.humidity });
}

// ---- a small repository: the file-tools scenario's made-up `tinyshop` (lib/scenarios/fileRepo.ts) ----

/** A path relative to the repository root ('' for the root): `./a/b`, `/a/b/`, `a//b` → `a/b`. Refuses `..`. */
function normPath(p: string): string {
  const parts = p.trim().split('/').filter((x) => x !== '' && x !== '.');
  if (parts.includes('..')) fail(`path "${p}" leaves the repository`);
  return parts.join('/');
}

const isDir = (dir: string) => dir === '' || Object.keys(REPO_FILES).some((f) => f.startsWith(dir + '/'));
const filesUnder = (dir: string) =>
  Object.keys(REPO_FILES)
    .filter((f) => dir === '' || f.startsWith(dir + '/'))
    .sort((a, b) => a.split('/').length - b.split('/').length || (a < b ? -1 : a > b ? 1 : 0));

/** Lines as read_file prints them: each line's 0-based number right-aligned in 4, two spaces, the text. */
export function numberedLines(first: number, lines: readonly string[]): string {
  return lines.map((l, k) => `${String(first + k).padStart(4)}  ${l}`).join('\n');
}

const MAX_READ = 200;
const MAX_MATCHES = 50;

function readFile(raw: unknown): string {
  const a = readArgs(raw, {
    file_path: { kind: 'string', required: true, aliases: ['path', 'file'] },
    offset: { kind: 'integer', min: 0 },
    size: { kind: 'integer', min: 1, max: MAX_READ },
  });
  const path = normPath(a.file_path as string);
  const lines = REPO_FILES[path];
  if (!lines) fail(isDir(path) ? `${path || '.'} is a directory` : `no such file: ${path}`);
  const offset = (a.offset as number | undefined) ?? 0;
  const size = (a.size as number | undefined) ?? 20;
  if (offset >= lines!.length) fail(`offset ${offset} is past the end of ${path} (${lines!.length} lines, numbered from 0)`);
  return numberedLines(offset, lines!.slice(offset, offset + size));
}

/** A glob (`*`, `?`, `[…]`) on a file's name, as `find -name` matches it. */
function globRegExp(glob: string): RegExp {
  let re = '';
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i]!;
    if (c === '*') re += '[^/]*';
    else if (c === '?') re += '[^/]';
    else if (c === '[') {
      const close = glob.indexOf(']', i + 1);
      if (close < 0) fail(`pattern "${glob}": unclosed [`);
      re += '[' + glob.slice(i + 1, close).replace(/\\/g, '\\\\').replace(/^!/, '^') + ']';
      i = close;
    } else re += c.replace(/[.+^${}()|\\]/g, '\\$&');
  }
  return new RegExp(`^${re}$`);
}

function find(raw: unknown): string {
  const a = readArgs(raw, { pattern: { kind: 'string', required: true, aliases: ['name'] }, directory: { kind: 'string', aliases: ['path', 'dir'] } });
  const given = (a.directory as string | undefined) ?? '.';
  const dir = normPath(given);
  if (REPO_FILES[dir]) fail(`${dir} is a file, not a directory`);
  if (!isDir(dir)) fail(`no such directory: ${dir}`);
  const re = globRegExp(a.pattern as string);
  const prefix = dir === '' ? '.' : given.trim().replace(/\/+$/, '');
  const hits = filesUnder(dir)
    .filter((f) => re.test(f.split('/').pop()!))
    .map((f) => `${prefix}/${dir === '' ? f : f.slice(dir.length + 1)}`);
  return hits.length ? hits.join('\n') : `no files named ${a.pattern as string} under ${prefix}`;
}

function grep(raw: unknown): string {
  const a = readArgs(raw, {
    pattern: { kind: 'string', required: true },
    file_path: { kind: 'string', aliases: ['path', 'file'] },
    directory: { kind: 'string', aliases: ['dir'] },
  });
  let re: RegExp;
  try {
    re = new RegExp(a.pattern as string);
  } catch (e) {
    return fail(`pattern "${a.pattern as string}" is not a valid regular expression (${(e as Error).message})`);
  }
  let files: string[];
  if (a.file_path !== undefined) {
    const path = normPath(a.file_path as string);
    if (!REPO_FILES[path]) fail(isDir(path) ? `${path || '.'} is a directory (give it as directory)` : `no such file: ${path}`);
    files = [path];
  } else {
    const dir = normPath((a.directory as string | undefined) ?? '.');
    if (REPO_FILES[dir]) files = [dir];
    else if (!isDir(dir)) return fail(`no such directory: ${dir}`);
    else files = filesUnder(dir);
  }
  const hits: string[] = [];
  for (const f of files)
    REPO_FILES[f]!.forEach((line, i) => {
      if (re.test(line)) hits.push(`${f}:${i}:${line}`);
    });
  if (hits.length === 0) return `no matches for ${a.pattern as string}`;
  return hits.length > MAX_MATCHES ? [...hits.slice(0, MAX_MATCHES), `… ${hits.length - MAX_MATCHES} more matches`].join('\n') : hits.join('\n');
}

// ---- the tool box: state (phone calls, searches) and dispatch ----

export interface ToolBoxOptions {
  /** Calls allowed per company; the next one returns an error and is not placed. Default 3. */
  phoneLimit?: number;
}

/** One loop's tools and their state. `run` never throws. */
export class ToolBox {
  readonly phoneLimit: number;
  /** Placed (and refused) phone calls per company, in the order first called; keys as first written. */
  readonly phoneCalls = new Map<string, { placed: number; refused: number }>();
  /** Invocations per tool name, errors included, in order of first use. */
  readonly invocations = new Map<string, number>();
  /** The company of the latest phone_call that named one (placed or refused). */
  lastCompany: string | undefined;
  private searches = 0;

  constructor(opts: ToolBoxOptions = {}) {
    const limit = opts.phoneLimit ?? DEFAULT_PHONE_LIMIT;
    if (!Number.isInteger(limit) || limit < 0) throw new RangeError(`phoneLimit must be an integer ≥ 0 (got ${limit})`);
    this.phoneLimit = limit;
  }

  /**
   * Runs tool `name` with `args` (the parsed "arguments" of a <tool_call>, or its JSON string). `offered`:
   * the tool names the request declares; a tool outside it is an error, as a real agent would answer.
   */
  run(name: string, args: unknown, offered?: readonly string[]): ToolOutcome {
    this.invocations.set(name, (this.invocations.get(name) ?? 0) + 1);
    if (!SIMULATED_TOOL_NAMES.includes(name) || (offered && !offered.includes(name))) {
      const known = offered ?? SIMULATED_TOOL_NAMES;
      return errorResult(`unknown tool "${name}" (tools: ${known.join(', ') || 'none'})`);
    }
    try {
      switch (name) {
        case 'get_current_time':
          return { content: getCurrentTime(args) };
        case 'get_weather':
          return { content: getWeather(args) };
        case 'read_file':
          return { content: readFile(args) };
        case 'find':
          return { content: find(args) };
        case 'grep':
          return { content: grep(args) };
        case 'phone_call':
          return this.phoneCall(args);
        case 'web_search':
          return this.webSearch(args);
      }
    } catch (e) {
      if (e instanceof ToolArgError) return errorResult(e.message);
      throw e;
    }
    return errorResult(`unknown tool "${name}"`);
  }

  private phoneCall(raw: unknown): ToolOutcome {
    const { company } = readArgs(raw, { company: { kind: 'string', required: true } });
    const name = (company as string).trim();
    const key = [...this.phoneCalls.keys()].find((k) => k.toLowerCase() === name.toLowerCase()) ?? name;
    const entry = this.phoneCalls.get(key) ?? { placed: 0, refused: 0 };
    this.phoneCalls.set(key, entry);
    this.lastCompany = key;
    if (entry.placed >= this.phoneLimit) {
      entry.refused++;
      return errorResult(`call limit reached: ${key} has already been called ${entry.placed} ${entry.placed === 1 ? 'time' : 'times'} (limit ${this.phoneLimit}); this call was not placed`);
    }
    entry.placed++;
    const tag = key.toUpperCase().replace(/[^A-Z0-9]+/g, '_');
    return { content: `PHONE_EVENT_${tag}_${entry.placed}: Call ${entry.placed} reached support; the refund is still pending and no new action was promised.` };
  }

  private webSearch(raw: unknown): ToolOutcome {
    readArgs(raw, { query: { kind: 'string', required: true } });
    this.searches++;
    return {
      content:
        `DISTRACTOR_SEARCH_${this.searches}: Public search notes cover billing cycles, modem returns, service regions, account portals, ` +
        'and several unrelated support articles. No case-specific update was found.',
    };
  }
}

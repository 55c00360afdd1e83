// JSON text → the value JSON.parse would give, plus where every value sits in the text, named in the
// request validator's path grammar (`request`, `messages[3].tool_calls[0].function.arguments`,
// `tools[1].function.name`), so a validator error can be shown at its field. Strict RFC 8259, one pass,
// no DOM. Syntax errors say why and where (line and column, 1-based, columns in UTF-16 code units;
// only "\n" starts a line, as in a textarea's value).

export type JsonType = 'object' | 'array' | 'string' | 'number' | 'boolean' | 'null';

/** A span of the text: `offset` (inclusive) to `end` (exclusive), with the line and column of each end. */
export interface SourceRange {
  offset: number;
  line: number;
  column: number;
  end: number;
  endLine: number;
  endColumn: number;
}

export interface JsonNode {
  /** The validator's name for this value; the root is `request`. */
  path: string;
  type: JsonType;
  /** The value itself: from its first character (a quote, a digit, a bracket) to just after its last. */
  range: SourceRange;
  /** The member's key, quotes included (object members only). */
  key?: SourceRange;
  /** Object members by key; a repeated key keeps its first place and its last value, as JSON.parse does. */
  members?: Map<string, JsonNode>;
  /** Array elements in order. */
  items?: JsonNode[];
}

export interface JsonSyntaxError {
  /** Why, without the place: "expected ',' or '}' after an object member". */
  reason: string;
  offset: number;
  line: number;
  column: number;
  /** "line 12, column 5: expected ',' or '}' after an object member" */
  message: string;
}

export type LocateResult = { ok: true; value: unknown; root: JsonNode } | { ok: false; error: JsonSyntaxError };

/** Deepest nesting of objects and arrays accepted (the root container is level 1). */
export const MAX_DEPTH = 512;
export const ROOT_PATH = 'request';

const IDENT = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** The path of a member or element of the value at `parent`: `messages`, `messages[3]`, `messages[3].role`. */
export function childPath(parent: string, key: string | number): string {
  if (typeof key === 'number') return `${parent}[${key}]`;
  const plain = IDENT.test(key);
  if (parent === ROOT_PATH) return plain && key !== ROOT_PATH ? key : `[${JSON.stringify(key)}]`;
  return plain ? `${parent}.${key}` : `${parent}[${JSON.stringify(key)}]`;
}

/**
 * The steps of a path (keys and array indices) from the root; `request` (or '') is the root itself.
 * Keys that are not identifiers are written `["key"]`. Null when the path does not follow the grammar.
 */
export function parsePath(path: string): (string | number)[] | null {
  if (path === '' || path === ROOT_PATH) return [];
  const steps: (string | number)[] = [];
  let i = 0;
  if (path.startsWith(ROOT_PATH + '[')) i = ROOT_PATH.length;
  const n = path.length;
  while (i < n) {
    const c = path[i];
    if (c === '[') {
      if (path[i + 1] === '"') {
        // A JSON string key: scan to its closing quote, skipping escapes.
        let j = i + 2;
        while (j < n && path[j] !== '"') j += path[j] === '\\' ? 2 : 1;
        if (j >= n || path[j + 1] !== ']') return null;
        try {
          steps.push(JSON.parse(path.slice(i + 1, j + 1)) as string);
        } catch {
          return null;
        }
        i = j + 2;
      } else {
        const m = /^\[(0|[1-9][0-9]*)\]/.exec(path.slice(i, i + 24));
        if (!m) return null;
        steps.push(Number(m[1]));
        i += m[0].length;
      }
    } else {
      if (c === '.') {
        if (steps.length === 0) return null;
        i++;
      } else if (steps.length > 0) return null;
      const m = /^[A-Za-z_$][A-Za-z0-9_$]*/.exec(path.slice(i));
      if (!m) return null;
      steps.push(m[0]);
      i += m[0].length;
    }
  }
  return steps;
}

export interface Located {
  node: JsonNode;
  /** True when `node` is the value the path names; false when it is the nearest ancestor that exists. */
  exact: boolean;
}

/** The value a validator path names, or else its nearest existing ancestor (at worst the root). */
export function locatePath(root: JsonNode, path: string): Located {
  const steps = parsePath(path);
  if (!steps) return { node: root, exact: false };
  let node = root;
  for (const step of steps) {
    const next = typeof step === 'number' ? node.items?.[step] : node.members?.get(step);
    if (!next) return { node, exact: false };
    node = next;
  }
  return { node, exact: true };
}

/** Every node, depth first in text order (a repeated key's earlier values are not included). */
export function* walkNodes(root: JsonNode): Generator<JsonNode> {
  const stack: JsonNode[] = [root];
  while (stack.length) {
    const node = stack.pop()!;
    yield node;
    const kids = node.items ?? (node.members ? [...node.members.values()].sort((a, b) => a.range.offset - b.range.offset) : null);
    if (kids) for (let i = kids.length - 1; i >= 0; i--) stack.push(kids[i]!);
  }
}

/** Line and column (1-based) of a UTF-16 offset. */
export function lineColumn(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  const stop = Math.min(offset, text.length);
  for (let i = text.indexOf('\n'); i !== -1 && i < stop; i = text.indexOf('\n', i + 1)) {
    line++;
    lineStart = i + 1;
  }
  return { line, column: offset - lineStart + 1 };
}

class Fail {
  constructor(
    readonly offset: number,
    readonly reason: string,
  ) {}
}

const CONTROL_NAMES: Record<number, string> = { 8: '\\b', 9: '\\t', 10: '\\n', 12: '\\f', 13: '\\r' };

function describeChar(text: string, pos: number): string {
  if (pos >= text.length) return 'the end of the text';
  const c = text.charCodeAt(pos);
  if (c < 32 || c === 127) return `control character U+${c.toString(16).toUpperCase().padStart(4, '0')}`;
  const cp = text.codePointAt(pos)!;
  return `'${String.fromCodePoint(cp)}'`;
}

function hexDigit(c: number): number {
  if (c >= 48 && c <= 57) return c - 48;
  if (c >= 65 && c <= 70) return c - 55;
  if (c >= 97 && c <= 102) return c - 87;
  return -1;
}

function defineMember(obj: Record<string, unknown>, key: string, value: unknown): void {
  // JSON.parse creates an own "__proto__" property; plain assignment would set the prototype instead.
  if (key === '__proto__') Object.defineProperty(obj, key, { value, writable: true, enumerable: true, configurable: true });
  else obj[key] = value;
}

class Parser {
  pos = 0;
  line = 1;
  lineStart = 0;
  node!: JsonNode;
  /** Offsets of the objects and arrays still open, innermost last (for "not closed" messages). */
  readonly open: number[] = [];

  constructor(
    readonly text: string,
    readonly maxDepth: number,
  ) {}

  ws(): void {
    const t = this.text;
    let p = this.pos;
    for (;;) {
      const c = t.charCodeAt(p);
      if (c === 32 || c === 9 || c === 13) p++;
      else if (c === 10) {
        p++;
        this.line++;
        this.lineStart = p;
      } else break;
    }
    this.pos = p;
  }

  /** The text ended where more JSON was needed. */
  ended(): Fail {
    const at = this.open.length ? this.open[this.open.length - 1]! : -1;
    if (at < 0) return new Fail(this.text.length, this.text.trim() === '' ? 'the text is empty: expected a JSON value' : 'the text ends before the JSON does (truncated?)');
    const { line, column } = lineColumn(this.text, at);
    return new Fail(this.text.length, `the text ends before the JSON does: '${this.text[at]}' at line ${line}, column ${column} is not closed`);
  }

  /** `wantValue`: a value or a key was expected here, so a bare word is probably a quoting mistake. */
  unexpected(pos: number, expected: string, wantValue = false): Fail {
    if (pos >= this.text.length) return this.ended();
    const c = this.text.charCodeAt(pos);
    if (c === 39) return new Fail(pos, `${expected}; found ' (JSON strings and keys need double quotes)`);
    if (c === 47 && (this.text[pos + 1] === '/' || this.text[pos + 1] === '*')) return new Fail(pos, `${expected}; found a comment (JSON has no comments)`);
    const word = /^[A-Za-z_$][A-Za-z0-9_$]*/.exec(this.text.slice(pos, pos + 40));
    if (word && wantValue) {
      const w = word[0];
      const hint =
        w === 'NaN' || w === 'Infinity'
          ? ' (JSON has no NaN or Infinity)'
          : /^(true|false|null)$/i.test(w)
            ? ' (JSON writes true, false and null in lower case)'
            : w === 'undefined'
              ? ' (JSON has no undefined; use null)'
              : ' (strings and keys need double quotes)';
      return new Fail(pos, `${expected}; found '${w}'${hint}`);
    }
    if (word) return new Fail(pos, `${expected}; found '${word[0]}'`);
    return new Fail(pos, `${expected}; found ${describeChar(this.text, pos)}`);
  }

  range(start: number, startLine: number, startLineStart: number): SourceRange {
    return { offset: start, line: startLine, column: start - startLineStart + 1, end: this.pos, endLine: this.line, endColumn: this.pos - this.lineStart + 1 };
  }

  /** A value at this.pos (whitespace already skipped); leaves its node in this.node. */
  value(path: string, depth: number, key: SourceRange | undefined): unknown {
    const t = this.text;
    const c = t.charCodeAt(this.pos);
    const start = this.pos;
    const line = this.line;
    const lineStart = this.lineStart;
    let value: unknown;
    let type: JsonType;
    if (c === 123) return this.object(path, depth + 1, key);
    if (c === 91) return this.array(path, depth + 1, key);
    if (c === 34) {
      value = this.string();
      type = 'string';
    } else if (c === 45 || (c >= 48 && c <= 57)) {
      value = this.number();
      type = 'number';
    } else if (c === 116 && t.startsWith('true', start)) {
      this.pos += 4;
      value = true;
      type = 'boolean';
    } else if (c === 102 && t.startsWith('false', start)) {
      this.pos += 5;
      value = false;
      type = 'boolean';
    } else if (c === 110 && t.startsWith('null', start)) {
      this.pos += 4;
      value = null;
      type = 'null';
    } else throw this.unexpected(start, 'expected a value (a string, number, object, array, true, false or null)', true);
    this.node = { path, type, range: this.range(start, line, lineStart), key };
    return value;
  }

  string(): string {
    const t = this.text;
    const start = this.pos;
    let p = start + 1;
    let chunk = p;
    let out = '';
    for (;;) {
      const c = t.charCodeAt(p);
      if (c === 34) {
        out += t.slice(chunk, p);
        this.pos = p + 1;
        return out;
      }
      if (c === 92) {
        out += t.slice(chunk, p);
        const e = t.charCodeAt(p + 1);
        switch (e) {
          case 34: out += '"'; p += 2; break;
          case 92: out += '\\'; p += 2; break;
          case 47: out += '/'; p += 2; break;
          case 98: out += '\b'; p += 2; break;
          case 102: out += '\f'; p += 2; break;
          case 110: out += '\n'; p += 2; break;
          case 114: out += '\r'; p += 2; break;
          case 116: out += '\t'; p += 2; break;
          case 117: {
            let code = 0;
            for (let k = 2; k < 6; k++) {
              const h = hexDigit(t.charCodeAt(p + k));
              if (h < 0) {
                if (p + k >= t.length) throw this.unterminated(start);
                throw new Fail(p, `invalid escape '${t.slice(p, p + k + 1)}' in a string: \\u needs four hex digits`);
              }
              code = code * 16 + h;
            }
            // Lone surrogates are accepted, as JSON.parse accepts them.
            out += String.fromCharCode(code);
            p += 6;
            break;
          }
          default:
            if (p + 1 >= t.length) throw this.unterminated(start);
            throw new Fail(p, `invalid escape '\\${e < 32 ? '' : t[p + 1]}' in a string (JSON has \\" \\\\ \\/ \\b \\f \\n \\r \\t and \\uXXXX)`);
        }
        chunk = p;
        continue;
      }
      if (!(c >= 32)) {
        // Control characters (and the end of the text, where charCodeAt gives NaN).
        if (p >= t.length) throw this.unterminated(start);
        if (c === 10) throw new Fail(start, 'the string is not closed before the end of the line (a line break inside a string is written \\n)');
        const name = CONTROL_NAMES[c];
        throw new Fail(p, `bare control character U+${c.toString(16).toUpperCase().padStart(4, '0')} in a string (write it escaped${name ? `: ${name}` : `: \\u${c.toString(16).padStart(4, '0')}`})`);
      }
      p++;
    }
  }

  unterminated(start: number): Fail {
    return new Fail(start, 'unterminated string: the text ends before its closing "');
  }

  number(): number {
    const t = this.text;
    const start = this.pos;
    let p = start;
    let c = t.charCodeAt(p);
    if (c === 45) c = t.charCodeAt(++p);
    if (c === 48) {
      c = t.charCodeAt(++p);
      if (c >= 48 && c <= 57) throw new Fail(p - 1, 'numbers cannot have leading zeros');
    } else if (c >= 49 && c <= 57) {
      do c = t.charCodeAt(++p);
      while (c >= 48 && c <= 57);
    } else throw this.unexpectedInNumber(p, "expected a digit after '-'");
    if (c === 46) {
      c = t.charCodeAt(++p);
      if (!(c >= 48 && c <= 57)) throw this.unexpectedInNumber(p, 'expected a digit after the decimal point');
      do c = t.charCodeAt(++p);
      while (c >= 48 && c <= 57);
    }
    if (c === 101 || c === 69) {
      c = t.charCodeAt(++p);
      if (c === 43 || c === 45) c = t.charCodeAt(++p);
      if (!(c >= 48 && c <= 57)) throw this.unexpectedInNumber(p, 'expected a digit in the exponent');
      do c = t.charCodeAt(++p);
      while (c >= 48 && c <= 57);
    }
    this.pos = p;
    // The same decimal-to-double conversion JSON.parse uses (1e400 is Infinity, -0 stays -0).
    return Number(t.slice(start, p));
  }

  unexpectedInNumber(p: number, reason: string): Fail {
    if (p >= this.text.length) return this.ended();
    return new Fail(p, `${reason}; found ${describeChar(this.text, p)}`);
  }

  enter(start: number, depth: number): void {
    if (depth > this.maxDepth) throw new Fail(start, `nested deeper than ${this.maxDepth} levels of objects and arrays`);
    this.open.push(start);
  }

  /**
   * After an object member or array element: true when the container's closing bracket (`close`) follows,
   * false when a ',' announces another item; a trailing comma or anything else is an error.
   */
  closesAfterItem(close: number, item: 'member' | 'element'): boolean {
    const t = this.text;
    this.ws();
    const c = t.charCodeAt(this.pos);
    const bracket = String.fromCharCode(close);
    if (c === 44) {
      const comma = this.pos;
      this.pos++;
      this.ws();
      if (t.charCodeAt(this.pos) === close) throw new Fail(comma, `trailing comma: no ${item} follows this ',' before '${bracket}'`);
      return false;
    }
    if (c === close) return true;
    throw this.unexpected(this.pos, `expected ',' or '${bracket}' after ${item === 'member' ? 'an object member' : 'an array element'}`);
  }

  object(path: string, depth: number, key: SourceRange | undefined): Record<string, unknown> {
    const t = this.text;
    const start = this.pos;
    const line = this.line;
    const lineStart = this.lineStart;
    this.enter(start, depth);
    const obj: Record<string, unknown> = {};
    const members = new Map<string, JsonNode>();
    this.pos++;
    this.ws();
    if (t.charCodeAt(this.pos) !== 125) {
      for (;;) {
        const k = this.pos;
        if (t.charCodeAt(k) !== 34) throw this.unexpected(k, members.size ? 'expected a key in double quotes after \',\'' : "expected a key in double quotes or '}'", true);
        const kLine = this.line;
        const kLineStart = this.lineStart;
        const name = this.string();
        const keyRange = this.range(k, kLine, kLineStart);
        this.ws();
        if (t.charCodeAt(this.pos) !== 58) throw this.unexpected(this.pos, `expected ':' after the key ${JSON.stringify(name.length > 40 ? name.slice(0, 40) + '…' : name)}`);
        this.pos++;
        this.ws();
        const v = this.value(childPath(path, name), depth, keyRange);
        defineMember(obj, name, v);
        members.set(name, this.node);
        if (this.closesAfterItem(125, 'member')) break;
      }
    }
    this.pos++;
    this.open.pop();
    this.node = { path, type: 'object', range: this.range(start, line, lineStart), key, members };
    return obj;
  }

  array(path: string, depth: number, key: SourceRange | undefined): unknown[] {
    const t = this.text;
    const start = this.pos;
    const line = this.line;
    const lineStart = this.lineStart;
    this.enter(start, depth);
    const arr: unknown[] = [];
    const items: JsonNode[] = [];
    this.pos++;
    this.ws();
    if (t.charCodeAt(this.pos) !== 93) {
      for (;;) {
        if (this.pos >= t.length) throw this.ended();
        arr.push(this.value(childPath(path, arr.length), depth, undefined));
        items.push(this.node);
        if (this.closesAfterItem(93, 'element')) break;
      }
    }
    this.pos++;
    this.open.pop();
    this.node = { path, type: 'array', range: this.range(start, line, lineStart), key, items };
    return arr;
  }
}

/**
 * Parses `text` as JSON (strictly: what JSON.parse accepts, and the same value) and records where each
 * value is. Objects and arrays nested deeper than `maxDepth` are refused with an error, never a stack overflow.
 */
export function parseJsonLocated(text: string, options: { maxDepth?: number } = {}): LocateResult {
  const p = new Parser(text, options.maxDepth ?? MAX_DEPTH);
  try {
    p.ws();
    if (p.pos >= text.length) throw p.ended();
    const value = p.value(ROOT_PATH, 0, undefined);
    p.ws();
    if (p.pos < text.length) throw p.unexpected(p.pos, 'unexpected text after the JSON value (only one value is allowed)');
    return { ok: true, value, root: p.node };
  } catch (e) {
    if (!(e instanceof Fail)) throw e;
    const { line, column } = lineColumn(text, e.offset);
    return { ok: false, error: { reason: e.reason, offset: e.offset, line, column, message: `line ${line}, column ${column}: ${e.reason}` } };
  }
}

/**
 * Pretty-prints valid JSON with `indent` spaces, keeping every token as written (numbers such as 1.0 or
 * 1e400, escapes, repeated keys): only whitespace changes. For text JSON.stringify would print the same
 * way it equals JSON.stringify(JSON.parse(text), null, indent). Syntax errors come back unchanged.
 */
export function formatJson(text: string, indent = 2): { ok: true; text: string } | { ok: false; error: JsonSyntaxError } {
  const parsed = parseJsonLocated(text);
  if (!parsed.ok) return parsed;
  const out: string[] = [];
  const pad = (d: number) => '\n' + ' '.repeat(indent * d);
  let depth = 0;
  const n = text.length;
  let i = 0;
  const skipWs = (j: number) => {
    while (j < n) {
      const c = text.charCodeAt(j);
      if (c === 32 || c === 9 || c === 10 || c === 13) j++;
      else break;
    }
    return j;
  };
  while (i < n) {
    const c = text.charCodeAt(i);
    if (c === 32 || c === 9 || c === 10 || c === 13) i++;
    else if (c === 34) {
      let j = i + 1;
      while (text.charCodeAt(j) !== 34) j += text.charCodeAt(j) === 92 ? 2 : 1;
      out.push(text.slice(i, j + 1));
      i = j + 1;
    } else if (c === 123 || c === 91) {
      const close = c === 123 ? '}' : ']';
      const j = skipWs(i + 1);
      if (text[j] === close) {
        out.push(text[i]! + close);
        i = j + 1;
      } else {
        out.push(text[i]! + pad(++depth));
        i++;
      }
    } else if (c === 125 || c === 93) {
      out.push(pad(--depth) + text[i]!);
      i++;
    } else if (c === 44) {
      out.push(',' + pad(depth));
      i++;
    } else if (c === 58) {
      out.push(': ');
      i++;
    } else {
      let j = i + 1;
      for (let d = text.charCodeAt(j); j < n && d !== 44 && d !== 93 && d !== 125 && d !== 58 && d !== 32 && d !== 9 && d !== 10 && d !== 13; d = text.charCodeAt(++j));
      out.push(text.slice(i, j));
      i = j;
    }
  }
  return { ok: true, text: out.join('') };
}

// JSON text → JSON.parse's value plus the place of every value, named in the request validator's path grammar
// (`messages[3].tool_calls[0].function.arguments`); jsonc-parser in strict mode, with our messages for its errors.
import { visit } from 'jsonc-parser';
import { en, msg, verbatim, type Message } from '../io/msg';

// Syntax errors say why and where (line and column, 1-based, columns in UTF-16 code units; only "\n" starts a
// line, as in a textarea's value). Texts accepted and refused are exactly JSON.parse's.

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
  /** The reason as a coded message, for the interface's language (lib/i18n/message.ts). */
  coded: Message;
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
        // An index beyond 2^53 is no array index (and would print back as 1e+22).
        if (!m || !Number.isSafeInteger(Number(m[1]))) return null;
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
    readonly reason: Message,
  ) {}
}

const WORD = /^[A-Za-z_$][A-Za-z0-9_$]*/;
const HEX4 = /^[0-9A-Fa-f]{0,4}/;
const CONTROL_NAMES: Record<number, string> = { 8: '\\b', 9: '\\t', 10: '\\n', 12: '\\f', 13: '\\r' };
const isDigit = (c: number) => c >= 48 && c <= 57;

function describeChar(text: string, pos: number): Message {
  const c = text.charCodeAt(pos);
  if (c < 32 || c === 127) return msg('msg.import.json.control', { code: c.toString(16).toUpperCase().padStart(4, '0') });
  return verbatim(`'${String.fromCodePoint(text.codePointAt(pos)!)}'`);
}

const unterminated = (start: number) => new Fail(start, msg('msg.import.json.unterminated'));
const EXPECT_VALUE = msg('msg.import.json.value');
/** "<expected>; found <what>". */
const found = (expected: Message, what: Message) => msg('msg.import.json.found', undefined, undefined, { expected, found: what });

/**
 * Parses `text` as JSON (strictly: what JSON.parse accepts, and the same value) and records where each
 * value is. Objects and arrays nested deeper than `maxDepth` are refused with an error, never a stack overflow.
 */
export function parseJsonLocated(text: string, options: { maxDepth?: number } = {}): LocateResult {
  const maxDepth = options.maxDepth ?? MAX_DEPTH;
  const n = text.length;
  /** The objects and arrays still open, innermost last. */
  const stack: JsonNode[] = [];
  let root: JsonNode | undefined;
  // What the grammar wants next; jsonc-parser reports an error at the token that does not fit, and this
  // (with the text there) says why in our words, so its error codes are not needed.
  let expect: 'value' | 'key' | 'colon' | 'after' = 'value';
  let comma = -1; // the ',' that led to the current 'value' or 'key', else -1
  let keyName = '';
  let keyRange: SourceRange | undefined;

  // Line and column of offsets met in text order, in one pass over the newlines.
  let line = 1;
  let lineStart = 0;
  let nl = text.indexOf('\n');
  const startAt = (offset: number): SourceRange => {
    for (; nl !== -1 && nl < offset; nl = text.indexOf('\n', nl + 1)) {
      line++;
      lineStart = nl + 1;
    }
    const column = offset - lineStart + 1;
    return { offset, line, column, end: offset, endLine: line, endColumn: column };
  };
  const finish = (range: SourceRange, end: number): SourceRange => {
    startAt(end);
    range.end = end;
    range.endLine = line;
    range.endColumn = end - lineStart + 1;
    return range;
  };

  /** The text ended where more JSON was needed. */
  const ended = (): Fail => {
    const at = stack[stack.length - 1]?.range;
    if (!at) return new Fail(n, text.trim() === '' ? msg('msg.import.json.empty') : msg('msg.import.req.jsonEnded'));
    return new Fail(n, msg('msg.import.json.notClosed', { ch: text[at.offset]!, line: at.line, column: at.column }));
  };
  /** `wantValue`: a value or a key was expected here, so a bare word is probably a quoting mistake. */
  const unexpected = (pos: number, expected: Message, wantValue = false): Fail => {
    if (pos >= n) return ended();
    const c = text.charCodeAt(pos);
    if (c === 39) return new Fail(pos, found(expected, msg('msg.import.json.singleQuote')));
    if (c === 47 && (text[pos + 1] === '/' || text[pos + 1] === '*')) return new Fail(pos, found(expected, msg('msg.import.json.comment')));
    const w = WORD.exec(text.slice(pos, pos + 40))?.[0];
    if (!w) return new Fail(pos, found(expected, describeChar(text, pos)));
    if (!wantValue) return new Fail(pos, found(expected, verbatim(`'${w}'`)));
    const hint =
      w === 'NaN' || w === 'Infinity'
        ? msg('msg.import.json.hintNaN')
        : /^(true|false|null)$/i.test(w)
          ? msg('msg.import.json.hintCase')
          : w === 'undefined'
            ? msg('msg.import.json.hintUndefined')
            : msg('msg.import.json.hintQuotes');
    return new Fail(pos, found(expected, msg('msg.import.json.word', { word: w }, undefined, { hint })));
  };
  const inNumber = (p: number, reason: Message): Fail => (p >= n ? ended() : new Fail(p, found(reason, describeChar(text, p))));

  /** The end of the string, number or literal at `start`, or what is wrong with it. */
  const scanValue = (start: number): number | Fail => {
    const t = text;
    let p = start;
    let c = t.charCodeAt(p);
    if (c === 34) {
      for (p++; ; p++) {
        c = t.charCodeAt(p);
        if (c === 34) return p + 1;
        if (p >= n) return unterminated(start);
        if (c === 92) {
          const e = t[p + 1];
          if (e === 'u') {
            const hex = HEX4.exec(t.slice(p + 2, p + 6))![0];
            if (hex.length < 4) return p + 2 + hex.length >= n ? unterminated(start) : new Fail(p, msg('msg.import.json.escapeHex', { escape: t.slice(p, p + 3 + hex.length) }));
            p += 5;
          } else if (e !== undefined && '"\\/bfnrt'.includes(e)) p++;
          else if (e === undefined) return unterminated(start);
          else return new Fail(p, msg('msg.import.json.escape', { escape: `\\${e < ' ' ? '' : e}` }));
        } else if (c < 32) {
          if (c === 10) return new Fail(start, msg('msg.import.json.lineBreak'));
          const hex = c.toString(16);
          return new Fail(p, msg('msg.import.json.controlInString', { code: hex.toUpperCase().padStart(4, '0'), escaped: CONTROL_NAMES[c] ?? `\\u${hex.padStart(4, '0')}` }));
        }
      }
    }
    if (c === 45 || isDigit(c)) {
      if (c === 45) c = t.charCodeAt(++p);
      if (c === 48) c = t.charCodeAt(++p); // a digit after it is caught in onLiteralValue
      else if (isDigit(c)) while (isDigit((c = t.charCodeAt(++p))));
      else return inNumber(p, msg('msg.import.json.digitMinus'));
      if (c === 46) {
        if (!isDigit(t.charCodeAt(++p))) return inNumber(p, msg('msg.import.json.digitPoint'));
        while (isDigit((c = t.charCodeAt(++p))));
      }
      if (c === 101 || c === 69) {
        c = t.charCodeAt(++p);
        if (c === 43 || c === 45) c = t.charCodeAt(++p);
        if (!isDigit(c)) return inNumber(p, msg('msg.import.json.digitExponent'));
        while (isDigit(t.charCodeAt(++p)));
      }
      return p;
    }
    const literal = /^(?:true|false|null)/.exec(t.slice(start, start + 5));
    return literal ? start + literal[0].length : unexpected(start, EXPECT_VALUE, true);
  };

  /** Why the token at `pos` (or the end of the text) does not fit where it is. */
  const explain = (pos: number): Fail => {
    const top = stack[stack.length - 1];
    if (expect === 'value' || expect === 'key') {
      if (comma >= 0 && text[pos] === (top?.items ? ']' : '}')) return new Fail(comma, msg(top?.items ? 'msg.import.json.trailingElement' : 'msg.import.json.trailingMember', { ch: text[pos]! }));
      if (pos >= n) return ended();
      if (expect === 'key' && text[pos] !== '"') return unexpected(pos, msg(comma >= 0 ? 'msg.import.json.keyAfterComma' : 'msg.import.json.keyOrClose'), true);
      const end = scanValue(pos);
      if (end instanceof Fail) return end;
      // A whole literal glued to more of a word ('truex'): jsonc-parser refuses the word, we the rest of it.
      pos = end;
    }
    if (expect === 'colon') return unexpected(pos, msg('msg.import.json.colon', { key: JSON.stringify(keyName.length > 40 ? keyName.slice(0, 40) + '…' : keyName) }));
    return unexpected(pos, msg(!top ? 'msg.import.json.afterValue' : top.items ? 'msg.import.json.afterElement' : 'msg.import.json.afterMember'));
  };

  /** A new value at `offset`, added to its container (a repeated key keeps its place in `members`, as JSON.parse does). */
  const place = (type: JsonType, offset: number): JsonNode => {
    const parent = stack[stack.length - 1];
    const path = !parent ? ROOT_PATH : childPath(parent.path, parent.items ? parent.items.length : keyName);
    const node: JsonNode = { path, type, range: startAt(offset), key: keyRange };
    if (!parent) root = node;
    else if (parent.items) parent.items.push(node);
    else parent.members!.set(keyName, node);
    keyRange = undefined;
    expect = 'after';
    return node;
  };
  const begin = (type: 'object' | 'array') => (offset: number) => {
    if (stack.length >= maxDepth) throw new Fail(offset, msg('msg.import.req.tooDeep', { max: maxDepth }));
    const node = place(type, offset);
    if (type === 'object') node.members = new Map();
    else node.items = [];
    stack.push(node);
    expect = type === 'object' ? 'key' : 'value';
    comma = -1;
  };
  const end = (offset: number) => {
    if (offset >= n) throw explain(offset); // the text ended inside this object or array
    finish(stack.pop()!.range, offset + 1);
    expect = 'after';
  };

  try {
    visit(
      text,
      {
        onObjectBegin: begin('object'),
        onArrayBegin: begin('array'),
        onObjectEnd: end,
        onArrayEnd: end,
        onObjectProperty: (name: string, offset: number, length: number) => {
          keyName = name;
          keyRange = finish(startAt(offset), offset + length);
          expect = 'colon';
        },
        onSeparator: (sep: string, offset: number) => {
          expect = sep === ':' || stack[stack.length - 1]!.items ? 'value' : 'key';
          comma = sep === ',' ? offset : -1;
        },
        onLiteralValue: (value: unknown, offset: number, length: number) => {
          // jsonc-parser reads "012" as the numbers 0 and 12 (only a leading 0 can end a number before a digit).
          if (typeof value === 'number' && isDigit(text.charCodeAt(offset + length))) throw new Fail(offset + length - 1, msg('msg.import.json.leadingZeros'));
          const type = value === null ? 'null' : (typeof value as 'string' | 'number' | 'boolean');
          finish(place(type, offset).range, offset + length);
        },
        onError: (_code: number, offset: number) => {
          throw explain(offset);
        },
      },
      { disallowComments: true, allowTrailingComma: false, allowEmptyContent: false },
    );
    // The tree is valid JSON, so JSON.parse gives the value: -0, 1e400, repeated keys and an own "__proto__" as it does.
    return { ok: true, value: JSON.parse(text), root: root! };
  } catch (e) {
    if (!(e instanceof Fail)) throw e;
    const { line, column } = lineColumn(text, e.offset);
    const reason = en(e.reason);
    return { ok: false, error: { reason, coded: e.reason, offset: e.offset, line, column, message: `line ${line}, column ${column}: ${reason}` } };

  }
}

/**
 * Pretty-prints valid JSON with `indent` spaces (0 to 10, as JSON.stringify takes them), keeping every token
 * as written (numbers such as 1.0 or 1e400, escapes, repeated keys): only whitespace changes. For text
 * JSON.stringify would print the same way it equals JSON.stringify(JSON.parse(text), null, indent).
 * Syntax errors come back unchanged. (jsonc-parser's formatter wrote "undefined" into the text at some
 * depths, e.g. 100 levels at indent 2, and took an indent of 0 for 4; this one is a single linear pass.)
 */
export function formatJson(text: string, indent = 2): { ok: true; text: string } | { ok: false; error: JsonSyntaxError } {
  const parsed = parseJsonLocated(text);
  if (!parsed.ok) return parsed;
  const pad = ' '.repeat(Math.max(0, Math.min(10, Math.floor(indent) || 0)));
  const isSpace = (c: number) => c === 32 || c === 10 || c === 13 || c === 9;
  const out: string[] = [];
  let depth = 0;
  const newline = () => (pad ? '\n' + pad.repeat(depth) : '');
  const n = text.length;
  for (let i = 0; i < n; ) {
    const c = text.charCodeAt(i);
    if (isSpace(c)) i++;
    else if (c === 34) {
      // A string, copied as written up to its closing quote (the text is valid, so there is one).
      let j = i + 1;
      while (text.charCodeAt(j) !== 34) j += text.charCodeAt(j) === 92 ? 2 : 1;
      out.push(text.slice(i, j + 1));
      i = j + 1;
    } else if (c === 123 || c === 91) {
      let j = i + 1;
      while (j < n && isSpace(text.charCodeAt(j))) j++;
      if (text.charCodeAt(j) === c + 2) {
        out.push(c === 123 ? '{}' : '[]'); // an empty object or array stays on its line
        i = j + 1;
      } else {
        depth++;
        out.push(text[i] + newline());
        i++;
      }
    } else if (c === 125 || c === 93) {
      depth--;
      out.push(newline() + text[i]);
      i++;
    } else if (c === 44) {
      out.push(',' + newline());
      i++;
    } else if (c === 58) {
      out.push(pad ? ': ' : ':');
      i++;
    } else {
      // A number or a literal: up to the next delimiter.
      let j = i + 1;
      while (j < n && !isSpace(text.charCodeAt(j)) && !',:]}'.includes(text[j]!)) j++;
      out.push(text.slice(i, j));
      i = j;
    }
  }
  return { ok: true, text: out.join('') };
}

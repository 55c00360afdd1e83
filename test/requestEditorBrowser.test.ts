// <RequestEditor> in headless Chromium (React 19 createRoot, harness test/browser/requestEditorHarness.ts):
// errors of an edited request appear at their lines (list, gutter markers, marked lines behind the text
// that follow the textarea's scroll and sit under the right characters), clicking one puts the caret
// there, invalid text is never reported as a request, syntax errors disable formatting, format
// pretty-prints, notes show, and the labels follow the language.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Page } from 'playwright-core';
import { launchChromium, trackedPage } from './helpers/browser';
import { serveHarness } from './helpers/harness';
import { VANCOUVER } from '../lib/scenarios/vancouver';
import type { EditorLog } from './browser/requestEditorHarness';

let browser: Awaited<ReturnType<typeof launchChromium>>;
let server: Awaited<ReturnType<typeof serveHarness>>;

before(async () => {
  server = await serveHarness('test/browser/requestEditorHarness.ts');
  browser = await launchChromium();
});
after(async () => {
  await browser?.close();
  await server?.close();
});

const VALID = JSON.stringify(VANCOUVER, null, 2);
// Line numbers on the left are the document's own (1-based).
const BROKEN_LINES = [
  /*  1 */ '{',
  /*  2 */ '  "messages": [',
  /*  3 */ '    {"role": "system", "content": "Use the tools."},',
  /*  4 */ '    {"role": "user", "content": "Weather in Paris?"},',
  /*  5 */ '    {',
  /*  6 */ '      "role": "assistant",',
  /*  7 */ '      "content": null,',
  /*  8 */ '      "tool_calls": [',
  /*  9 */ '        {"id": "c1", "type": "function", "function": {"name": "get_weather", "arguments": "{city: Paris}"}}',
  /* 10 */ '      ]',
  /* 11 */ '    },',
  /* 12 */ '    {',
  /* 13 */ '      "role": "tool",',
  /* 14 */ '      "content": "18 C"',
  /* 15 */ '    },',
  /* 16 */ '    {"role": "user", "content": "thanks"},',
  /* 17 */ '    {"role": "user", "content": "more"},',
  /* 18 */ '    {"role": "user", "content": "and more"},',
  /* 19 */ '    {"role": "user", "content": "and more"},',
  /* 20 */ '    {"role": "user", "content": "and more"},',
  /* 21 */ '    {"role": "user", "content": "and more"},',
  /* 22 */ '    {"role": "robot", "content": "beep"}',
  /* 23 */ '  ]',
  /* 24 */ '}',
];
const BROKEN = BROKEN_LINES.join('\n');
const offsetOf = (line: number, column: number) => BROKEN_LINES.slice(0, line - 1).reduce((n, l) => n + l.length + 1, 0) + column - 1;

interface Opened {
  page: Page;
  errors: string[];
}

async function open(initialText: string, lang = 'en'): Promise<Opened> {
  const { page, errors } = await trackedPage(browser.context);
  await page.setViewportSize({ width: 900, height: 900 });
  await page.addInitScript((text) => {
    (window as unknown as { __initialText: string }).__initialText = text;
  }, initialText);
  await page.goto(`${server.url}/index.html?lang=${lang}`);
  await settled(page);
  return { page, errors };
}

/** Waits until the editor has checked the text it shows (no debounce pending). */
async function settled(page: Page, valid?: boolean): Promise<void> {
  const v = valid === undefined ? '' : `[data-valid="${valid}"]`;
  await page.waitForSelector(`[data-role="editor-status"][data-valid][data-pending="false"]${v}`, { timeout: 10_000 });
}

const log = (page: Page) => page.evaluate(() => (window as unknown as { __editorLog: EditorLog }).__editorLog);
const errorItems = (page: Page) =>
  page.$$eval('[data-role="editor-error"]', (els) => els.map((e) => ({ line: Number((e as HTMLElement).dataset.line), text: e.textContent ?? '' })));

test('errors of an edited request are listed, marked at their lines and never reported as a request; fixing it reports the new one', async () => {
  const { page, errors } = await open(VALID);
  assert.equal(await page.getAttribute('[data-role="editor-status"]', 'data-valid'), 'true');
  assert.match((await page.textContent('[data-role="editor-status"]')) ?? '', /✓ valid request/);
  let l = await log(page);
  assert.equal(l.valid.length, 1);
  assert.deepEqual(l.valid[0]!.request, VANCOUVER);
  assert.deepEqual(l.validity, [true]);
  assert.equal(await page.locator('[data-role="editor-error"]').count(), 0);
  // The textarea is labelled and the error list is announced.
  assert.equal(await page.getByLabel('request (JSON: messages and tools)').getAttribute('data-role'), 'editor-text');
  assert.equal(await page.getAttribute('[data-role="editor-errors"]', 'aria-live'), 'polite');

  await page.fill('[data-role="editor-text"]', BROKEN);
  await settled(page, false);
  assert.deepEqual(await errorItems(page), [
    { line: 9, text: 'line 9: messages[2].tool_calls[0].function.arguments: not valid JSON' },
    { line: 12, text: 'line 12: messages[3].tool_call_id: missing' },
    { line: 22, text: 'line 22: messages[10].role: unknown role "robot" (expected system, user, assistant, tool)' },
  ]);
  assert.equal((await page.textContent('[data-role="editor-status"]'))?.trim(), '✗ 3 errors — the views keep showing the last valid version');
  assert.equal(await page.getAttribute('[data-role="editor-text"]', 'aria-invalid'), 'true');
  l = await log(page);
  assert.equal(l.valid.length, 1, 'invalid text is never reported as a request');
  assert.deepEqual(l.validity, [true, false]);

  // Gutter markers and marked lines (backdrop and gutter) at the error lines.
  assert.deepEqual(await page.$$eval('[data-role="editor-gutter-marker"]', (els) => els.map((e) => Number((e as HTMLElement).dataset.line))), [9, 12, 22]);
  const bands = await page.$$eval('[data-role="editor-backdrop"] [data-role="editor-band"]', (els) => els.map((e) => [Number((e as HTMLElement).dataset.from), Number((e as HTMLElement).dataset.to)]));
  assert.deepEqual(bands, [[9, 9], [12, 12], [22, 22]]);
  assert.deepEqual(await page.$$eval('[data-role="editor-mark"]', (els) => els.map((e) => e.textContent)), ['"{city: Paris}"', '{', '"robot"']);

  // Clicking an error focuses the textarea with the caret at the field, scrolled into view.
  await page.click('[data-role="editor-error"][data-line="22"]');
  const at = await page.evaluate(() => {
    const ta = document.querySelector('[data-role="editor-text"]') as HTMLTextAreaElement;
    return { focused: document.activeElement === ta, start: ta.selectionStart, end: ta.selectionEnd, scrollTop: ta.scrollTop, clientHeight: ta.clientHeight };
  });
  assert.equal(at.focused, true);
  assert.deepEqual([at.start, at.end], [offsetOf(22, 14), offsetOf(22, 14)]);
  const lineTop = 8 + 21 * 20;
  assert.ok(at.scrollTop > 0 && lineTop >= at.scrollTop && lineTop + 20 <= at.scrollTop + at.clientHeight, `line 22 visible: ${JSON.stringify(at)}`);

  // The backdrop follows the scroll: the mark under "robot" sits where the textarea draws it.
  const geo = await page.evaluate(() => {
    const ta = document.querySelector('[data-role="editor-text"]') as HTMLTextAreaElement;
    const mark = [...document.querySelectorAll('[data-role="editor-mark"]')].find((m) => m.textContent === '"robot"')!;
    const band = document.querySelector('[data-role="editor-backdrop"] [data-role="editor-band"][data-from="22"]')!;
    const marker = document.querySelector('[data-role="editor-gutter-marker"][data-line="22"]')!;
    const ctx = document.createElement('canvas').getContext('2d')!;
    const cs = getComputedStyle(ta);
    ctx.font = `${cs.fontSize} ${cs.fontFamily}`;
    const t = ta.getBoundingClientRect();
    const line22 = ta.value.split('\n')[21]!;
    return {
      expectX: t.left + 10 + ctx.measureText(line22.slice(0, line22.indexOf('"robot"'))).width - ta.scrollLeft,
      expectY: t.top + 8 + 21 * 20 - ta.scrollTop,
      mark: mark.getBoundingClientRect().toJSON() as DOMRect,
      band: band.getBoundingClientRect().toJSON() as DOMRect,
      marker: marker.getBoundingClientRect().toJSON() as DOMRect,
    };
  });
  assert.ok(Math.abs(geo.mark.x - geo.expectX) < 1.5, `mark x ${geo.mark.x} vs text x ${geo.expectX}`);
  assert.ok(Math.abs(geo.band.y - geo.expectY) < 1, `band y ${geo.band.y} vs line y ${geo.expectY}`);
  assert.ok(Math.abs(geo.marker.y - geo.expectY) < 1, `gutter marker y ${geo.marker.y} vs line y ${geo.expectY}`);
  assert.ok(geo.mark.y >= geo.band.y - 1 && geo.mark.y + geo.mark.height <= geo.band.y + geo.band.height + 1, 'the mark is inside its line band');

  // The other errors go to their places too (a missing field: the object's opening brace).
  await page.click('[data-role="editor-error"][data-line="12"]');
  assert.equal(await page.evaluate(() => (document.querySelector('[data-role="editor-text"]') as HTMLTextAreaElement).selectionStart), offsetOf(12, 5));

  // Fixing the text reports the new request.
  const fixed = { ...VANCOUVER, messages: [...VANCOUVER.messages.slice(0, 1), { role: 'user' as const, content: 'Weather in Paris?' }] };
  await page.fill('[data-role="editor-text"]', JSON.stringify(fixed, null, 2));
  await settled(page, true);
  l = await log(page);
  assert.equal(l.valid.length, 2);
  assert.deepEqual(l.valid[1]!.request, fixed);
  assert.deepEqual(l.validity, [true, false, true]);
  assert.equal(await page.locator('[data-role="editor-error"]').count(), 0);
  assert.equal(await page.locator('[data-role="editor-band"]').count(), 0);
  assert.deepEqual(errors, []);
  await page.close();
});

test('a syntax error shows its line and column, disables format; format pretty-prints valid JSON; notes are shown', async () => {
  const { page, errors } = await open('{\n  "messages": [\n    {"role": "user" "content": "hi"}\n  ]\n}');
  assert.equal(await page.getAttribute('[data-role="editor-status"]', 'data-valid'), 'false');
  assert.deepEqual(await errorItems(page), [{ line: 3, text: "line 3, column 21: expected ',' or '}' after an object member; found '\"'" }]);
  assert.match((await page.textContent('[data-role="editor-status"]')) ?? '', /not valid JSON — the views keep showing the last valid version/);
  assert.equal(await page.isDisabled('[data-role="editor-format"]'), true);
  assert.deepEqual((await log(page)).valid, []);
  await page.click('[data-role="editor-error"]');
  assert.equal(await page.evaluate(() => (document.querySelector('[data-role="editor-text"]') as HTMLTextAreaElement).selectionStart), '{\n  "messages": [\n    {"role": "user" '.length);

  const compact = '{"model":"qwen3","messages":[{"role":"user","content":"hi"}],"tools":[]}';
  await page.fill('[data-role="editor-text"]', compact);
  await settled(page, true);
  assert.equal(await page.isDisabled('[data-role="editor-format"]'), false);
  const notes = await page.$$eval('[data-role="editor-note"]', (els) => els.map((e) => e.textContent ?? ''));
  assert.ok(notes.some((n) => /^note: ignored top-level fields .*model/.test(n)), notes.join('\n'));
  assert.ok(notes.some((n) => /empty "tools" array/.test(n)), notes.join('\n'));
  await page.click('[data-role="editor-format"]');
  await settled(page, true);
  assert.equal(await page.inputValue('[data-role="editor-text"]'), JSON.stringify(JSON.parse(compact), null, 2));
  assert.equal((await log(page)).valid.length, 2);
  assert.deepEqual(errors, []);
  await page.close();
});

test('labels and the validator messages follow the language (简体中文); paths stay as they are', async () => {
  const { page, errors } = await open(BROKEN, 'zh');
  assert.equal((await page.textContent('[data-role="editor-status"]'))?.trim(), '✗ 3 个错误 — 视图仍显示上一个有效版本');
  assert.equal((await errorItems(page))[1]!.text, '第 12 行: messages[3].tool_call_id：缺失');

  assert.equal(await page.textContent('[data-role="editor-format"]'), '格式化');
  assert.equal(await page.getByLabel('请求（JSON：messages 与 tools）').getAttribute('data-role'), 'editor-text');
  assert.deepEqual(errors, []);
  await page.close();
});

test('a 1 MB request with a mistake near its end: the error is found at its line and clicking it scrolls there', async () => {
  const messages = Array.from({ length: 1900 }, (_, i) => ({ role: i % 2 ? 'assistant' : 'user', content: `message ${i}: ` + 'lorem ipsum dolor sit amet, '.repeat(17) }));
  messages[1890]!.role = 'robot';
  const text = JSON.stringify({ messages }, null, 2);
  assert.ok(text.length > 1_000_000, `${text.length} characters`); // message text stays under the validator's 1,000,000 per request
  const line = text.slice(0, text.indexOf('"robot"')).split('\n').length;
  const { page, errors } = await open(text);
  assert.equal(await page.getAttribute('[data-role="editor-status"]', 'data-valid'), 'false');
  assert.deepEqual(await errorItems(page), [{ line, text: `line ${line}: messages[1890].role: unknown role "robot" (expected system, user, assistant, tool)` }]);
  await page.click('[data-role="editor-error"]');
  const at = await page.evaluate(() => {
    const ta = document.querySelector('[data-role="editor-text"]') as HTMLTextAreaElement;
    const band = document.querySelector('[data-role="editor-backdrop"] [data-role="editor-band"]')!.getBoundingClientRect();
    return { start: ta.selectionStart, scrollTop: ta.scrollTop, clientHeight: ta.clientHeight, bandY: band.y, taY: ta.getBoundingClientRect().y };
  });
  assert.equal(at.start, text.indexOf('"robot"'));
  const lineTop = 8 + (line - 1) * 20;
  assert.ok(lineTop >= at.scrollTop && lineTop + 20 <= at.scrollTop + at.clientHeight, `line ${line} visible: ${JSON.stringify(at)}`);
  assert.ok(Math.abs(at.bandY - (at.taY + lineTop - at.scrollTop)) < 1, `band at its line: ${JSON.stringify(at)}`);
  assert.deepEqual(errors, []);
  await page.close();
});

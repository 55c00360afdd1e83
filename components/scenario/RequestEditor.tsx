'use client';
// The request as editable JSON: a monospace textarea with a line-number gutter. Each change is checked
// (debounced) by lib/prompt/editRequest: JSON syntax, then the request validator. Errors are shown at
// their field: the lines are marked behind the text (a backdrop div mirroring the textarea, scroll-synced)
// and in the gutter, and listed under the editor; clicking one puts the caret there. Only valid requests
// are reported (onValidRequest), so a half-typed edit never replaces the last good state.
import { useCallback, useEffect, useId, useMemo, useRef, useState, type ReactNode } from 'react';
import { checkRequestText, errorCount, type LocatedError, type RequestCheck } from '../../lib/prompt/editRequest';
import { formatJson } from '../../lib/prompt/jsonLocate';
import type { ChatRequest } from '../../lib/scenarios/types';
import { useDescribe, useT } from '../common/i18n';
import { ERROR_BAND, ERROR_INK, ErrorList, errorText, LINE, NoteList, PAD_X, PAD_Y, TEXT } from './EditorFeedback';

export interface RequestEditorProps {
  text: string;
  onTextChange(text: string): void;
  /** Called after each check whose text is a valid request (including the first check of the initial text). */
  onValidRequest(request: ChatRequest, notes: string[]): void;
  /** Called with the outcome of the first check and whenever it changes. */
  onValidity?(ok: boolean): void;
  /** Visible lines of text. */
  rows?: number;
}

const DEBOUNCE_MS = 250;

function countLines(text: string): number {
  let n = 1;
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) n++;
  return n;
}

/** Line ranges to mark, clamped to the text and merged where they touch. */
function markedRanges(errors: readonly LocatedError[], lineCount: number): [number, number][] {
  const ranges = errors
    .map((e): [number, number] => [Math.min(e.fromLine, lineCount), Math.min(Math.max(e.toLine, e.fromLine), lineCount)])
    .sort((a, b) => a[0] - b[0]);
  const out: [number, number][] = [];
  for (const r of ranges) {
    const last = out[out.length - 1];
    if (last && r[0] <= last[1] + 1) last[1] = Math.max(last[1], r[1]);
    else out.push([r[0], r[1]]);
  }
  return out;
}

function Bands({ ranges, colour }: { ranges: [number, number][]; colour: string }) {
  return (
    <>
      {ranges.map(([from, to]) => (
        <div
          key={from}
          data-role="editor-band"
          data-from={from}
          data-to={to}
          style={{ position: 'absolute', left: 0, right: 0, top: PAD_Y + (from - 1) * LINE, height: (to - from + 1) * LINE, background: colour }}
        />
      ))}
    </>
  );
}

export function RequestEditor({ text, onTextChange, onValidRequest, onValidity, rows = 16 }: RequestEditorProps) {
  const t = useT();
  const describe = useDescribe();
  const id = useId();
  const statusId = `${id}-status`;
  const areaRef = useRef<HTMLTextAreaElement>(null);
  const backdropRef = useRef<HTMLDivElement>(null);
  const gutterRef = useRef<HTMLDivElement>(null);
  const [checked, setChecked] = useState<{ text: string; result: RequestCheck } | null>(null);

  // The latest callbacks, so a parent passing new closures on every render does not re-trigger reports.
  const callbacks = useRef({ onValidRequest, onValidity });
  useEffect(() => {
    callbacks.current = { onValidRequest, onValidity };
  });

  // Check the text: at once on mount, then 250 ms after the last change.
  useEffect(() => {
    if (checked?.text === text) return;
    const run = () => setChecked({ text, result: checkRequestText(text) });
    if (checked === null) return run();
    const timer = setTimeout(run, DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [text]); // eslint-disable-line react-hooks/exhaustive-deps -- `checked` only skips an unchanged text and checks at once on mount

  const lastValidity = useRef<boolean | null>(null);
  useEffect(() => {
    if (!checked) return;
    const { result } = checked;
    if (result.ok) callbacks.current.onValidRequest(result.request, result.notes);
    if (lastValidity.current !== result.ok) {
      lastValidity.current = result.ok;
      callbacks.current.onValidity?.(result.ok);
    }
  }, [checked]);

  const pending = checked !== null && checked.text !== text;
  const result = checked?.result ?? null;
  const errors = useMemo(() => (result && !result.ok ? result.errors : []), [result]);
  const notes = result ? (result.codedNotes ?? result.notes) : [];
  const syntax = result !== null && !result.ok && result.syntax;

  const lineCount = useMemo(() => countLines(text), [text]);
  const numbers = useMemo(() => Array.from({ length: lineCount }, (_, i) => i + 1).join('\n'), [lineCount]);
  const ranges = useMemo(() => markedRanges(errors, lineCount), [errors, lineCount]);
  const errorLines = useMemo(() => {
    const byLine = new Map<number, LocatedError[]>();
    for (const e of errors) byLine.set(e.line, [...(byLine.get(e.line) ?? []), e]);
    return byLine;
  }, [errors]);

  // The mirrored text with the exact spans of the errors underlined; only while they match the text.
  const mirror = useMemo((): ReactNode[] | null => {
    if (pending || errors.length === 0) return null;
    const spans = errors
      .map((e) => [Math.min(e.offset, text.length), Math.min(e.end, text.length)] as const)
      .filter(([a, b]) => b > a)
      .sort((x, y) => x[0] - y[0]);
    const parts: ReactNode[] = [];
    let at = 0;
    for (const [a, b] of spans) {
      if (b <= at) continue;
      const from = Math.max(a, at);
      if (from > at) parts.push(text.slice(at, from));
      parts.push(
        <mark key={from} data-role="editor-mark" style={{ color: 'transparent', background: ERROR_BAND, textDecoration: `underline wavy ${ERROR_INK}`, textDecorationSkipInk: 'none', borderRadius: 2 }}>
          {text.slice(from, b)}
        </mark>,
      );
      at = b;
    }
    parts.push(text.slice(at) + '\n');
    return parts;
  }, [pending, errors, text]);

  // The backdrop and the gutter follow the textarea's scroll position.
  const sync = useCallback(() => {
    const area = areaRef.current;
    if (!area) return;
    if (backdropRef.current) backdropRef.current.style.transform = `translate(${-area.scrollLeft}px, ${-area.scrollTop}px)`;
    if (gutterRef.current) gutterRef.current.style.transform = `translateY(${-area.scrollTop}px)`;
  }, []);
  useEffect(sync);

  const goTo = useCallback(
    (e: LocatedError) => {
      const area = areaRef.current;
      if (!area) return;
      const pos = Math.min(e.offset, area.value.length);
      area.focus({ preventScroll: true });
      area.setSelectionRange(pos, pos);
      const top = PAD_Y + (e.line - 1) * LINE;
      if (top < area.scrollTop || top + LINE > area.scrollTop + area.clientHeight) area.scrollTop = Math.max(0, top - Math.round(area.clientHeight / 3));
      const ctx = document.createElement('canvas').getContext('2d');
      if (ctx) {
        const style = getComputedStyle(area);
        ctx.font = `${style.fontSize} ${style.fontFamily}`;
        const lineStart = area.value.lastIndexOf('\n', pos - 1) + 1;
        const x = PAD_X + ctx.measureText(area.value.slice(lineStart, pos)).width;
        if (x < area.scrollLeft + PAD_X || x > area.scrollLeft + area.clientWidth - 2 * PAD_X) area.scrollLeft = Math.max(0, x - area.clientWidth / 3);
      }
      sync();
      area.scrollIntoView({ block: 'nearest' });
    },
    [sync],
  );

  const format = () => {
    const f = formatJson(text);
    if (f.ok && f.text !== text) onTextChange(f.text);
  };

  const count = errorCount(errors);
  let status = '';
  if (result?.ok) status = t('editor.valid');
  else if (result) status = `${syntax ? t('editor.invalidJson') : count === 1 ? t('editor.oneError') : t('editor.errors', { n: count })} — ${t('editor.keepsLast')}`;

  const gutterWidth = `calc(${String(lineCount).length}ch + 24px)`;
  const invalid = result !== null && !result.ok;

  return (
    <div data-role="request-editor" style={{ display: 'flex', flexDirection: 'column', gap: 6, font: 'var(--fs-sm) var(--font-sans)', minWidth: 0 }}>
      <div style={{ display: 'flex', alignItems: 'center', gap: 8, flexWrap: 'wrap' }}>
        <label htmlFor={id} style={{ fontWeight: 600 }}>
          {t('editor.label')}
        </label>
        <span style={{ flex: 1 }} />
        <span style={{ color: 'var(--c-muted)', fontVariantNumeric: 'tabular-nums' }}>{t('editor.lines', { n: lineCount })}</span>
        <button
          type="button"
          data-role="editor-format"
          onClick={format}
          disabled={!result || syntax}
          title={!result || syntax ? t('editor.formatDisabled') : t('editor.formatTitle')}
          style={{ font: 'inherit', padding: '2px 10px', borderRadius: 4, border: '1px solid var(--c-border)', background: !result || syntax ? '#f2f2f2' : '#fff', color: !result || syntax ? '#999' : '#222', cursor: !result || syntax ? 'not-allowed' : 'pointer' }}
        >
          {t('editor.format')}
        </button>
      </div>

      <div style={{ display: 'flex', border: `1px solid ${invalid ? '#e3a5a1' : '#d0d7de'}`, borderRadius: 6, overflow: 'hidden', background: 'var(--c-panel)' }}>
        <div aria-hidden="true" style={{ position: 'relative', flex: 'none', width: gutterWidth, overflow: 'hidden', background: '#f6f8fa', borderRight: '1px solid #e1e4e8' }}>
          <div ref={gutterRef} style={{ position: 'absolute', top: 0, left: 0, right: 0, willChange: 'transform' }}>
            <Bands ranges={ranges} colour={ERROR_BAND} />
            <div style={{ ...TEXT, position: 'relative', padding: `${PAD_Y}px 6px ${PAD_Y}px 0`, textAlign: 'right', color: '#8c959f', userSelect: 'none' }}>{numbers}</div>
            {[...errorLines].map(([line, es]) => (
              <span
                key={line}
                data-role="editor-gutter-marker"
                data-line={line}
                title={`${t('editor.gutterError')}: ${es.map((e) => errorText(e, describe)).join('\n')}`}

                onClick={() => goTo(es[0]!)}
                style={{ position: 'absolute', left: 3, top: PAD_Y + (line - 1) * LINE, lineHeight: `${LINE}px`, fontSize: 'var(--fs-sm)', color: ERROR_INK, cursor: 'pointer' }}
              >
                ●
              </span>
            ))}
          </div>
        </div>

        <div style={{ position: 'relative', flex: 1, minWidth: 0 }}>
          <div aria-hidden="true" style={{ position: 'absolute', inset: 0, overflow: 'hidden', pointerEvents: 'none' }}>
            <div
              ref={backdropRef}
              data-role="editor-backdrop"
              style={{ ...TEXT, position: 'relative', boxSizing: 'border-box', width: 'max-content', minWidth: '100%', minHeight: '100%', padding: `${PAD_Y}px ${PAD_X}px`, color: 'transparent', willChange: 'transform' }}
            >
              <Bands ranges={ranges} colour={ERROR_BAND} />
              <div style={{ position: 'relative' }}>{mirror}</div>
            </div>
          </div>
          <textarea
            id={id}
            ref={areaRef}
            data-role="editor-text"
            value={text}
            onChange={(e) => onTextChange(e.target.value)}
            onScroll={sync}
            wrap="off"
            spellCheck={false}
            autoCapitalize="off"
            autoComplete="off"
            autoCorrect="off"
            aria-invalid={invalid}
            aria-describedby={statusId}
            style={{
              ...TEXT,
              position: 'relative',
              display: 'block',
              boxSizing: 'border-box',
              width: '100%',
              height: rows * LINE + 2 * PAD_Y,
              minHeight: 4 * LINE + 2 * PAD_Y,
              margin: 0,
              padding: `${PAD_Y}px ${PAD_X}px`,
              border: 'none',
              outlineOffset: -2,
              resize: 'vertical',
              overflow: 'auto',
              overflowWrap: 'normal',
              background: 'transparent',
              color: '#1f2328',
            }}
          />
        </div>
      </div>

      <div
        id={statusId}
        data-role="editor-status"
        data-valid={result ? String(result.ok) : undefined}
        data-pending={String(pending)}
        style={{ color: result?.ok ? '#1a7f37' : ERROR_INK, fontWeight: 500, minHeight: 18 }}
      >
        {status}
        {pending && <span style={{ color: 'var(--c-muted)', fontWeight: 400 }}> · {t('editor.checking')}</span>}
      </div>

      <ErrorList errors={errors} onGoTo={goTo} />
      <NoteList notes={notes} />
    </div>
  );
}

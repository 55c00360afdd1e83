'use client';
// Regions of the user's own: pick an arm, click the first and the last token of a range in its tokens,
// name it, add it; the region bars then measure it (before the broader regions, which lose those tokens).
// A range inside the shared prefix is the same tokens in both arms and applies to both.
import { useState } from 'react';
import type { Prompt } from '../../lib/prompt/prompt';
import { userRangeApplies, type UserRange } from '../../lib/analysis/abArms';
import { TokenView } from '../attention/TokenView';
import { useT } from '../common/i18n';

export interface AbRegionPickerProps {
  prompts: { A: Prompt; B: Prompt };
  sharedPrefix: number;
  ranges: UserRange[];
  onAdd: (r: Omit<UserRange, 'id'>) => void;
  onRemove: (id: string) => void;
}

export function AbRegionPicker({ prompts, sharedPrefix, ranges, onAdd, onRemove }: AbRegionPickerProps) {
  const t = useT();
  const [arm, setArm] = useState<'A' | 'B'>('B');
  const [anchor, setAnchor] = useState<number | null>(null);
  const [range, setRange] = useState<{ start: number; end: number } | null>(null);
  const [name, setName] = useState('');
  const prompt = prompts[arm];
  const T = prompt.ids.length;
  const sel = range && range.end <= T ? range : null;
  const text = sel ? prompt.text.slice(prompt.tokens[sel.start]!.start, prompt.tokens[sel.end - 1]!.end) : '';
  const oneLine = text.replace(/\s+/g, ' ').trim();
  const suggested = oneLine.length > 28 ? oneLine.slice(0, 27) + '…' : oneLine;
  const both = sel ? sel.end <= sharedPrefix : false;

  const pick = (i: number) => {
    if (anchor === null) {
      setAnchor(i);
      setRange({ start: i, end: i + 1 });
    } else {
      setRange({ start: Math.min(anchor, i), end: Math.max(anchor, i) + 1 });
      setAnchor(null);
    }
  };
  const add = () => {
    if (!sel) return;
    onAdd({ name: name.trim() || suggested || `${sel.start}–${sel.end - 1}`, arm, start: sel.start, end: sel.end });
    setName('');
    setRange(null);
    setAnchor(null);
  };

  return (
    <div data-role="ab-region-picker" style={{ display: 'grid', gap: 6, maxWidth: 1300 }}>
      <div style={{ display: 'flex', gap: 12, alignItems: 'center', flexWrap: 'wrap', fontSize: 'var(--fs-sm)' }}>
        <span>{t('ab.pick.arm')}</span>
        {(['A', 'B'] as const).map((x) => (
          <label key={x}>
            <input
              type="radio"
              name="ab-pick-arm"
              data-control={`ab-pick-arm-${x}`}
              checked={arm === x}
              onChange={() => {
                setArm(x);
                setRange(null);
                setAnchor(null);
              }}
            />{' '}
            {x} ({t('ab.tokens', { n: prompts[x].ids.length })})
          </label>
        ))}
        <span style={{ color: 'var(--c-muted)' }}>{t('ab.pick.hint')}</span>
      </div>
      <TokenView tokens={prompt.tokens} spans={prompt.spans} selected={anchor ?? (sel ? sel.end - 1 : null)} onSelect={pick} height={150} />
      <div style={{ display: 'flex', gap: 10, alignItems: 'center', flexWrap: 'wrap', fontSize: 'var(--fs-sm)' }} data-role="ab-pick-selection">
        {sel ? (
          <span>
            {anchor !== null
              ? t('ab.pick.startAt', { arm, start: sel.start })
              : t('ab.pick.range', { arm, start: sel.start, end: sel.end - 1, n: sel.end - sel.start, text: suggested })}{' '}
            <span style={{ color: both ? '#276' : 'var(--c-warn)' }}>{both ? t('ab.pick.both', { p: sharedPrefix }) : t('ab.pick.only', { arm, p: sharedPrefix })}</span>
          </span>
        ) : (
          <span style={{ color: 'var(--c-muted)' }}>{t('ab.pick.none')}</span>
        )}
        <label>
          {t('ab.pick.name')}{' '}
          <input data-control="ab-pick-name" value={name} placeholder={suggested} onChange={(e) => setName(e.target.value)} style={{ width: 200 }} />
        </label>
        <button type="button" data-control="ab-pick-add" disabled={!sel || anchor !== null} onClick={add}>
          {t('ab.pick.add')}
        </button>
      </div>
      {ranges.length > 0 && (
        <ul style={{ margin: 0, paddingLeft: 18, fontSize: 'var(--fs-sm)' }} data-role="ab-user-regions">
          {ranges.map((r) => (
            <li key={r.id} data-region={r.id}>
              <b>{r.name}</b> — {t('ab.pick.listed', { arm: r.arm, start: r.start, end: r.end - 1, n: r.end - r.start })}{' '}
              ({userRangeApplies(r, r.arm === 'A' ? 'B' : 'A', sharedPrefix) ? t('ab.pick.bothShort') : t('ab.pick.onlyShort', { arm: r.arm })}){' '}
              <button type="button" data-control="ab-pick-remove" onClick={() => onRemove(r.id)}>
                {t('ab.pick.remove')}
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

'use client';
// Which prompt of the agent loop the Attention tab shows: each call as it was sent, or the whole conversation.
// Segmented buttons with each prompt's token count, so the count on screen matches the inspector's.
import type { Analysed } from '../../lib/state/analysed';
import { choiceOf } from '../../lib/state/context';
import type { ContextChoice } from '../../lib/state/store';
import { useT } from '../common/i18n';

export function ContextPicker({ data, onContext }: { data: Analysed; onContext: (c: ContextChoice) => void }) {
  const t = useT();
  const current = choiceOf(data.context);
  const calls = data.callPrompts.length;
  const options: { choice: ContextChoice; label: string; title: string }[] = data.callPrompts.map((p, i) => ({
    choice: i === calls - 1 ? 'last' : i,
    label: t('context.callButton', { n: i + 1, tokens: p.ids.length }),
    title: t('context.callTitle', { n: i + 1, tokens: p.ids.length }),
  }));
  if (data.conversationDiffers)
    options.push({ choice: 'all', label: t('context.allButton', { tokens: data.conversationTokens }), title: t('context.allTitle', { tokens: data.conversationTokens }) });
  return (
    <div role="group" aria-label={t('context.label')} data-role="context-picker" style={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 0 }}>
      <span className="muted" style={{ marginRight: 'var(--sp-2)', fontSize: 'var(--fs-sm)' }}>
        {t('context.label')}
      </span>
      {options.map((o, i) => (
        <button
          key={String(o.choice)}
          type="button"
          data-context={String(o.choice)}
          aria-pressed={o.choice === current}
          title={o.title}
          onClick={() => onContext(o.choice)}
          style={{
            borderRadius: i === 0 ? 'var(--radius) 0 0 var(--radius)' : i === options.length - 1 ? '0 var(--radius) var(--radius) 0' : 0,
            marginLeft: i === 0 ? 0 : -1,
            fontVariantNumeric: 'tabular-nums',
          }}
        >
          {o.label}
        </button>
      ))}
    </div>
  );
}

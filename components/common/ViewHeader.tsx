'use client';
// The first line of every tab: its title and what it shows (model, scenario or arms, tokens, layer, head…),
// so a screenshot of any tab says which context it is. Styled by globals.css ([data-role='view-header']).
import type { ReactNode } from 'react';

export interface ViewFact {
  /** Stable name for tests and styling (`model`, `context`, `tokens`, `layer`, `head`, `arms`…). */
  key: string;
  /** The fact's name in the page's language, or null when the value says it alone. */
  label: string | null;
  value: ReactNode;
}

export function ViewHeader({ title, facts, children }: { title: string; facts: ViewFact[]; children?: ReactNode }) {
  return (
    <header data-role="view-header">
      <h2>{title}</h2>
      {facts.map((f, i) => (
        <span key={f.key} data-fact={f.key}>
          {i > 0 && <span aria-hidden="true">· </span>}
          {f.label !== null && <>{f.label} </>}
          <b>{f.value}</b>
        </span>
      ))}
      {children && <span style={{ marginLeft: 'auto', display: 'flex', gap: 'var(--sp-2)', alignItems: 'center' }}>{children}</span>}
    </header>
  );
}

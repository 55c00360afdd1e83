'use client';
// The question asked before a ?url= link reads a file from another site: which host, what happens to the
// file (read as data, never run or shown as a page) and the size cap; Fetch or Cancel. A banner in the page
// rather than window.confirm, so it is in the page's language and names the host plainly. Cancel has the
// focus: pressing Enter without reading fetches nothing.
import { useT } from '../common/i18n';
import type { LinkPrompt } from './useBoot';

export function LinkConfirm({ prompt }: { prompt: LinkPrompt }) {
  const t = useT();
  return (
    <div
      role="alertdialog"
      aria-describedby="link-confirm-text"
      data-role="link-confirm"
      data-host={prompt.host}
      style={{ display: 'grid', gap: 'var(--sp-2)', background: 'var(--c-warn-soft)', padding: '8px 10px', borderRadius: 'var(--radius)', maxWidth: 1100 }}
    >
      <p id="link-confirm-text" style={{ margin: 0 }}>
        {t('link.confirm', { host: prompt.host, limit: prompt.limit })}
      </p>
      <code data-role="link-confirm-url" style={{ fontSize: 'var(--fs-xs)', overflowWrap: 'anywhere' }}>
        {prompt.url}
      </code>
      <div style={{ display: 'flex', gap: 'var(--sp-2)', flexWrap: 'wrap' }}>
        <button type="button" data-role="link-fetch" onClick={prompt.fetch}>
          {t('link.confirmFetch', { host: prompt.host })}
        </button>
        <button type="button" data-role="link-cancel" onClick={prompt.cancel} autoFocus>
          {t('link.confirmCancel')}
        </button>
      </div>
    </div>
  );
}

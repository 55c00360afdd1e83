'use client';
// Presentation mode for projectors: `html[data-present="true"]` (globals.css enlarges the type scale and hides
// every [data-chrome] element), switched by a button or the URL flag ?present=1, which it keeps in sync so
// the link reopens the same way. While presenting, PageDown / PageUp (or ] and [) move between the tabs and
// Escape leaves.
import { useCallback, useEffect, useState } from 'react';
import type { Tab } from '../../lib/state/store';

const FLAG = 'present';

function flagInUrl(): boolean {
  const v = new URLSearchParams(window.location.search).get(FLAG);
  return v !== null && v !== '0' && v !== 'false';
}

/** Keys typed into a field belong to the field. */
function inField(e: KeyboardEvent): boolean {
  const el = e.target as HTMLElement | null;
  return !!el && (el.isContentEditable || /^(INPUT|SELECT|TEXTAREA)$/.test(el.tagName));
}

export function usePresentation(tabs: readonly Tab[], tab: Tab, setTab: (t: Tab) => void): { present: boolean; setPresent: (on: boolean) => void } {
  const [present, setPresentState] = useState(false);
  useEffect(() => setPresentState(flagInUrl()), []);

  const setPresent = useCallback((on: boolean) => {
    setPresentState(on);
    const url = new URL(window.location.href);
    if (on) url.searchParams.set(FLAG, '1');
    else url.searchParams.delete(FLAG);
    window.history.replaceState(window.history.state, '', url);
  }, []);

  useEffect(() => {
    const root = document.documentElement;
    if (present) root.dataset.present = 'true';
    else delete root.dataset.present;
  }, [present]);

  useEffect(() => {
    if (!present) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.altKey || e.ctrlKey || e.metaKey || inField(e)) return;
      const i = tabs.indexOf(tab);
      if (e.key === 'Escape') setPresent(false);
      else if (e.key === 'PageDown' || e.key === ']') setTab(tabs[(i + 1) % tabs.length]!);
      else if (e.key === 'PageUp' || e.key === '[') setTab(tabs[(i - 1 + tabs.length) % tabs.length]!);
      else return;
      e.preventDefault();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [present, tabs, tab, setTab, setPresent]);

  return { present, setPresent };
}

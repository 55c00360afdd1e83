'use client';
// ?model=org/name[@rev] opens "Open a model…" with the repo filled in and its preflight run, once the saved
// settings are read. It never loads: a link must not start a multi-gigabyte download without the user's click.
// The parameter then leaves the address bar (as ?url= does), so a reload does not open the dialog again.
import { useEffect } from 'react';

export const MODEL_LINK_PARAM = 'model';

export function useModelLink(booted: boolean, open: (repo: string) => void): void {
  useEffect(() => {
    if (!booted) return;
    const params = new URLSearchParams(window.location.search);
    const repo = params.get(MODEL_LINK_PARAM)?.trim();
    if (!repo) return;
    params.delete(MODEL_LINK_PARAM);
    const rest = params.toString();
    window.history.replaceState(null, '', window.location.pathname + (rest ? `?${rest}` : '') + window.location.hash);
    open(repo);
  }, [booted]); // eslint-disable-line react-hooks/exhaustive-deps -- once, when booted
}

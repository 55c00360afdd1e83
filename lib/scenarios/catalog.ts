// The scenario picker's entries: every built-in scenario, and each variant of one that has variants, as
// the ref the CLI and the store use (`vancouver`, `xfinity:with-status`).
import { SCENARIOS, type Text } from './index';

export interface CatalogEntry {
  ref: string;
  id: string;
  variant?: string;
  title: Text;
}

export const CATALOG: readonly CatalogEntry[] = SCENARIOS.flatMap((s): CatalogEntry[] =>
  s.variants && s.variants.length > 0
    ? s.variants.map((v) => ({ ref: `${s.id}:${v.id}`, id: s.id, variant: v.id, title: { en: `${s.title.en} — ${v.title.en}`, zh: `${s.title.zh} — ${v.title.zh}` } }))
    : [{ ref: s.id, id: s.id, title: s.title }],
);

export const DEFAULT_SCENARIO = 'vancouver';

export function isScenarioRef(ref: string): boolean {
  return CATALOG.some((e) => e.ref === ref);
}

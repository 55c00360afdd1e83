// The A/B tab's shared styles beyond the global .panel / .controls classes: the panels' inner grid, their
// intros, and error boxes, so that every section of the tab looks alike.
export const abStyle = {
  box: { display: 'grid', gap: 'var(--sp-2)' },
  intro: { margin: 0, color: 'var(--c-muted)', fontSize: 'var(--fs-sm)', maxWidth: 1150 },
  error: { color: 'var(--c-error)', background: 'var(--c-error-soft)', padding: '6px 10px', borderRadius: 'var(--radius)' },
} as const;

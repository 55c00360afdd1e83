// The A/B tab's shared styles: its section boxes, their headings and intros, and error boxes, so that every
// section of the tab looks alike.
export const abStyle = {
  box: { border: '1px solid #ddd', borderRadius: 6, padding: '10px 14px', display: 'grid', gap: 8 },
  h3: { fontSize: 16, margin: 0 },
  intro: { margin: 0, color: '#444', fontSize: 14, maxWidth: 1150 },
  error: { color: '#a00', background: '#fde2e1', padding: '6px 10px', borderRadius: 4 },
} as const;

'use client';
// The line at the top of every tab that says what the view shows (model, scenario or arms, tokens, layer,
// head, which call), so a screenshot or a projector never leaves the room guessing. Draws only.
export interface ViewHeaderProps {
  /** What the tab shows, e.g. "Attention of call 2 of 2". */
  title: string;
  /** Short facts, already translated, e.g. ["kvscope-tiny", "Time and weather in Vancouver", "411 tokens", "layer 3 · mean of heads"]. */
  facts: readonly string[];
}

export function ViewHeader({ title, facts }: ViewHeaderProps) {
  return (
    <div data-role="view-header" className="view-header">
      <strong>{title}</strong>
      {facts.map((f, i) => (
        <span key={i} className="view-header-fact">
          {f}
        </span>
      ))}
    </div>
  );
}

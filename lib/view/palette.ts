// The colours every view shares: segments (what part of the chat template a token belongs to), message roles,
// and the few marks drawn over data (selection, change, pin). One source for canvases (which need the hex
// values) and for CSS (paletteCss() becomes :root variables, see app/layout.tsx and docs/VISUAL.md).
import type { Role, Segment } from '../prompt/layout';

/** Light background per segment: Paul Tol's colour-blind-safe "light" scheme; dark text is readable on all. */
export const SEGMENT_COLORS: Record<Segment, string> = {
  template: '#DDDDDD',
  system: '#77AADD',
  tools: '#99DDFF',
  user: '#EEDD88',
  think: '#FFAABB',
  answer: '#44BB99',
  tool_call: '#EE8866',
  tool_result: '#BBCC33',
  status_bar: '#AAAA00',
};

/** The segments in legend order. */
export const SEGMENTS = Object.keys(SEGMENT_COLORS) as Segment[];

/** Role chips (inspector, editors): the colour of the segment each role mostly writes. */
export const ROLE_COLORS: Record<Role, string> = {
  system: SEGMENT_COLORS.system,
  user: SEGMENT_COLORS.user,
  assistant: SEGMENT_COLORS.answer,
  tool: SEGMENT_COLORS.tool_result,
};

/**
 * Marks drawn over data. `select` outlines the selected query row/token: a saturated magenta that no
 * sequential colormap (viridis, magma, …) nor the segment palette uses. `change` marks cells that differ
 * (KV maps); `pin` marks pinned columns and the axis break.
 */
export const MARK_COLORS = { select: '#E0119D', change: '#E8590C', pin: '#1A66D6', ink: '#16181D' } as const;

/** The palette as CSS custom properties (`--seg-<segment>`, `--role-<role>`, `--mark-<name>`). */
export function paletteCss(): string {
  const lines: string[] = [];
  for (const [k, v] of Object.entries(SEGMENT_COLORS)) lines.push(`--seg-${k.replace('_', '-')}:${v};`);
  for (const [k, v] of Object.entries(ROLE_COLORS)) lines.push(`--role-${k}:${v};`);
  for (const [k, v] of Object.entries(MARK_COLORS)) lines.push(`--mark-${k}:${v};`);
  return `:root{${lines.join('')}}`;
}

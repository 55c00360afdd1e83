// JSON text in the style of Python's json.dumps (", " and ": " separators), which is how the
// book's agents write tool arguments and results; the chat template pastes these strings verbatim.

export function pyJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  if (Array.isArray(value)) return '[' + value.map(pyJson).join(', ') + ']';
  const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined);
  return '{' + entries.map(([k, v]) => JSON.stringify(k) + ': ' + pyJson(v)).join(', ') + '}';
}

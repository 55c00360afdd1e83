// Strings of: Run-log import: context growth chart and summary.
import type { Dict } from './types';

export const runlogStrings = {
} satisfies Dict;

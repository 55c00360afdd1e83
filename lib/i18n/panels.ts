// Strings of the panels area of the interface.
import type { Dict } from './types';

export const panelsStrings = {
} satisfies Dict;

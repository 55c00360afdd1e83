// Strings of: The Data tab: importing request bodies, run logs and attention files.
import type { Dict } from './types';

export const dataStrings = {
} satisfies Dict;

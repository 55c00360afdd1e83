// Strings of: Attention computed elsewhere: imported heatmap, sink and position views.
import type { Dict } from './types';

export const importedStrings = {
} satisfies Dict;

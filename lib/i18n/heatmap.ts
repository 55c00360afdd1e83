// Strings of the heatmap area of the interface.
import type { Dict } from './types';

export const heatmapStrings = {
} satisfies Dict;

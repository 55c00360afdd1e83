// Strings of: Export buttons (PNG, SVG, JSON) on every chart and heatmap.
import type { Dict } from './types';

export const exportStrings = {
} satisfies Dict;

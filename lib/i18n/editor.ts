// Strings of the editor area of the interface.
import type { Dict } from './types';

export const editorStrings = {
} satisfies Dict;

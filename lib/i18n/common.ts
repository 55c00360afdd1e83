// Strings of the page frame: header, model loading, scenario and language pickers, status line.
import type { Dict } from './types';

export const commonStrings = {
  'app.tagline': { en: 'what a language model sees and keeps while it runs an agent loop', zh: '语言模型在运行智能体循环时看到了什么、保留了什么' },
  'app.language': { en: 'language', zh: '语言' },
} satisfies Dict;

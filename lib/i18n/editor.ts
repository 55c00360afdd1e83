// Strings of the editor area of the interface.
import type { Dict } from './types';

export const editorStrings = {
  'editor.label': { en: 'request (JSON: messages and tools)', zh: '请求（JSON：messages 与 tools）' },
  'editor.format': { en: 'format', zh: '格式化' },
  'editor.formatTitle': { en: 'pretty-print the JSON with 2-space indentation', zh: '以 2 个空格缩进美化 JSON' },
  'editor.formatDisabled': { en: 'fix the JSON syntax first', zh: '请先修正 JSON 语法' },
  'editor.valid': { en: '✓ valid request', zh: '✓ 请求有效' },
  'editor.invalidJson': { en: '✗ not valid JSON', zh: '✗ JSON 无效' },
  'editor.oneError': { en: '✗ 1 error', zh: '✗ 1 个错误' },
  'editor.errors': { en: '✗ {n} errors', zh: '✗ {n} 个错误' },
  'editor.keepsLast': { en: 'the views keep showing the last valid version', zh: '视图仍显示上一个有效版本' },
  'editor.checking': { en: 'checking…', zh: '检查中…' },
  'editor.lines': { en: '{n} lines', zh: '{n} 行' },
  'editor.atLine': { en: 'line {line}', zh: '第 {line} 行' },
  'editor.atLineColumn': { en: 'line {line}, column {column}', zh: '第 {line} 行，第 {column} 列' },
  'editor.goTo': { en: 'go to line {line}', zh: '跳转到第 {line} 行' },
  'editor.errorList': { en: 'errors in the request', zh: '请求中的错误' },
  'editor.noteList': { en: 'notes on the request', zh: '关于请求的提示' },
  'editor.note': { en: 'note', zh: '提示' },
  'editor.gutterError': { en: 'error on this line', zh: '此行有错误' },
} satisfies Dict;

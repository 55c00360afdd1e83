// Attention computed elsewhere: the book's trajectory JSON and kvscope's own tensor format (docs/ATTENTION_FORMAT.md).
export * from './types';
export { parseAttentionTrajectory } from './trajectory';
export { parseKvscopeAttention, writeKvscopeAttention, looksLikeSafetensors, toBase64, fromBase64, KVSCOPE_FORMAT, KVSCOPE_VERSION } from './kvscopeFormat';

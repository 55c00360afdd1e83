// Node-only: reads a Hugging Face tokenizer folder (tokenizer.json + tokenizer_config.json) from disk.
// Lives under lib/cli because it uses node:fs; everything else goes through lib/prompt/tokenizer.
import fs from 'node:fs';
import path from 'node:path';
import { createTokenizer, type Tokenizer } from '../prompt/tokenizer';

export function readTokenizerFiles(dir: string): { tokenizerJson: unknown; tokenizerConfig: unknown } {
  const read = (f: string) => JSON.parse(fs.readFileSync(path.join(dir, f), 'utf8')) as unknown;
  return { tokenizerJson: read('tokenizer.json'), tokenizerConfig: read('tokenizer_config.json') };
}

export function loadTokenizerDir(dir: string): Tokenizer {
  const { tokenizerJson, tokenizerConfig } = readTokenizerFiles(dir);
  return createTokenizer(tokenizerJson, tokenizerConfig);
}

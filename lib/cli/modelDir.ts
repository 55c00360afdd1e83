// Reads a Hugging Face model folder (config.json, *.safetensors or a sharded index, tokenizer files) from
// disk for the CLI. Node-only by design: the browser fetches the same files over HTTP instead.

import { existsSync, fstatSync, openSync, readdirSync, readFileSync, readSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { checkpointOf, SafetensorsError, type Checkpoint } from '../model/checkpoint';
import { lazySafetensors } from '../model/lazyBytes';
import { progressLine, resolveModelArg } from './hfCache';
import { ModelSourceError } from '../model/source/types';
import { parseGenerationConfig, SamplingError, type SamplingSettings } from '../generate/sampling';

export class CliError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CliError';
  }
}

export interface ModelDir {
  dir: string;
  checkpoint: Checkpoint;
  tokenizerJson?: unknown;
  tokenizerConfig?: unknown;
  generationConfig?: unknown;
}

function readJson(path: string): unknown {
  const text = readFileSync(path, 'utf8');
  try {
    return JSON.parse(text);
  } catch (e) {
    throw new CliError(`${path}: not valid JSON (${(e as Error).message})`);
  }
}

/** Shard file names: from model.safetensors.index.json when present, else every *.safetensors in the folder. */
function shardNames(dir: string): string[] {
  const index = join(dir, 'model.safetensors.index.json');
  if (existsSync(index)) {
    const map = (readJson(index) as { weight_map?: Record<string, string> }).weight_map;
    if (!map || typeof map !== 'object') throw new CliError(`${index}: no weight_map`);
    return [...new Set(Object.values(map))].sort();
  }
  return readdirSync(dir).filter((f) => f.endsWith('.safetensors')).sort();
}

export function readModelDir(dir: string): ModelDir {
  if (!existsSync(dir) || !statSync(dir).isDirectory()) throw new CliError(`model folder not found: ${dir}`);
  const cfg = join(dir, 'config.json');
  if (!existsSync(cfg)) throw new CliError(`${dir}: no config.json (expected a Hugging Face model folder)`);
  const shards = shardNames(dir);
  if (shards.length === 0) throw new CliError(`${dir}: no .safetensors weights`);
  // Each shard is read tensor by tensor when the graph is built (lib/model/lazyBytes): a 1.2 GB checkpoint is
  // never held whole in JS next to the runtime's copy of its weights.
  const files = shards.map((s) => {
    const p = join(dir, s);
    if (!existsSync(p)) throw new CliError(`${dir}: shard ${s} listed in the index is missing`);
    const fd = openSync(p, 'r');
    const size = fstatSync(fd).size;
    const read = (start: number, end: number): Uint8Array => {
      const out = new Uint8Array(end - start);
      let got = 0;
      while (got < out.length) {
        const n = readSync(fd, out, got, out.length - got, start + got);
        if (n === 0) break;
        got += n;
      }
      return got === out.length ? out : out.subarray(0, got);
    };
    try {
      return lazySafetensors(read, size);
    } catch (e) {
      if (e instanceof SafetensorsError) throw new SafetensorsError(e.key, e.params, `${e.where ?? 'safetensors'}: ${p}`);
      throw e;
    }
  });
  const checkpoint = checkpointOf(readFileSync(cfg, 'utf8'), files);
  const opt = (name: string) => (existsSync(join(dir, name)) ? readJson(join(dir, name)) : undefined);
  return { dir, checkpoint, tokenizerJson: opt('tokenizer.json'), tokenizerConfig: opt('tokenizer_config.json'), generationConfig: opt('generation_config.json') };
}

/** The model's generation_config.json as sampling settings; a file that cannot be read that way is a user error. */
export function modelSampling(model: ModelDir): SamplingSettings {
  try {
    return parseGenerationConfig(model.generationConfig);
  } catch (e) {
    if (e instanceof SamplingError) throw new CliError(`${model.dir}: ${e.message}`);
    throw e;
  }
}

/**
 * `--model <arg>`: a folder, or a Hub repo id read from the Hugging Face cache (downloaded into it unless
 * HF_HUB_OFFLINE is set; HF_HOME, HF_HUB_CACHE and HF_ENDPOINT as huggingface_hub reads them). Progress to stderr.
 */
export async function openModelArg(arg: string): Promise<ModelDir> {
  let dir: string;
  try {
    dir = await resolveModelArg(arg, process.env, (u, i) => fetch(u, i), {
      onProgress: (p) => process.stderr.write(`\r${progressLine(p)}`),
      log: (line) => process.stderr.write(`\n${line}\n`),
    });
  } catch (e) {
    if (e instanceof ModelSourceError) throw new CliError(e.message);
    throw e;
  }
  return readModelDir(dir);
}

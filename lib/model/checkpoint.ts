// A checkpoint in memory: parsed config plus its safetensors shards, checked against the tensors the
// config implies. Reads bytes given to it; fetching from disk or network belongs to the caller.

import { ConfigError, expectedTensors, parseConfig, type ModelConfig } from './config';
import { parseSafetensors, readFloat32, SafetensorsError, type DType, type SafetensorsFile } from './safetensors';

export interface Checkpoint {
  config: ModelConfig;
  /** Every tensor the config needs, by HF name → the shard holding it. */
  tensors: Map<string, { file: SafetensorsFile; dtype: DType; shape: number[] }>;
  /** A tensor's values as float32 (F16 / BF16 upcast exactly). */
  get(name: string): Float32Array;
  /** Total bytes of weights as stored. */
  storedBytes: number;
  /** The widest dtype stored (F32 if any tensor is F32). */
  dtype: DType;
}

export { ConfigError, SafetensorsError };

/** Builds a Checkpoint from config.json text and the bytes of each *.safetensors shard. */
export function loadCheckpoint(configText: string | unknown, shards: Uint8Array[]): Checkpoint {
  if (shards.length === 0) throw new SafetensorsError('msg.model.st.noFile');
  return checkpointOf(configText, shards.map((s) => parseSafetensors(s)));
}

/** A Checkpoint over shards already parsed (e.g. lib/model/lazyBytes's files, read tensor by tensor). */
export function checkpointOf(configText: string | unknown, files: SafetensorsFile[]): Checkpoint {
  const config = parseConfig(configText);
  if (files.length === 0) throw new SafetensorsError('msg.model.st.noFile');
  const tensors: Checkpoint['tensors'] = new Map();
  const expected = expectedTensors(config);
  let storedBytes = 0;
  let hasF32 = false;
  let hasBF16 = false;
  for (const [name, shape] of expected) {
    const file = files.find((f) => f.tensors.has(name));
    if (!file) throw new SafetensorsError('msg.model.st.missingTensor', { tensor: name, modelType: config.modelType, layers: config.numLayers });
    const info = file.tensors.get(name)!;
    if (info.shape.length !== shape.length || info.shape.some((d, i) => d !== shape[i])) {
      throw new SafetensorsError('msg.model.st.shapeMismatch', { tensor: name, shape: String(info.shape), expected: String(shape) });
    }
    storedBytes += info.end - info.begin;
    hasF32 ||= info.dtype === 'F32';
    hasBF16 ||= info.dtype === 'BF16';
    tensors.set(name, { file, dtype: info.dtype, shape });
  }
  return {
    config,
    tensors,
    storedBytes,
    dtype: hasF32 ? 'F32' : hasBF16 ? 'BF16' : 'F16',
    get(name: string) {
      const t = tensors.get(name);
      if (!t) throw new SafetensorsError('msg.model.st.noTensor', { tensor: name });
      return readFloat32(t.file, name);
    },
  };
}

// Checkpoints in the exact shapes of real Hub models (Qwen3-0.6B, SmolLM2-135M-Instruct, Qwen2.5-0.5B-Instruct)
// with deterministic random weights, for tests and benchmarks: the configs, the shard layout with its
// safetensors headers and index, and a cheap generator of each tensor's BF16 bytes. Pure: writing the
// folders belongs to the caller (test/helpers/realCheckpoints.ts), so nothing here holds a whole model.

import { expectedTensors, parseConfig } from './config';
import { f32ToBf16Bits } from './halfFloat';
import { gaussian } from './randomCheckpoint';

export type RealShapeName = 'qwen3-0.6b' | 'smollm2-135m' | 'qwen2.5-0.5b';
export const REAL_SHAPE_NAMES: readonly RealShapeName[] = ['qwen3-0.6b', 'smollm2-135m', 'qwen2.5-0.5b'];

/** Layers of a `tiny` variant: the real vocabulary and widths, fewer layers (for unit tests). */
export const TINY_LAYERS = 2;

/** Bump when the bytes a shape generates change, so cached folders are regenerated. */
export const REAL_SHAPES_VERSION = 'v1';

export interface RealShape {
  name: RealShapeName;
  /** The Hub repo whose shape this is. */
  repo: string;
  tiny: boolean;
  /** config.json as the Hub repo has it (num_hidden_layers changed for `tiny`). */
  config: Record<string, unknown>;
  generationConfig: Record<string, unknown>;
  /** Number of safetensors files; more than one means `model-0000i-of-0000n.safetensors` plus an index. */
  shards: number;
  /** Which tokenizer files the folder gets (see test/helpers/realCheckpoints.ts). */
  tokenizer: 'qwen3' | 'smollm2';
  /** The tokenizer_config.json chat template; null keeps the one shipped with the tokenizer (Qwen3's). */
  chatTemplate: string | null;
}

// Qwen/Qwen3-0.6B config.json (transformers 4.51).
const QWEN3_0_6B = {
  architectures: ['Qwen3ForCausalLM'],
  attention_bias: false,
  attention_dropout: 0.0,
  bos_token_id: 151643,
  eos_token_id: 151645,
  head_dim: 128,
  hidden_act: 'silu',
  hidden_size: 1024,
  initializer_range: 0.02,
  intermediate_size: 3072,
  max_position_embeddings: 40960,
  max_window_layers: 28,
  model_type: 'qwen3',
  num_attention_heads: 16,
  num_hidden_layers: 28,
  num_key_value_heads: 8,
  rms_norm_eps: 1e-6,
  rope_scaling: null,
  rope_theta: 1000000,
  sliding_window: null,
  tie_word_embeddings: true,
  torch_dtype: 'bfloat16',
  transformers_version: '4.51.0',
  use_cache: true,
  use_sliding_window: false,
  vocab_size: 151936,
};

// HuggingFaceTB/SmolLM2-135M-Instruct config.json (the transformers.js_config block left out).
const SMOLLM2_135M = {
  architectures: ['LlamaForCausalLM'],
  attention_bias: false,
  attention_dropout: 0.0,
  bos_token_id: 1,
  eos_token_id: 2,
  hidden_act: 'silu',
  hidden_size: 576,
  initializer_range: 0.041666666666666664,
  intermediate_size: 1536,
  is_llama_config: true,
  max_position_embeddings: 8192,
  model_type: 'llama',
  num_attention_heads: 9,
  num_hidden_layers: 30,
  num_key_value_heads: 3,
  pad_token_id: 2,
  pretraining_tp: 1,
  rms_norm_eps: 1e-5,
  rope_interleaved: false,
  rope_scaling: null,
  rope_theta: 100000,
  tie_word_embeddings: true,
  torch_dtype: 'bfloat16',
  transformers_version: '4.42.3',
  use_cache: true,
  vocab_size: 49152,
};

// Qwen/Qwen2.5-0.5B-Instruct config.json.
const QWEN2_5_0_5B = {
  architectures: ['Qwen2ForCausalLM'],
  attention_dropout: 0.0,
  bos_token_id: 151643,
  eos_token_id: 151645,
  hidden_act: 'silu',
  hidden_size: 896,
  initializer_range: 0.02,
  intermediate_size: 4864,
  max_position_embeddings: 32768,
  max_window_layers: 21,
  model_type: 'qwen2',
  num_attention_heads: 14,
  num_hidden_layers: 24,
  num_key_value_heads: 2,
  rms_norm_eps: 1e-6,
  rope_theta: 1000000.0,
  sliding_window: 32768,
  tie_word_embeddings: true,
  torch_dtype: 'bfloat16',
  transformers_version: '4.43.1',
  use_cache: true,
  use_sliding_window: false,
  vocab_size: 151936,
};

/** SmolLM2-Instruct's chat template (ChatML with a default system prompt), as in its tokenizer_config.json. */
export const SMOLLM2_CHAT_TEMPLATE =
  "{% for message in messages %}{% if loop.first and messages[0]['role'] != 'system' %}{{ '<|im_start|>system\nYou are a helpful AI assistant named SmolLM, trained by Hugging Face<|im_end|>\n' }}{% endif %}{{'<|im_start|>' + message['role'] + '\n' + message['content'] + '<|im_end|>' + '\n'}}{% endfor %}{% if add_generation_prompt %}{{ '<|im_start|>assistant\n' }}{% endif %}";

/** Qwen2.5-Instruct's chat template (ChatML, default system prompt, tools), as in its tokenizer_config.json. */
export const QWEN2_5_CHAT_TEMPLATE = `{%- if tools %}
    {{- '<|im_start|>system\\n' }}
    {%- if messages[0]['role'] == 'system' %}
        {{- messages[0]['content'] }}
    {%- else %}
        {{- 'You are Qwen, created by Alibaba Cloud. You are a helpful assistant.' }}
    {%- endif %}
    {{- "\\n\\n# Tools\\n\\nYou may call one or more functions to assist with the user query.\\n\\nYou are provided with function signatures within <tools></tools> XML tags:\\n<tools>" }}
    {%- for tool in tools %}
        {{- "\\n" }}
        {{- tool | tojson }}
    {%- endfor %}
    {{- "\\n</tools>\\n\\nFor each function call, return a json object with function name and arguments within <tool_call></tool_call> XML tags:\\n<tool_call>\\n{\\"name\\": <function-name>, \\"arguments\\": <args-json-object>}\\n</tool_call><|im_end|>\\n" }}
{%- else %}
    {%- if messages[0]['role'] == 'system' %}
        {{- '<|im_start|>system\\n' + messages[0]['content'] + '<|im_end|>\\n' }}
    {%- else %}
        {{- '<|im_start|>system\\nYou are Qwen, created by Alibaba Cloud. You are a helpful assistant.<|im_end|>\\n' }}
    {%- endif %}
{%- endif %}
{%- for message in messages %}
    {%- if (message.role == "user") or (message.role == "system" and not loop.first) or (message.role == "assistant" and not message.tool_calls) %}
        {{- '<|im_start|>' + message.role + '\\n' + message.content + '<|im_end|>' + '\\n' }}
    {%- elif message.role == "assistant" %}
        {{- '<|im_start|>' + message.role }}
        {%- if message.content %}
            {{- '\\n' + message.content }}
        {%- endif %}
        {%- for tool_call in message.tool_calls %}
            {%- if tool_call.function is defined %}
                {%- set tool_call = tool_call.function %}
            {%- endif %}
            {{- '\\n<tool_call>\\n{"name": "' }}
            {{- tool_call.name }}
            {{- '", "arguments": ' }}
            {{- tool_call.arguments | tojson }}
            {{- '}\\n</tool_call>' }}
        {%- endfor %}
        {{- '<|im_end|>\\n' }}
    {%- elif message.role == "tool" %}
        {%- if (loop.index0 == 0) or (messages[loop.index0 - 1].role != "tool") %}
            {{- '<|im_start|>user' }}
        {%- endif %}
        {{- '\\n<tool_response>\\n' }}
        {{- message.content }}
        {{- '\\n</tool_response>' }}
        {%- if loop.last or (messages[loop.index0 + 1].role != "tool") %}
            {{- '<|im_end|>\\n' }}
        {%- endif %}
    {%- endif %}
{%- endfor %}
{%- if add_generation_prompt %}
    {{- '<|im_start|>assistant\\n' }}
{%- endif %}
`;

/** The shape of a real model; `tiny` keeps every width and the vocabulary and has TINY_LAYERS layers. */
export function realShape(name: RealShapeName, options: { tiny?: boolean } = {}): RealShape {
  const tiny = options.tiny === true;
  const layers = (n: number) => (tiny ? TINY_LAYERS : n);
  if (name === 'qwen3-0.6b') {
    return {
      name,
      repo: 'Qwen/Qwen3-0.6B',
      tiny,
      config: { ...QWEN3_0_6B, num_hidden_layers: layers(28), max_window_layers: layers(28) },
      generationConfig: { bos_token_id: 151643, do_sample: true, eos_token_id: [151645, 151643], pad_token_id: 151643, temperature: 0.6, top_k: 20, top_p: 0.95, transformers_version: '4.51.0' },
      // The Hub ships one file; two shards exercise the index path at the same size.
      shards: 2,
      tokenizer: 'qwen3',
      chatTemplate: null,
    };
  }
  if (name === 'smollm2-135m') {
    return {
      name,
      repo: 'HuggingFaceTB/SmolLM2-135M-Instruct',
      tiny,
      config: { ...SMOLLM2_135M, num_hidden_layers: layers(30) },
      generationConfig: { bos_token_id: 1, eos_token_id: 2, pad_token_id: 2, transformers_version: '4.42.3' },
      shards: 1,
      tokenizer: 'smollm2',
      chatTemplate: SMOLLM2_CHAT_TEMPLATE,
    };
  }
  if (name === 'qwen2.5-0.5b') {
    return {
      name,
      repo: 'Qwen/Qwen2.5-0.5B-Instruct',
      tiny,
      config: { ...QWEN2_5_0_5B, num_hidden_layers: layers(24), max_window_layers: layers(21) },
      generationConfig: { bos_token_id: 151643, pad_token_id: 151643, do_sample: true, eos_token_id: [151645, 151643], repetition_penalty: 1.1, temperature: 0.7, top_p: 0.8, top_k: 20, transformers_version: '4.43.1' },
      shards: 1,
      tokenizer: 'qwen3',
      chatTemplate: QWEN2_5_CHAT_TEMPLATE,
    };
  }
  throw new Error(`realShape: unknown shape "${String(name)}" (known: ${REAL_SHAPE_NAMES.join(', ')})`);
}

/** One tensor in a shard: HF name, shape and byte range inside the shard's data section. */
export interface PlannedTensor {
  name: string;
  shape: number[];
  begin: number;
  end: number;
}

export interface PlannedShard {
  file: string;
  /** Tensors in data order (sorted by name, as the safetensors writer orders them). */
  tensors: PlannedTensor[];
  /** The file's first 8 + N bytes: length prefix and JSON header, padded to 8 bytes. */
  header: Uint8Array;
  /** The whole file's size in bytes. */
  size: number;
}

export interface CheckpointPlan {
  shards: PlannedShard[];
  /** model.safetensors.index.json when there is more than one shard. */
  index: { metadata: { total_size: number }; weight_map: Record<string, string> } | null;
  /** Bytes of all tensors (the index's total_size). */
  tensorBytes: number;
  parameters: number;
}

const BF16_BYTES = 2;

function shardName(i: number, n: number): string {
  if (n === 1) return 'model.safetensors';
  const pad = (k: number) => String(k).padStart(5, '0');
  return `model-${pad(i + 1)}-of-${pad(n)}.safetensors`;
}

/** The safetensors header bytes (length prefix + JSON padded with spaces to 8 bytes) for BF16 tensors. */
function headerBytes(tensors: PlannedTensor[]): Uint8Array {
  const json: Record<string, unknown> = { __metadata__: { format: 'pt' } };
  for (const t of tensors) json[t.name] = { dtype: 'BF16', shape: t.shape, data_offsets: [t.begin, t.end] };
  const text = JSON.stringify(json);
  const raw = new TextEncoder().encode(text);
  const padded = new TextEncoder().encode(text + ' '.repeat((8 - (raw.length % 8)) % 8));
  const out = new Uint8Array(8 + padded.length);
  new DataView(out.buffer).setBigUint64(0, BigInt(padded.length), true);
  out.set(padded, 8);
  return out;
}

/**
 * The shard layout of a shape: tensors go to shards in model order until a shard holds half (or 1/n) of
 * the bytes, as Hugging Face's size-based split does; within a shard the data is ordered by name.
 */
export function planCheckpoint(shape: RealShape): CheckpointPlan {
  const config = parseConfig(shape.config);
  const all = [...expectedTensors(config)].map(([name, dims]) => ({ name, shape: dims, bytes: dims.reduce((a, d) => a * d, 1) * BF16_BYTES }));
  const tensorBytes = all.reduce((a, t) => a + t.bytes, 0);
  const groups: (typeof all)[] = Array.from({ length: shape.shards }, () => []);
  let acc = 0;
  for (const t of all) {
    const g = Math.min(shape.shards - 1, Math.floor((acc * shape.shards) / tensorBytes));
    groups[g]!.push(t);
    acc += t.bytes;
  }
  const weightMap: Record<string, string> = {};
  const shards = groups.map((group, i): PlannedShard => {
    const file = shardName(i, shape.shards);
    let offset = 0;
    const tensors = [...group]
      .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
      .map((t) => {
        weightMap[t.name] = file;
        const p = { name: t.name, shape: t.shape, begin: offset, end: offset + t.bytes };
        offset += t.bytes;
        return p;
      });
    const header = headerBytes(tensors);
    return { file, tensors, header, size: header.length + offset };
  });
  if (shards.some((s) => s.tensors.length === 0)) throw new Error(`planCheckpoint: ${shape.name} has an empty shard (fewer tensors than shards)`);
  const sortedMap = Object.fromEntries(Object.keys(weightMap).sort().map((k) => [k, weightMap[k]!]));
  return {
    shards,
    index: shape.shards > 1 ? { metadata: { total_size: tensorBytes }, weight_map: sortedMap } : null,
    tensorBytes,
    parameters: tensorBytes / BF16_BYTES,
  };
}

function fnv1a(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193) >>> 0;
  return h;
}

const TABLE_BITS = 12;
const TABLE_MASK = (1 << TABLE_BITS) - 1;

/** 4,096 BF16 values of `offset + 0.02 · z`, z standard normal (randomCheckpoint's seeded generator). */
function table(offset: number, seed: number): Uint16Array {
  const z = gaussian(seed);
  const values = new Float32Array(1 << TABLE_BITS);
  for (let i = 0; i < values.length; i++) values[i] = offset + 0.02 * z();
  return f32ToBf16Bits(values);
}

let tables: { weight: Uint16Array; norm: Uint16Array } | undefined;

/** Norm gains sit near 1 (as trained models' do at this scale); everything else is N(0, 0.02²). */
function isNorm(name: string): boolean {
  return name.endsWith('norm.weight');
}

/**
 * A tensor's BF16 values, generated a chunk at a time so a writer never holds the tensor: call `fill(out)`
 * repeatedly with even-length chunks (the last one may be odd) until all elements are produced. Each value
 * is a table entry picked by a per-tensor xorshift stream, so a chunk costs a few integer ops per value.
 */
export function bf16Stream(name: string): { fill(out: Uint16Array): void } {
  tables ??= { weight: table(0, 0x2545f491), norm: table(1, 0x9e3779b9) };
  const t = isNorm(name) ? tables.norm : tables.weight;
  let s = fnv1a(name) | 1;
  return {
    fill(out: Uint16Array) {
      const pairs = out.length >>> 1;
      // Two values per step through a 32-bit view where the chunk is 4-byte aligned (little-endian: low half first).
      if ((out.byteOffset & 3) === 0) {
        const w = new Uint32Array(out.buffer, out.byteOffset, pairs);
        for (let i = 0; i < pairs; i++) {
          s ^= s << 13;
          s ^= s >>> 17;
          s ^= s << 5;
          w[i] = t[s & TABLE_MASK]! | (t[(s >>> 16) & TABLE_MASK]! << 16);
        }
      } else {
        for (let i = 0; i < pairs; i++) {
          s ^= s << 13;
          s ^= s >>> 17;
          s ^= s << 5;
          out[2 * i] = t[s & TABLE_MASK]!;
          out[2 * i + 1] = t[(s >>> 16) & TABLE_MASK]!;
        }
      }
      if (out.length & 1) {
        s ^= s << 13;
        s ^= s >>> 17;
        s ^= s << 5;
        out[out.length - 1] = t[s & TABLE_MASK]!;
      }
    },
  };
}

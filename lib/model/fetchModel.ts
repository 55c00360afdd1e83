// Fetches a model folder (Hugging Face layout) over HTTP with byte-level progress, for the page to hand
// to the engine worker. Uses only the fetch API, so it runs in pages, workers and Node alike.
import { CodedError } from '../i18n/message';
import { parseModelCard, type ModelCard } from './embedded';

export interface FetchedModel {
  config: string;
  shards: Uint8Array[];
  tokenizer: unknown;
  tokenizerConfig: unknown;
  /** Null when the folder has no README.md card. */
  card: ModelCard | null;
  /** generation_config.json (sampling defaults), or null when the folder has none. */
  generationConfig: unknown | null;
}

export type FetchLike = (url: string) => Promise<Response>;

/** Reads a response body, reporting bytes so far (total from Content-Length, or null when not sent). */
async function readBody(res: Response, onBytes: (n: number, total: number | null) => void): Promise<Uint8Array> {
  const total = Number(res.headers.get('content-length')) || null;
  if (!res.body) {
    const b = new Uint8Array(await res.arrayBuffer());
    onBytes(b.length, total);
    return b;
  }
  const reader = res.body.getReader();
  const parts: Uint8Array[] = [];
  let n = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    parts.push(value);
    n += value.length;
    onBytes(n, total);
  }
  const out = new Uint8Array(n);
  let o = 0;
  for (const p of parts) {
    out.set(p, o);
    o += p.length;
  }
  return out;
}

async function get(fetchFn: FetchLike, url: string): Promise<Response> {
  let res: Response;
  try {
    res = await fetchFn(url);
  } catch (e) {
    throw new CodedError('msg.model.fetch.unreachable', { url, detail: (e as Error).message });
  }
  if (!res.ok) throw new CodedError('msg.model.fetch.http', { url, status: res.status });
  return res;
}

function parseJson(text: string, what: string): unknown {
  try {
    return JSON.parse(text);
  } catch (e) {
    throw new CodedError('msg.model.fetch.json', { file: what, detail: (e as Error).message });
  }
}

/**
 * Fetches config.json, model.safetensors, tokenizer.json, tokenizer_config.json, and README.md and
 * generation_config.json (both optional)
 * from `base` (ending in '/'). `onProgress` gets the fraction of the weights downloaded (0…1).
 */
export async function fetchModel(base: string, fetchFn: FetchLike, onProgress?: (fraction: number) => void): Promise<FetchedModel> {
  const text = async (f: string) => (await get(fetchFn, base + f)).text();
  const [config, tokenizerText, tokenizerConfigText, weights, card, generationConfig] = await Promise.all([
    text('config.json'),
    text('tokenizer.json'),
    text('tokenizer_config.json'),
    get(fetchFn, base + 'model.safetensors').then((r) => readBody(r, (n, total) => onProgress?.(total ? Math.min(1, n / total) : 0))),
    fetchFn(base + 'README.md')
      .then(async (r) => (r.ok ? parseModelCard(await r.text()) : null))
      .catch(() => null),
    fetchFn(base + 'generation_config.json')
      .then(async (r) => (r.ok ? (parseJson(await r.text(), base + 'generation_config.json') as unknown) : null))
      .catch(() => null),
  ]);
  onProgress?.(1);
  return {
    config,
    shards: [weights],
    tokenizer: parseJson(tokenizerText, base + 'tokenizer.json'),
    tokenizerConfig: parseJson(tokenizerConfigText, base + 'tokenizer_config.json'),
    card,
    generationConfig,
  };
}

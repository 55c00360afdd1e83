// What a link may make the page fetch: the rules for `?url=` imports, checked before anything is fetched,
// and a reader that enforces them while the response streams in. Anyone can craft a link, so a link is
// hostile until checked: only https: and same-origin URLs (plain http only between loopback origins, so a
// page served locally can read a local file server), never a URL with credentials in it, and never more
// than LINK_MAX_BYTES. Another origin is fetched only after the user confirmed its host (the page's part).
// What comes back is data for lib/io/importData; nothing from a link is ever rendered as HTML or run.
// Pure: web-standard URL, fetch and streams only (Node ≥ 20, workers and the page alike).
import { formatBytes } from '../analysis/kvBytes';

/** Most bytes a link may bring, announced before the fetch and enforced while reading. */
export const LINK_MAX_BYTES = 100 * 1024 * 1024;
/** Longest `?url=` value looked at (a real file address is far shorter). */
export const LINK_MAX_CHARS = 4096;

/** Why a link was refused; each code has the string `link.<code>` in lib/i18n/data.ts (English and 简体中文). */
export type LinkRefusalCode = 'invalid' | 'tooLong' | 'scheme' | 'insecure' | 'credentials' | 'tooLarge' | 'tooLargeRead' | 'webPage' | 'contentType' | 'redirected';

/** A refusal is a coded message (lib/i18n/message.ts): `key` is `link.<code>`, shown in the user's language. */
export interface LinkRefusal {
  code: LinkRefusalCode;
  key: `link.${LinkRefusalCode}`;
  /** The i18n parameters: always `url` (as shown), plus what the code names (scheme, type, size, limit…). */
  params: Record<string, string>;
}

function refusal(code: LinkRefusalCode, params: Record<string, string>): LinkRefusal {
  return { code, key: `link.${code}`, params };
}

export type LinkCheck =
  | {
      ok: true;
      url: URL;
      /** Same origin as the page: fetched without asking. */
      sameOrigin: boolean;
      /** host[:port] (IDN hosts as punycode, so look-alike letters cannot pass as another site), for the confirmation. */
      host: string;
    }
  | { ok: false; refusal: LinkRefusal };

// Not [::1]: a Content-Security-Policy cannot name an IPv6 literal, so the page could not connect to it anyway.
const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1']);
const isLoopback = (u: URL) => LOOPBACK_HOSTS.has(u.hostname) || u.hostname.endsWith('.localhost');

/** The URL as the refusal shows it: one line, at most 200 characters (it is text, never markup). */
export function shownUrl(raw: string): string {
  // eslint-disable-next-line no-control-regex -- control characters are exactly what is replaced
  const one = raw.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g, ' ').trim();
  return one.length > 200 ? `${one.slice(0, 199)}…` : one;
}

const refuse = (code: LinkRefusalCode, raw: string, extra: Record<string, string> = {}): LinkCheck => ({ ok: false, refusal: refusal(code, { url: shownUrl(raw), ...extra }) });

/**
 * Whether `raw` (a `?url=` value: absolute, or relative to the page) may be fetched from a page at `page`.
 * Same origin: yes. Otherwise https: only, or http: between loopback hosts (a page on 127.0.0.1 reading a
 * file server on 127.0.0.1 or localhost). Never javascript:, data:, file:, blob:, ftp: or any other scheme,
 * and never a URL carrying a user name or password (the link would log in with someone's credentials).
 */
export function checkLinkUrl(raw: string, page: string | URL): LinkCheck {
  if (typeof raw !== 'string' || raw.trim() === '') return refuse('invalid', String(raw ?? ''));
  if (raw.length > LINK_MAX_CHARS) return refuse('tooLong', raw, { chars: String(raw.length), limit: String(LINK_MAX_CHARS) });
  const base = new URL(page);
  let url: URL;
  try {
    url = new URL(raw.trim(), base);
  } catch {
    return refuse('invalid', raw);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return refuse('scheme', raw, { scheme: url.protocol });
  if (url.username !== '' || url.password !== '') {
    // Shown without them: the refusal must not repeat a password on screen.
    const bare = new URL(url.href);
    bare.username = '';
    bare.password = '';
    return refuse('credentials', bare.href);
  }
  const host = url.host;
  if (url.origin === base.origin) return { ok: true, url, sameOrigin: true, host };
  if (url.protocol === 'https:') return { ok: true, url, sameOrigin: false, host };
  if (isLoopback(url) && isLoopback(base)) return { ok: true, url, sameOrigin: false, host };
  return refuse('insecure', raw, { host });
}

/** The media type without parameters, lower case ('' when the header is absent). */
export function mediaType(contentType: string | null): string {
  return (contentType ?? '').split(';')[0]!.trim().toLowerCase();
}

const WEB_PAGE = new Set(['text/html', 'application/xhtml+xml', 'image/svg+xml', 'text/xml', 'application/xml']);
const DATA_TYPES = new Set(['application/json', 'application/octet-stream', 'binary/octet-stream', 'application/x-ndjson', 'application/jsonl', 'application/x-jsonlines', 'application/x-safetensors']);
const ACTIVE_TEXT = new Set(['text/javascript', 'text/ecmascript', 'text/css']);

/**
 * Whether a response's Content-Type is data kvscope reads: JSON (any `+json` too), plain text and other
 * inert text, or raw bytes (octet-stream); a missing type is read as bytes. Refused: web pages (HTML, XHTML,
 * SVG, XML: a link to a page about the file rather than to the file) and everything else (scripts,
 * images, archives…).
 */
export function contentTypeRefusal(contentType: string | null, raw: string): LinkRefusal | null {
  const type = mediaType(contentType);
  if (type === '') return null;
  if (WEB_PAGE.has(type)) return refusal('webPage', { url: shownUrl(raw), type });
  if (DATA_TYPES.has(type) || type.endsWith('+json') || (type.startsWith('text/') && !ACTIVE_TEXT.has(type))) return null;
  return refusal('contentType', { url: shownUrl(raw), type: type.slice(0, 80) });
}

/** The refusal for a body over `cap` bytes: announced by Content-Length (`size`), or seen while reading. */
export function tooLarge(raw: string, size: number | null, cap: number): LinkRefusal {
  const params = { url: shownUrl(raw), limit: formatBytes(cap) };
  return size === null ? refusal('tooLargeRead', params) : refusal('tooLarge', { ...params, size: formatBytes(size) });
}

export type ReadResult = { ok: true; bytes: Uint8Array } | { ok: false; over: number };

/**
 * Reads a body, stopping (and cancelling the stream) as soon as more than `cap` bytes have come in; the
 * bytes are never all held when the body is too large. `onBytes` reports progress.
 */
export async function readCapped(body: ReadableStream<Uint8Array>, cap: number, onBytes?: (n: number) => void): Promise<ReadResult> {
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      total += value.byteLength;
      if (total > cap) {
        await reader.cancel().catch(() => {});
        return { ok: false, over: total };
      }
      chunks.push(value);
      onBytes?.(total);
    }
  } finally {
    reader.releaseLock();
  }
  const out = new Uint8Array(total);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.byteLength;
  }
  return { ok: true, bytes: out };
}

export type FetchLinkResult =
  | { ok: true; bytes: Uint8Array; contentType: string }
  /** A rule broke: nothing is kept. */
  | { ok: false; refusal: LinkRefusal }
  /** The server answered with an error status, or the network or CORS failed (`reason`, English, technical). */
  | { ok: false; failed: string };

export interface FetchLinkOptions {
  page: string | URL;
  cap?: number;
  signal?: AbortSignal;
  onBytes?: (n: number, total: number | null) => void;
  /** For tests; the global fetch otherwise. */
  fetchImpl?: typeof fetch;
}

/**
 * Fetches a URL checkLinkUrl accepted (the caller has asked the user first when it is another origin):
 * without cookies or other credentials and without a referrer. Refused before reading: a redirect to a
 * URL the rules refuse, a type that is not data, a Content-Length over the cap. While reading: stops at
 * the cap.
 */
export async function fetchLink(url: URL, opts: FetchLinkOptions): Promise<FetchLinkResult> {
  const cap = opts.cap ?? LINK_MAX_BYTES;
  const raw = url.href;
  let res: Response;
  try {
    res = await (opts.fetchImpl ?? fetch)(url, { credentials: 'omit', referrerPolicy: 'no-referrer', redirect: 'follow', signal: opts.signal });
  } catch (e) {
    return { ok: false, failed: (e as Error)?.message || String(e) };
  }
  const cancel = () => res.body?.cancel().catch(() => {});
  // A redirect may lead anywhere: the final address must pass the same rules (its host was not confirmed,
  // but it is fetched without credentials and only ever read as data).
  if (res.redirected && res.url) {
    const again = checkLinkUrl(res.url, opts.page);
    if (!again.ok) {
      void cancel();
      return { ok: false, refusal: refusal('redirected', { url: shownUrl(raw), to: shownUrl(res.url), why: again.refusal.code }) };

    }
  }
  if (!res.ok) {
    void cancel();
    return { ok: false, failed: `HTTP ${res.status}` };
  }
  const contentType = res.headers.get('content-type');
  const typeRefusal = contentTypeRefusal(contentType, raw);
  if (typeRefusal) {
    void cancel();
    return { ok: false, refusal: typeRefusal };
  }
  const lengthHeader = res.headers.get('content-length');
  const announced = lengthHeader !== null && /^\d+$/.test(lengthHeader.trim()) ? Number(lengthHeader) : null;
  if (announced !== null && announced > cap) {
    void cancel();
    return { ok: false, refusal: tooLarge(raw, announced, cap) };
  }
  if (!res.body) return { ok: true, bytes: new Uint8Array(0), contentType: mediaType(contentType) };
  let read: ReadResult;
  try {
    read = await readCapped(res.body, cap, (n) => opts.onBytes?.(n, announced));
  } catch (e) {
    return { ok: false, failed: (e as Error)?.message || String(e) };
  }
  if (!read.ok) return { ok: false, refusal: tooLarge(raw, null, cap) };
  return { ok: true, bytes: read.bytes, contentType: mediaType(contentType) };
}

import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import type { Request, Response } from 'express';
import type { CachedPage } from './page-cache.ts';

const gzip = promisify(zlib.gzip);
const brotli = promisify(zlib.brotliCompress);

/**
 * Brotli's quality for a stored page: 6 makes a 100 KB page about 1 % bigger than 8 in a tenth of
 * the time (12 ms against 57; 11 would take 260 ms), on a thread of the pool, once per entry.
 */
const BROTLI_QUALITY = 6;

/** Bodies this small gain nothing worth a header from compression. */
const COMPRESS_FROM_BYTES = 1024;

/** Script types a browser never runs, so CSP has nothing to allow (JSON-LD, JSON data). */
const DATA_SCRIPT = /\btype="application\/(ld\+)?json"/;
const INLINE_SCRIPT = /<script\b([^>]*)>([\s\S]*?)<\/script>/g;

/**
 * The CSP sources that allow exactly a page's inline scripts: the SHA-256 of each one's text. A
 * browser hashes the text as parsed, whose line breaks are all `\n`. A script with `src` has no
 * text of its own; a copy of a held-back module (scripts-after-load.ts) has the same text, so the
 * same hash allows it.
 */
export function inlineScriptHashes(html: string): string[] {
  const hashes = new Set<string>();
  for (const [, attributes = '', text = ''] of html.matchAll(INLINE_SCRIPT)) {
    if (/\bsrc=/.test(attributes) || DATA_SCRIPT.test(attributes)) continue;
    hashes.add(`'sha256-${createHash('sha256').update(text.replace(/\r\n?/g, '\n')).digest('base64')}'`);
  }
  return [...hashes];
}

/** Headers that belong to one response, or that `sendPage` sets from the entry: never stored. */
const PER_RESPONSE = new Set([
  'cache-control',
  'connection',
  'content-encoding',
  'content-length',
  'date',
  'etag',
  'keep-alive',
  'set-cookie',
  'transfer-encoding',
  'vary',
  'x-instance',
  'x-page-cache',
  'x-request-id',
]);

export interface RenderedPage {
  status: number;
  /** What the page handler answered, with the headers set before it (the security headers). */
  headers: Iterable<[string, string]>;
  body: string;
  /** The nonce it was rendered with: its attributes are dropped, its CSP source becomes the hashes. */
  nonce: string;
}

/**
 * A rendered page as every visitor gets it while it is cached: no nonce (one shared by every
 * visitor would be none), a CSP allowing its inline scripts by their hashes, and its final bytes,
 * as they are and compressed (brotli and gzip), with a strong ETag of the content. Null when the
 * nonce appears anywhere but in `nonce` attributes (inside a script, it would break there).
 */
export async function preparePage({
  status,
  headers,
  body,
  nonce,
}: RenderedPage): Promise<Omit<CachedPage, 'storedAt'> | null> {
  const html = nonce ? body.replaceAll(` nonce="${nonce}"`, '') : body;
  if (nonce && html.includes(nonce)) return null;
  const hashes = inlineScriptHashes(html).join(' ');
  // One value per name: a name set twice with different values is one list (a second CSP is a second policy either way).
  const kept = new Map<string, string>();
  for (const [name, value] of headers) {
    const lower = name.toLowerCase();
    if (PER_RESPONSE.has(lower)) continue;
    const own =
      lower === 'content-security-policy' && nonce
        ? value.replace(` 'nonce-${nonce}'`, hashes ? ` ${hashes}` : '')
        : value;
    const before = kept.get(lower);
    kept.set(lower, before === undefined || before === own ? own : `${before}, ${own}`);
  }
  const identity = Buffer.from(html);
  const compress = identity.length >= COMPRESS_FROM_BYTES;
  const [gz, br] = compress
    ? await Promise.all([
        gzip(identity, { level: 9 }),
        brotli(identity, {
          params: {
            [zlib.constants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY,
            [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT,
            [zlib.constants.BROTLI_PARAM_SIZE_HINT]: identity.length,
          },
        }),
      ])
    : [undefined, undefined];
  const etag = createHash('sha256').update(identity).digest('base64url').slice(0, 27);
  return {
    status,
    headers: [...kept],
    body: identity,
    ...(gz && gz.length < identity.length ? { gzip: gz } : {}),
    ...(br && br.length < identity.length ? { br } : {}),
    etag,
  };
}

type Encoding = 'br' | 'gzip' | 'identity';

/**
 * The encoding to send from those stored: brotli, else gzip, else the bytes as they are, unless
 * the request refuses it (`;q=0`). Every browser in the support policy offers both.
 */
export function chooseEncoding(
  acceptEncoding: string | undefined,
  page: { readonly br?: unknown; readonly gzip?: unknown },
): Encoding {
  if (!acceptEncoding) return 'identity';
  const offered = new Map<string, number>();
  for (const part of acceptEncoding.split(',')) {
    const [name = '', ...params] = part.trim().toLowerCase().split(';');
    const q = params.map((param) => /^\s*q=([\d.]+)\s*$/.exec(param)?.[1]).find((value) => value !== undefined);
    offered.set(name.trim(), q === undefined ? 1 : Number(q));
  }
  const accepts = (name: string) => (offered.get(name) ?? offered.get('*') ?? 0) > 0;
  if (page.br && accepts('br')) return 'br';
  if (page.gzip && accepts('gzip')) return 'gzip';
  return 'identity';
}

/**
 * Each encoding's strong ETag: different bytes, different tags (RFC 9110 8.8.3); the content's
 * hash is common to the three, so a page rendered again with the same content keeps its tags.
 */
export function etagOf(page: Pick<CachedPage, 'etag'>, encoding: Encoding): string {
  return encoding === 'identity' ? `"${page.etag}"` : `"${page.etag}-${encoding === 'br' ? 'br' : 'gz'}"`;
}

/** Whether `If-None-Match` names one of the page's tags (weak comparison, as RFC 9110 13.1.2 asks), or `*`. */
export function notModified(ifNoneMatch: string | undefined, page: Pick<CachedPage, 'etag'>): string | null {
  if (!ifNoneMatch) return null;
  if (ifNoneMatch.trim() === '*') return `"${page.etag}"`;
  for (const tag of ifNoneMatch.split(',')) {
    const opaque = tag.trim().replace(/^W\//, '');
    if (opaque === `"${page.etag}"` || opaque === `"${page.etag}-br"` || opaque === `"${page.etag}-gz"`) return opaque;
  }
  return null;
}

/**
 * Writes a stored page: its headers, then a 304 when the request's `If-None-Match` holds one of
 * its tags (the tag it matched, so a cache keeps the representation it has), else the stored
 * bytes in the chosen encoding. Nothing is rendered, compressed or hashed here.
 */
export function sendPage(
  req: Request,
  res: Response,
  page: CachedPage,
  cacheControl: string,
  state: 'hit' | 'miss' | 'stale',
): void {
  for (const [name, value] of page.headers) res.setHeader(name, value);
  res.setHeader('x-page-cache', state);
  res.setHeader('Cache-Control', cacheControl);
  res.setHeader('Vary', 'Accept-Encoding');
  const matched = page.status === 200 ? notModified(req.headers['if-none-match'], page) : null;
  if (matched) {
    res.setHeader('ETag', matched);
    res.removeHeader('content-type');
    res.statusCode = 304;
    res.end();
    return;
  }
  const encoding = chooseEncoding(req.headers['accept-encoding'], page);
  const bytes = encoding === 'br' ? page.br! : encoding === 'gzip' ? page.gzip! : page.body;
  res.statusCode = page.status;
  res.setHeader('ETag', etagOf(page, encoding));
  if (encoding !== 'identity') res.setHeader('Content-Encoding', encoding);
  res.setHeader('Content-Length', bytes.length);
  res.end(req.method === 'HEAD' ? undefined : bytes);
}

import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, constants as zlib, gzipSync } from 'node:zlib';
import type { RequestHandler } from 'express';
import { LOCALES, type Locale } from '../domain/locales.ts';
import { messageTable, type MessageFile, type Messages } from '../domain/message-table.ts';
import { chooseEncoding } from './page-entry.ts';

export interface MessageAssetsOptions {
  /**
   * Development: the locale files are read again when they change, as the pages' own table is
   * (Vite reloads it), so an edited message is served under its new name.
   */
  reload?: boolean;
  /** Where `en.json`, `zh-hk.json` and `zh-cn.json` are (the project's `locales/`). */
  localesDir?: string;
}

interface Encoded {
  identity: Buffer;
  br: Buffer;
  gzip: Buffer;
}

type Table = ReturnType<typeof messageTable>;

function readCatalogues(dir: string): Record<Locale, Messages> {
  return Object.fromEntries(
    LOCALES.map((locale) => [locale, JSON.parse(readFileSync(path.join(dir, `${locale}.json`), 'utf8')) as Messages]),
  ) as Record<Locale, Messages>;
}

/**
 * `GET /i18n/{locale}/{groups}.{hash}.json`: a language's message groups, as the pages name them
 * (decision 042). Each file is made from the locale files at its first request, compressed once
 * with brotli and gzip, and kept; its name changes with its content, so it is cached for a year
 * and never revalidated. Mounted before the pages' headers, like `/assets`.
 */
export function messageAssets(options: MessageAssetsOptions = {}): RequestHandler {
  const dir = path.resolve(options.localesDir ?? 'locales');
  const versionOf = () => LOCALES.map((locale) => statSync(path.join(dir, `${locale}.json`)).mtimeMs).join();
  let version = versionOf();
  let table: Table = messageTable(readCatalogues(dir));
  let encoded = new WeakMap<MessageFile, Encoded>();

  return (req, res, next) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return next();
    if (options.reload) {
      const now = versionOf();
      if (now !== version) {
        version = now;
        table = messageTable(readCatalogues(dir));
        encoded = new WeakMap();
      }
    }
    // Mounted at `/i18n`: the file's name is the rest of the path.
    const found = table.lookup(`/i18n${req.path}`);
    res.setHeader('X-Content-Type-Options', 'nosniff');
    res.setHeader('Cross-Origin-Resource-Policy', 'same-origin');
    if ('error' in found) {
      res.setHeader('Cache-Control', 'no-store');
      res.status(404).type('text/plain').send(`${found.error}\n`);
      return;
    }
    let bodies = encoded.get(found);
    if (!bodies) {
      const identity = Buffer.from(found.json);
      bodies = {
        identity,
        br: brotliCompressSync(identity, {
          params: { [zlib.BROTLI_PARAM_QUALITY]: 11, [zlib.BROTLI_PARAM_SIZE_HINT]: identity.length },
        }),
        gzip: gzipSync(identity, { level: 9 }),
      };
      encoded.set(found, bodies);
    }
    const encoding = chooseEncoding(req.headers['accept-encoding'], bodies);
    res.setHeader('Content-Type', 'application/json; charset=utf-8');
    res.setHeader('Cache-Control', 'public, max-age=31536000, immutable');
    res.setHeader('Vary', 'Accept-Encoding');
    if (encoding !== 'identity') res.setHeader('Content-Encoding', encoding);
    const body = bodies[encoding];
    res.setHeader('Content-Length', String(body.length));
    res.status(200);
    if (req.method === 'HEAD') res.end();
    else res.end(body);
  };
}

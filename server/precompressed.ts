import { existsSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants as zlib, gzip } from 'node:zlib';
import type { RequestHandler } from 'express';
import { chooseEncoding } from './page-entry.ts';

/** Files worth compressing: text of some size (small ones gain less than their headers cost). */
const COMPRESSIBLE = /\.(js|mjs|css|svg|json|txt|xml|html|map)$/;
const MIN_BYTES = 1024;

/**
 * Writes `name.br` (brotli at its best quality) and `name.gz` (gzip 9) beside each compressible
 * file of a folder: done once when the site is built (`npm run build`), so the pages' scripts
 * go out as small as they can be and no request spends time compressing them.
 */
export async function compressFolder(
  folder: string,
): Promise<{ files: number; identity: number; br: number; gzip: number }> {
  const totals = { files: 0, identity: 0, br: 0, gzip: 0 };
  const names = readdirSync(folder).filter((name) => COMPRESSIBLE.test(name));
  // On the thread pool, all at once: the build waits for the slowest file, not their sum.
  await Promise.all(
    names.map(async (name) => {
      const identity = readFileSync(path.join(folder, name));
      if (identity.length < MIN_BYTES) return;
      const [br, gz] = await Promise.all([
        brotli(identity, {
          params: {
            [zlib.BROTLI_PARAM_QUALITY]: zlib.BROTLI_MAX_QUALITY,
            [zlib.BROTLI_PARAM_MODE]: zlib.BROTLI_MODE_TEXT,
            [zlib.BROTLI_PARAM_SIZE_HINT]: identity.length,
          },
        }),
        gzipped(identity, { level: 9 }),
      ]);
      writeIfSmaller(path.join(folder, `${name}.br`), br, identity.length);
      writeIfSmaller(path.join(folder, `${name}.gz`), gz, identity.length);
      totals.files += 1;
      totals.identity += identity.length;
      totals.br += Math.min(br.length, identity.length);
      totals.gzip += Math.min(gz.length, identity.length);
    }),
  );
  return totals;
}

const brotli = promisify(brotliCompress);
const gzipped = promisify(gzip);

/** Written only when it saves bytes, whole or not at all (a stopped build leaves no half file). */
function writeIfSmaller(file: string, bytes: Buffer, than: number): void {
  if (bytes.length >= than) return;
  writeFileSync(`${file}.tmp`, bytes);
  renameSync(`${file}.tmp`, file);
}

/**
 * Serves a built file's brotli or gzip copy (written by `compressFolder`) to a browser that takes
 * it; anything else goes on to the static files (and their compression on the fly). At start only
 * the folder's names are read; each copy is read the first time it is asked for, then kept.
 * `headers` are the ones the static files get.
 */
export function precompressed(folder: string, headers: Record<string, string>): RequestHandler {
  const names = new Set(existsSync(folder) ? readdirSync(folder) : []);
  const read = new Map<string, Buffer>();
  const copy = (name: string): Buffer | undefined => {
    if (!names.has(name)) return undefined;
    let bytes = read.get(name);
    if (!bytes) {
      bytes = readFileSync(path.join(folder, name));
      read.set(name, bytes);
    }
    return bytes;
  };
  return (req, res, next) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return next();
    const name = req.path.slice(1);
    if (name.includes('/') || !COMPRESSIBLE.test(name) || !names.has(name)) return next();
    const has = { br: names.has(`${name}.br`), gzip: names.has(`${name}.gz`) };
    if (!has.br && !has.gzip) return next();
    const encoding = chooseEncoding(req.headers['accept-encoding'], has);
    res.vary('Accept-Encoding');
    if (encoding === 'identity') return next();
    const bytes = copy(`${name}.${encoding === 'br' ? 'br' : 'gz'}`) as Buffer;
    res.type(path.extname(name));
    res.set(headers);
    res.set('Content-Encoding', encoding);
    res.set('Content-Length', String(bytes.length));
    if (req.method === 'HEAD') res.end();
    else res.end(bytes);
  };
}

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

interface Variants {
  br?: Buffer;
  gzip?: Buffer;
}

/**
 * Serves a built file's brotli or gzip copy (written by `compressFolder`) to a browser that takes
 * it, from memory; anything else goes on to the static files (and their compression on the fly).
 * `headers` are the ones the static files get.
 */
export function precompressed(folder: string, headers: Record<string, string>): RequestHandler {
  const variants = new Map<string, Variants>();
  if (existsSync(folder)) {
    const names = new Set(readdirSync(folder));
    for (const name of names) {
      if (!COMPRESSIBLE.test(name)) continue;
      const br = names.has(`${name}.br`) ? readFileSync(path.join(folder, `${name}.br`)) : undefined;
      const gzip = names.has(`${name}.gz`) ? readFileSync(path.join(folder, `${name}.gz`)) : undefined;
      if (br || gzip) variants.set(`/${name}`, { br, gzip });
    }
  }
  return (req, res, next) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return next();
    const found = variants.get(req.path);
    if (!found) return next();
    const encoding = chooseEncoding(req.headers['accept-encoding'], found);
    res.vary('Accept-Encoding');
    if (encoding === 'identity') return next();
    const bytes = found[encoding] as Buffer;
    res.type(path.extname(req.path));
    res.set(headers);
    res.set('Content-Encoding', encoding);
    res.set('Content-Length', String(bytes.length));
    if (req.method === 'HEAD') res.end();
    else res.end(bytes);
  };
}

import { createHash } from 'node:crypto';
import { gunzipSync, brotliDecompressSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { chooseEncoding, etagOf, inlineScriptHashes, notModified, preparePage } from './page-entry.ts';

const sha = (text: string) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;
const CSP = "default-src 'self';script-src 'self' 'nonce-abc';object-src 'none'";
const html = (nonce: string) =>
  `<html><head><script nonce="${nonce}">theme()</script><script type="application/ld+json" nonce="${nonce}">{"a":1}</script></head>` +
  `<body>${'<p>words</p>'.repeat(200)}<script nonce="${nonce}" type="text/plain" data-type="module">import "/assets/a.js"</script>` +
  `<script src="/assets/b.js" nonce="${nonce}"></script><script nonce="${nonce}">theme()</script></body></html>`;

describe('inline script hashes', () => {
  it('hashes each inline script once, not JSON-LD nor scripts with a src, with line breaks as a browser parses them', () => {
    expect(inlineScriptHashes(html('x'))).toEqual([sha('theme()'), sha('import "/assets/a.js"')]);
    expect(inlineScriptHashes('<script>a\r\nb</script>')).toEqual([sha('a\nb')]);
  });
});

describe('preparePage', () => {
  it('drops the nonce, allows the inline scripts by their hashes, compresses, and tags the content', async () => {
    const page = await preparePage({
      status: 200,
      headers: [
        ['Content-Security-Policy', CSP],
        ['Content-Type', 'text/html'],
        ['x-request-id', 'r1'],
        ['Date', 'today'],
        ['X-Frame-Options', 'SAMEORIGIN'],
      ],
      body: html('abc'),
      nonce: 'abc',
    });
    expect(page).not.toBeNull();
    const text = page!.body.toString();
    expect(text).not.toContain('nonce');
    expect(text).toBe(html('abc').replaceAll(' nonce="abc"', ''));
    expect(new Map(page!.headers).get('content-security-policy')).toBe(
      `default-src 'self';script-src 'self' ${sha('theme()')} ${sha('import "/assets/a.js"')};object-src 'none'`,
    );
    expect(page!.headers.map(([name]) => name).sort()).toEqual([
      'content-security-policy',
      'content-type',
      'x-frame-options',
    ]);
    expect(gunzipSync(page!.gzip!).toString()).toBe(text);
    expect(brotliDecompressSync(page!.br!).toString()).toBe(text);
    expect(page!.br!.length).toBeLessThan(page!.body.length / 10);
    expect(page!.etag).toBe(createHash('sha256').update(text).digest('base64url').slice(0, 27));
  });

  it('gives the same bytes and tag to the same content rendered with another nonce', async () => {
    const [a, b] = await Promise.all(
      ['n1', 'n2'].map((nonce) =>
        preparePage({
          status: 200,
          headers: [['content-security-policy', CSP.replace('abc', nonce)]],
          body: html(nonce),
          nonce,
        }),
      ),
    );
    expect(a!.etag).toBe(b!.etag);
    expect(a!.body.equals(b!.body)).toBe(true);
    expect(a!.headers).toEqual(b!.headers);
  });

  it('refuses a page whose nonce appears inside a script, and keeps small bodies uncompressed', async () => {
    expect(
      await preparePage({ status: 200, headers: [], body: '<script nonce="abc">var n="abc"</script>', nonce: 'abc' }),
    ).toBeNull();
    const small = await preparePage({
      status: 200,
      headers: [['content-type', 'text/plain']],
      body: 'User-agent: *',
      nonce: 'abc',
    });
    expect(small).toMatchObject({ body: Buffer.from('User-agent: *') });
    expect(small!.gzip).toBeUndefined();
    expect(small!.br).toBeUndefined();
  });
});

describe('negotiation and validators', () => {
  const both = { br: Buffer.from('b'), gzip: Buffer.from('g') };
  it('prefers brotli, then gzip, then the bytes as they are, honouring q=0', () => {
    expect(chooseEncoding('gzip, deflate, br, zstd', both)).toBe('br');
    expect(chooseEncoding('gzip', both)).toBe('gzip');
    expect(chooseEncoding('br;q=0, gzip;q=0.5', both)).toBe('gzip');
    expect(chooseEncoding('*', both)).toBe('br');
    expect(chooseEncoding('*;q=0', both)).toBe('identity');
    expect(chooseEncoding(undefined, both)).toBe('identity');
    expect(chooseEncoding('br, gzip', {})).toBe('identity');
  });

  it('tags each encoding, and recognises any of a page’s tags, weak or strong, or *', () => {
    const page = { etag: 'h' };
    expect([etagOf(page, 'identity'), etagOf(page, 'gzip'), etagOf(page, 'br')]).toEqual(['"h"', '"h-gz"', '"h-br"']);
    expect(notModified('"h-br"', page)).toBe('"h-br"');
    expect(notModified('"x", W/"h-gz"', page)).toBe('"h-gz"');
    expect(notModified('*', page)).toBe('"h"');
    expect(notModified('"h2"', page)).toBeNull();
    expect(notModified(undefined, page)).toBeNull();
  });
});

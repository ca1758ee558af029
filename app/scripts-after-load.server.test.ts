import { Readable } from 'node:stream';
import { text } from 'node:stream/consumers';
import { describe, expect, it } from 'vitest';
import { scriptsAfterLoad } from './scripts-after-load.server';

const html =
  '<html><head><link rel="modulepreload" href="/assets/framework.js"/><link rel="stylesheet" href="/a.css"/></head>' +
  '<body><h1>餐廳 POS 系統</h1><link rel="modulepreload" href="/assets/home.js"/>' +
  '<script nonce="n0nce" type="module" async="">import("/x.js")</script><script nonce="n0nce">window.data = 1</script></body></html>';
const expected =
  '<html><head><link data-rel="modulepreload" href="/assets/framework.js"/><link rel="stylesheet" href="/a.css"/></head>' +
  '<body><h1>餐廳 POS 系統</h1><link data-rel="modulepreload" href="/assets/home.js"/>' +
  '<script nonce="n0nce" type="text/plain" data-type="module" async="">import("/x.js")</script><script nonce="n0nce">window.data = 1</script></body></html>';

async function through(chunks: Buffer[]): Promise<string> {
  return text(Readable.from(chunks).pipe(scriptsAfterLoad()));
}

describe('scriptsAfterLoad', () => {
  it('holds back every module preload and the entry module, and leaves the rest of the page as it was', async () => {
    expect(await through([Buffer.from(html)])).toBe(expected);
  });

  it('finds tags split between chunks at any point, and keeps characters split between chunks whole', async () => {
    const bytes = Buffer.from(html);
    for (let size = 1; size <= 40; size += 1) {
      const chunks: Buffer[] = [];
      for (let at = 0; at < bytes.length; at += size) chunks.push(bytes.subarray(at, at + size));
      expect(await through(chunks)).toBe(expected);
    }
  });

  it('passes a page without scripts through unchanged', async () => {
    const plain =
      '<p>rel="modulepreload" in prose is text, and so is &lt;link rel="modulepreload" and type=&quot;module&quot;</p>';
    expect(await through([Buffer.from(plain)])).toBe(plain);
  });
});

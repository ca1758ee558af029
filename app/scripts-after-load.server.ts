import { StringDecoder } from 'node:string_decoder';
import { Transform } from 'node:stream';

/** The tags React Router writes for a page's scripts, and what they become until the page has loaded. */
const REWRITES: readonly (readonly [string, string])[] = [
  ['<link rel="modulepreload"', '<link data-rel="modulepreload"'],
  [' type="module" async=""', ' type="text/plain" data-type="module" async=""'],
];

/**
 * Passes a page's HTML through with its scripts held back until the page has loaded.
 *
 * Every page works from its HTML (links, forms that post, a native drawer and menu); its scripts
 * only enhance it. Fetched at once, the framework's 108 KB compete with the stylesheet and the
 * hero image on a slow connection, and running them competes with the first paint. So the module
 * preloads lose their `rel` and the entry module its type, which the browser neither fetches nor
 * runs; `SCRIPTS_AFTER_LOAD` (`scripts-after-load.ts`) restores both after the `load` event.
 * React Router writes these tags itself and has no option for it, hence the rewrite of exact tags.
 */
export function scriptsAfterLoad(): Transform {
  const decoder = new StringDecoder('utf8');
  // The end of the last chunk that could be the start of a tag split between chunks.
  let carry = '';
  const rewrite = (text: string) => REWRITES.reduce((result, [from, to]) => result.replaceAll(from, to), text);
  return new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      const text = carry + decoder.write(chunk);
      const keep = partialTagAtEnd(text);
      carry = text.slice(text.length - keep);
      callback(null, rewrite(text.slice(0, text.length - keep)));
    },
    flush(callback) {
      callback(null, rewrite(carry + decoder.end()));
    },
  });
}

/** How many characters at the end of `text` begin a tag that the next chunk may finish. */
function partialTagAtEnd(text: string): number {
  let longest = 0;
  for (const [from] of REWRITES) {
    for (let length = Math.min(from.length - 1, text.length); length > longest; length -= 1) {
      if (from.startsWith(text.slice(text.length - length))) {
        longest = length;
        break;
      }
    }
  }
  return longest;
}

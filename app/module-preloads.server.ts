import { StringDecoder } from 'node:string_decoder';
import { Transform } from 'node:stream';

const PRELOAD = '<link rel="modulepreload"';
const LOW_PRIORITY_PRELOAD = '<link rel="modulepreload" fetchpriority="low"';

/**
 * Passes a page's HTML through, fetching its module preloads at low priority.
 *
 * A marketing page works from its HTML alone (links, forms that post, a native drawer and menu);
 * its scripts only enhance it. At their default high priority the scripts compete with the
 * stylesheet and the hero image for a slow connection and delay the first paint, so the browser is
 * told to fetch them after what the visitor sees. React Router writes the preload tags itself.
 */
export function lowPriorityModulePreloads(): Transform {
  const decoder = new StringDecoder('utf8');
  // The end of the last chunk that could be the start of a preload tag split between chunks.
  let carry = '';
  const rewrite = (text: string) => text.replaceAll(PRELOAD, LOW_PRIORITY_PRELOAD);
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

/** How many characters at the end of `text` begin a preload tag that the next chunk may finish. */
function partialTagAtEnd(text: string): number {
  for (let length = Math.min(PRELOAD.length - 1, text.length); length > 0; length -= 1) {
    if (PRELOAD.startsWith(text.slice(text.length - length))) return length;
  }
  return 0;
}

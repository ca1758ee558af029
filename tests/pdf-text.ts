import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';

/**
 * What a PDF says, as a reader's copy and paste would give it, pages one after another. PDF.js
 * reads each font's ToUnicode map: a character its font lacks, drawn as an empty box, comes out
 * as U+0000, never as the character meant.
 */
export async function pdfText(bytes: Uint8Array): Promise<{ text: string; pages: number }> {
  const loading = getDocument({ data: new Uint8Array(bytes), useSystemFonts: false });
  try {
    const document = await loading.promise;
    let text = '';
    for (let number = 1; number <= document.numPages; number += 1) {
      const content = await (await document.getPage(number)).getTextContent();
      for (const item of content.items) if ('str' in item) text += item.str + (item.hasEOL ? '\n' : '');
      text += '\n';
    }
    return { text, pages: document.numPages };
  } finally {
    await loading.destroy();
  }
}

/**
 * The fonts a PDF embeds (their descriptors point to the font program, `/FontFile2`), by their
 * subset names (`ABCDEF+NotoSansHK-Regular`), read from its font dictionaries (never compressed).
 */
export function embeddedFonts(bytes: Uint8Array): string[] {
  const raw = Buffer.from(bytes).toString('latin1');
  const descriptors = [...raw.matchAll(/\/Type \/FontDescriptor([\s\S]*?)>>/g)].map((match) => match[1] ?? '');
  const names = descriptors
    .filter((body) => body.includes('/FontFile2'))
    .map((body) => /\/FontName \/([A-Z]{6}\+[\w-]+)/.exec(body)?.[1] ?? '');
  return [...new Set(names)].sort();
}

import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { create, type Font } from 'fontkit';
import type { Locale } from '../../domain/locales.ts';
import type { Seller } from '../../domain/orders/countries.ts';

/*
 * The invoice PDFs' fonts (decision 029): Noto Sans HK and Noto Sans SC (SIL Open Font License),
 * the full TrueType files of Google Fonts as the `@expo-google-fonts` npm packages ship them, so
 * a machine that has run `npm install` renders Chinese without any system font and nothing is
 * downloaded at run time. PDFKit embeds only the glyphs a document uses.
 *
 * Each family covers Latin text. Noto Sans HK draws Traditional characters as Hong Kong writes
 * them but lacks Simplified ones; Noto Sans SC has both, drawn as the mainland writes them. A
 * document is set in the family of its language, and a character the family lacks (a Simplified
 * name on a Hong Kong invoice) is drawn from the other.
 */

export type FontFamily = 'hk' | 'sc';
export type FontWeight = 'regular' | 'bold';

const FILES: Record<FontFamily, Record<FontWeight, string>> = {
  hk: {
    regular: '@expo-google-fonts/noto-sans-hk/400Regular/NotoSansHK_400Regular.ttf',
    bold: '@expo-google-fonts/noto-sans-hk/700Bold/NotoSansHK_700Bold.ttf',
  },
  sc: {
    regular: '@expo-google-fonts/noto-sans-sc/400Regular/NotoSansSC_400Regular.ttf',
    bold: '@expo-google-fonts/noto-sans-sc/700Bold/NotoSansSC_700Bold.ttf',
  },
};

export interface LoadedFont {
  /** The name a document registers it under. */
  name: string;
  /** The parsed font: PDFKit sets text in it, and the writer asks it which characters it has. */
  font: Font;
}

const require = createRequire(import.meta.url);
/**
 * Each file is read and parsed once (7 to 11 MB) and kept: every later document sets its text in
 * the same parsed font, whose glyphs and layouts fontkit keeps as it goes. Parsing the files again
 * for each document took about three times as long and twice the memory.
 */
const loaded = new Map<string, Promise<LoadedFont>>();

export function loadFont(family: FontFamily, weight: FontWeight): Promise<LoadedFont> {
  const name = `${family}-${weight}`;
  let font = loaded.get(name);
  if (!font) {
    font = readFile(require.resolve(FILES[family][weight])).then((data) => {
      const parsed = create(data);
      if (!('hasGlyphForCodePoint' in parsed))
        throw new Error(`${FILES[family][weight]} is a font collection, not a font`);
      return { name, font: parsed };
    });
    // A failed read is tried again by the next document, not remembered.
    font.catch(() => loaded.delete(name));
    loaded.set(name, font);
  }
  return font;
}

/**
 * The families a document is set in, its own first: Chinese documents in their script's; English
 * ones in the seller's region's (a Chinese name or address in them is then drawn as written there).
 */
export function familiesFor(locale: Locale, seller: Seller): [FontFamily, FontFamily] {
  const own: FontFamily = locale === 'zh-hk' ? 'hk' : locale === 'zh-cn' ? 'sc' : seller === 'HK' ? 'hk' : 'sc';
  return own === 'hk' ? ['hk', 'sc'] : ['sc', 'hk'];
}

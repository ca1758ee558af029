import { describe, expect, it } from 'vitest';
import en from '../../../locales/en.json';
import { paragraphKeys, TERMS_DEFINITIONS, TERMS_SECTIONS } from './sections';

type Tree = { [key: string]: string | Tree };
const sections = (en as unknown as { terms: { sections: Record<string, Tree>; definitions: Tree } }).terms;

describe('the terms outline', () => {
  it('shows every paragraph the locales hold, and only those', () => {
    for (const section of TERMS_SECTIONS) {
      const written = Object.keys(sections.sections[section.id] ?? {}).filter((key) => /^p\d+$/.test(key));
      expect(
        paragraphKeys(section).map((key) => key.split('.').pop()),
        section.id,
      ).toEqual(written);
    }
    expect(Object.keys(sections.sections)).toEqual(TERMS_SECTIONS.map((section) => section.id));
  });

  it('lists every definition', () => {
    expect(Object.keys(sections.definitions)).toEqual([...TERMS_DEFINITIONS]);
  });
});

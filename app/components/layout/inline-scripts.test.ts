import { describe, expect, it } from 'vitest';
import { SCRIPTS_AFTER_LOAD } from '../../scripts-after-load';
import { BEFORE_HYDRATION_SCRIPT, STATIC_PAGE_SCRIPT } from './static-page';
import { THEME_SCRIPT } from './theme';

describe('the inline scripts of every page', () => {
  it('the theme script is valid JavaScript', () => {
    expect(() => new Function(THEME_SCRIPT)).not.toThrow();
  });

  it('the script of a page without the framework is valid JavaScript, and small', () => {
    expect(() => new Function(STATIC_PAGE_SCRIPT)).not.toThrow();
    // It stands in for the framework on those pages: it must stay a few lines, not grow into one.
    expect(STATIC_PAGE_SCRIPT.length).toBeLessThan(2500);
  });

  it('the scripts of a page with the framework, before it runs, are valid JavaScript, and small', () => {
    expect(() => new Function(BEFORE_HYDRATION_SCRIPT + SCRIPTS_AFTER_LOAD)).not.toThrow();
    expect((BEFORE_HYDRATION_SCRIPT + SCRIPTS_AFTER_LOAD).length).toBeLessThan(1800);
  });

  it('the inline scripts keep to ES5 syntax', () => {
    // Arrow functions, let/const, template literals and classes would stop them on an older browser.
    for (const script of [STATIC_PAGE_SCRIPT, BEFORE_HYDRATION_SCRIPT, SCRIPTS_AFTER_LOAD]) {
      expect(script).not.toMatch(/=>|\blet\b|\bconst\b|`|\bclass\b/);
    }
  });
});

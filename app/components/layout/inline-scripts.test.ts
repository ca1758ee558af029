import { describe, expect, it } from 'vitest';
import { STATIC_PAGE_SCRIPT } from './static-page';
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

  it('the script of a page without the framework keeps to ES5 syntax', () => {
    // Arrow functions, let/const, template literals and classes would stop it on an older browser.
    expect(STATIC_PAGE_SCRIPT).not.toMatch(/=>|\blet\b|\bconst\b|`|\bclass\b/);
  });
});

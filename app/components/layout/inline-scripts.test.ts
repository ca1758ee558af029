import { describe, expect, it } from 'vitest';
import { INTERACTION_EVENTS, SCRIPTS_AFTER_LOAD, SCRIPTS_ON_INTERACTION } from '../../scripts-after-load';
import { DIALOG_FALLBACK, SCRIPTING_MARK } from './platform-fallbacks';
import { BEFORE_HYDRATION_SCRIPT, STATIC_PAGE_SCRIPT } from './static-page';
import { THEME_SCRIPT } from './theme';

describe('the inline scripts of every page', () => {
  it('the head script (the scripting mark and the theme) is valid JavaScript', () => {
    expect(() => new Function(SCRIPTING_MARK + THEME_SCRIPT)).not.toThrow();
  });

  it('the dialog fallback is valid JavaScript, costs a few bytes, and runs only where a feature is missing', () => {
    expect(() => new Function(DIALOG_FALLBACK)).not.toThrow();
    expect(DIALOG_FALLBACK.length).toBeLessThan(900);
    expect(DIALOG_FALLBACK).toContain(`!('commandForElement' in B.prototype)`);
    expect(DIALOG_FALLBACK).toContain(`!('closedBy' in D.prototype)`);
  });

  it('the script of a page without the framework is valid JavaScript, and small', () => {
    expect(() => new Function(STATIC_PAGE_SCRIPT + DIALOG_FALLBACK)).not.toThrow();
    // It stands in for the framework on those pages: it must stay a few lines, not grow into one.
    expect(STATIC_PAGE_SCRIPT.length).toBeLessThan(2500);
    expect((STATIC_PAGE_SCRIPT + DIALOG_FALLBACK).length).toBeLessThan(3300);
  });

  it('the scripts of a page with the framework, before it runs, are valid JavaScript, and small', () => {
    for (const start of [SCRIPTS_AFTER_LOAD, SCRIPTS_ON_INTERACTION]) {
      expect(() => new Function(BEFORE_HYDRATION_SCRIPT + DIALOG_FALLBACK + start)).not.toThrow();
      // Preloading the page's files of messages (decision 042) added some 150 characters.
      expect((BEFORE_HYDRATION_SCRIPT + start).length).toBeLessThan(2500);
      expect((BEFORE_HYDRATION_SCRIPT + DIALOG_FALLBACK + start).length).toBeLessThan(3400);
    }
  });

  it('the scripts that wait for an interaction listen for each kind of it, and stop listening once it came', () => {
    for (const event of INTERACTION_EVENTS) expect(SCRIPTS_ON_INTERACTION).toContain(`"${event}"`);
    expect(SCRIPTS_ON_INTERACTION).toContain('removeEventListener');
    expect(SCRIPTS_AFTER_LOAD).not.toContain('pointerdown');
  });

  it('the inline scripts keep to ES5 syntax', () => {
    // Arrow functions, let/const, template literals and classes would stop them on an older browser.
    for (const script of [
      SCRIPTING_MARK,
      THEME_SCRIPT,
      DIALOG_FALLBACK,
      STATIC_PAGE_SCRIPT,
      BEFORE_HYDRATION_SCRIPT,
      SCRIPTS_AFTER_LOAD,
      SCRIPTS_ON_INTERACTION,
    ]) {
      expect(script).not.toMatch(/=>|\blet\b|\bconst\b|`|\bclass\b/);
    }
  });
});

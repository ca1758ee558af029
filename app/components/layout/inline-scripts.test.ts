import { describe, expect, it } from 'vitest';
import { THEME_SCRIPT } from './theme';

describe('the inline scripts of every page', () => {
  it('the theme script is valid JavaScript', () => {
    expect(() => new Function(THEME_SCRIPT)).not.toThrow();
  });
});

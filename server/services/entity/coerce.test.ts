import { describe, expect, it } from 'vitest';
import { regexToLike } from './coerce.ts';

describe('regexToLike', () => {
  it('matches the text anywhere when the pattern has no anchors', () => {
    expect(regexToLike('cafe')).toBe('%cafe%');
  });

  it('turns ^ and $ anchors into a match at the start, the end, or the whole text', () => {
    expect(regexToLike('^cafe')).toBe('cafe%');
    expect(regexToLike('cafe$')).toBe('%cafe');
    expect(regexToLike('^cafe$')).toBe('cafe');
  });

  it('reads escaped characters as themselves', () => {
    expect(regexToLike('a\\.b')).toBe('%a.b%');
    expect(regexToLike('\\(852\\) 2123')).toBe('%(852) 2123%');
    expect(regexToLike('\\^top')).toBe('%^top%');
    expect(regexToLike('US\\$')).toBe('%US$%');
  });

  it('keeps regular expression syntax as literal text, never as a pattern', () => {
    expect(regexToLike('a.*b')).toBe('%a.*b%');
    expect(regexToLike('(a|b)+')).toBe('%(a|b)+%');
  });

  it('escapes the LIKE wildcards % and _ so they match only themselves', () => {
    expect(regexToLike('50%')).toBe('%50\\%%');
    expect(regexToLike('first_name')).toBe('%first\\_name%');
    expect(regexToLike('^%_$')).toBe('\\%\\_');
    expect(regexToLike('%')).toBe('%\\%%');
  });

  it('escapes a literal backslash for LIKE', () => {
    expect(regexToLike('C:\\\\temp')).toBe('%C:\\\\temp%');
  });

  it('answers a match-anything pattern for an empty or anchor-only pattern', () => {
    expect(regexToLike('')).toBe('%%');
    expect(regexToLike('^')).toBe('%');
    expect(regexToLike('$')).toBe('%');
  });

  it('matches free text of one or two letters or digits at the start only', () => {
    expect(regexToLike('ab')).toBe('ab%');
    expect(regexToLike('7')).toBe('7%');
    expect(regexToLike('é1')).toBe('é1%');
    expect(regexToLike('abc')).toBe('%abc%');
    // Escaped as in any other text: the wildcard matches only itself.
    expect(regexToLike('a%')).toBe('a\\%%');
    expect(regexToLike('a_')).toBe('a\\_%');
    expect(regexToLike('a\\\\')).toBe('a\\\\%');
    // An anchor at the end asks for the end, whatever the length.
    expect(regexToLike('ab$')).toBe('%ab');
  });

  it('matches short Chinese, Japanese or Korean text, and punctuation alone, anywhere', () => {
    expect(regexToLike('餅店')).toBe('%餅店%');
    expect(regexToLike('カフ')).toBe('%カフ%');
    expect(regexToLike('a店')).toBe('%a店%');
    expect(regexToLike('.*')).toBe('%.*%');
    expect(regexToLike('-')).toBe('%-%');
  });

  it('reads an escaped backslash before the end anchor as a backslash, then the anchor', () => {
    expect(regexToLike('dir\\\\$')).toBe('%dir\\\\');
  });
});

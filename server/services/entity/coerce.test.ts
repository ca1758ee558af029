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

  it('reads an escaped backslash before the end anchor as a backslash, then the anchor', () => {
    expect(regexToLike('dir\\\\$')).toBe('%dir\\\\');
  });
});

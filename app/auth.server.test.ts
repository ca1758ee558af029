import { describe, expect, it } from 'vitest';
import { safeReturnPath } from './auth.server';

const REQUEST = 'https://www.tillpoint.example/en/login?from=whatever';
const PORTAL = '/en/portal';

/** Where a browser would go when sent to `location` from our login page. */
const browserTarget = (location: string) => new URL(location, REQUEST);

describe('safeReturnPath', () => {
  // Each as the login page reads it: `searchParams.get('from')`, so decoded once already.
  it.each([
    ['a tab after the first slash (browsers drop it: //evil.example/)', '/\t/evil.example/'],
    ['a newline after the first slash', '/\n/evil.example/'],
    ['a carriage return after the first slash', '/\r/evil.example/'],
    ['a tab between the slashes of a scheme-relative URL', '/\t\t/evil.example'],
    ['a NUL byte', '/en/portal\u0000//evil.example'],
    ['a backslash (read as a slash)', '/\\evil.example'],
    ['two backslashes', '\\\\evil.example'],
    ['a scheme-relative URL', '//evil.example/'],
    ['three slashes', '///evil.example/'],
    ['an absolute URL', 'https://evil.example/'],
    ['an absolute URL with our host as its user name', 'https://www.tillpoint.example@evil.example/'],
    ['a javascript: URL', 'javascript:alert(1)'],
    ['a data: URL', 'data:text/html,<script>alert(1)</script>'],
    ['a path without its leading slash', 'evil.example/'],
    ['encoded slashes that a second decoding turns into //evil', '/%2F%2Fevil.example/'],
    ['one encoded slash after the first', '/%2Fevil.example/'],
    ['an encoded backslash', '/%5Cevil.example/'],
    ['an encoded tab', '/%09/evil.example/'],
    ['an encoded newline in the query', '/en/portal?next=%0A//evil.example'],
    ['a malformed escape', '/en/portal%E0%A4%A'],
    ['an empty value', ''],
  ])('refuses %s', (_label, from) => {
    expect(safeReturnPath(from, 'en', REQUEST)).toBe(PORTAL);
  });

  it('falls back to the portal in the page language, even for an absolute URL of ours (return paths are paths)', () => {
    expect(safeReturnPath(null, 'zh-hk', REQUEST)).toBe('/zh-hk/portal');
    expect(safeReturnPath('https://www.tillpoint.example/en/pricing', 'zh-cn', REQUEST)).toBe('/zh-cn/portal');
  });

  it.each([
    ['/en/portal', '/en/portal'],
    ['/zh-hk/portal?sso', '/zh-hk/portal?sso'],
    ['/en/pricing?industry=restaurant&plan=flexi#faq', '/en/pricing?industry=restaurant&plan=flexi#faq'],
    // A Chinese article's address, percent-encoded UTF-8, stays as it is.
    ['/zh-hk/blogs/%E6%B5%81%E5%8B%95%E6%94%B6%E9%8A%80', '/zh-hk/blogs/%E6%B5%81%E5%8B%95%E6%94%B6%E9%8A%80'],
    // An encoded slash inside a query value is data, not a path.
    ['/en/blogs?category=pos%2Fkds', '/en/blogs?category=pos%2Fkds'],
    // Dot segments resolve inside the site.
    ['/en/../zh-cn/portal', '/zh-cn/portal'],
  ])('keeps the same-site path %s', (from, expected) => {
    const path = safeReturnPath(from, 'en', REQUEST);
    expect(path).toBe(expected);
    expect(browserTarget(path).origin).toBe('https://www.tillpoint.example');
  });

  it('answers only paths that a browser resolves on our own origin', () => {
    const attempts = ['/\t/evil.example/', '/\\evil.example', '//evil.example', 'https://evil.example', '/%2F%2Fevil'];
    for (const from of attempts) {
      const path = safeReturnPath(from, 'en', REQUEST);
      expect(path.startsWith('/') && !path.startsWith('//'), from).toBe(true);
      expect(browserTarget(path).origin, from).toBe('https://www.tillpoint.example');
    }
  });
});

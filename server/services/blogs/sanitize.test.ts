import { describe, expect, it } from 'vitest';
import { sanitizeArticleHtml } from './sanitize.ts';

describe('sanitizeArticleHtml', () => {
  it('keeps the article tags', () => {
    const html =
      '<h2>A</h2><h3>B</h3><h4>C</h4><p>Text <strong>bold</strong> <em>it</em></p><ul><li>one</li></ul><ol><li>two</li></ol><blockquote>Q</blockquote>';
    expect(sanitizeArticleHtml(html)).toBe(html);
  });

  it('removes scripts, styles, other tags and event handlers', () => {
    expect(sanitizeArticleHtml('<p onclick="steal()">Hi<script>alert(1)</script></p><style>p{}</style>')).toBe(
      '<p>Hi</p>',
    );
    expect(
      sanitizeArticleHtml('<h1>Title</h1><div><span style="color:red">x</span></div><iframe src="https://x"></iframe>'),
    ).toBe('Titlex');
    expect(sanitizeArticleHtml('<img src="/a.svg" onerror="steal()">')).toBe('<img loading="lazy" src="/a.svg" />');
  });

  it('keeps http, https and mailto links and adds rel="noopener"', () => {
    expect(sanitizeArticleHtml('<a href="https://example.com" target="_blank" rel="opener">x</a>')).toBe(
      '<a href="https://example.com" rel="noopener">x</a>',
    );
    expect(sanitizeArticleHtml('<a href="mailto:hello@example.com">m</a>')).toBe(
      '<a href="mailto:hello@example.com" rel="noopener">m</a>',
    );
    expect(sanitizeArticleHtml('<a href="/en/pricing">p</a>')).toBe('<a href="/en/pricing" rel="noopener">p</a>');
  });

  it('drops javascript:, data: and other schemes', () => {
    expect(sanitizeArticleHtml('<a href="javascript:alert(1)">x</a>')).toBe('<a rel="noopener">x</a>');
    expect(sanitizeArticleHtml('<a href="JaVaScRiPt&#58;alert(1)">x</a>')).toBe('<a rel="noopener">x</a>');
    expect(sanitizeArticleHtml('<a href="data:text/html,hi">x</a>')).toBe('<a rel="noopener">x</a>');
  });

  it('keeps images from this site or https only, with numeric sizes', () => {
    expect(sanitizeArticleHtml('<img src="https://cdn.example.com/a.png" alt="A" width="640" height="360">')).toBe(
      '<img loading="lazy" src="https://cdn.example.com/a.png" alt="A" width="640" height="360" />',
    );
    expect(sanitizeArticleHtml('<img src="http://example.com/a.png">')).toBe('');
    expect(sanitizeArticleHtml('<img src="//evil.example/a.png">')).toBe('');
    expect(sanitizeArticleHtml('<img src="data:image/png;base64,AAAA">')).toBe('');
    expect(sanitizeArticleHtml('<img src="/a.svg" width="100%" height="1e9">')).toBe(
      '<img loading="lazy" src="/a.svg" />',
    );
  });
});

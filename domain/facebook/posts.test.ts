import { describe, expect, it } from 'vitest';
import {
  contentOf,
  ExportRefused,
  languageOf,
  readExportPosts,
  readGraphPage,
  sourceIdOf,
  titleOf,
  undoMojibake,
  type FacebookPost,
} from './posts.ts';

/** Facebook's escaping: each UTF-8 byte as one latin-1 character. */
const escaped = (text: string) => String.fromCharCode(...new TextEncoder().encode(text));
const post = (text: string, extra: Partial<FacebookPost> = {}): FacebookPost => ({
  sourceId: 'fb:1:0',
  time: '2025-01-01T00:00:00.000Z',
  text,
  pictures: [],
  ...extra,
});

describe('a Facebook export’s posts', () => {
  it('reads Facebook’s latin-1 escaped UTF-8 back, and leaves any other text as it is', () => {
    expect(undoMojibake(escaped('我們的新收銀系統'))).toBe('我們的新收銀系統');
    expect(undoMojibake(escaped('Café 咖啡 😀'))).toBe('Café 咖啡 😀');
    expect(undoMojibake('café')).toBe('café');
    expect(undoMojibake('已經是中文')).toBe('已經是中文');
    expect(undoMojibake('plain')).toBe('plain');
  });

  it('reads an export’s posts oldest first, leaving out the ones with nothing to read', () => {
    const json = JSON.stringify([
      { timestamp: 1741770000, data: [{ post: escaped('新店開幕') }] },
      { timestamp: 1735696800, data: [{ post: 'Hello' }, { update_timestamp: 1 }] },
      { timestamp: 1742000000, data: [{ update_timestamp: 1742000000 }], title: 'updated their cover photo.' },
      {
        timestamp: 1736923500,
        attachments: [
          { data: [{ media: { uri: 'posts/media/a/1.jpg', description: escaped('觀塘') } }] },
          { data: [{ external_context: { url: 'https://example.test/a' } }] },
        ],
        data: [{ post: 'Pictures' }],
      },
    ]);
    const posts = readExportPosts(json);
    expect(posts.map((entry) => entry.text)).toEqual(['Hello', 'Pictures', '新店開幕']);
    expect(posts[0]).toMatchObject({ time: '2025-01-01T02:00:00.000Z', sourceId: sourceIdOf(1735696800, 'Hello') });
    expect(posts[1]).toMatchObject({
      pictures: [{ uri: 'posts/media/a/1.jpg', description: '觀塘' }],
      link: 'https://example.test/a',
    });
  });

  it('refuses what is not a page’s posts, each with its reason', () => {
    const refusal = (text: string) => {
      try {
        readExportPosts(text);
        return null;
      } catch (error) {
        return error instanceof ExportRefused ? error.key : error;
      }
    };
    expect(refusal('[{"timestamp": 1')).toBe('facebook.errors.notJson');
    expect(refusal('{"a": 1}')).toBe('facebook.errors.notPosts');
    expect(refusal('[{"data": [{"post": "no time"}]}]')).toBe('facebook.errors.notPosts');
    expect(refusal('[]')).toBe('facebook.errors.empty');
    expect(refusal('{"status_updates_v2": [{"timestamp": 1, "data": [{"post": "x"}]}]}')).toBeNull();
  });

  it('knows a post again from the Graph API by its second and its words', () => {
    const page = readGraphPage({
      data: [
        { id: 'p_1', message: 'Hello', created_time: '2025-01-01T02:00:00+0000' },
        { id: 'p_2', created_time: '2025-01-02T02:00:00+0000' },
      ],
      paging: { next: 'https://graph.example/next' },
    });
    expect(page.posts).toHaveLength(1);
    expect(page.posts[0]?.sourceId).toBe(
      readExportPosts('[{"timestamp": 1735696800, "data": [{"post": "Hello"}]}]')[0]?.sourceId,
    );
    expect(page.next).toBe('https://graph.example/next');
  });

  it('writes a post as a news item: its language, its title and its rich content', () => {
    expect(languageOf('新店開幕優惠，首一百位客人有禮品')).toBe('zh-hk');
    expect(languageOf('Our new POS at Tai Koo 太古')).toBe('en');
    expect(titleOf(post('\n  First line  \nSecond'), 'fallback')).toBe('First line');
    expect(titleOf(post(''), 'Facebook 2025-01-01')).toBe('Facebook 2025-01-01');
    const long = titleOf(post('字'.repeat(300)), '');
    expect([...long]).toHaveLength(200);
    expect(long.endsWith('…')).toBe(true);
    expect(
      contentOf(post('Read <this>: https://example.test/a.\n\nBye', { link: 'https://example.test/b' }), [
        '/api/attachments/one',
        '/api/attachments/two',
      ]),
    ).toBe(
      '<p>Read &lt;this&gt;: <a href="https://example.test/a">https://example.test/a</a>.</p><p>Bye</p>' +
        '<p><a href="https://example.test/b">https://example.test/b</a></p><img src="/api/attachments/two" alt="">',
    );
  });
});

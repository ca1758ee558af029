import { describe, expect, it } from 'vitest';
import { pageMeta } from './meta';

const site = {
  brandName: 'Tillpoint',
  brandSlug: 'tillpoint',
  gtmId: undefined,
  chatUrl: '',
  supportEmail: '',
  supportPhone: '',
  publicUrl: undefined,
};
const matches = (locale: string, pathname: string) => [
  { id: 'root', pathname: '/', loaderData: { site, origin: 'https://tillpoint.example' } },
  {
    id: 'routes/locale-layout',
    pathname: `/${locale}`,
    loaderData: { locale, messages: { home: { title: 'Home of {brand}', description: 'POS in {lang}' } } },
  },
  { id: 'routes/site/home', pathname },
];
const content = (tags: ReturnType<typeof pageMeta>, key: 'property' | 'name', value: string) =>
  tags
    .filter((tag) => (tag as Record<string, string>)[key] === value)
    .map((tag) => (tag as { content: string }).content);

describe('pageMeta', () => {
  it('adds Open Graph and Twitter card tags in the page language, with the canonical URL and the brand image', () => {
    const tags = pageMeta(matches('zh-hk', '/zh-hk/'), {
      title: 'home.title',
      description: 'home.description',
      values: { lang: '中文' },
    });
    expect(tags[0]).toEqual({ title: 'Home of Tillpoint' });
    expect(content(tags, 'name', 'description')).toEqual(['POS in 中文']);
    expect(content(tags, 'property', 'og:title')).toEqual(['Home of Tillpoint']);
    expect(content(tags, 'property', 'og:description')).toEqual(['POS in 中文']);
    expect(content(tags, 'property', 'og:type')).toEqual(['website']);
    expect(content(tags, 'property', 'og:url')).toEqual(['https://tillpoint.example/zh-hk']);
    expect(content(tags, 'property', 'og:locale')).toEqual(['zh_HK']);
    expect(content(tags, 'property', 'og:locale:alternate')).toEqual(['en_HK', 'zh_CN']);
    expect(content(tags, 'property', 'og:image')).toEqual(['https://tillpoint.example/og-image.png']);
    expect(content(tags, 'property', 'og:image:width')).toEqual(['1200']);
    expect(content(tags, 'name', 'twitter:card')).toEqual(['summary_large_image']);
    expect(content(tags, 'name', 'twitter:image')).toEqual(['https://tillpoint.example/og-image.png']);
  });

  it('takes a page’s own type and image, and marks pages kept out of search engines', () => {
    const image = { url: 'https://cdn.example/cover.png', alt: 'Cover' };
    const tags = pageMeta(matches('en', '/en/blogs/hello'), {
      title: 'home.title',
      type: 'article',
      image,
      index: false,
    });
    expect(content(tags, 'property', 'og:type')).toEqual(['article']);
    expect(content(tags, 'property', 'og:url')).toEqual(['https://tillpoint.example/en/blogs/hello']);
    expect(content(tags, 'property', 'og:image')).toEqual(['https://cdn.example/cover.png']);
    expect(content(tags, 'property', 'og:image:width')).toEqual([]);
    expect(content(tags, 'name', 'robots')).toEqual(['noindex']);
    expect(content(tags, 'property', 'og:description')).toEqual([]);
  });
});

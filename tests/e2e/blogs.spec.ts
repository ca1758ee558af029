import type { APIRequestContext, Page } from '@playwright/test';
import { png } from '../integration/upload-fixtures.ts';
import { expect, hydrated, test } from './fixtures.ts';
import { staffHeaders } from './staff-api.ts';
import { users } from './users.ts';

/**
 * The blog list and article pages, against the seeded demo articles. Serial: some tests publish
 * articles through the API (and remove them after), which would change what the others see.
 */
test.describe.configure({ mode: 'serial' });

const lists = [
  {
    lang: 'en',
    htmlLang: 'en-HK',
    heading: 'Blog',
    title: 'Blog: POS, payments and business tips for restaurants and shops | Tillpoint',
    newest: 'New: your online shop and your POS now share one stock list',
    category: 'Product news',
    date: '10 November 2026',
  },
  {
    lang: 'zh-hk',
    htmlLang: 'zh-Hant-HK',
    heading: '網誌',
    title: '網誌：餐廳及零售店的 POS、收款與經營心得 | Tillpoint',
    newest: '新功能：網店與 POS 共用同一份庫存',
    category: '產品消息',
    date: '2026年11月10日',
  },
  {
    lang: 'zh-cn',
    htmlLang: 'zh-Hans-CN',
    heading: '博客',
    title: '博客：餐厅与零售店的 POS、收款和经营技巧 | Tillpoint',
    newest: '新功能：网店与 POS 共用同一份库存',
    category: '产品动态',
    date: '2026年11月10日',
  },
] as const;

/** Brand and product names that stay as they are in every language. */
const NAMES = /Tillpoint|POS|QR|KDS|FPS|PayNow|Octopus|Alipay|WeChat Pay|Lite|Flexi/g;

const cards = (page: Page) => page.getByTestId('blog-list').getByTestId('blog-card');

for (const list of lists) {
  test(`the blog list in ${list.lang} shows its own language's articles, newest first`, async ({ page, navigate }) => {
    const response = await navigate('/:lang/blogs', { lang: list.lang });
    expect(response?.status()).toBe(200);
    await expect(page.locator('html')).toHaveAttribute('lang', list.htmlLang);
    await expect(page).toHaveTitle(list.title);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(list.heading);
    await expect(cards(page)).toHaveCount(8);
    const first = cards(page).first();
    await expect(first.getByRole('heading', { level: 2 })).toHaveText(list.newest);
    await expect(first.getByTestId('blog-card-category')).toHaveText(list.category);
    await expect(first).toContainText(list.date);
    // The first cover loads at once, the others when they come near the screen; all have a size.
    const covers = page.getByTestId('blog-list').locator('img');
    await expect(covers.first()).toHaveAttribute('loading', 'eager');
    await expect(covers.nth(1)).toHaveAttribute('loading', 'lazy');
    await expect(covers.first()).toHaveAttribute('width', '1200');
    await expect(covers.first()).toHaveAttribute('height', '675');
    if (list.lang !== 'en') {
      const text = (await page.getByRole('main').innerText()).replace(NAMES, '');
      expect(text.match(/[A-Za-z]{2,}/g), 'English left on a Chinese page').toBeNull();
    }
  });
}

test('filters by category and by tag', async ({ page, navigate }) => {
  await navigate('/:lang/blogs', { lang: 'en' });
  await page.getByTestId('category-filters').getByRole('link', { name: 'Payments' }).click();
  await expect(page).toHaveURL('/en/blogs?category=payments');
  await expect(page).toHaveTitle('Payments: articles for restaurant and shop owners | Tillpoint');
  await expect(page.getByTestId('category-filters').getByRole('link', { name: 'Payments' })).toHaveAttribute(
    'aria-current',
    'page',
  );
  await expect(cards(page)).toHaveCount(1);
  await expect(cards(page)).toContainText('Accepting FPS, PayNow, Octopus, Alipay and WeChat Pay');

  await page.getByTestId('tag-filters').getByRole('link', { name: '#Kitchen display' }).click();
  await expect(page).toHaveURL('/en/blogs?tag=kds');
  await expect(page.getByTestId('blog-filter-summary')).toHaveText('Showing articles about Kitchen display');
  await expect(cards(page).getByRole('heading')).toHaveText([
    'Case study: one system for a restaurant group with 8 stores',
    'Kitchen display systems: from paper tickets to a calm kitchen',
  ]);

  // The same address in Chinese, as a search engine or a shared link would open it.
  await page.goto('/zh-hk/blogs?tag=kds');
  await expect(page).toHaveTitle('廚房顯示屏：餐廳及零售店老闆必讀文章 | Tillpoint');
  await expect(cards(page)).toHaveCount(2);
});

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false });

  test('the filter links work as plain links', async ({ page }) => {
    await page.goto('/zh-cn/blogs');
    await page.getByTestId('category-filters').getByRole('link', { name: '客户案例' }).click();
    await expect(page).toHaveURL('/zh-cn/blogs?category=case-studies');
    await expect(cards(page).getByRole('heading')).toHaveText(['案例分享：拥有八家门店的餐饮集团如何用一套系统管理']);
    await page.getByTestId('tag-filters').getByRole('link', { name: '#转数快' }).click();
    await expect(page).toHaveURL('/zh-cn/blogs?tag=fps');
    await expect(cards(page)).toHaveCount(1);
  });
});

test('an empty filter says so, in each language, and links back to all articles', async ({ page }) => {
  await page.goto('/en/blogs?tag=no-such-tag');
  await expect(page.getByTestId('blog-empty')).toContainText('No article matches this filter yet.');
  await page.getByTestId('blog-empty').getByRole('link', { name: 'See all articles' }).click();
  await expect(page).toHaveURL('/en/blogs');
  await expect(cards(page)).toHaveCount(8);
  await page.goto('/zh-cn/blogs?category=case-studies&tag=fps');
  await expect(page.getByTestId('blog-empty')).toContainText('暂时没有符合此筛选条件的文章');
  await expect(page.getByTestId('blog-empty').getByRole('link', { name: '查看全部文章' })).toHaveAttribute(
    'href',
    '/zh-cn/blogs',
  );
});

test.describe('pages that answer 404', () => {
  test.use({ allowedConsoleErrors: [/status of 404/] });

  test('an unknown article, a bad filter and a page past the end are not found', async ({ page, navigate }) => {
    const unknown = await navigate('/:lang/blogs/:name', { lang: 'en', name: 'no-such-article' });
    expect(unknown?.status()).toBe(404);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('This page could not be found');
    await expect(page.getByRole('banner')).toBeVisible();
    expect((await page.goto('/zh-hk/blogs/No_Such'))?.status()).toBe(404);
    expect((await page.goto('/en/blogs?category=gossip'))?.status()).toBe(404);
    expect((await page.goto('/en/blogs?page=2'))?.status()).toBe(404);
  });
});

test('an article shows its content, tags, related articles and valid structured data', async ({ page, navigate }) => {
  const response = await navigate('/:lang/blogs/:name', { lang: 'en', name: 'kitchen-display-systems-explained' });
  expect(response?.status()).toBe(200);
  const title = 'Kitchen display systems: from paper tickets to a calm kitchen';
  await expect(page).toHaveTitle(`${title} | Blog | Tillpoint`);
  await expect(page.locator('meta[name="description"]')).toHaveAttribute(
    'content',
    /^A kitchen display replaces printed tickets/,
  );
  const article = page.getByTestId('blog-article');
  await expect(article.getByRole('heading', { level: 1 })).toHaveText(title);
  await expect(article).toContainText('22 April 2026');
  await expect(page.getByTestId('blog-author')).toHaveText('By Mandy Wong');
  await expect(page.getByTestId('blog-category')).toHaveText('Restaurant tips');
  await expect(page.getByTestId('blog-body').getByRole('heading', { level: 2 }).first()).toHaveText('What a KDS shows');
  await expect(article.locator('img').first()).toHaveAttribute('src', '/images/blog/kitchen-display.svg');

  // Shared tags first (newest first among equals), then the same category; never itself.
  await expect(page.getByTestId('related-articles').getByRole('heading', { level: 3 })).toHaveText([
    'Case study: one system for a restaurant group with 8 stores',
    'Cut queue time with QR self-ordering',
    'How to choose a POS system for your restaurant or shop',
  ]);

  const blocks = await page.locator('script[type="application/ld+json"]').allTextContents();
  const data = blocks.map((text) => JSON.parse(text) as Record<string, unknown>);
  expect(data.map((item) => item['@type'])).toEqual(['Article', 'BreadcrumbList']);
  const [ld, breadcrumb] = data as [
    Record<string, unknown>,
    { itemListElement: { position: number; name: string; item: string }[] },
  ];
  expect(ld).toMatchObject({
    '@context': 'https://schema.org',
    headline: title,
    datePublished: '2026-04-22T02:00:00.000Z',
    author: { '@type': 'Person', name: 'Mandy Wong' },
    publisher: { '@type': 'Organization', name: 'Tillpoint' },
  });
  expect(ld.image).toEqual([expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/images\/blog\/kitchen-display\.svg$/)]);
  expect(breadcrumb.itemListElement.map((item) => [item.position, item.name])).toEqual([
    [1, 'Home'],
    [2, 'Blog'],
    [3, title],
  ]);
  expect(breadcrumb.itemListElement[2]?.item).toMatch(/\/en\/blogs\/kitchen-display-systems-explained$/);

  await page.getByTestId('blog-tags').getByRole('link', { name: '#Efficiency' }).click();
  await expect(page).toHaveURL('/en/blogs?tag=efficiency');
  await expect(cards(page)).toHaveCount(2);
});

test('an article in Chinese is in Chinese', async ({ page }) => {
  await page.goto('/zh-hk/blogs/kitchen-display-systems-explained');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('廚房顯示系統（KDS）：由紙飛到井井有條的廚房');
  await expect(page).toHaveTitle('廚房顯示系統（KDS）：由紙飛到井井有條的廚房｜網誌 | Tillpoint');
  await expect(page.getByTestId('blog-category')).toHaveText('餐廳經營貼士');
  await expect(page.getByRole('heading', { name: '相關文章' })).toBeVisible();
  const ld = JSON.parse((await page.locator('script[type="application/ld+json"]').first().textContent()) ?? '{}') as {
    inLanguage: string;
  };
  expect(ld.inLanguage).toBe('zh-Hant-HK');
});

/** Signs in as the admin through the API and answers calls to the blogs service. */
async function blogsApi(request: APIRequestContext) {
  const headers = await staffHeaders(request);
  return {
    async create(data: Record<string, unknown>) {
      const response = await request.post('/api/blogs', { data, headers });
      expect(response.status(), await response.text()).toBe(201);
      return (await response.json()) as { _id: string };
    },
    async patch(id: string, data: Record<string, unknown>) {
      const response = await request.patch(`/api/blogs/${id}`, { data, headers });
      expect(response.status(), await response.text()).toBe(200);
    },
    async remove(id: string) {
      expect((await request.delete(`/api/blogs/${id}`, { headers })).status()).toBe(200);
    },
  };
}

const article = (slug: string, extra: Record<string, unknown> = {}) => ({
  slug,
  title: { en: `E2E ${slug}`, 'zh-hk': `測試文章 ${slug}`, 'zh-cn': `测试文章 ${slug}` },
  summary: { en: 'Written by the end-to-end tests.', 'zh-hk': '由測試撰寫。', 'zh-cn': '由测试撰写。' },
  body: { en: '<p>Hello</p><script>alert(1)</script>' },
  category: 'product-news',
  ...extra,
});

test.describe('with articles published through the API', () => {
  test.use({ allowedConsoleErrors: [/status of 404/] });

  test('a draft stays off the site until the admin publishes it', async ({ page, request }) => {
    const api = await blogsApi(request);
    const slug = `e2e-draft-${Date.now()}`;
    const post = await api.create(article(slug));
    try {
      await page.goto('/en/blogs');
      await expect(cards(page).first()).not.toContainText(`E2E ${slug}`);
      expect((await page.goto(`/en/blogs/${slug}`))?.status()).toBe(404);

      await api.patch(post._id, { status: 'published' });
      await page.goto('/en/blogs');
      await expect(cards(page).first().getByRole('heading')).toHaveText(`E2E ${slug}`);
      await cards(page).first().getByRole('link').click();
      await expect(page).toHaveURL(`/en/blogs/${slug}`);
      await expect(page.getByTestId('blog-body')).toHaveText('Hello');
      expect(await page.getByTestId('blog-body').locator('script').count()).toBe(0);
    } finally {
      await api.remove(post._id);
    }
  });

  test('ten articles of one tag make two pages of nine and one', async ({ page, request }) => {
    const api = await blogsApi(request);
    const tag = `e2e-${Date.now()}`;
    const ids: string[] = [];
    try {
      for (let i = 1; i <= 10; i += 1) {
        const day = String(i).padStart(2, '0');
        ids.push(
          (
            await api.create(
              article(`${tag}-${i}`, {
                tags: [tag],
                status: 'published',
                publishedAt: `2025-01-${day}T10:00:00+08:00`,
              }),
            )
          )._id,
        );
      }
      await page.goto(`/en/blogs?tag=${tag}`);
      await expect(cards(page)).toHaveCount(9);
      await expect(cards(page).first().getByRole('heading')).toHaveText(`E2E ${tag}-10`);
      const pagination = page.getByTestId('pagination');
      await expect(pagination.getByRole('link', { name: 'Page 1' })).toHaveAttribute('aria-current', 'page');
      await pagination.getByRole('link', { name: 'Next' }).click();
      await expect(page).toHaveURL(`/en/blogs?tag=${tag}&page=2`);
      await expect(page).toHaveTitle(`${tag}: articles for restaurant and shop owners, page 2 | Tillpoint`);
      await expect(cards(page)).toHaveCount(1);
      await expect(cards(page).getByRole('heading')).toHaveText(`E2E ${tag}-1`);
      await pagination.getByRole('link', { name: 'Previous' }).click();
      await expect(page).toHaveURL(`/en/blogs?tag=${tag}`);
    } finally {
      for (const id of ids) await api.remove(id);
    }
  });

  test('staff upload a picture into an article’s text from its toolbar, by keyboard, and the published article shows it', async ({
    page,
    request,
    login,
  }) => {
    test.setTimeout(60_000);
    const api = await blogsApi(request);
    const slug = `e2e-picture-${Date.now()}`;
    // A draft of its own: published only at the end, dated in the past, then removed.
    const post = await api.create(
      article(slug, { body: { en: '<p>Before the picture.</p><p>After the picture.</p>' } }),
    );
    try {
      await login(users.editor);
      await page.goto(`/en/admin/blogs/edit/${post._id}`);
      await hydrated(page);
      const body = page.getByTestId('translated-field-body');
      const text = body.getByTestId('rich-v.body.en');
      await text.locator('p').first().click();
      await page.keyboard.press('End');

      // From the text, back along the toolbar to its picture button, and open it with Enter.
      const insert = body.getByRole('button', { name: 'Insert a picture' });
      for (let i = 0; i < 8 && !(await insert.evaluate((button) => button === document.activeElement)); i += 1)
        await page.keyboard.press('Shift+Tab');
      await expect(insert).toBeFocused();
      await page.keyboard.press('Enter');
      const panel = body.getByTestId('rich-picture');
      await expect(panel).toBeVisible();
      await expect(insert).toHaveAttribute('aria-pressed', 'true');
      const description = panel.getByRole('textbox', {
        name: 'Description of the picture, for readers who cannot see it',
      });
      await expect(description).toBeFocused();
      await page.keyboard.type('The terrace at dusk');
      // Past the panel's Cancel to the file picker (opening it by key is the uploader's own test, uploader.spec.ts).
      await page.keyboard.press('Tab');
      await page.keyboard.press('Tab');
      const picker = panel.locator('input[type="file"]');
      await expect(picker).toBeFocused();
      expect(await picker.evaluate((input: HTMLInputElement) => input.multiple)).toBe(false);
      await picker.setInputFiles({ name: 'terrace.png', mimeType: 'image/png', buffer: await png(1600, 900) });

      // In at the cursor, after the first paragraph, by its address on this site at the large width.
      await expect(panel).toHaveCount(0, { timeout: 20_000 });
      const picture = text.locator('img');
      await expect(picture).toHaveCount(1);
      await expect(picture).toHaveAttribute('src', /^\/api\/attachments\/[\w-]+\?width=large$/);
      await expect(picture).toHaveAttribute('alt', 'The terrace at dusk');
      await expect(picture).toHaveAttribute('width', '1200');
      await expect(picture).toHaveAttribute('height', '675');
      expect(
        await text.evaluate((root) => [...root.children].map((child) => `${child.tagName}:${child.textContent}`)),
      ).toEqual(['P:Before the picture.', 'IMG:', 'P:After the picture.']);
      await expect
        .poll(() => picture.evaluate((image: HTMLImageElement) => image.naturalWidth), { timeout: 10_000 })
        .toBe(1200);
      const src = (await picture.getAttribute('src')) as string;
      // The focus is back in the text, after the picture.
      await expect(text).toBeFocused();

      await page.getByTestId('editor-save').click();
      await expect(page.getByTestId('snackbar-success')).toContainText('Saved.');
      const headers = await staffHeaders(request);
      const saved = (await (await request.get(`/api/blogs/${post._id}`, { headers })).json()) as {
        body: Record<string, string>;
      };
      expect(saved.body.en).toBe(
        `<p>Before the picture.</p><img loading="lazy" src="${src.replace('&', '&amp;')}" alt="The terrace at dusk" width="1200" height="675" /><p>After the picture.</p>`,
      );

      await api.patch(post._id, { status: 'published', publishedAt: '2019-06-01T10:00:00+08:00' });
      await page.goto(`/en/blogs/${slug}`);
      const shown = page.getByTestId('blog-body').locator('img');
      await shown.scrollIntoViewIfNeeded();
      await expect(shown).toHaveAttribute('src', src);
      await expect(shown).toHaveAttribute('alt', 'The terrace at dusk');
      await expect
        .poll(() => shown.evaluate((image: HTMLImageElement) => image.complete && image.naturalWidth), {
          timeout: 10_000,
        })
        .toBe(1200);
    } finally {
      await api.remove(post._id);
    }
  });
});

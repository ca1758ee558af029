import en from '../../locales/en.json' with { type: 'json' };
import zhHk from '../../locales/zh-hk.json' with { type: 'json' };
import { expect, hydrated, test } from './fixtures.ts';

/**
 * A language's messages travel as files of their own (decision 042): pages name them, the server
 * answers them from memory under a content-hashed name cached for a year, and the browser fetches
 * each once while the visitor moves between pages.
 */
const FILE = /\/i18n\/[a-z-]+\/[A-Za-z.]+\.[\w-]{12}\.json/g;

function filesOf(html: string): string[] {
  return [...new Set(html.match(FILE) ?? [])];
}

test('a page names its message files, which are served immutable, compressed and equal to its groups', async ({
  request,
}) => {
  const html = await (await request.get('/zh-hk')).text();
  const files = filesOf(html);
  const home = files.find((file) => file.startsWith('/i18n/zh-hk/home.cases.forms.'));
  const shell = files.find((file) => file.includes('.nav.'));
  expect(home, files.join()).toBeTruthy();
  expect(shell, files.join()).toBeTruthy();

  const response = await request.get(home!, { headers: { 'Accept-Encoding': 'br, gzip' } });
  expect(response.status()).toBe(200);
  const headers = response.headers();
  expect(headers['content-type']).toBe('application/json; charset=utf-8');
  expect(headers['cache-control']).toBe('public, max-age=31536000, immutable');
  expect(headers['content-encoding']).toBe('br');
  expect(headers['vary']).toBe('Accept-Encoding');
  expect(headers['x-content-type-options']).toBe('nosniff');
  // No document headers on a data file (it is served before them, like /assets).
  expect(headers['content-security-policy']).toBeUndefined();
  const body = (await response.json()) as Record<string, unknown>;
  expect(Object.keys(body)).toEqual(['home', 'cases', 'forms']);
  expect(body.home).toEqual(zhHk.home);
  expect(body.forms).toEqual(zhHk.forms);

  const gzip = await request.get(home!, { headers: { 'Accept-Encoding': 'gzip' } });
  expect(gzip.headers()['content-encoding']).toBe('gzip');
  expect(await gzip.json()).toEqual(body);
  const plain = await request.get(home!, { headers: { 'Accept-Encoding': 'identity' } });
  expect(plain.headers()['content-encoding']).toBeUndefined();
  expect(await plain.json()).toEqual(body);

  const english = await (
    await request.get(shell!.replace('/zh-hk/', '/en/').replace(/\.[\w-]{12}\.json$/, '.json'))
  ).text();
  expect(english).toMatch(/^Not a messages file/);
});

test('an unknown language, group or version of a message file is a 404 that says which', async ({ request }) => {
  const html = await (await request.get('/en')).text();
  const home = filesOf(html).find((file) => file.startsWith('/i18n/en/home.'))!;
  const cases: [string, RegExp][] = [
    [home.replace('/en/', '/fr/'), /^Unknown language: fr/],
    [home.replace('home.cases.forms', 'home.nothing'), /^Unknown message group: nothing/],
    [home.replace(/\.[\w-]{12}\.json$/, '.AAAAAAAAAAAA.json'), /^These messages have changed since/],
    ['/i18n/en/home.json', /^Not a messages file/],
  ];
  for (const [path, message] of cases) {
    const response = await request.get(path);
    expect(response.status(), path).toBe(404);
    expect(response.headers()['cache-control'], path).toBe('no-store');
    expect(await response.text(), path).toMatch(message);
  }
  // The English file holds English.
  const body = (await (await request.get(home)).json()) as { home: unknown };
  expect(body.home).toEqual(en.home);
});

test('the server renders a Chinese page with its messages, and sends none of them inline', async ({ request }) => {
  const html = await (await request.get('/zh-cn/pricing')).text();
  expect(html).toContain('<html lang="zh-Hans-CN"');
  // Texts of the shell's groups and of the page's own, rendered on the server.
  expect(html).toContain('价格');
  expect(html).not.toMatch(/>nav\.[a-z]+</);
  const data = [...html.matchAll(/<script\b[^>]*>([\s\S]*?)<\/script>/g)]
    .map((match) => match[1]!)
    .filter((script) => script.includes('streamController.enqueue'))
    .join('');
  expect(data).toMatch(/\/i18n\/zh-cn\//);
  expect(data).not.toContain('价格计算器');
});

test('the browser fetches each message file once, across pages and languages, and the pages show their texts', async ({
  page,
}) => {
  const fetched: string[] = [];
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (url.pathname.startsWith('/i18n/')) fetched.push(url.pathname);
  });
  await page.goto('/en/pricing');
  await hydrated(page);
  // To a page with other message groups, then back, then to the same page in another language.
  await page.getByRole('banner').getByRole('link', { name: 'Features', exact: true }).first().click();
  await expect(page).toHaveURL(/\/en\/advancedFeature$/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Add what your business needs, when it needs it');
  await page.goBack();
  await expect(page).toHaveURL(/\/en\/pricing$/);
  await page.getByRole('banner').getByRole('link', { name: 'Blog', exact: true }).first().click();
  await expect(page).toHaveURL(/\/en\/blogs$/);
  await page.getByRole('banner').getByRole('link', { name: 'Pricing', exact: true }).first().click();
  await expect(page).toHaveURL(/\/en\/pricing$/);
  await page.getByRole('contentinfo').getByRole('link', { name: '繁體中文' }).click();
  await expect(page).toHaveURL(/\/zh-hk\/pricing$/);
  await expect(page.locator('html')).toHaveAttribute('lang', 'zh-Hant-HK');
  await expect(page.getByRole('banner').getByRole('link', { name: '價格', exact: true }).first()).toBeVisible();
  // No message key in place of a text.
  expect(await page.locator('body').innerText()).not.toMatch(/\b(pricing|product|home|nav|footer)\.[a-z]+/);
  await expect.poll(() => fetched.length).toBeGreaterThanOrEqual(6);
  // Each file once: the shell's and each page's, per language.
  expect(fetched.length, fetched.join('\n')).toBe(new Set(fetched).size);
  expect(fetched.filter((path) => path.startsWith('/i18n/en/'))).toHaveLength(4);
  expect(fetched.filter((path) => path.startsWith('/i18n/zh-hk/'))).toHaveLength(2);
});

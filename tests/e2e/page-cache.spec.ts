import type { APIRequestContext, APIResponse } from '@playwright/test';
import { createHash, randomBytes } from 'node:crypto';
import { expect, hydrated, SESSION_COOKIE, test } from './fixtures.ts';
import { startExtraServer, type ExtraServer } from './extra-server.ts';
import { users } from './users.ts';

// A server of its own: other tests' changes to the catalogue would empty this cache at any moment.
// One worker runs these in order, so one server starts and one test's change cannot land in another's.
test.describe.configure({ mode: 'default' });
let server: ExtraServer;
test.beforeAll(async () => {
  test.setTimeout(150_000);
  server = await startExtraServer({});
});
test.afterAll(async () => {
  await server?.stop();
});

/** Signs in through the API in a context of its own: the session cookie it sets must not follow the anonymous requests. */
async function signIn(
  playwright: { request: { newContext(): Promise<APIRequestContext> } },
  user: { email: string; password: string },
): Promise<string> {
  const context = await playwright.request.newContext();
  try {
    const response = await context.post(`${server.url}/api/authentication`, { data: { strategy: 'local', ...user } });
    expect(response.status()).toBe(201);
    return ((await response.json()) as { accessToken: string }).accessToken;
  } finally {
    await context.dispose();
  }
}

/** The CSP nonce of a response, and every nonce its HTML carries. */
async function nonces(response: APIResponse) {
  const header = /'nonce-([^']+)'/.exec(response.headers()['content-security-policy'] ?? '')?.[1];
  const inPage = [...(await response.text()).matchAll(/nonce="([^"]*)"/g)].flatMap((match) =>
    match[1] ? [match[1]] : [],
  );
  return { header, inPage };
}

test('a cached page shows an industry renamed through the API within 5 seconds', async ({ request, playwright }) => {
  const token = await signIn(playwright, users.admin);
  const auth = { authorization: `Bearer ${token}` };
  const key = `cache-${randomBytes(4).toString('hex')}`;
  const created = await request.post(`${server.url}/api/industries`, {
    headers: auth,
    data: { key, name: { en: `Kiosks ${key}` }, order: 99, major: false },
  });
  expect(created.status()).toBe(201);
  const { _id: id } = (await created.json()) as { _id: string };
  try {
    // Served twice: the second answer comes from the cache.
    await expect(async () => {
      const response = await request.get(`${server.url}/en`);
      expect(response.headers()['x-page-cache']).toBe('hit');
      expect(await response.text()).toContain(`Kiosks ${key}`);
    }).toPass({ timeout: 5_000 });

    const renamed = `Kiosks and vending ${key}`;
    expect(
      (
        await request.patch(`${server.url}/api/industries/${id}`, { headers: auth, data: { name: { en: renamed } } })
      ).status(),
    ).toBe(200);
    const changedAt = Date.now();
    await expect
      .poll(async () => (await request.get(`${server.url}/en`)).text(), { timeout: 5_000, intervals: [100] })
      .toContain(renamed);
    expect(Date.now() - changedAt).toBeLessThan(5_000);
    // So is the sitemap (another cached page of the same catalogue).
    expect(await (await request.get(`${server.url}/sitemap.xml`)).text()).toContain(`/en/usecase/${key}</loc>`);
  } finally {
    await request.delete(`${server.url}/api/industries/${id}`, { headers: auth });
  }
});

test('a signed-in visitor never gets the cached anonymous page, and their page is never cached', async ({
  request,
  playwright,
}) => {
  const anonymous = async () => {
    const response = await request.get(`${server.url}/zh-hk`);
    return {
      cache: response.headers()['x-page-cache'],
      control: response.headers()['cache-control'],
      html: await response.text(),
    };
  };
  await anonymous();
  expect((await anonymous()).cache).toBe('hit');

  const token = await signIn(playwright, users.owner);
  const signedIn = await request.get(`${server.url}/zh-hk`, { headers: { cookie: `${SESSION_COOKIE}=${token}` } });
  expect(signedIn.headers()['x-page-cache']).toBe('bypass');
  expect(signedIn.headers()['cache-control']).toBe('private, no-store');
  expect(await signedIn.text()).toContain(users.owner.name);

  const after = await anonymous();
  expect(after.cache).toBe('hit');
  expect(after.control).toBe('public, max-age=0, s-maxage=5, stale-while-revalidate=30, stale-if-error=86400');
  expect(after.html).not.toContain(users.owner.name);
  expect(after.html).not.toContain(users.owner.email);
});

test('every answer, cached or not, holds its scripts back until the page has loaded', async ({ request }) => {
  for (let i = 0; i < 2; i += 1) {
    const html = await (await request.get(`${server.url}/en`)).text();
    expect(html).not.toContain('<link rel="modulepreload"');
    expect((html.match(/<link data-rel="modulepreload" href="\/assets\/[^"]+\.js"/g) ?? []).length).toBeGreaterThan(3);
    expect(html).not.toMatch(/<script[^>]* type="module"/);
    expect(html.match(/<script[^>]* type="text\/plain" data-type="module"/g) ?? []).toHaveLength(1);
  }
});

test('scripts and styles are compressed and cached for a year, never revalidated', async ({ request }) => {
  const html = await (await request.get(`${server.url}/en`)).text();
  const assets = [...html.matchAll(/(?:href|src)="(\/assets\/[^"]+\.(?:js|css))"/g)].flatMap((match) =>
    match[1] ? [match[1]] : [],
  );
  expect(assets.length).toBeGreaterThan(3);
  for (const asset of assets) {
    const response = await request.get(`${server.url}${asset}`, { headers: { 'Accept-Encoding': 'gzip' } });
    expect(response.status(), asset).toBe(200);
    const headers = response.headers();
    expect(headers['cache-control'], asset).toBe('public, max-age=31536000, immutable');
    // Files under 1 KB go as they are: compressing them saves nothing.
    if (/\/(framework|marketing|app)-/.test(asset)) expect(headers['content-encoding'], asset).toBe('gzip');
    expect(headers.etag, asset).toBeUndefined();
    expect(headers['last-modified'], asset).toBeUndefined();
  }
});

test('two visitors get the same bytes with one strong ETag, and a repeated request gets a 304', async ({
  request,
  playwright,
}) => {
  const other = await playwright.request.newContext();
  try {
    await request.get(`${server.url}/zh-cn`);
    const answers = await Promise.all(
      [request, other, request].map((context) =>
        context.get(`${server.url}/zh-cn`, { headers: { 'Accept-Encoding': 'gzip, br' } }),
      ),
    );
    const bodies = await Promise.all(answers.map((answer) => answer.body()));
    const tags = answers.map((answer) => answer.headers().etag);
    expect(answers.map((answer) => answer.headers()['x-page-cache'])).toEqual(['hit', 'hit', 'hit']);
    expect(tags[0]).toMatch(/^"[\w-]{27}-br"$/);
    expect(new Set(tags).size).toBe(1);
    expect(bodies[1]!.equals(bodies[0]!) && bodies[2]!.equals(bodies[0]!)).toBe(true);
    expect(answers[0]!.headers().vary).toBe('Accept-Encoding');

    const again = await other.get(`${server.url}/zh-cn`, {
      headers: { 'Accept-Encoding': 'gzip, br', 'If-None-Match': tags[0]! },
    });
    expect(again.status()).toBe(304);
    expect(again.headers().etag).toBe(tags[0]);
    expect(await again.body()).toHaveLength(0);
    // Another encoding's tag for the same content, and gzip's own bytes under their own tag.
    const gzip = await other.get(`${server.url}/zh-cn`, { headers: { 'Accept-Encoding': 'gzip' } });
    expect(gzip.headers()['content-encoding']).toBe('gzip');
    expect(gzip.headers().etag).toBe(tags[0]!.replace('-br"', '-gz"'));
    expect(await gzip.text()).toBe(await answers[0]!.text());
    expect((await other.get(`${server.url}/zh-cn`, { headers: { 'If-None-Match': '"not-this-page"' } })).status()).toBe(
      200,
    );
  } finally {
    await other.dispose();
  }
});

test('a page rendered again with the same content keeps its ETag: a browser’s copy stays valid after a change elsewhere', async ({
  request,
  playwright,
}) => {
  await request.get(`${server.url}/zh-hk/pricing`);
  const before = await request.get(`${server.url}/zh-hk/pricing`, { headers: { 'Accept-Encoding': 'br' } });
  expect(before.headers()['x-page-cache']).toBe('hit');
  // A change the page does not show still empties the cache: the next answer is rendered anew.
  const token = await signIn(playwright, users.admin);
  const industry = (
    (await (await request.get(`${server.url}/api/industries?$limit=1&major=false`)).json()) as {
      data: { _id: string; order: number }[];
    }
  ).data[0]!;
  expect(
    (
      await request.patch(`${server.url}/api/industries/${industry._id}`, {
        headers: { authorization: `Bearer ${token}` },
        data: { order: industry.order },
      })
    ).status(),
  ).toBe(200);
  await expect
    .poll(
      async () =>
        (
          await request.get(`${server.url}/zh-hk/pricing`, {
            headers: { 'Accept-Encoding': 'br', 'If-None-Match': before.headers().etag! },
          })
        ).headers()['x-page-cache'],
      { timeout: 5_000 },
    )
    .toBe('miss');
  const revalidated = await request.get(`${server.url}/zh-hk/pricing`, {
    headers: { 'Accept-Encoding': 'br', 'If-None-Match': before.headers().etag! },
  });
  expect(revalidated.status()).toBe(304);
});

test('a cached page carries no nonce: its CSP allows exactly its inline scripts, by their hashes', async ({
  request,
}) => {
  for (const path of ['/en', '/zh-hk/terms']) {
    await request.get(`${server.url}${path}`);
    const response = await request.get(`${server.url}${path}`);
    expect(response.headers()['x-page-cache']).toBe('hit');
    const policy = response.headers()['content-security-policy'] ?? '';
    const html = await response.text();
    expect(policy).not.toContain('nonce-');
    expect(html).not.toMatch(/ nonce="/);
    const allowed = [...policy.matchAll(/'sha256-([^']+)'/g)].map((match) => match[1]).sort();
    const inline = [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)]
      .filter(([, attributes]) => !/src=|application\/ld\+json/.test(attributes ?? ''))
      .map(([, , text]) =>
        createHash('sha256')
          .update(text ?? '')
          .digest('base64'),
      );
    expect(inline.length, path).toBeGreaterThan(0);
    expect(allowed, path).toEqual([...new Set(inline)].sort());
  }
});

test('a signed-in visitor’s page, never cached, keeps a nonce of its own in its CSP', async ({
  request,
  playwright,
}) => {
  const token = await signIn(playwright, users.owner);
  const seen = new Set<string>();
  for (let i = 0; i < 2; i += 1) {
    const response = await request.get(`${server.url}/zh-cn`, { headers: { cookie: `${SESSION_COOKIE}=${token}` } });
    expect(response.headers()['x-page-cache']).toBe('bypass');
    expect(response.headers().etag).toBeUndefined();
    const { header, inPage } = await nonces(response);
    expect(header).toMatch(/^[A-Za-z0-9+/]{22}==$/);
    expect(new Set(inPage)).toEqual(new Set([header]));
    seen.add(header ?? '');
  }
  expect(seen.size).toBe(2);
});

test.describe('an injected script', () => {
  // The refusals this test provokes are the console errors it expects.
  test.use({ allowedConsoleErrors: [/Content Security Policy/] });
  test('injected into a cached page without its hash, it is blocked; the page’s own scripts still run', async ({
    page,
  }) => {
    await page.request.get(`${server.url}/en`);
    // What a stored injection would do: the page's bytes with one more inline script, under the page's CSP.
    await page.route(`${server.url}/en`, async (route) => {
      const response = await route.fetch();
      expect(response.headers()['x-page-cache']).toBe('hit');
      const html = (await response.text()).replace('</body>', '<script>window.injected = true</script></body>');
      await route.fulfill({ response, body: html });
    });
    const violations: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error' && /Content Security Policy/.test(message.text())) violations.push(message.text());
    });
    await page.goto(`${server.url}/en`);
    await hydrated(page);
    expect(await page.evaluate(() => (window as { injected?: boolean }).injected)).toBeUndefined();
    expect(violations).toHaveLength(1);
    expect(violations[0]).toContain('script-src');
    // Added later by a script of the page's, too: refused.
    const ran = await page.evaluate(() => {
      const script = document.createElement('script');
      script.textContent = 'window.injectedLater = true';
      document.body.append(script);
      return (window as { injectedLater?: boolean }).injectedLater ?? false;
    });
    expect(ran).toBe(false);
    await expect.poll(() => violations.length).toBe(2);
    await page.getByRole('button', { name: 'Dark theme' }).click();
    await expect(page.locator('html')).toHaveClass(/dark/);
  });
});

test('a page served from the cache runs its scripts under the CSP (no violation, hydrated)', async ({ page }) => {
  await page.request.get(`${server.url}/en`);
  const response = await page.goto(`${server.url}/en`);
  expect(response?.headers()['x-page-cache']).toBe('hit');
  // The theme switch works only once React has hydrated the page.
  await hydrated(page);
  const toggle = page.getByRole('button', { name: 'Dark theme' });
  await toggle.click();
  await expect(page.locator('html')).toHaveClass(/dark/);
});

test('a page without scripts runs its inline script under the cached page’s hashes', async ({ page, request }) => {
  await request.get(`${server.url}/zh-hk/terms`);
  const response = await page.goto(`${server.url}/zh-hk/terms`);
  expect(response?.headers()['x-page-cache']).toBe('hit');
  // No React here: the toggle is the inline script's, which a refused hash would stop.
  await page.getByRole('button', { name: '深色主題' }).click();
  await expect(page.locator('html')).toHaveClass(/dark/);
});

import type { APIRequestContext, Page, WebSocketRoute } from '@playwright/test';
import { expect, hydrated, SESSION_COOKIE, submitLoginForm, test } from './fixtures.ts';
import { staffHeaders } from './staff-api.ts';
import { users } from './users.ts';

/**
 * The portal's live connection (decision 027): signed in by a one-time ticket, so page scripts
 * never see the session token; staff's changes show without a reload; a dropped socket recovers;
 * logging out through it ends the session on the server.
 *
 * The member with the monthly plan is read by the dashboard specs too: this file only touches
 * their order with its own shipping details (a change that changes nothing), and renames them for
 * a moment, putting the name back.
 */

const SOCKET = /\/api\/socket\.io\//;
const TICKET_PATH = '/api/socketTickets';

/** The session token the browser holds (only the test can read the httpOnly cookie). */
async function sessionToken(page: Page): Promise<string> {
  const cookie = (await page.context().cookies()).find((c) => c.name === SESSION_COOKIE);
  expect(cookie?.httpOnly).toBe(true);
  return cookie?.value ?? '';
}

/** The member's own order, patched by an admin with its own shipping: a `patched` event for its owner. */
async function staffTouchesOrder(request: APIRequestContext, userId: string): Promise<void> {
  const headers = await staffHeaders(request);
  const found = (await (await request.get(`/api/orders?user=${userId}&$limit=1`, { headers })).json()) as {
    data: { _id: string; shipping: unknown }[];
  };
  const order = found.data[0];
  expect(order, 'the member has an order').toBeTruthy();
  const patched = await request.patch(`/api/orders/${order?._id}`, { headers, data: { shipping: order?.shipping } });
  expect(patched.status(), await patched.text()).toBe(200);
}

async function rename(request: APIRequestContext, userId: string, name: string): Promise<void> {
  const response = await request.patch(`/api/users/${userId}`, {
    headers: await staffHeaders(request),
    data: { name },
  });
  expect(response.status(), await response.text()).toBe(200);
}

/**
 * Passes the page's sockets through the test (so it can drop them), keeping what the server sent.
 * Must be set up before the page opens.
 */
async function routeSockets(page: Page): Promise<{ sockets: WebSocketRoute[]; received: string[] }> {
  const sockets: WebSocketRoute[] = [];
  const received: string[] = [];
  await page.routeWebSocket(SOCKET, (ws) => {
    sockets.push(ws);
    const server = ws.connectToServer();
    ws.onMessage((message) => server.send(message));
    server.onMessage((message) => {
      received.push(String(message));
      ws.send(message);
    });
  });
  return { sockets, received };
}

/** The number of times the socket was answered a ticket sign-in. */
const signIns = (received: string[]) => received.filter((frame) => frame.includes('"strategy":"ticket"')).length;

/** Opens the dashboard and waits until its live connection has signed in (the ticket, then the socket's answer). */
async function openDashboard(page: Page, received: string[], path = '/en/portal'): Promise<void> {
  const ticket = page.waitForResponse((r) => r.url().endsWith(TICKET_PATH) && r.request().method() === 'POST');
  await page.goto(path);
  await hydrated(page);
  expect((await ticket).status()).toBe(201);
  await expect.poll(() => signIns(received)).toBe(1);
}

test.describe('the portal live connection', () => {
  test('page scripts never see the session token, nor does the socket carry it', async ({ page, login }) => {
    const { received: frames } = await routeSockets(page);
    await login(users.monthly);
    await openDashboard(page, frames);
    const token = await sessionToken(page);
    expect(token.length).toBeGreaterThan(20);
    // The socket's answer names the member, and nothing more secret.
    expect(frames.some((f) => f.includes(users.monthly.email))).toBe(true);

    const seen = await page.evaluate(() => ({
      cookie: document.cookie,
      local: Object.keys(localStorage)
        .map((key) => `${key}=${localStorage.getItem(key)}`)
        .join('\n'),
      session: Object.keys(sessionStorage)
        .map((key) => `${key}=${sessionStorage.getItem(key)}`)
        .join('\n'),
    }));
    expect(seen.cookie).not.toContain(SESSION_COOKIE);
    for (const text of [seen.cookie, seen.local, seen.session, ...frames]) {
      expect(text).not.toContain(token);
      expect(text).not.toContain(token.split('.')[1]);
      expect(text).not.toContain('accessToken');
    }
  });

  test('a change staff make to the member’s order refreshes the dashboard without a reload', async ({
    page,
    login,
    request,
  }) => {
    const { received } = await routeSockets(page);
    const user = await login(users.monthly);
    await openDashboard(page, received);
    await expect(page.getByTestId('welcome')).toContainText(users.monthly.name);
    await page.evaluate(() => Object.assign(window, { sameDocument: true }));
    const renamed = `${users.monthly.name} (live)`;
    try {
      // The account renamed first (the dashboard does not listen to accounts), then the order patched:
      // its event makes the page load its data again, the new name with it.
      await rename(request, user._id, renamed);
      const refreshed = page.waitForRequest((r) => r.url().includes('/en/portal.data'));
      await staffTouchesOrder(request, user._id);
      await refreshed;
      await expect(page.getByTestId('welcome')).toContainText(renamed);
    } finally {
      await rename(request, user._id, users.monthly.name);
    }
    expect(await page.evaluate(() => (window as { sameDocument?: boolean }).sameDocument)).toBe(true);
  });

  for (const lang of ['en', 'zh-hk'] as const) {
    test(`a dropped socket comes back signed in and the page refreshes (${lang})`, async ({ page, login, request }) => {
      const { sockets, received } = await routeSockets(page);
      const user = await login(users.monthly);
      await openDashboard(page, received, `/${lang}/portal`);
      expect(sockets).toHaveLength(1);
      await page.evaluate(() => Object.assign(window, { sameDocument: true }));

      // The connection drops: the client reconnects, asks a new ticket, signs in and refreshes.
      const ticket = page.waitForResponse((r) => r.url().endsWith(TICKET_PATH));
      const refreshed = page.waitForRequest((r) => r.url().includes(`/${lang}/portal.data`));
      await sockets[0]?.close({ code: 1006 });
      expect((await ticket).status()).toBe(201);
      await refreshed;
      expect(sockets).toHaveLength(2);
      await expect.poll(() => signIns(received)).toBe(2);

      // The new socket hears the member's events again.
      const again = page.waitForRequest((r) => r.url().includes(`/${lang}/portal.data`));
      await staffTouchesOrder(request, user._id);
      await again;
      expect(await page.evaluate(() => (window as { sameDocument?: boolean }).sameDocument)).toBe(true);
    });
  }

  test('logging out through the live connection lands on the home page and ends the session on the server', async ({
    page,
    login,
    request,
  }) => {
    const { received } = await routeSockets(page);
    const user = await login(users.monthly);
    await openDashboard(page, received, '/zh-hk/portal');
    const token = await sessionToken(page);
    expect(
      (await request.get(`/api/users/${user._id}`, { headers: { authorization: `Bearer ${token}` } })).status(),
    ).toBe(200);

    await page.getByTestId('user-menu').click();
    await page.getByRole('button', { name: '登出' }).click();
    await expect(page).toHaveURL('/zh-hk');
    await expect(page.getByTestId('snackbar-success')).toHaveText('你已登出。');
    expect((await page.context().cookies()).find((c) => c.name === SESSION_COOKIE)).toBeUndefined();
    // The old cookie's token is refused by the API, and can no longer buy a ticket.
    const refused = await request.get(`/api/users/${user._id}`, { headers: { authorization: `Bearer ${token}` } });
    expect(refused.status()).toBe(401);
    const baseURL = new URL(page.url()).origin;
    const ticket = await request.post(TICKET_PATH, {
      headers: { cookie: `${SESSION_COOKIE}=${token}`, origin: baseURL },
    });
    expect(ticket.status()).toBe(401);
  });

  test('a public page loads no live connection', async ({ page, login }) => {
    const scripts: string[] = [];
    let sockets = 0;
    page.on('request', (r) => {
      if (r.resourceType() === 'script') scripts.push(r.url());
      if (r.url().includes(TICKET_PATH)) sockets += 1;
    });
    page.on('websocket', () => (sockets += 1));
    await login(users.monthly);
    await page.goto('/en/pricing');
    await hydrated(page);
    await page.waitForLoadState('networkidle');
    expect(sockets).toBe(0);
    expect(scripts.some((url) => /connect|socket|use-live/i.test(url))).toBe(false);
  });
});

test.describe('the portal live connection, once the session has ended', () => {
  // The refused ticket request is a 401 in the console, as any refused request is.
  test.use({ allowedConsoleErrors: [/status of 401/] });

  test('a session ended elsewhere closes the socket; no ticket is given for it, and the member is sent to log in again', async ({
    page,
    login,
    request,
  }) => {
    const { sockets, received } = await routeSockets(page);
    await login(users.monthly);
    await openDashboard(page, received, '/zh-cn/portal?sso');
    // Signed out from somewhere else (another tab's sign-out revokes the same token): the server
    // closes the socket, the page asks for a ticket before opening it again, and gets none.
    const token = await sessionToken(page);
    const refused = page.waitForResponse((r) => r.url().endsWith(TICKET_PATH));
    expect(
      (await request.delete('/api/authentication', { headers: { authorization: `Bearer ${token}` } })).status(),
    ).toBe(200);
    expect((await refused).status()).toBe(401);
    // Off to the login page, back here after; the closed socket was not opened again.
    expect(sockets).toHaveLength(1);
    await expect(page).toHaveURL(`/zh-cn/login?from=${encodeURIComponent('/zh-cn/portal?sso')}`);
    await expect(page.getByTestId('snackbar-error')).toHaveText('你的登录已失效，请重新登录。');
    expect((await page.context().cookies()).find((c) => c.name === SESSION_COOKIE)).toBeUndefined();
    // Logged in again, in Simplified Chinese: back on the embedded dashboard it came from.
    await submitLoginForm(page, { email: '邮箱', password: '密码', submit: '登录' }, users.monthly);
    await expect(page).toHaveURL('/zh-cn/portal?sso');
    await expect(page.getByTestId('welcome')).toBeVisible();
    await expect(page.getByRole('banner')).toHaveCount(0);
  });
});

test.describe('the portal inside the company’s apps (?sso)', () => {
  test('hides header and footer on the dashboard and the profile, and links keep it', async ({ page, login }) => {
    await login(users.owner);
    await page.goto('/en/portal?sso');
    await hydrated(page);
    await expect(page.getByTestId('welcome')).toContainText(users.owner.name);
    await expect(page.getByRole('banner')).toHaveCount(0);
    await expect(page.getByTestId('dashboard-footer')).toHaveCount(0);

    await page.goto('/en/portal/profile?sso');
    await hydrated(page);
    await expect(page.getByRole('banner')).toHaveCount(0);
    await expect(page.getByTestId('dashboard-footer')).toHaveCount(0);

    // Every link of the site on the embedded pages carries the mark on (header and menu are not shown).
    for (const path of ['/en/portal/profile?sso', '/en/portal?sso']) {
      await page.goto(path);
      await hydrated(page);
      const hrefs = await page
        .locator('main a[href^="/"]')
        .evaluateAll((links) => links.map((a) => a.getAttribute('href') ?? ''));
      for (const href of hrefs) expect(href, `${href} on ${path}`).toMatch(/[?&]sso(=|&|$)/);
    }
    // Followed, the link asks for the next page with it (the purchase flow then writes its own step).
    const buy = page.getByTestId('buy-plan');
    await expect(buy).toHaveAttribute('href', /[?&]sso(=|&|$)/);
    const next = page.waitForRequest((r) => r.url().includes('/en/subscription'));
    await buy.click();
    expect((await next).url()).toMatch(/[?&]sso(=|&|$)/);
    // The purchase page arrives whole (the test does not end in the middle of its loading).
    await expect(page).toHaveURL(/\/en\/subscription/);
    await hydrated(page);
  });

  test('without ?sso the same links carry nothing', async ({ page, login }) => {
    await login(users.owner);
    await page.goto('/en/portal');
    await hydrated(page);
    await expect(page.getByTestId('buy-plan')).toHaveAttribute('href', '/en/subscription');
    await page.getByTestId('user-menu').click();
    await expect(page.getByTestId('menu-profile')).toHaveAttribute('href', '/en/portal/profile');
  });
});

import { expect, SESSION_COOKIE, test } from './fixtures.ts';
import { startExtraServer, type ExtraServer } from './extra-server.ts';
import { users } from './users.ts';

/*
 * The payment sandbox on the site's own port under a host name of its own (PAYMENT_SANDBOX_HOST):
 * a demo on a host that gives one port. Browsers send every `*.localhost` name to this machine, so
 * `sandbox-pay.localhost` is another origin than the site's with nothing to set up.
 */

const HOST = 'sandbox-pay.localhost';
let server: ExtraServer;
test.beforeAll(async () => {
  test.setTimeout(150_000);
  server = await startExtraServer({ PAYMENT_SANDBOX_HOST: HOST });
});
test.afterAll(async () => {
  await server?.stop();
});

test("a member's card is taken by the sandbox's frame on its own host name, on the site's port", async ({ page }) => {
  test.setTimeout(90_000);
  const { port } = new URL(server.url);
  const signIn = await page.request.post(`${server.url}/api/authentication`, {
    data: { strategy: 'local', email: users.monthly.email, password: users.monthly.password },
  });
  expect(signIn.status()).toBe(201);
  const { accessToken } = (await signIn.json()) as { accessToken: string };
  await page
    .context()
    .addCookies([{ name: SESSION_COOKIE, value: accessToken, url: server.url, httpOnly: true, sameSite: 'Lax' }]);

  await page.goto(`${server.url}/en/portal/card`);
  const frame = page.getByTestId('card-frame');
  await expect(frame).toHaveAttribute('src', new RegExp(`^http://sandbox-pay\\.localhost:${port}/frame\\?`));
  await expect(frame).toHaveAttribute('data-ready', 'true', { timeout: 15_000 });
  const fields = page.frameLocator('[data-testid="card-frame"]');
  await fields.locator('#number').fill('5555555555554444');
  await fields.locator('#expiry').fill('1234');
  await fields.locator('#cvc').fill('123');
  await expect(frame).toHaveAttribute('data-complete', 'true');
  await page.getByTestId('card-save').press('Enter');
  await expect(page.getByTestId('card-current')).toContainText('4444', { timeout: 15_000 });
});

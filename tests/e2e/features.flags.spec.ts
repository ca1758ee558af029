import { expect, test } from './fixtures.ts';
import { DEFAULT_FLAGS, setFeatures } from './site-features.ts';

/** These tests change the site's feature flags: they run one after another and put them back. */
test.describe.configure({ mode: 'serial' });

test.afterAll(async ({ request }) => {
  await setFeatures(request, DEFAULT_FLAGS);
});

test('try-now leads to the enquiry form while the contact form is on, else to the chat', async ({ page, request }) => {
  await setFeatures(request, { contactForm: true });
  await page.goto('/zh-hk');
  await expect(page.getByRole('banner').getByTestId('try-now')).toHaveAttribute('href', '/zh-hk/enquiryForm');

  await setFeatures(request, { contactForm: false });
  await page.reload();
  const tryNow = page.getByRole('banner').getByTestId('try-now');
  await expect(tryNow).toHaveAttribute('href', /^https:\/\/wa\.me\//);
  await expect(tryNow).toHaveAttribute('target', '_blank');
});

test.describe('on a phone', () => {
  test.use({ viewport: { width: 390, height: 844 } });
  test('the drawer offers login only while subscriptions are on', async ({ page, request }) => {
    await setFeatures(request, { subscription: true });
    await page.goto('/en');
    await page.getByRole('button', { name: 'Open menu' }).click();
    await expect(page.getByTestId('drawer-login')).toHaveAttribute('href', '/en/login');

    await setFeatures(request, { subscription: false });
    await page.reload();
    await page.getByRole('button', { name: 'Open menu' }).click();
    await expect(page.getByRole('dialog').getByRole('link', { name: 'Payments' })).toBeVisible();
    await expect(page.getByTestId('drawer-login')).toHaveCount(0);
  });
});

test('the features payload answers the spec defaults to anyone', async ({ request }) => {
  await setFeatures(request, { contactForm: true, subscription: true });
  const response = await request.get('/api/features');
  expect(await response.json()).toMatchObject({
    contactForm: true,
    subscription: true,
    region: 'hk',
    currency: 'HKD',
    currencies: ['SGD', 'HKD'],
  });
});

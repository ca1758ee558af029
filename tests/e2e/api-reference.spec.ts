import { bothThemesViolations } from './axe.ts';
import { expect, test } from './fixtures.ts';
import { users } from './users.ts';

/*
 * The API's reference for developers (decision 058): reached from every public page's footer, read
 * and searched without a script, in the site's style in both themes; a visitor reads what a visitor
 * may call, staff the staff's services too.
 */

test.describe('the API reference', () => {
  test('is linked from the footer, and searched with a plain form', async ({ page, navigate }) => {
    await navigate('/:lang/pricing', { lang: 'en' });
    await page.getByTestId('site-footer').getByRole('link', { name: 'Developers: API reference' }).click();
    await expect(page).toHaveURL(/\/en\/developers\/api$/);
    await expect(page).toHaveTitle(/API reference/);
    await expect(page.getByRole('heading', { level: 1, name: 'API reference' })).toBeVisible();
    await expect(page.getByRole('heading', { name: 'industries', exact: true })).toBeVisible();
    // A visitor is not shown the staff's services.
    await expect(page.getByRole('heading', { name: 'auditLogs', exact: true })).toHaveCount(0);
    await expect(page.getByRole('link', { name: /The OpenAPI document/ })).toHaveAttribute('href', '/api/openapi.json');
    // No script of the framework, nor of the reference, is sent.
    expect(await page.locator('script[src]').count()).toBe(0);

    await page.getByRole('searchbox', { name: 'Search the services' }).fill('deliveryDates');
    await page.getByRole('button', { name: 'Search' }).click();
    await expect(page).toHaveURL(/\?q=deliveryDates$/);
    await expect(page.getByTestId('reference-service')).toHaveCount(1);
    await expect(page.getByRole('heading', { name: 'deliveryDates', exact: true })).toBeVisible();
  });

  test('is in every language', async ({ page, navigate }) => {
    await navigate('/:lang/developers/api', { lang: 'zh-hk' });
    await expect(page.getByRole('heading', { level: 1, name: 'API 參考' })).toBeVisible();
    await navigate('/:lang/developers/api', { lang: 'zh-cn' });
    await expect(page.getByRole('heading', { level: 1, name: 'API 参考' })).toBeVisible();
  });

  test('shows staff the staff’s services', async ({ page, navigate, login }) => {
    await login(users.admin);
    await navigate('/:lang/developers/api', { lang: 'en' });
    await expect(page.getByRole('heading', { name: 'auditLogs', exact: true })).toBeVisible();
  });

  test('passes axe in both themes', async ({ page, navigate }) => {
    await navigate('/:lang/developers/api', { lang: 'en' });
    await page.getByRole('searchbox', { name: 'Search the services' }).fill('blogs');
    await page.getByRole('button', { name: 'Search' }).click();
    await expect(page.getByTestId('reference-service').first()).toBeVisible();
    expect(await bothThemesViolations(page)).toEqual([]);
  });
});

import { describe, expect, it } from 'vitest';
import { isPrivatePath, isPublicSitePath, isPurchasePath, publicPagePaths } from './public-pages.ts';

describe('public pages', () => {
  it('names the product pages by the brand', () => {
    expect(publicPagePaths('acme')).toEqual(
      expect.arrayContaining(['', '/acmeRestaurant', '/acmeStore', '/acmePay', '/pricing', '/blogs']),
    );
  });

  it('knows the private sections of each language, and their client navigation data', () => {
    for (const path of [
      '/en/portal',
      '/zh-hk/portal/apps/x',
      '/zh-cn/login',
      '/en/login.data',
      '/en/logout',
      '/en/subscription',
      '/en/forgot-password',
      '/zh-hk/reset-password',
    ]) {
      expect(isPrivatePath(path), path).toBe(true);
    }
    // A plan template's page is a public page like the pricing it comes from.
    for (const path of [
      '/en',
      '/en/pricing',
      '/zh-hk/plan/abc123',
      '/zh-cn/plan/abc123.data',
      '/zh-hk/blogs/portal',
      '/portal',
      '/en/loginx',
      '/sitemap.xml',
    ]) {
      expect(isPrivatePath(path), path).toBe(false);
    }
  });

  it('knows the public site: a language and none of its private sections', () => {
    for (const path of ['/en', '/zh-hk/pricing', '/zh-cn/blogs/a', '/en/feature_list.data', '/zh-hk/plan/abc']) {
      expect(isPublicSitePath(path), path).toBe(true);
    }
    for (const path of [
      '/',
      '/admin',
      '/health',
      '/api/users',
      '/sitemap.xml',
      '/fr/pricing',
      '/en/portal',
      '/zh-cn/login.data',
    ]) {
      expect(isPublicSitePath(path), path).toBe(false);
    }
  });
});

describe('isPurchasePath', () => {
  it('is true for the purchase flow and upgrades in every language, and their data requests', () => {
    for (const path of ['/en/subscription', '/zh-hk/subscription.data', '/zh-cn/upgrade/plan-1', '/en/upgrade'])
      expect(isPurchasePath(path), path).toBe(true);
  });

  it('is false for every other page', () => {
    for (const path of [
      '/en',
      '/en/pricing',
      '/en/done/1',
      '/en/portal',
      '/subscription',
      '/fr/subscription',
      '/en/subscriptions',
      '/api/orders',
    ])
      expect(isPurchasePath(path), path).toBe(false);
  });
});

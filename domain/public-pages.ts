import { LOCALES } from './locales.ts';

/**
 * The public pages of every language, as paths after the language prefix (`''` is the home page).
 * The sitemap lists these, plus one page per industry (`/usecase/{key}`), per plan template
 * (`/plan/{id}`), per published article (`/blogs/{slug}`) and per campaign. A new public page is
 * added here, once.
 */
export function publicPagePaths(brandSlug: string): string[] {
  return [
    '',
    `/${brandSlug}Restaurant`,
    `/${brandSlug}Store`,
    `/${brandSlug}Pay`,
    '/advancedFeature',
    '/feature_list',
    '/graph',
    '/pricing',
    '/blogs',
    '/enquiryForm',
    '/terms',
  ];
}

/**
 * The first path segment (after the language) of pages that belong to a visitor or a purchase:
 * search engines are kept out of them and the page cache never stores them (a reset link's page
 * holds its token). (`/plan/{id}` is a
 * plan template's public page, not a member's plan: decision 011; the id of a member's subscription
 * there is a redirect or a 404, never a stored page: decision 044.)
 */
export const PRIVATE_SECTIONS = [
  'portal',
  'admin',
  'login',
  'logout',
  'forgot-password',
  'reset-password',
  // The apps' users' pages: a reset link's page.
  'app',
  'currency',
  'subscription',
  'done',
  'upgrade',
] as const;

/** Sections that robots.txt disallows: the member area, the back office, signing in and out, and a forgotten password, the members' or an app user's (nothing else there to index). */
export const ROBOTS_DISALLOWED_SECTIONS = [
  'portal',
  'admin',
  'login',
  'logout',
  'forgot-password',
  'reset-password',
  'app',
] as const;

/** Whether a request path is one of the private sections of a language (`/en/portal/apps` is). */
export function isPrivatePath(pathname: string): boolean {
  const [, lang = '', section = ''] = pathname.split('/');
  if (!(LOCALES as readonly string[]).includes(lang)) return false;
  // Client navigations fetch `/en/login.data`: the same page as `/en/login`.
  const name = section.replace(/\.data$/, '');
  return (PRIVATE_SECTIONS as readonly string[]).includes(name);
}

/**
 * Whether a request path is a page of the public site: under a language and outside its private
 * sections (`/en/pricing` is; `/en/portal`, `/admin` and `/health` are not).
 */
export function isPublicSitePath(pathname: string): boolean {
  const [, lang = ''] = pathname.split('/');
  return (LOCALES as readonly string[]).includes(lang) && !isPrivatePath(pathname);
}

/** Sections whose pages hold a payment provider's card fields (their CSP allows its frames: decision 019). */
export const PURCHASE_SECTIONS = ['subscription', 'upgrade'] as const;

/** Whether a request path is a purchase page (`/en/subscription`, `/zh-hk/upgrade/...`). */
export function isPurchasePath(pathname: string): boolean {
  const [, lang = '', section = '', page = ''] = pathname.split('/');
  if (!(LOCALES as readonly string[]).includes(lang)) return false;
  // The portal's card page takes a new card in the provider's fields (decision 031).
  if (section === 'portal') return page.replace(/\.data$/, '') === 'card';
  return (PURCHASE_SECTIONS as readonly string[]).includes(section.replace(/\.data$/, ''));
}

/** Whether a request path is the back office's (`/en/admin/orders`): staff only. */
export function isBackOfficePath(pathname: string): boolean {
  const [, lang = '', section = ''] = pathname.split('/');
  return (LOCALES as readonly string[]).includes(lang) && section.replace(/\.data$/, '') === 'admin';
}

import { type RouteConfig, index, layout, route } from '@react-router/dev/routes';

export default [
  // `/` goes to the visitor's language; every page lives under /en, /zh-hk or /zh-cn.
  index('routes/root-redirect.tsx'),
  // Read by search engines at the site's root; built per request from the settings and the catalogue.
  route('sitemap.xml', 'routes/seo/sitemap.ts'),
  route('robots.txt', 'routes/seo/robots.ts'),
  // A first segment that is not a language is a path without its prefix: the layout redirects it.
  route(':lang', 'routes/locale-layout.tsx', [
    layout('routes/site/layout.tsx', [
      index('routes/site/home.tsx'),
      // `/{brand}Restaurant`, `/{brand}Store`, `/{brand}Pay`: the brand is a setting, so the loader checks the name.
      route(':productPage', 'routes/site/product.tsx'),
      route('advancedFeature', 'routes/site/advanced-feature.tsx'),
      route('feature_list', 'routes/site/feature-list.tsx'),
      route('graph', 'routes/site/graph.tsx'),
      route('terms', 'routes/site/terms.tsx'),
      route('pricing', 'routes/site/pricing.tsx'),
      // Without an id: a member's own plan in the portal, a visitor's choice of plans (the pricing page).
      route('plan/:id?', 'routes/site/plan.tsx'),
      route('usecase/:industry?/:id?', 'routes/site/usecase.tsx'),
      route('blogs', 'routes/site/blogs.tsx'),
      route('blogs/:name', 'routes/site/blog.tsx'),
      // A news item of the apps, which its Facebook post links to (decision 059).
      route('news/:id', 'routes/site/news-item.tsx'),
      route('enquiryForm', 'routes/site/enquiry-form.tsx'),
      route('contactForm', 'routes/site/contact-form.tsx'),
      // The API's reference for developers, written from the definitions (decision 058).
      route('developers/api', 'routes/site/developers-api.tsx'),
      // The purchase flow: the site's header, no footer; its steps in `?step=` (decision 021).
      route('subscription', 'routes/purchase/subscription.tsx'),
      // The order just paid for (only its buyer and staff see it; without an id, the member's latest),
      // and the mailed verification link.
      route('done/:id?', 'routes/purchase/done.tsx'),
      route('verify', 'routes/purchase/verify.tsx'),
      route('*', 'routes/site/not-found.tsx'),
    ]),
    layout('routes/portal/login-layout.tsx', [
      route('login', 'routes/portal/login.tsx'),
      // An account without buying: the registration form, then the emailed code (decision 020, addendum).
      route('register', 'routes/portal/register.tsx'),
      // A forgotten password: ask for a mailed link, then set a new password with it (decision 026).
      route('forgot-password', 'routes/portal/forgot-password.tsx'),
      route('reset-password', 'routes/portal/reset-password.tsx'),
    ]),
    // The page of the link mailed to a user of the company's apps who forgot their password (decision 026).
    layout('routes/app-users/layout.tsx', [route('app/reset-password', 'routes/app-users/reset-password.tsx')]),
    route('logout', 'routes/portal/logout.tsx'),
    route('currency', 'routes/currency.tsx'),
    // Adding functions to a plan (decision 028): the dashboard's layout, outside /portal as the spec names it.
    layout('routes/portal/layout.tsx', { id: 'upgrade-layout' }, [route('upgrade/:id?', 'routes/portal/upgrade.tsx')]),
    route('portal', 'routes/portal/layout.tsx', [
      index('routes/portal/dashboard.tsx'),
      route('profile', 'routes/portal/profile.tsx'),
      // The newest plan, or one of the member's plans by its id (decision 044).
      route('plan/:id?', 'routes/portal/plan.tsx'),
      // The card renewals are charged to (decision 031): a purchase page, with the provider's fields.
      route('card', 'routes/portal/card.tsx'),
      // An app per module of the plan, by the module's key, and the devices registered to it (decision 030).
      route('apps', 'routes/portal/apps.tsx'),
      route('apps/:app', 'routes/portal/app-detail.tsx'),
      route('apps/:app/:entry', 'routes/portal/device.tsx'),
      // The member's invoices; each one's PDF is served by the API (decision 029).
      route('invoices', 'routes/portal/invoices.tsx'),
    ]),
    // The back office (decision 034): staff only; each entity's table, and its editor as a page.
    route('admin', 'routes/admin/layout.tsx', [
      index('routes/admin/home.tsx'),
      // The site's settings (the features payload): one record, not a table.
      route('settings', 'routes/admin/settings.tsx'),
      // The message keys a language lacks, as development pages reported them.
      route('translations', 'routes/admin/translations.tsx'),
      route(':source', 'routes/admin/table.tsx'),
      route(':source/new', 'routes/admin/edit.tsx', { id: 'admin-new' }),
      route(':source/edit/:id?', 'routes/admin/edit.tsx'),
    ]),
    layout('routes/campaign/layout.tsx', [route('campaign/:name', 'routes/campaign/campaign.tsx')]),
  ]),
] satisfies RouteConfig;

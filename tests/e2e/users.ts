/** The demo accounts the seed creates (README, "Demo accounts"). */
export interface DemoUser {
  email: string;
  password: string;
  name: string;
}

export const users = {
  owner: { email: 'owner@tillpoint.test', password: 'Owner12345', name: 'Mei Chan' },
  editor: { email: 'editor@tillpoint.test', password: 'Editor12345', name: 'Kelvin Lau' },
  admin: { email: 'admin@tillpoint.test', password: 'Admin12345', name: 'Administrator' },
  /** Bought a Lite plan 40 days before the seed day (server/db/seed/demo-subscriptions.ts). */
  monthly: { email: 'monthly@tillpoint.test', password: 'Monthly12345', name: 'Wing Lee' },
  /** Bought a Flexi plan, 24 months ahead, 220 days before the seed day. */
  prepaid: { email: 'prepaid@tillpoint.test', password: 'Prepaid12345', name: 'Ivy Ho' },
} as const satisfies Record<string, DemoUser>;

/**
 * Members the end-to-end tests add functions to (upgrade.spec.ts), one per test, so no other
 * spec sees their plans change: each bought Lite in Hong Kong 20 days before the server started
 * (tests/e2e/demo-accounts.ts makes them; a production start never does).
 */
export const upgradeMembers = {
  en: { email: 'upgrade-en@tillpoint.test', password: 'Upgrade12345', name: 'Chris Wong' },
  zhHk: { email: 'upgrade-zh@tillpoint.test', password: 'Upgrade12345', name: '陳大文' },
  twice: { email: 'upgrade-twice@tillpoint.test', password: 'Upgrade12345', name: 'Sam Lau' },
  /** The cross-engine tests' (tests/e2e/engines/upgrade.spec.ts and profile.spec.ts), one per engine. */
  webkit: { email: 'upgrade-webkit@tillpoint.test', password: 'Upgrade12345', name: 'Ada Ng' },
  firefox: { email: 'upgrade-firefox@tillpoint.test', password: 'Upgrade12345', name: '李小明' },
  /** Their card on file is one the bank now declines (Stripe's 4000 0000 0000 0341): paying falls back to another card. */
  declined: { email: 'upgrade-declined@tillpoint.test', password: 'Upgrade12345', name: 'Jo Cheung' },
  /**
   * A demo plan as the seed makes monthly@tillpoint.test's, its card put on file at the sandbox as
   * a start with demo data does (server/db/seed/demo-cards.ts): the one-press test pays with it,
   * so the seed's own demo members keep their plans as other specs read them.
   */
  demo: { email: 'upgrade-demo@tillpoint.test', password: 'Upgrade12345', name: 'Wing Lee' },
} as const satisfies Record<string, DemoUser>;

/**
 * The card each upgrade member's plan keeps on file, held by the sandbox gateway as a purchase by
 * card leaves it (tests/e2e/demo-accounts.ts); `twice` has a demo plan's card, which no gateway holds.
 */
export const UPGRADE_CARDS: Partial<Record<keyof typeof upgradeMembers, string>> = {
  en: '4242424242424242',
  zhHk: '4242424242424242',
  webkit: '4242424242424242',
  firefox: '4242424242424242',
  declined: '4000000000000341',
};

/**
 * Members the subscription-lifecycle tests stop, keep and pay (lifecycle.spec.ts and
 * engines/lifecycle.spec.ts), one per test. `overdue` has a renewal that failed: it falls due
 * the day before the server starts, was declined, and is tried again the day after
 * (tests/e2e/demo-accounts.ts makes that state as the renewals would).
 */
export const lifecycleMembers = {
  stopEn: { email: 'stop-en@tillpoint.test', password: 'Lifecycle12345', name: 'Kit Chan' },
  stopZh: { email: 'stop-zh@tillpoint.test', password: 'Lifecycle12345', name: '黃小玲' },
  overdueEn: { email: 'overdue-en@tillpoint.test', password: 'Lifecycle12345', name: 'Jo Yip' },
  overdueZh: { email: 'overdue-zh@tillpoint.test', password: 'Lifecycle12345', name: '何家明' },
  removeZh: { email: 'remove-zh@tillpoint.test', password: 'Lifecycle12345', name: '鄭家欣' },
  webkit: { email: 'stop-webkit@tillpoint.test', password: 'Lifecycle12345', name: 'Pat Lo' },
  firefox: { email: 'stop-firefox@tillpoint.test', password: 'Lifecycle12345', name: 'Lee Fung' },
} as const satisfies Record<string, DemoUser>;

/**
 * Members of the termination tests (termination.spec.ts, decision 044), each with a plan of their
 * own: `ending` a Flexi on a two-year contract with a year of it after its twelve prepaid months
 * (so ending it now has a fee), `owner` a Lite plan reached by its id at `/plan/{id}`.
 */
export const terminationMembers = {
  ending: { email: 'terminate-en@tillpoint.test', password: 'Terminate12345', name: 'Sam Ho' },
  owner: { email: 'plan-owner@tillpoint.test', password: 'Terminate12345', name: 'Wing Lau' },
  // The cross-engine test's (engines/termination.spec.ts), one per engine, each a Flexi as `ending`.
  webkit: { email: 'terminate-webkit@tillpoint.test', password: 'Terminate12345', name: 'Ming Tse' },
  firefox: { email: 'terminate-firefox@tillpoint.test', password: 'Terminate12345', name: 'Ka Yan Lui' },
} as const satisfies Record<string, DemoUser>;

/**
 * Members the apps tests register devices for (apps.spec.ts, engines/apps.spec.ts), one per test,
 * each with a Flexi restaurant plan of their own (one kitchen screen included) and two kiosks
 * bought with it (tests/e2e/demo-accounts.ts makes them). `viewer` is only looked at (a11y.spec.ts):
 * their kitchen screen is registered with a known id.
 */
export const appsMembers = {
  en: { email: 'apps-en@tillpoint.test', password: 'Apps12345', name: 'Kit Yeung' },
  zhHk: { email: 'apps-zh@tillpoint.test', password: 'Apps12345', name: '黃小玲' },
  webkit: { email: 'apps-webkit@tillpoint.test', password: 'Apps12345', name: 'Jo Tam' },
  firefox: { email: 'apps-firefox@tillpoint.test', password: 'Apps12345', name: '何志明' },
  viewer: { email: 'apps-viewer@tillpoint.test', password: 'Apps12345', name: 'Lou Fung' },
} as const satisfies Record<string, DemoUser>;

/** The viewer's kitchen screen (a11y.spec.ts opens its page). */
export const VIEWER_DEVICE = { _id: 'e2eviewerdevice000000001', name: 'Pass kitchen' } as const;

/**
 * Newsletter subscribers the back-office tests list, sort, page, edit and delete (admin.spec.ts),
 * made by tests/e2e/demo-accounts.ts with fixed ids. `table`: twelve that only the view tests read
 * (every third from the Singapore campaign); the others each belong to one test.
 */
export interface AdminRow {
  _id: string;
  email: string;
  name: string;
  companyName: string;
  campaign: '23hkrace' | 'sg23';
}

const adminRow = (n: number, email: string, campaign: AdminRow['campaign'] = '23hkrace'): AdminRow => ({
  _id: `e2eadminrow${String(n).padStart(13, '0')}`,
  email,
  name: `Reader ${String(n).padStart(2, '0')}`,
  companyName: `Shop ${String(n).padStart(2, '0')}`,
  campaign,
});

export const adminRows = {
  table: Array.from({ length: 12 }, (_, index) =>
    adminRow(
      index + 1,
      `admin-table-${String(index + 1).padStart(2, '0')}@tillpoint.test`,
      index % 3 === 2 ? 'sg23' : '23hkrace',
    ),
  ),
  edit: adminRow(20, 'admin-edit@tillpoint.test'),
  conflict: adminRow(21, 'admin-conflict@tillpoint.test'),
  remove: adminRow(22, 'admin-remove@tillpoint.test'),
  batch: [23, 24, 25].map((n) => adminRow(n, `admin-batch-${n}@tillpoint.test`)),
  /** Changed by others while a table shows them (live rows, Back after Reload). */
  live: [26, 27].map((n) => adminRow(n, `admin-live-${n}@tillpoint.test`)),
  /** The cross-engine tests' (tests/e2e/engines/admin.spec.ts), one per engine. */
  webkit: adminRow(30, 'admin-webkit@tillpoint.test'),
  firefox: adminRow(31, 'admin-firefox@tillpoint.test'),
  /** Opened in the editor by the accessibility checks only. */
  a11y: adminRow(32, 'admin-a11y@tillpoint.test'),
};

/**
 * Subscribers the table's pager is tested with (admin-pager.spec.ts): three more than the table
 * counts in page mode (1 000, decision 045), found by searching `admin-pager`.
 */
export const pagerRows = Array.from({ length: 1003 }, (_, index) => ({
  _id: `e2epagerrow${String(index + 1).padStart(13, '0')}`,
  email: `admin-pager-${String(index + 1).padStart(4, '0')}@tillpoint.test`,
}));

/** An app user the back-office tests change, made afresh at each server start (demo-accounts.ts), with their phones. */
export interface AppUserRow {
  _id: string;
  name: string;
  email: string;
  birthDay: string;
  gender: 'male' | 'female';
  locale: 'en' | 'zh-hk' | 'zh-cn';
  region: 'hk' | 'sg';
  devices: { _id: string; deviceId: string; platform: 'ios' | 'android'; pushToken: string | null }[];
}

/**
 * The app users the back office's tests edit and disable (app-users.spec.ts, engines/app-users.spec.ts),
 * one per test, reset to these values at each start; the seed's own app users stay as seeded.
 */
export const appUserRows = {
  edit: {
    _id: 'e2eappuseredit',
    name: '何美玲',
    email: 'e2e-appuser-edit@tillpoint.test',
    birthDay: '1985-03-08',
    gender: 'female',
    locale: 'zh-hk',
    region: 'hk',
    devices: [
      {
        _id: 'e2eappdevice1',
        deviceId: 'E2E0A1B2-C3D4-4E5F-8A9B-0C1D2E3F4A5B',
        platform: 'ios',
        pushToken: 'e2e0a1b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f60718293a4b5c6d7e',
      },
      { _id: 'e2eappdevice2', deviceId: 'e2e5d4c3b2a19f8e', platform: 'android', pushToken: null },
    ],
  },
  webkit: {
    _id: 'e2eappuserwebkit',
    name: 'Ada Ho',
    email: 'e2e-appuser-webkit@tillpoint.test',
    birthDay: '1992-12-01',
    gender: 'female',
    locale: 'en',
    region: 'hk',
    devices: [],
  },
  firefox: {
    _id: 'e2eappuserfirefox',
    name: '梁家豪',
    email: 'e2e-appuser-firefox@tillpoint.test',
    birthDay: '1980-06-30',
    gender: 'male',
    locale: 'zh-hk',
    region: 'sg',
    devices: [],
  },
} as const satisfies Record<string, AppUserRow>;

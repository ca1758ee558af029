import { offeredToIndustry } from '../billing/offered.ts';
import type { I18nText } from '../locales.ts';
import { type CurrencyCode, isCurrency } from '../money.ts';
import { type Billing, convert, DEFAULT_EXCHANGE_RATES, type ExchangeRates } from '../pricing.ts';

/*
 * The portal's apps (decision 030): one per module of a member's plan. What each kind of app needs
 * to be set up (its steps, in the `apps` messages), where its software comes from, and whether
 * devices register to it, by the module's key; and which apps a subscription has and could add.
 */

/** Where a download leads: an app store, the Android package itself, or the printable guide. */
export type DownloadKind = 'googlePlay' | 'appStore' | 'apk' | 'guide';

export interface AppDownload {
  kind: DownloadKind;
  url: string;
}

export interface AppDefinition {
  /** Message keys of its setup steps, in order. */
  steps: readonly string[];
  downloads: readonly AppDownload[];
  /** The prefix of its devices' codes (`KDS-7K3M9Q`); null when no device registers to it (it runs in the POS or the browser). */
  devicePrefix: string | null;
}

/*
 * PLACEHOLDERS. The company's store listings, packages and guides are not published yet: these
 * addresses follow the shape the real ones will have and are to be replaced by them here, the one
 * place the pages read them from (decision 030). None of them is on this site.
 */
const PLAY = 'https://play.google.com/store/apps/details?id=';
const APP_STORE = 'https://apps.apple.com/app/';
const DOWNLOADS = 'https://downloads.tillpoint.example';

const guide = (name: string): AppDownload => ({ kind: 'guide', url: `${DOWNLOADS}/guides/${name}.pdf` });
const android = (id: string, apk: string): AppDownload[] => [
  { kind: 'googlePlay', url: `${PLAY}${id}` },
  { kind: 'apk', url: `${DOWNLOADS}/android/${apk}.apk` },
];

/** Each kind of app by its module's key. A module without one shows what it does and its status only. */
export const APP_DEFINITIONS: Readonly<Record<string, AppDefinition>> = {
  kds: {
    steps: [
      'apps.setup.kds.tablet',
      'apps.setup.kds.install',
      'apps.setup.kds.pair',
      'apps.setup.kds.pos',
      'apps.setup.kds.stations',
    ],
    downloads: [...android('com.tillpoint.kds', 'tillpoint-kds'), guide('kds-setup')],
    devicePrefix: 'KDS',
  },
  ods: {
    steps: [
      'apps.setup.ods.screen',
      'apps.setup.ods.install',
      'apps.setup.ods.pair',
      'apps.setup.ods.orders',
      'apps.setup.ods.test',
    ],
    downloads: [...android('com.tillpoint.ods', 'tillpoint-ods'), guide('ods-setup')],
    devicePrefix: 'ODS',
  },
  'kiosk-self-order': {
    steps: [
      'apps.setup.kiosk.hardware',
      'apps.setup.kiosk.install',
      'apps.setup.kiosk.pair',
      'apps.setup.kiosk.menu',
      'apps.setup.kiosk.test',
    ],
    downloads: [...android('com.tillpoint.kiosk', 'tillpoint-kiosk'), guide('kiosk-setup')],
    devicePrefix: 'KSK',
  },
  'qr-self-order': {
    steps: [
      'apps.setup.qr.tables',
      'apps.setup.qr.menu',
      'apps.setup.qr.payment',
      'apps.setup.qr.print',
      'apps.setup.qr.test',
    ],
    downloads: [guide('qr-self-order-setup')],
    devicePrefix: null,
  },
  'online-shop': {
    steps: [
      'apps.setup.shop.address',
      'apps.setup.shop.products',
      'apps.setup.shop.delivery',
      'apps.setup.shop.publish',
    ],
    downloads: [guide('online-shop-setup')],
    devicePrefix: null,
  },
  purchasing: {
    steps: [
      'apps.setup.purchasing.suppliers',
      'apps.setup.purchasing.levels',
      'apps.setup.purchasing.install',
      'apps.setup.purchasing.receive',
    ],
    downloads: [
      { kind: 'googlePlay', url: `${PLAY}com.tillpoint.stock` },
      { kind: 'appStore', url: `${APP_STORE}tillpoint-stock/id0000000000` },
      guide('purchasing-setup'),
    ],
    devicePrefix: 'STK',
  },
  loyalty: {
    steps: [
      'apps.setup.loyalty.rules',
      'apps.setup.loyalty.tiers',
      'apps.setup.loyalty.counter',
      'apps.setup.loyalty.invite',
    ],
    downloads: [guide('loyalty-setup')],
    devicePrefix: null,
  },
};

const NO_APP: AppDefinition = { steps: [], downloads: [], devicePrefix: null };

/** The app of a module (by its key); a module the definitions do not know has no steps, downloads or devices. */
export function appDefinition(key: string | null | undefined): AppDefinition {
  return (key && Object.hasOwn(APP_DEFINITIONS, key) ? APP_DEFINITIONS[key] : undefined) ?? NO_APP;
}

/** A module of the catalogue as the apps read it. */
export interface AppModule {
  _id: string;
  key?: string | null;
  name: I18nText;
  shortDesc?: I18nText | null;
  description?: I18nText | null;
  counter: boolean;
  monthPrice: number;
  currency: string;
  billing: Billing;
  released: boolean;
  industries?: readonly string[] | null;
}

/**
 * An app's part of the address (`/portal/apps/kds`): the module's key, which is readable and
 * does not change when the catalogue is seeded again; its id when it has no key.
 */
export function appSlug(module: Pick<AppModule, '_id' | 'key'>): string {
  return module.key || module._id;
}

/** The module an address names: by key, else by id. */
export function moduleBySlug<M extends Pick<AppModule, '_id' | 'key'>>(
  catalogue: readonly M[],
  slug: string,
): M | undefined {
  return catalogue.find((module) => module.key === slug) ?? catalogue.find((module) => module._id === slug);
}

/** `suspended`: stopped while a renewal is unpaid (decision 031); `ended`: the plan was terminated (decision 044). */
export type AppStatus = 'active' | 'pending' | 'suspended' | 'ended';

/** A module of the member's subscription, as its app. */
export interface MemberApp {
  id: string;
  slug: string;
  /** Included in the plan (no price of its own), or bought. */
  included: boolean;
  count: number;
  status: AppStatus;
  /** The day a pending module is expected to be ready (Hong Kong calendar day). */
  availableOn: string | null;
}

/** A module the subscription could add: released, not had, sold to its industry. */
export interface OfferedApp {
  id: string;
  slug: string;
  billing: Billing;
  counter: boolean;
  /** Per unit and billing period, in the subscription's currency. */
  unitPrice: number;
}

export interface SubscriptionApps {
  apps: MemberApp[];
  offered: OfferedApp[];
}

/** The parts of a subscription its apps follow from. */
export interface AppsSubscription {
  industry: string;
  currency: CurrencyCode;
  modules: readonly {
    id: string;
    count: number;
    monthPrice: number;
    status?: AppStatus | null;
    availableOn?: string | null;
  }[];
}

/**
 * The member's apps: every module of the subscription (included and bought; a bought one pending
 * until staff set it up, decision 028), and the add-ons its industry could add, priced in its
 * currency as the dashboard and the upgrade price them.
 */
export function subscriptionApps(
  subscription: AppsSubscription,
  catalogue: readonly AppModule[],
  rates: ExchangeRates = DEFAULT_EXCHANGE_RATES,
): SubscriptionApps {
  const byId = new Map(catalogue.map((module) => [module._id, module]));
  const apps = subscription.modules.map((module): MemberApp => {
    const known = byId.get(module.id);
    const pending = module.status === 'pending';
    return {
      id: module.id,
      slug: known ? appSlug(known) : module.id,
      included: module.monthPrice === 0,
      count: module.count,
      status: pending
        ? 'pending'
        : module.status === 'suspended' || module.status === 'ended'
          ? module.status
          : 'active',
      availableOn: pending ? (module.availableOn ?? null) : null,
    };
  });
  const had = new Set(apps.map((app) => app.id));
  const offered = catalogue.flatMap((module): OfferedApp[] =>
    module.released &&
    !had.has(module._id) &&
    isCurrency(module.currency) &&
    offeredToIndustry(module, subscription.industry)
      ? [
          {
            id: module._id,
            slug: appSlug(module),
            billing: module.billing,
            counter: module.counter,
            unitPrice: convert(module.monthPrice, module.currency, subscription.currency, rates),
          },
        ]
      : [],
  );
  return { apps, offered };
}

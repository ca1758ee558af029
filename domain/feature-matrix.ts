/**
 * The feature matrix of the public feature list: which plan includes what, per product line.
 * Keys only: every visible word lives in `locales/*.json` under `featureList.features.<key>`.
 */

export const FEATURE_AREAS = [
  'ordering',
  'menu',
  'kitchen',
  'payments',
  'inventory',
  'customers',
  'staff',
  'reports',
  'online',
  'multiStore',
  'hardware',
] as const;
export type FeatureArea = (typeof FEATURE_AREAS)[number];

/** The two POS product lines; each maps to one industry of the catalogue. */
export const PRODUCT_LINES = ['restaurant', 'store'] as const;
export type ProductLine = (typeof PRODUCT_LINES)[number];

export const PLAN_TIERS = ['lite', 'flexi', 'flexiPlus'] as const;
export type PlanTier = (typeof PLAN_TIERS)[number];

export type Availability = 'included' | 'addOn' | 'none';

/** The catalogue's add-on modules (`modules[].key` in the seed). */
export type AddOnModule =
  | 'kds'
  | 'ods'
  | 'qr-self-order'
  | 'kiosk-self-order'
  | 'online-shop'
  | 'purchasing'
  | 'warranty-registration'
  | 'logistics'
  | 'loyalty';

/** Modules sold but not yet released: shown as coming later. */
export const UNRELEASED_MODULES: readonly AddOnModule[] = ['warranty-registration', 'logistics'];

/**
 * The modules each plan includes, per product line: the Flexi and Flexi+ app templates of the
 * restaurant and retail industries (a unit test holds this to the seed catalogue). Lite has none.
 */
export const PLAN_MODULES: Record<ProductLine, Record<Exclude<PlanTier, 'lite'>, readonly AddOnModule[]>> = {
  restaurant: {
    flexi: ['kds', 'qr-self-order', 'loyalty'],
    flexiPlus: ['kds', 'ods', 'qr-self-order', 'kiosk-self-order', 'online-shop', 'purchasing', 'loyalty'],
  },
  store: {
    flexi: ['online-shop', 'loyalty', 'purchasing'],
    flexiPlus: ['online-shop', 'purchasing', 'loyalty', 'kiosk-self-order', 'ods'],
  },
};

/** The catalogue industry behind each product line. */
export const LINE_INDUSTRY: Record<ProductLine, string> = { restaurant: 'restaurant', store: 'retail' };

interface FeatureBase {
  key: string;
  area: FeatureArea;
  /** Only for these product lines; both when absent. */
  lines?: readonly ProductLine[];
}

/** Part of the plans themselves, from one tier upwards; not sold separately below it. */
interface PlanFeature extends FeatureBase {
  from: PlanTier;
}

/** Comes with an add-on module: included where the plan includes the module, else an add-on. */
interface ModuleFeature extends FeatureBase {
  module: AddOnModule;
}

export type Feature = PlanFeature | ModuleFeature;

const R = ['restaurant'] as const;
const S = ['store'] as const;

export const FEATURES: readonly Feature[] = [
  // Ordering & checkout
  { key: 'tableMap', area: 'ordering', from: 'lite', lines: R },
  { key: 'orderTypes', area: 'ordering', from: 'lite' },
  { key: 'splitBill', area: 'ordering', from: 'lite', lines: R },
  { key: 'holdOrders', area: 'ordering', from: 'lite' },
  { key: 'barcodeCheckout', area: 'ordering', from: 'lite', lines: S },
  { key: 'discounts', area: 'ordering', from: 'lite' },
  { key: 'offlineMode', area: 'ordering', from: 'lite' },
  { key: 'qrOrdering', area: 'ordering', module: 'qr-self-order' },
  { key: 'qrPayAtTable', area: 'ordering', module: 'qr-self-order', lines: R },
  { key: 'kioskOrdering', area: 'ordering', module: 'kiosk-self-order' },
  // Menu & products
  { key: 'modifiers', area: 'menu', from: 'lite' },
  { key: 'combos', area: 'menu', from: 'lite' },
  { key: 'variants', area: 'menu', from: 'lite', lines: S },
  { key: 'soldOut', area: 'menu', from: 'lite' },
  { key: 'bulkImport', area: 'menu', from: 'lite' },
  { key: 'timedMenus', area: 'menu', from: 'flexi', lines: R },
  { key: 'channelPrices', area: 'menu', from: 'flexi' },
  // Kitchen & fulfilment
  { key: 'kitchenPrinting', area: 'kitchen', from: 'lite', lines: R },
  { key: 'kdsStations', area: 'kitchen', module: 'kds', lines: R },
  { key: 'prepTimers', area: 'kitchen', module: 'kds', lines: R },
  { key: 'courseFiring', area: 'kitchen', module: 'kds', lines: R },
  { key: 'pickupScreen', area: 'kitchen', module: 'ods' },
  { key: 'logisticsIntegration', area: 'kitchen', module: 'logistics', lines: S },
  // Payments
  { key: 'paymentMethods', area: 'payments', from: 'lite' },
  { key: 'integratedTerminal', area: 'payments', from: 'lite' },
  { key: 'mixedTender', area: 'payments', from: 'lite' },
  { key: 'refunds', area: 'payments', from: 'lite' },
  { key: 'settlement', area: 'payments', from: 'lite' },
  { key: 'cashManagement', area: 'payments', from: 'lite' },
  { key: 'eReceipts', area: 'payments', from: 'lite' },
  // Inventory & purchasing
  { key: 'stockTracking', area: 'inventory', from: 'lite' },
  { key: 'lowStockAlerts', area: 'inventory', from: 'lite' },
  { key: 'recipeCosting', area: 'inventory', from: 'flexi', lines: R },
  { key: 'stocktake', area: 'inventory', from: 'flexi' },
  { key: 'purchaseOrders', area: 'inventory', module: 'purchasing' },
  { key: 'goodsReceiving', area: 'inventory', module: 'purchasing' },
  { key: 'suppliers', area: 'inventory', module: 'purchasing' },
  { key: 'warrantyRegistration', area: 'inventory', module: 'warranty-registration', lines: S },
  // Customers & loyalty
  { key: 'customerProfiles', area: 'customers', from: 'lite' },
  { key: 'points', area: 'customers', module: 'loyalty' },
  { key: 'memberTiers', area: 'customers', module: 'loyalty' },
  { key: 'storedValue', area: 'customers', module: 'loyalty' },
  { key: 'coupons', area: 'customers', module: 'loyalty' },
  // Staff & permissions
  { key: 'staffAccounts', area: 'staff', from: 'lite' },
  { key: 'managerApproval', area: 'staff', from: 'lite' },
  { key: 'jobPermissions', area: 'staff', from: 'flexi' },
  { key: 'timeClock', area: 'staff', from: 'flexi' },
  { key: 'auditLog', area: 'staff', from: 'flexi' },
  // Reports & analytics
  { key: 'salesDashboard', area: 'reports', from: 'lite' },
  { key: 'dailyClose', area: 'reports', from: 'lite' },
  { key: 'productMix', area: 'reports', from: 'lite' },
  { key: 'reportExport', area: 'reports', from: 'lite' },
  { key: 'staffPerformance', area: 'reports', from: 'flexi' },
  { key: 'peakHours', area: 'reports', from: 'flexi' },
  // Online & omnichannel
  { key: 'webShop', area: 'online', module: 'online-shop' },
  { key: 'onlineOrdering', area: 'online', module: 'online-shop', lines: R },
  { key: 'sharedStock', area: 'online', module: 'online-shop', lines: S },
  { key: 'deliveryPlatforms', area: 'online', from: 'flexi', lines: R },
  // Multi-store & head office
  { key: 'multiStoreDashboard', area: 'multiStore', from: 'flexiPlus' },
  { key: 'centralCatalogue', area: 'multiStore', from: 'flexiPlus' },
  { key: 'stockTransfers', area: 'multiStore', from: 'flexiPlus' },
  { key: 'openApi', area: 'multiStore', from: 'flexiPlus' },
  // Hardware & support
  { key: 'hardwareBundles', area: 'hardware', from: 'lite' },
  { key: 'fastDelivery', area: 'hardware', from: 'lite' },
  { key: 'support247', area: 'hardware', from: 'lite' },
  { key: 'onboarding', area: 'hardware', from: 'lite' },
  { key: 'cloudBackup', area: 'hardware', from: 'lite' },
  { key: 'accountManager', area: 'hardware', from: 'flexiPlus' },
];

export function availability(feature: Feature, tier: PlanTier, line: ProductLine): Availability {
  if ('module' in feature) {
    return tier !== 'lite' && PLAN_MODULES[line][tier].includes(feature.module) ? 'included' : 'addOn';
  }
  return PLAN_TIERS.indexOf(tier) >= PLAN_TIERS.indexOf(feature.from) ? 'included' : 'none';
}

export function comesLater(feature: Feature): boolean {
  return 'module' in feature && UNRELEASED_MODULES.includes(feature.module);
}

export function isFeatureArea(value: unknown): value is FeatureArea {
  return typeof value === 'string' && (FEATURE_AREAS as readonly string[]).includes(value);
}

export function isProductLine(value: unknown): value is ProductLine {
  return typeof value === 'string' && (PRODUCT_LINES as readonly string[]).includes(value);
}

/** What the visitor asked for: `?q=`, `?area=` and `?pos=` (unknown values are ignored). */
export interface FeatureQuery {
  q: string;
  area: FeatureArea | null;
  line: ProductLine;
}

export const MAX_QUERY_LENGTH = 100;

export function parseFeatureQuery(params: URLSearchParams): FeatureQuery {
  const area = params.get('area');
  const line = params.get('pos');
  return {
    q: (params.get('q') ?? '').slice(0, MAX_QUERY_LENGTH),
    area: isFeatureArea(area) ? area : null,
    line: isProductLine(line) ? line : 'restaurant',
  };
}

/** The query string for a query, leaving out what is the default. */
export function featureSearch(query: FeatureQuery): string {
  const params = new URLSearchParams();
  if (query.q.trim()) params.set('q', query.q);
  if (query.area) params.set('area', query.area);
  if (query.line !== 'restaurant') params.set('pos', query.line);
  const text = params.toString();
  return text ? `?${text}` : '';
}

/** Case, width and accents do not matter: `ＱＲ`, `qr` and `QR` are the same. */
function normalise(text: string): string {
  return text.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase();
}

/** Every word of the search appears somewhere in the text (Chinese needs no spaces: any substring matches). */
export function matchesSearch(text: string, search: string): boolean {
  const haystack = normalise(text);
  return normalise(search)
    .split(/\s+/)
    .filter(Boolean)
    .every((word) => haystack.includes(word));
}

/**
 * The features of a product line that match the query, in matrix order. `textOf` gives a
 * feature's searchable words in the page's language (name, description, area).
 */
export function filterFeatures(
  features: readonly Feature[],
  query: FeatureQuery,
  textOf: (feature: Feature) => string,
): Feature[] {
  return features.filter(
    (feature) =>
      (!feature.lines || feature.lines.includes(query.line)) &&
      (!query.area || feature.area === query.area) &&
      matchesSearch(textOf(feature), query.q),
  );
}

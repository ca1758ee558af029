import { describe, expect, it } from 'vitest';
import { appTemplates, modules } from '../server/db/seed/catalogue.ts';
import {
  availability,
  comesLater,
  FEATURES,
  featureSearch,
  filterFeatures,
  LINE_INDUSTRY,
  matchesSearch,
  parseFeatureQuery,
  PLAN_MODULES,
  PRODUCT_LINES,
  type Feature,
  type FeatureQuery,
} from './feature-matrix.ts';

const byKey = (key: string): Feature => {
  const found = FEATURES.find((feature) => feature.key === key);
  if (!found) throw new Error(`no feature ${key}`);
  return found;
};
const query = (partial: Partial<FeatureQuery> = {}): FeatureQuery => ({
  q: '',
  area: null,
  line: 'restaurant',
  ...partial,
});

describe('the feature matrix', () => {
  it('has unique keys and around sixty features per product line', () => {
    const keys = FEATURES.map((feature) => feature.key);
    expect(new Set(keys).size).toBe(keys.length);
    for (const line of PRODUCT_LINES) {
      const shown = filterFeatures(FEATURES, query({ line }), () => '');
      expect(shown.length).toBeGreaterThanOrEqual(55);
    }
  });

  it('includes in Flexi and Flexi+ exactly the modules of the catalogue’s templates', () => {
    for (const line of PRODUCT_LINES) {
      const industry = LINE_INDUSTRY[line];
      const moduleKeys = (type: string) =>
        appTemplates
          .find((plan) => plan.industryKey === industry && plan.type === type)
          ?.modules.map((m) => m.moduleKey)
          .sort();
      expect([...PLAN_MODULES[line].flexi].sort()).toEqual(moduleKeys('flexi'));
      expect([...PLAN_MODULES[line].flexiPlus].sort()).toEqual(moduleKeys('enterprise'));
      expect(moduleKeys('lite')).toEqual([]);
    }
  });

  it('names only modules the catalogue sells, and marks the unreleased ones as coming later', () => {
    const sold = new Map(modules.map((module) => [module.key, module.released]));
    for (const feature of FEATURES) {
      if (!('module' in feature)) continue;
      expect(sold.has(feature.module), feature.key).toBe(true);
      expect(comesLater(feature), feature.key).toBe(sold.get(feature.module) === false);
    }
  });

  it('gives restaurants KDS, QR self-order and loyalty with Flexi, and everything released with Flexi+', () => {
    for (const key of ['kdsStations', 'qrOrdering', 'points']) {
      expect(availability(byKey(key), 'lite', 'restaurant')).toBe('addOn');
      expect(availability(byKey(key), 'flexi', 'restaurant')).toBe('included');
    }
    expect(availability(byKey('kioskOrdering'), 'flexi', 'restaurant')).toBe('addOn');
    const released = FEATURES.filter(
      (feature) => !comesLater(feature) && (!feature.lines || feature.lines.includes('restaurant')),
    );
    expect(
      released.filter((feature) => availability(feature, 'flexiPlus', 'restaurant') !== 'included').map((f) => f.key),
    ).toEqual([]);
  });

  it('keeps plan features out of lower plans', () => {
    expect(availability(byKey('jobPermissions'), 'lite', 'store')).toBe('none');
    expect(availability(byKey('jobPermissions'), 'flexi', 'store')).toBe('included');
    expect(availability(byKey('multiStoreDashboard'), 'flexi', 'restaurant')).toBe('none');
    expect(availability(byKey('multiStoreDashboard'), 'flexiPlus', 'restaurant')).toBe('included');
    expect(availability(byKey('paymentMethods'), 'lite', 'restaurant')).toBe('included');
  });
});

describe('searching features', () => {
  it('matches every word, ignoring case, width and accents', () => {
    expect(matchesSearch('QR code table ordering', 'qr ORDER')).toBe(true);
    expect(matchesSearch('QR code table ordering', 'ＱＲ')).toBe(true);
    expect(matchesSearch('Café menus', 'cafe')).toBe(true);
    expect(matchesSearch('QR code table ordering', 'qr kiosk')).toBe(false);
    expect(matchesSearch('掃碼點餐', '點餐')).toBe(true);
    expect(matchesSearch('anything', '   ')).toBe(true);
  });

  it('filters by product line, area and words together', () => {
    const text = (feature: Feature) => feature.key;
    expect(filterFeatures(FEATURES, query({ q: 'barcode' }), text)).toEqual([]);
    expect(filterFeatures(FEATURES, query({ q: 'barcode', line: 'store' }), text).map((f) => f.key)).toEqual([
      'barcodeCheckout',
    ]);
    const kitchen = filterFeatures(FEATURES, query({ area: 'kitchen' }), text);
    expect(kitchen.length).toBeGreaterThan(0);
    expect(kitchen.every((feature) => feature.area === 'kitchen')).toBe(true);
    expect(filterFeatures(FEATURES, query({ area: 'payments', q: 'refund' }), text).map((f) => f.key)).toEqual([
      'refunds',
    ]);
  });

  it('reads the query from the URL, ignoring unknown values, and writes it back without defaults', () => {
    expect(parseFeatureQuery(new URLSearchParams('q=qr&area=kitchen&pos=store'))).toEqual({
      q: 'qr',
      area: 'kitchen',
      line: 'store',
    });
    expect(parseFeatureQuery(new URLSearchParams('area=nope&pos=bank'))).toEqual(query());
    expect(parseFeatureQuery(new URLSearchParams(`q=${'x'.repeat(500)}`)).q).toHaveLength(100);
    expect(featureSearch(query())).toBe('');
    expect(featureSearch(query({ q: 'split bill', area: 'ordering', line: 'store' }))).toBe(
      '?q=split+bill&area=ordering&pos=store',
    );
  });
});

import { describe, expect, it } from 'vitest';
import en from '../../locales/en.json';
import { APP_DEFINITIONS, appDefinition, appSlug, type AppModule, moduleBySlug, subscriptionApps } from './apps.ts';

const module = (over: Partial<AppModule> & Pick<AppModule, '_id'>): AppModule => ({
  key: over._id,
  name: { en: over._id },
  counter: false,
  monthPrice: 10000,
  currency: 'HKD',
  billing: 'monthly',
  released: true,
  ...over,
});

/** The message at a dotted key of the English catalogue. */
function message(key: string): unknown {
  return key
    .split('.')
    .reduce<unknown>(
      (node, part) => (typeof node === 'object' && node !== null ? (node as Record<string, unknown>)[part] : undefined),
      en,
    );
}

describe('app definitions', () => {
  it('have setup steps that exist in the messages, and downloads off this site', () => {
    for (const [key, app] of Object.entries(APP_DEFINITIONS)) {
      expect(app.steps.length, key).toBeGreaterThan(2);
      for (const step of app.steps) expect(typeof message(step), step).toBe('string');
      for (const download of app.downloads)
        expect(download.url, key).toMatch(/^https:\/\/(?!localhost)[a-z.-]+\.[a-z]+\//);
    }
  });

  it('give devices to the apps that run on a device of their own', () => {
    expect(appDefinition('kds').devicePrefix).toBe('KDS');
    expect(appDefinition('kiosk-self-order').devicePrefix).toBe('KSK');
    expect(appDefinition('qr-self-order').devicePrefix).toBeNull();
    // A module the definitions do not know (or a key shaped like an object's own property) is a bare app.
    expect(appDefinition('warranty-registration')).toEqual({ steps: [], downloads: [], devicePrefix: null });
    expect(appDefinition('constructor')).toEqual({ steps: [], downloads: [], devicePrefix: null });
    expect(appDefinition(null).devicePrefix).toBeNull();
  });
});

describe('app addresses', () => {
  it('name a module by its key, or its id when it has none', () => {
    expect(appSlug({ _id: 'abc123', key: 'kds' })).toBe('kds');
    expect(appSlug({ _id: 'abc123', key: null })).toBe('abc123');
    const catalogue = [module({ _id: 'm1', key: 'kds' }), module({ _id: 'm2', key: null })];
    expect(moduleBySlug(catalogue, 'kds')?._id).toBe('m1');
    expect(moduleBySlug(catalogue, 'm2')?._id).toBe('m2');
    expect(moduleBySlug(catalogue, 'm1')?._id).toBe('m1');
    expect(moduleBySlug(catalogue, 'ods')).toBeUndefined();
  });
});

describe('a subscription’s apps', () => {
  const catalogue = [
    module({ _id: 'kds', counter: true, monthPrice: 18800 }),
    module({ _id: 'qr' }),
    module({ _id: 'shop', monthPrice: 48800 }),
    module({ _id: 'later', released: false }),
    module({ _id: 'retail-only', industries: ['retail'] }),
    module({ _id: 'purchasing', billing: 'one_time', monthPrice: 380000 }),
  ];

  it('lists every module of the plan with its status, and what its industry could add, in its currency', () => {
    const { apps, offered } = subscriptionApps(
      {
        industry: 'restaurant',
        currency: 'SGD',
        modules: [
          { id: 'kds', count: 2, monthPrice: 0 },
          { id: 'qr', count: 1, monthPrice: 50000, status: 'active' },
          { id: 'shop', count: 1, monthPrice: 9000, status: 'pending', availableOn: '2026-03-04' },
        ],
      },
      catalogue,
      { HKD: 1, SGD: 0.2 } as never,
    );
    expect(apps).toEqual([
      { id: 'kds', slug: 'kds', included: true, count: 2, status: 'active', availableOn: null },
      { id: 'qr', slug: 'qr', included: false, count: 1, status: 'active', availableOn: null },
      { id: 'shop', slug: 'shop', included: false, count: 1, status: 'pending', availableOn: '2026-03-04' },
    ]);
    // Not released, another industry's, or already had: not offered.
    expect(offered).toEqual([
      { id: 'purchasing', slug: 'purchasing', billing: 'one_time', counter: false, unitPrice: 76000 },
    ]);
  });
});

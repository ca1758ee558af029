import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

describe('reporting missing translations in development', () => {
  const fetch = vi.fn(async () => new Response('{}', { status: 201 }));
  beforeEach(() => {
    vi.resetModules();
    vi.useFakeTimers();
    fetch.mockClear();
    vi.stubGlobal('fetch', fetch);
    vi.stubGlobal('window', { location: { pathname: '/zh-hk/pricing' } });
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  it('sends the keys of the last 3 s in one batch, each key and language once', async () => {
    const { reportMissing } = await import('./missing');
    reportMissing('nav.blog', 'zh-hk');
    reportMissing('nav.blog', 'zh-hk');
    reportMissing('nav.blog', 'zh-cn');
    vi.advanceTimersByTime(2999);
    expect(fetch).not.toHaveBeenCalled();
    reportMissing('home.title', 'zh-hk');
    vi.advanceTimersByTime(1);
    expect(fetch).toHaveBeenCalledTimes(1);
    const [url, init] = fetch.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('/api/missingTranslate');
    expect(JSON.parse(String(init.body))).toEqual([
      { key: 'nav.blog', locale: 'zh-hk', url: '/zh-hk/pricing' },
      { key: 'nav.blog', locale: 'zh-cn', url: '/zh-hk/pricing' },
      { key: 'home.title', locale: 'zh-hk', url: '/zh-hk/pricing' },
    ]);
    // Already reported: nothing more is sent for the same keys.
    reportMissing('nav.blog', 'zh-hk');
    vi.advanceTimersByTime(5000);
    expect(fetch).toHaveBeenCalledTimes(1);
  });
});

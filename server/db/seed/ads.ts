import type { Knex } from 'knex';
import type { AdType } from '../../../domain/entities/ads.ts';
import type { CurrencyCode } from '../../../domain/money.ts';
import type { I18nText } from '../../../domain/locales.ts';
import { newId } from '../ids.ts';

/*
 * Demo ads, campaigns and products of the company's consumer apps (decision 057), while demo data
 * is on: what a POS company shows its merchants' customers in Hong Kong and Singapore, in three
 * languages. Windows are counted from the seed day, so some ads run now, one has ended, one is
 * still a draft and one has met its target. The two campaigns are the microsites' own
 * (`/campaign/23hkrace`, `/campaign/sg23`).
 */

const DAY = 86_400_000;

interface SeedAd {
  key: string;
  name: I18nText;
  adType: AdType;
  targetLink: string;
  weight: number;
  probability: number;
  /** Days from the seed day: negative in the past. */
  publishIn: number;
  expiryIn: number;
  status: 'draft' | 'published';
  views: number;
  targetViews: number;
  clicks: number;
  targetClicks: number;
  remarks?: string;
}

const ADS: readonly SeedAd[] = [
  {
    key: 'octopus-cashback',
    name: { en: 'Pay by Octopus, get 5% back', 'zh-hk': '八達通付款享 5% 回贈', 'zh-cn': '八达通付款享 5% 回赠' },
    adType: 'fullscreen',
    targetLink: 'https://tillpoint.example/offers/octopus',
    weight: 5,
    probability: 80,
    publishIn: -10,
    expiryIn: 20,
    status: 'published',
    views: 1843,
    targetViews: 20000,
    clicks: 212,
    targetClicks: 0,
  },
  {
    key: 'qr-order-lunch',
    name: {
      en: 'Order lunch by QR, skip the queue',
      'zh-hk': '掃碼點餐，午市唔使等',
      'zh-cn': '扫码点餐，午市不用排队',
    },
    adType: 'list',
    targetLink: 'https://tillpoint.example/qr-order',
    weight: 3,
    probability: 100,
    publishIn: -30,
    expiryIn: 60,
    status: 'published',
    views: 9320,
    targetViews: 0,
    clicks: 611,
    targetClicks: 2000,
  },
  {
    key: 'kiosk-video',
    name: { en: 'Self-order kiosks in 60 seconds', 'zh-hk': '60 秒認識自助點餐機', 'zh-cn': '60 秒了解自助点餐机' },
    adType: 'video',
    targetLink: 'https://tillpoint.example/kiosk',
    weight: 2,
    probability: 60,
    publishIn: -5,
    expiryIn: 25,
    status: 'published',
    views: 402,
    targetViews: 5000,
    clicks: 37,
    targetClicks: 0,
  },
  {
    key: 'loyalty-stamps',
    name: {
      en: 'Collect stamps at your favourite café',
      'zh-hk': '喺你最愛嘅咖啡店儲印花',
      'zh-cn': '在你最爱的咖啡店集印花',
    },
    adType: 'article',
    targetLink: 'tillpoint://loyalty',
    weight: 1,
    probability: 100,
    publishIn: -14,
    expiryIn: 45,
    status: 'published',
    views: 2750,
    targetViews: 0,
    clicks: 190,
    targetClicks: 0,
  },
  {
    key: 'paynow-sg',
    name: {
      en: 'PayNow at the counter, no cash needed',
      'zh-hk': '櫃台 PayNow 付款，毋須現金',
      'zh-cn': '柜台 PayNow 付款，无需现金',
    },
    adType: 'footer',
    targetLink: 'https://tillpoint.example/sg/paynow',
    weight: 4,
    probability: 90,
    publishIn: -3,
    expiryIn: 27,
    status: 'published',
    views: 1288,
    targetViews: 10000,
    clicks: 74,
    targetClicks: 0,
  },
  {
    key: 'race-day-footer',
    name: {
      en: 'Race day: 2-for-1 drinks near the course',
      'zh-hk': '賽馬日：馬場附近飲品買一送一',
      'zh-cn': '赛马日：马场附近饮品买一送一',
    },
    adType: 'footer',
    targetLink: '/campaign/23hkrace',
    weight: 3,
    probability: 100,
    publishIn: -2,
    expiryIn: 12,
    status: 'published',
    views: 530,
    targetViews: 0,
    clicks: 48,
    targetClicks: 0,
  },
  {
    key: 'sg-hawker-week',
    name: {
      en: 'Hawker week: cashless and quick',
      'zh-hk': '小販美食週：免現金又快捷',
      'zh-cn': '小贩美食周：免现金又快捷',
    },
    adType: 'list',
    targetLink: '/campaign/sg23',
    weight: 2,
    probability: 100,
    publishIn: -1,
    expiryIn: 20,
    status: 'published',
    views: 210,
    targetViews: 0,
    clicks: 19,
    targetClicks: 0,
  },
  {
    key: 'mid-autumn',
    name: { en: 'Mid-Autumn mooncake pre-orders', 'zh-hk': '中秋月餅預訂', 'zh-cn': '中秋月饼预订' },
    adType: 'article',
    targetLink: 'https://tillpoint.example/offers/mooncakes',
    weight: 2,
    probability: 100,
    publishIn: -70,
    expiryIn: -40,
    status: 'published',
    views: 6400,
    targetViews: 0,
    clicks: 380,
    targetClicks: 0,
    remarks: 'Ended with the festival.',
  },
  {
    key: 'printer-promo',
    name: { en: 'Free receipt paper for a year', 'zh-hk': '免費收據紙一年', 'zh-cn': '免费收据纸一年' },
    adType: 'fullscreen',
    targetLink: 'https://tillpoint.example/offers/paper',
    weight: 1,
    probability: 50,
    publishIn: -20,
    expiryIn: 10,
    status: 'published',
    views: 3000,
    targetViews: 3000,
    clicks: 88,
    targetClicks: 0,
    remarks: 'Target met: raise it to run again.',
  },
  {
    key: 'lunar-new-year',
    name: { en: 'Lunar New Year red packet draw', 'zh-hk': '新春利是大抽獎', 'zh-cn': '新春红包大抽奖' },
    adType: 'video',
    targetLink: 'https://tillpoint.example/offers/lny',
    weight: 3,
    probability: 100,
    publishIn: 40,
    expiryIn: 70,
    status: 'draft',
    views: 0,
    targetViews: 0,
    clicks: 0,
    targetClicks: 0,
    remarks: 'Waiting for the artwork.',
  },
];

const CAMPAIGNS = [
  {
    key: '23hkrace',
    name: { en: 'Hong Kong race day', 'zh-hk': '香港賽馬日', 'zh-cn': '香港赛马日' },
    ads: ['race-day-footer', 'qr-order-lunch', 'octopus-cashback'],
    publishIn: -2,
    expiryIn: 12,
    remarks: 'Shown on the /campaign/23hkrace microsite.',
  },
  {
    key: 'sg23',
    name: { en: 'Singapore hawker week', 'zh-hk': '新加坡小販美食週', 'zh-cn': '新加坡小贩美食周' },
    ads: ['sg-hawker-week', 'paynow-sg'],
    publishIn: -1,
    expiryIn: 20,
    remarks: 'Shown on the /campaign/sg23 microsite.',
  },
];

interface SeedProduct {
  name: I18nText;
  price: number;
  dprice?: number;
  currency: CurrencyCode;
  target: string;
  status: 'draft' | 'published';
}

const PRODUCTS: readonly SeedProduct[] = [
  {
    name: { en: '80 mm thermal receipt printer', 'zh-hk': '80 毫米熱敏收據打印機', 'zh-cn': '80 毫米热敏收据打印机' },
    price: 128800,
    dprice: 98800,
    currency: 'HKD',
    target: 'https://tillpoint.example/shop/printer-80',
    status: 'published',
  },
  {
    name: { en: 'Cash drawer, 5 notes 8 coins', 'zh-hk': '錢箱（5 紙幣 8 硬幣）', 'zh-cn': '钱箱（5 纸币 8 硬币）' },
    price: 68000,
    currency: 'HKD',
    target: 'https://tillpoint.example/shop/cash-drawer',
    status: 'published',
  },
  {
    name: { en: 'Kitchen display, 15.6 inch', 'zh-hk': '15.6 吋廚房顯示屏', 'zh-cn': '15.6 英寸厨房显示屏' },
    price: 398000,
    dprice: 358000,
    currency: 'HKD',
    target: 'https://tillpoint.example/shop/kds-15',
    status: 'published',
  },
  {
    name: { en: 'Thermal paper rolls, box of 50', 'zh-hk': '熱敏紙卷（50 卷裝）', 'zh-cn': '热敏纸卷（50 卷装）' },
    price: 18000,
    dprice: 15000,
    currency: 'SGD',
    target: 'https://tillpoint.example/sg/shop/paper',
    status: 'published',
  },
  {
    name: { en: 'Handheld ordering device', 'zh-hk': '手提點餐機', 'zh-cn': '手持点餐机' },
    price: 159900,
    currency: 'SGD',
    target: 'https://tillpoint.example/sg/shop/handheld',
    status: 'published',
  },
  {
    name: { en: 'Self-order kiosk (floor stand)', 'zh-hk': '自助點餐機（落地式）', 'zh-cn': '自助点餐机（落地式）' },
    price: 1280000,
    currency: 'HKD',
    target: 'https://tillpoint.example/shop/kiosk',
    status: 'draft',
  },
];

/** Fills the empty ads, campaigns and products tables with the demo records. */
export async function seedAds(trx: Knex.Transaction, now: Date): Promise<void> {
  const at = (days: number) => new Date(now.getTime() + days * DAY);
  const ids = new Map<string, string>();
  for (const [index, ad] of ADS.entries()) {
    const id = newId();
    ids.set(ad.key, id);
    await trx('ads').insert({
      id,
      name: JSON.stringify(ad.name),
      ad_type: ad.adType,
      status: ad.status,
      target_link: ad.targetLink,
      weight: ad.weight,
      probability: ad.probability,
      publish: at(ad.publishIn),
      expiry: at(ad.expiryIn),
      view_count: ad.views,
      target_view_count: ad.targetViews,
      click_count: ad.clicks,
      target_click_count: ad.targetClicks,
      remarks: ad.remarks ?? null,
      // Made one after another, newest last, as staff would have.
      created_at: at(ad.publishIn - 1 - index / 100),
    });
  }
  for (const campaign of CAMPAIGNS)
    await trx('campaigns').insert({
      id: newId(),
      key: campaign.key,
      name: JSON.stringify(campaign.name),
      status: 'published',
      ads: JSON.stringify(campaign.ads.map((key) => ids.get(key))),
      publish: at(campaign.publishIn),
      expiry: at(campaign.expiryIn),
      remarks: campaign.remarks,
    });
  for (const product of PRODUCTS)
    await trx('products').insert({
      id: newId(),
      name: JSON.stringify(product.name),
      price: product.price,
      dprice: product.dprice ?? null,
      currency: product.currency,
      target: product.target,
      status: product.status,
    });
}

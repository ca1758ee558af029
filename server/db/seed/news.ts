import type { Knex } from 'knex';
import type { I18nText } from '../../../domain/locales.ts';
import { sanitizeArticleHtml } from '../../services/blogs/sanitize.ts';
import { newId } from '../ids.ts';

/**
 * The categories the apps' news are filed under, beside the blog's five (migration 036): in
 * production too, as the news editor offers them. Added while their ids are free, so what staff
 * change stays.
 */
export const NEWS_CATEGORIES: readonly { id: string; name: Required<I18nText>; order: number }[] = [
  { id: 'events', name: { en: 'Events', 'zh-hk': '活動', 'zh-cn': '活动' }, order: 60 },
  { id: 'promotions', name: { en: 'Offers', 'zh-hk': '優惠', 'zh-cn': '优惠' }, order: 70 },
  { id: 'app-updates', name: { en: 'App updates', 'zh-hk': '應用程式更新', 'zh-cn': '应用更新' }, order: 80 },
];

export async function seedCategories(trx: Knex.Transaction): Promise<void> {
  for (const category of NEWS_CATEGORIES) {
    await trx('categories')
      .insert({ id: category.id, name: JSON.stringify(category.name), display_order: category.order })
      .onConflict('id')
      .ignore();
  }
}

const DAY = 24 * 60 * 60 * 1000;

type Trilingual = Required<I18nText>;

/** A demo news item; its times are days from the seed's `now`. */
interface SeedNews {
  title: Trilingual;
  content: Trilingual;
  category: string;
  region: 'hk' | 'sg' | 'canada';
  city?: string;
  author: string;
  top?: boolean;
  status?: 'draft' | 'published';
  /** Days from now: dated, published from, expiring. */
  dated: number;
  from?: number;
  expires?: number;
  event?: {
    title: Trilingual;
    content: Trilingual;
    email: string;
    /** Days from now, and hours in its own zone's day. */
    startsIn: number;
    hours: number;
    location: 'hk' | 'canada';
    region: string;
    capacity: number;
    joinUrl?: string;
    mapUrl?: string;
    notes?: Trilingual;
  };
}

const p = (en: string, hk: string, cn: string): Trilingual => ({
  en: `<p>${en}</p>`,
  'zh-hk': `<p>${hk}</p>`,
  'zh-cn': `<p>${cn}</p>`,
});

/** Eight items for the apps' demo: pinned, with events in Hong Kong and in Canada, a draft and an expired one. */
export const NEWS_ITEMS: readonly SeedNews[] = [
  {
    title: {
      en: 'Order ahead and skip the queue: the app now takes pickup orders',
      'zh-hk': '預先落單免排隊：應用程式現可預訂外賣自取',
      'zh-cn': '提前下单免排队：应用现已支持到店自取',
    },
    content: p(
      'Choose your café, order and pay in the app, and collect when the counter calls your number. Over 300 restaurants in Hong Kong and Singapore take pickup orders from today.',
      '揀好餐廳，在應用程式內落單付款，叫號即可取餐。由今日起，香港及新加坡超過 300 間餐廳接受預訂自取。',
      '选好餐厅，在应用内下单付款，叫号即可取餐。即日起，香港及新加坡超过 300 家餐厅支持提前下单自取。',
    ),
    category: 'app-updates',
    region: 'hk',
    author: 'Tillpoint team',
    top: true,
    dated: -2,
    from: -2,
  },
  {
    title: {
      en: 'Free workshop: faster lunch service with kitchen displays',
      'zh-hk': '免費工作坊：用廚房顯示系統加快午市出餐',
      'zh-cn': '免费工作坊：用厨房显示系统加快午市出餐',
    },
    content: p(
      'Two hours with our trainers in Kwun Tong: set up kitchen display stations, route orders by station and cut ticket times at the lunch rush. Bring your questions and your menu.',
      '於觀塘與我們的導師度過兩小時：設定廚房顯示站、按工作站分單，縮短午市繁忙時段的出餐時間。歡迎帶同問題及餐牌。',
      '在观塘与我们的讲师共度两小时：设置厨房显示站、按工位分单，缩短午市高峰的出餐时间。欢迎带上问题和菜单。',
    ),
    category: 'events',
    region: 'hk',
    city: 'Hong Kong',
    author: 'Kelvin Lau',
    top: true,
    dated: -1,
    from: -1,
    event: {
      title: {
        en: 'Kitchen display workshop, Kwun Tong',
        'zh-hk': '廚房顯示系統工作坊（觀塘）',
        'zh-cn': '厨房显示系统工作坊（观塘）',
      },
      content: p(
        'Hands-on session for restaurant owners and kitchen leads. Light refreshments served.',
        '為餐廳東主及廚房主管而設的實習環節，設輕便茶點。',
        '面向餐厅老板和厨房主管的实操课程，提供简单茶点。',
      ),
      email: 'events@tillpoint.test',
      startsIn: 12,
      hours: 15,
      location: 'hk',
      region: 'Kwun Tong',
      capacity: 40,
      mapUrl: 'https://maps.example.test/?q=Kwun+Tong',
      notes: {
        en: 'Please arrive 10 minutes early; the room is on the 18th floor.',
        'zh-hk': '請提早 10 分鐘到達，場地位於 18 樓。',
        'zh-cn': '请提前 10 分钟到场，场地位于 18 楼。',
      },
    },
  },
  {
    title: {
      en: 'Christmas market: 10% back when you pay with FPS',
      'zh-hk': '聖誕市集：以轉數快付款享 10% 回贈',
      'zh-cn': '圣诞市集：使用转数快付款享 10% 返现',
    },
    content: p(
      'At the Central harbourfront Christmas market, stalls using Tillpoint give 10% back on FPS payments, up to HK$50 a day.',
      '中環海濱聖誕市集內使用 Tillpoint 的攤位，以轉數快付款可享 10% 回贈，每日上限 50 港元。',
      '中环海滨圣诞市集内使用 Tillpoint 的摊位，使用转数快付款可享 10% 返现，每日上限 50 港元。',
    ),
    category: 'promotions',
    region: 'hk',
    city: 'Hong Kong',
    author: 'Tillpoint team',
    dated: -3,
    from: -3,
    expires: 30,
  },
  {
    title: {
      en: 'PayNow QR at every partner store in Singapore',
      'zh-hk': '新加坡所有合作商戶現接受 PayNow QR',
      'zh-cn': '新加坡所有合作商户现已支持 PayNow QR',
    },
    content: p(
      'Scan the PayNow QR at the counter of any partner store in Singapore and your receipt lands in the app.',
      '在新加坡任何合作商戶收銀處掃描 PayNow QR，收據即時存入應用程式。',
      '在新加坡任何合作商户收银台扫描 PayNow QR，收据即时存入应用。',
    ),
    category: 'app-updates',
    region: 'sg',
    city: 'Singapore',
    author: 'Tillpoint team',
    dated: -5,
    from: -5,
  },
  {
    title: {
      en: 'Meet-up in Richmond: running a Hong Kong-style café abroad',
      'zh-hk': '列治文聚會：在海外經營港式茶餐廳',
      'zh-cn': '列治文聚会：在海外经营港式茶餐厅',
    },
    content: p(
      'Owners of Hong Kong-style cafés in Greater Vancouver share how they price, staff and take orders. An evening of stories and milk tea.',
      '大溫哥華區的港式茶餐廳東主分享定價、人手及落單心得，一晚故事配奶茶。',
      '大温哥华地区的港式茶餐厅老板分享定价、人手和点单经验，一晚故事配奶茶。',
    ),
    category: 'events',
    region: 'canada',
    city: 'Richmond',
    author: 'Mei Chan',
    dated: -4,
    from: -4,
    event: {
      title: {
        en: 'Café owners meet-up, Richmond BC',
        'zh-hk': '茶餐廳東主聚會（卑詩省列治文）',
        'zh-cn': '茶餐厅老板聚会（卑诗省列治文）',
      },
      content: p(
        'Talks from three owners, then questions over milk tea and egg tarts.',
        '三位東主分享，之後邊飲奶茶食蛋撻邊交流。',
        '三位老板分享，之后边喝奶茶吃蛋挞边交流。',
      ),
      email: 'canada@tillpoint.test',
      startsIn: 20,
      hours: 19,
      location: 'canada',
      region: 'Richmond, BC',
      capacity: 30,
      mapUrl: 'https://maps.example.test/?q=Richmond+BC',
    },
  },
  {
    title: {
      en: 'Webinar: loyalty programmes that bring customers back',
      'zh-hk': '網上研討會：令顧客回頭的會員計劃',
      'zh-cn': '线上研讨会：让顾客回头的会员计划',
    },
    content: p(
      'Stamps, points or tiers? Our product team shows what worked for 1,100 merchants, live and online.',
      '印花、積分定會員等級？產品團隊網上直播，分享 1,100 間商戶的實戰經驗。',
      '印花、积分还是会员等级？产品团队在线直播，分享 1,100 家商户的实战经验。',
    ),
    category: 'events',
    region: 'sg',
    author: 'Tillpoint team',
    dated: -1,
    from: -1,
    event: {
      title: {
        en: 'Loyalty programmes webinar',
        'zh-hk': '會員計劃網上研討會',
        'zh-cn': '会员计划线上研讨会',
      },
      content: p('One hour online, with questions at the end.', '網上一小時，設答問環節。', '线上一小时，设问答环节。'),
      email: 'events@tillpoint.test',
      startsIn: 7,
      hours: 14,
      location: 'hk',
      region: 'Online',
      capacity: 200,
      joinUrl: 'https://meet.example.test/tillpoint-loyalty',
    },
  },
  {
    title: {
      en: 'Lunar New Year opening hours of our service centres',
      'zh-hk': '農曆新年服務中心開放時間',
      'zh-cn': '农历新年服务中心开放时间',
    },
    content: p(
      'Our service centres close from the first to the third day of the Lunar New Year; the hotline stays open.',
      '服務中心於農曆年初一至初三休息，熱線照常服務。',
      '服务中心于农历正月初一至初三休息，热线照常服务。',
    ),
    category: 'app-updates',
    region: 'hk',
    author: 'Tillpoint team',
    status: 'draft',
    dated: 0,
  },
  {
    title: {
      en: 'Mid-Autumn Festival: mooncake pre-orders in the app',
      'zh-hk': '中秋節：應用程式預訂月餅',
      'zh-cn': '中秋节：应用内预订月饼',
    },
    content: p(
      'Pre-order mooncakes from partner bakeries and collect them before the festival.',
      '向合作餅店預訂月餅，節前到店取貨。',
      '向合作饼店预订月饼，节前到店取货。',
    ),
    category: 'promotions',
    region: 'hk',
    author: 'Tillpoint team',
    dated: -60,
    from: -60,
    expires: -30,
  },
];

/** Noon-based days from now, in Hong Kong (UTC+8) or Vancouver (UTC-8 in winter), at `hours` local time. */
function eventTime(now: Date, days: number, hours: number, location: 'hk' | 'canada'): Date {
  const day = new Date(now.getTime() + days * DAY).toISOString().slice(0, 10);
  const offset = location === 'hk' ? '+08:00' : '-08:00';
  return new Date(`${day}T${String(hours).padStart(2, '0')}:00:00${offset}`);
}

/** Inserts the demo news into an empty news table (demo data only), their HTML sanitised as any write. */
export async function seedNews(trx: Knex.Transaction, now: Date): Promise<void> {
  if (await trx('news').first('id')) return;
  const at = (days: number) => new Date(now.getTime() + days * DAY);
  const clean = (text: Trilingual) =>
    JSON.stringify({
      en: sanitizeArticleHtml(text.en),
      'zh-hk': sanitizeArticleHtml(text['zh-hk']),
      'zh-cn': sanitizeArticleHtml(text['zh-cn']),
    });
  for (const item of NEWS_ITEMS) {
    const status = item.status ?? 'published';
    const event = item.event;
    const start = event ? eventTime(now, event.startsIn, event.hours, event.location) : null;
    await trx('news').insert({
      id: newId(),
      title: JSON.stringify(item.title),
      content: clean(item.content),
      author: item.author,
      category: item.category,
      city: item.city ?? null,
      region: item.region,
      date: at(item.dated),
      top: item.top ?? false,
      publish_from: item.from === undefined ? null : at(item.from),
      expiry: item.expires === undefined ? null : at(item.expires),
      status,
      published_at: status === 'published' ? at(item.from ?? item.dated) : null,
      has_event: Boolean(event),
      ...(event && start
        ? {
            event_title: JSON.stringify(event.title),
            event_content: clean(event.content),
            event_email: event.email,
            event_start_date: start,
            event_end_date: new Date(start.getTime() + 2 * 60 * 60 * 1000),
            event_location: event.location,
            event_region: event.region,
            event_capacity: event.capacity,
            event_closes_at: new Date(start.getTime() - DAY),
            event_join_url: event.joinUrl ?? null,
            event_map_url: event.mapUrl ?? null,
            event_notes: event.notes ? JSON.stringify(event.notes) : null,
          }
        : {}),
    });
  }
}

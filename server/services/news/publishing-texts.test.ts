import { describe, expect, it } from 'vitest';
import { facebookPostText, newsPageUrl } from './facebook-posts.ts';
import { newsNotificationText, reminderText } from './notification.ts';

/** What the server writes for a news item (decision 059): its notification, its event's reminder, its Facebook post. */
describe('the texts of a news item’s publication', () => {
  const long = 'A'.repeat(150);

  it('notify in each language the item has a title in, cut to fit a lock screen', () => {
    const text = newsNotificationText({
      title: { en: long, 'zh-hk': '新聞' },
      content: { en: `<p>${'word '.repeat(60)}</p>`, 'zh-cn': '<p>简体</p>' },
    });
    expect([...text.title.en]).toHaveLength(100);
    expect(text.title.en.endsWith('…')).toBe(true);
    expect(text.title['zh-hk']).toBe('新聞');
    // No Simplified title: the language is left out, and its devices read English.
    expect(text.title).not.toHaveProperty('zh-cn');
    expect(text.body).not.toHaveProperty('zh-cn');
    expect([...text.body.en].length).toBeLessThanOrEqual(178);
    expect(text.body['zh-hk']).toBe('在應用程式內打開，閱讀全文。');
  });

  it('remind of an event by its title, its start on its own clock and its place', () => {
    const text = reminderText({
      title: { en: 'Item' },
      eventTitle: { en: 'Tasting', 'zh-cn': '品鉴会' },
      eventStartDate: new Date('2031-06-21T01:00:00Z'),
      eventLocation: 'canada',
      eventRegion: 'Richmond',
    });
    expect(text.title).toEqual({ en: 'Reminder: Tasting', 'zh-hk': '提提你：Tasting', 'zh-cn': '提醒：品鉴会' });
    expect(text.body.en).toMatch(/^Starts 20 June 2031 at 6:00\Wpm GMT-7 · Richmond, Canada$/);
    expect(text.body['zh-hk']).toMatch(/開始 · Richmond, 加拿大$/);
  });

  it('post in English and Traditional Chinese, linking to the item’s page', () => {
    expect(
      facebookPostText({
        title: { en: 'Pickup', 'zh-hk': '自取', 'zh-cn': '自取（简）' },
        content: { en: '<p>Order &amp; go.</p><p>Now.</p>', 'zh-hk': '<p>落單</p>' },
      }),
    ).toBe('Pickup\n\nOrder & go. Now.\n\n自取\n\n落單');
    expect(newsPageUrl('https://tillpoint.example/', 'abc')).toBe('https://tillpoint.example/en/news/abc');
  });
});

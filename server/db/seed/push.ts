import { randomBytes } from 'node:crypto';
import type { Knex } from 'knex';
import type { I18nText } from '../../../domain/locales.ts';
import { hashInstallationSecret } from '../../services/app-devices/installations.ts';
import { newId } from '../ids.ts';

/*
 * Demo data for the apps' push messages (decision 055): a few app users and their installations in
 * the three languages and several regions and time zones, and messages in every state: one sent a
 * week ago with its deliveries and what the devices reported, one scheduled for next week, a draft
 * and a cancelled one. Made only while demo data is on and no message exists yet, so what staff
 * write stays; the devices' secrets are thrown away (they never report).
 */

interface DemoDevice {
  platform: 'ios' | 'android';
  locale: 'en' | 'zh-hk' | 'zh-cn';
  region: string;
  timeZone: string;
  user?: number;
  pushEnabled?: boolean;
}

const DEMO_APP_USERS = [
  { name: 'Chan Tai Man', email: 'taiman.chan@example.com', locale: 'zh-hk', region: 'hk', gender: 'male' },
  { name: 'Wong Mei Ling', email: 'meiling.wong@example.com', locale: 'zh-hk', region: 'hk', gender: 'female' },
  { name: 'Li Na', email: 'li.na@example.com', locale: 'zh-cn', region: 'hk', gender: 'female' },
  { name: 'Grace Tan', email: 'grace.tan@example.com', locale: 'en', region: 'sg', gender: 'female' },
  { name: 'Daniel Lau', email: 'daniel.lau@example.com', locale: 'en', region: 'ca', gender: 'male' },
] as const;

const DEMO_DEVICES: readonly DemoDevice[] = [
  { platform: 'ios', locale: 'zh-hk', region: 'hk', timeZone: 'Asia/Hong_Kong', user: 0 },
  { platform: 'android', locale: 'zh-hk', region: 'hk', timeZone: 'Asia/Hong_Kong', user: 1 },
  { platform: 'ios', locale: 'zh-cn', region: 'hk', timeZone: 'Asia/Hong_Kong', user: 2 },
  { platform: 'android', locale: 'en', region: 'sg', timeZone: 'Asia/Singapore', user: 3 },
  { platform: 'ios', locale: 'en', region: 'ca', timeZone: 'America/Toronto', user: 4 },
  { platform: 'android', locale: 'en', region: 'hk', timeZone: 'Asia/Hong_Kong' },
  { platform: 'android', locale: 'zh-hk', region: 'hk', timeZone: 'Asia/Hong_Kong' },
  { platform: 'ios', locale: 'en', region: 'ca', timeZone: 'America/Vancouver', pushEnabled: false },
];

interface DemoMessage {
  title: I18nText;
  body: I18nText;
  status: 'draft' | 'scheduled' | 'sent' | 'cancelled';
  audience: 'all' | 'locale' | 'region';
  audienceLocale?: string;
  audienceRegion?: string;
  /** Days from the seed's day. */
  day: number;
  urgent?: boolean;
}

const DEMO_MESSAGES: readonly DemoMessage[] = [
  {
    title: { en: 'Mid-Autumn lantern fair this weekend', 'zh-hk': '本週末中秋綵燈會', 'zh-cn': '本周末中秋彩灯会' },
    body: {
      en: 'Lanterns, live music and mooncake tasting at Victoria Park, Saturday and Sunday from 6 pm.',
      'zh-hk': '週六及週日晚上六時起，維多利亞公園有綵燈、現場音樂及月餅試食。',
      'zh-cn': '周六及周日晚上六时起，维多利亚公园有彩灯、现场音乐及月饼试吃。',
    },
    status: 'sent',
    audience: 'all',
    day: -7,
  },
  {
    title: { en: 'New clinics near you', 'zh-hk': '你附近的新診所', 'zh-cn': '你附近的新诊所' },
    body: {
      en: 'Twelve more family doctors in Kowloon City and Wong Tai Sin now take bookings in the app.',
      'zh-hk': '九龍城及黃大仙再有十二位家庭醫生可於應用程式預約。',
      'zh-cn': '九龙城及黄大仙再有十二位家庭医生可在应用内预约。',
    },
    status: 'scheduled',
    audience: 'region',
    audienceRegion: 'hk',
    day: 7,
  },
  {
    title: { en: 'Flu vaccination season', 'zh-hk': '流感疫苗接種季節' },
    body: {
      en: 'Book your flu jab early: participating clinics open extra sessions in November.',
      'zh-hk': '請及早預約接種流感疫苗：參與診所十一月加開時段。',
    },
    status: 'draft',
    audience: 'locale',
    audienceLocale: 'zh-hk',
    day: 14,
  },
  {
    title: {
      en: 'Typhoon signal: clinics closed',
      'zh-hk': '颱風信號：診所暫停服務',
      'zh-cn': '台风信号：诊所暂停服务',
    },
    body: {
      en: 'Clinics in the app close while signal No. 8 is up; bookings move to the next open day.',
      'zh-hk': '八號風球生效期間，應用程式內的診所暫停服務；預約會改至下一個開放日。',
      'zh-cn': '八号风球生效期间，应用内的诊所暂停服务；预约会改到下一个开放日。',
    },
    status: 'cancelled',
    audience: 'all',
    day: -2,
    urgent: true,
  },
];

const DAY = 24 * 60 * 60 * 1000;

/** Fills the push messages' demo data, once. */
export async function seedPush(trx: Knex.Transaction, now: Date): Promise<void> {
  if (await trx('push_messages').first('id')) return;
  // The apps' users, unless some exist already (another seed, or real sign-ups).
  const userIds: string[] = [];
  const hasUsers = Boolean(await trx('app_users').first('id'));
  if (!hasUsers) {
    for (const user of DEMO_APP_USERS) {
      const id = newId();
      // A password no one knows: the demo app users are for the tables, not for signing in.
      await trx('app_users').insert({ id, ...user, password: `!${randomBytes(16).toString('hex')}` });
      userIds.push(id);
    }
  }
  const deviceIds: string[] = [];
  for (const [index, device] of DEMO_DEVICES.entries()) {
    const id = newId();
    const started = new Date(now.getTime() - (30 - index) * DAY);
    await trx('app_devices').insert({
      id,
      device_id: `demo-${device.platform}-${String(index + 1).padStart(2, '0')}-${randomBytes(4).toString('hex')}`,
      app_user_id: device.user === undefined ? null : (userIds[device.user] ?? null),
      platform: device.platform,
      app_version: '3.2.0',
      locale: device.locale,
      region: device.region,
      time_zone: device.timeZone,
      push_enabled: device.pushEnabled ?? true,
      push_token: `demo-token-${randomBytes(12).toString('hex')}`,
      first_session_at: started,
      last_session_at: new Date(now.getTime() - index * 3_600_000),
      secret_hash: hashInstallationSecret(randomBytes(32).toString('base64url')),
    });
    if (device.pushEnabled !== false) deviceIds.push(id);
  }
  for (const message of DEMO_MESSAGES) {
    const id = newId();
    const date = new Date(now.getTime() + message.day * DAY);
    await trx('push_messages').insert({
      id,
      title: JSON.stringify(message.title),
      body: JSON.stringify(message.body),
      audience: message.audience,
      audience_locale: message.audienceLocale ?? null,
      audience_region: message.audienceRegion ?? null,
      send_at: date,
      urgent: message.urgent ?? false,
      status: message.status,
      created_at: new Date(date.getTime() - 2 * DAY),
      updated_at: new Date(date.getTime() - DAY),
    });
    if (message.status !== 'sent') continue;
    // Sent to every device that takes pushes; most got it, half of those opened it.
    const rows = deviceIds.map((device, index) => ({
      message_id: id,
      device_id: device,
      state: 'sent',
      due_at: date,
      sent_at: date,
      received_at: index % 4 === 3 ? null : new Date(date.getTime() + 60_000),
      opened_at: index % 2 === 0 ? new Date(date.getTime() + 15 * 60_000) : null,
      provider_id: `local:demo-${index + 1}`,
    }));
    await trx('push_deliveries').insert(rows);
    await trx('push_messages')
      .where({ id })
      .update({
        targeted: rows.length,
        sent: rows.length,
        received: rows.filter((row) => row.received_at).length,
        opened: rows.filter((row) => row.opened_at).length,
        targets_at: date,
        sent_at: new Date(date.getTime() + 5_000),
      });
  }
}

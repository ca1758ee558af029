import type { Knex } from 'knex';
import type { Locale } from '../../../domain/locales.ts';
import { hashPassword } from '../../auth/passwords.ts';
import { hashInstallationSecret, newInstallationSecret } from '../../services/app-devices/installations.ts';
import { newId } from '../ids.ts';

/*
 * Demo people of the company's consumer apps and their phones (decisions 053 and 054), while demo
 * data is on: app users in Hong Kong and Singapore with Chinese and English names, and the
 * installations their phones registered, some signed out, some with pushes off. Times are counted
 * back from the seed day so the back office's tables read as a live app's would.
 */

/** The app user the README gives for trying the apps' API (`POST /api/appAuthentication`). */
export const DEMO_APP_USER = { email: 'app@tillpoint.test', password: 'AppUser12345', name: 'Chan Siu Ming' };

const DAY = 86_400_000;

interface SeedAppUser {
  name: string;
  email: string;
  /** The date of birth, as kept. */
  birthDay: string;
  gender: 'male' | 'female';
  locale: Locale;
  region: 'hk' | 'sg';
  /** Days before the seed day the account was made, and last signed in (none: never since). */
  joinedDaysAgo: number;
  signedInDaysAgo?: number;
  /** Disabled by staff this many days ago. */
  disabledDaysAgo?: number;
}

export const APP_USER_SEED: readonly SeedAppUser[] = [
  {
    ...DEMO_APP_USER,
    birthDay: '1990-05-17',
    gender: 'male',
    locale: 'en',
    region: 'hk',
    joinedDaysAgo: 210,
    signedInDaysAgo: 1,
  },
  {
    name: '陳嘉欣',
    email: 'kayan.chan@example.com',
    birthDay: '1994-11-03',
    gender: 'female',
    locale: 'zh-hk',
    region: 'hk',
    joinedDaysAgo: 180,
    signedInDaysAgo: 0,
  },
  {
    name: 'Wong Ka Ho',
    email: 'kaho.wong@example.com',
    birthDay: '1987-02-21',
    gender: 'male',
    locale: 'zh-hk',
    region: 'hk',
    joinedDaysAgo: 160,
    signedInDaysAgo: 3,
  },
  {
    name: 'Emily Tsang',
    email: 'emily.tsang@example.com',
    birthDay: '1999-08-09',
    gender: 'female',
    locale: 'en',
    region: 'hk',
    joinedDaysAgo: 150,
    signedInDaysAgo: 12,
  },
  {
    name: '李志強',
    email: 'chikeung.lee@example.com',
    birthDay: '1975-12-30',
    gender: 'male',
    locale: 'zh-hk',
    region: 'hk',
    joinedDaysAgo: 132,
    signedInDaysAgo: 40,
    disabledDaysAgo: 27,
  },
  {
    name: '王芳',
    email: 'wangfang@example.com',
    birthDay: '1992-04-05',
    gender: 'female',
    locale: 'zh-cn',
    region: 'hk',
    joinedDaysAgo: 120,
    signedInDaysAgo: 2,
  },
  {
    name: 'Jason Ng',
    email: 'jason.ng@example.com',
    birthDay: '1983-06-14',
    gender: 'male',
    locale: 'en',
    region: 'hk',
    joinedDaysAgo: 95,
  },
  {
    name: 'Tan Wei Ling',
    email: 'weiling.tan@example.com',
    birthDay: '1991-09-22',
    gender: 'female',
    locale: 'en',
    region: 'sg',
    joinedDaysAgo: 88,
    signedInDaysAgo: 1,
  },
  {
    name: '林俊豪',
    email: 'junhao.lim@example.com',
    birthDay: '1996-01-18',
    gender: 'male',
    locale: 'zh-cn',
    region: 'sg',
    joinedDaysAgo: 70,
    signedInDaysAgo: 5,
  },
  {
    name: 'Priya Nair',
    email: 'priya.nair@example.com',
    birthDay: '1988-03-02',
    gender: 'female',
    locale: 'en',
    region: 'sg',
    joinedDaysAgo: 55,
    signedInDaysAgo: 9,
  },
  {
    name: 'Rachel Goh',
    email: 'rachel.goh@example.com',
    birthDay: '2001-07-27',
    gender: 'female',
    locale: 'en',
    region: 'sg',
    joinedDaysAgo: 31,
    signedInDaysAgo: 0,
  },
  {
    name: '張浩然',
    email: 'hoyin.cheung@example.com',
    birthDay: '1979-10-11',
    gender: 'male',
    locale: 'zh-hk',
    region: 'hk',
    joinedDaysAgo: 14,
    signedInDaysAgo: 14,
  },
];

interface SeedAppDevice {
  deviceId: string;
  /** The owner by email; none: signed out at its last session. */
  user?: string;
  platform: 'ios' | 'android';
  appVersion: string;
  locale: Locale;
  region: 'hk' | 'sg';
  timeZone: 'Asia/Hong_Kong' | 'Asia/Singapore';
  pushEnabled: boolean;
  pushToken?: string;
  lastIP: string;
  /** Days before the seed day of its first and last sessions. */
  firstDaysAgo: number;
  lastDaysAgo: number;
}

/** An APNs device token as iOS gives one: 32 bytes in hex. */
const apns = (seed: string) => hashInstallationSecret(`apns:${seed}`);
/** An FCM registration token as Android gives one: an instance id, a colon, then the token. */
const fcm = (instance: string, seed: string) =>
  `${instance}:APA91b${Buffer.from(hashInstallationSecret(`fcm:${seed}`), 'hex').toString('base64url')}`;

export const APP_DEVICE_SEED: readonly SeedAppDevice[] = [
  {
    deviceId: 'E621E1F8-C36C-495A-93FC-0C247A3E6E5F',
    user: DEMO_APP_USER.email,
    platform: 'ios',
    appVersion: '3.4.1',
    locale: 'en',
    region: 'hk',
    timeZone: 'Asia/Hong_Kong',
    pushEnabled: true,
    pushToken: apns('demo-iphone'),
    lastIP: '203.198.23.114',
    firstDaysAgo: 210,
    lastDaysAgo: 1,
  },
  {
    deviceId: '9B2D7C41-0A8E-4F3B-B6D2-5E1C8A9F4D27',
    user: DEMO_APP_USER.email,
    platform: 'ios',
    appVersion: '3.4.1',
    locale: 'en',
    region: 'hk',
    timeZone: 'Asia/Hong_Kong',
    pushEnabled: false,
    lastIP: '203.198.23.114',
    firstDaysAgo: 96,
    lastDaysAgo: 6,
  },
  {
    deviceId: 'f3a9c27b81d4e056',
    user: 'kayan.chan@example.com',
    platform: 'android',
    appVersion: '3.4.0',
    locale: 'zh-hk',
    region: 'hk',
    timeZone: 'Asia/Hong_Kong',
    pushEnabled: true,
    pushToken: fcm('cZ8kP2xRQ-6uV1n3LmW0aB', 'kayan'),
    lastIP: '218.102.77.9',
    firstDaysAgo: 180,
    lastDaysAgo: 0,
  },
  {
    deviceId: '3F7A1C0E-8B5D-4E29-9C61-A4D2B7E0F318',
    user: 'kaho.wong@example.com',
    platform: 'ios',
    appVersion: '3.3.2',
    locale: 'zh-hk',
    region: 'hk',
    timeZone: 'Asia/Hong_Kong',
    pushEnabled: true,
    pushToken: apns('kaho'),
    lastIP: '112.118.42.201',
    firstDaysAgo: 160,
    lastDaysAgo: 3,
  },
  {
    deviceId: '5c0e8d2f7a913b64',
    user: 'emily.tsang@example.com',
    platform: 'android',
    appVersion: '3.4.1',
    locale: 'en',
    region: 'hk',
    timeZone: 'Asia/Hong_Kong',
    pushEnabled: false,
    lastIP: '42.200.155.63',
    firstDaysAgo: 150,
    lastDaysAgo: 12,
  },
  {
    deviceId: 'C84E2B19-6D3A-47F0-8E55-1B9D0A7C62E4',
    user: 'emily.tsang@example.com',
    platform: 'ios',
    appVersion: '3.4.1',
    locale: 'en',
    region: 'hk',
    timeZone: 'Asia/Hong_Kong',
    pushEnabled: true,
    pushToken: apns('emily-ipad'),
    lastIP: '42.200.155.63',
    firstDaysAgo: 60,
    lastDaysAgo: 13,
  },
  // The disabled account's phone: signed out when staff disabled it.
  {
    deviceId: 'a17b4e90c2d8f35e',
    platform: 'android',
    appVersion: '3.2.0',
    locale: 'zh-hk',
    region: 'hk',
    timeZone: 'Asia/Hong_Kong',
    pushEnabled: true,
    pushToken: fcm('fQ1rT7yU9-iO3pA5sD7fG9', 'chikeung'),
    lastIP: '219.79.188.30',
    firstDaysAgo: 132,
    lastDaysAgo: 27,
  },
  {
    deviceId: '7D9E0F1A-2B3C-4D5E-8F60-718293A4B5C6',
    user: 'wangfang@example.com',
    platform: 'ios',
    appVersion: '3.4.1',
    locale: 'zh-cn',
    region: 'hk',
    timeZone: 'Asia/Hong_Kong',
    pushEnabled: true,
    pushToken: apns('wangfang'),
    lastIP: '223.197.4.88',
    firstDaysAgo: 120,
    lastDaysAgo: 2,
  },
  {
    deviceId: 'e4d2b6a8f0c1937d',
    user: 'wangfang@example.com',
    platform: 'android',
    appVersion: '3.3.2',
    locale: 'zh-cn',
    region: 'hk',
    timeZone: 'Asia/Hong_Kong',
    pushEnabled: false,
    lastIP: '223.197.4.88',
    firstDaysAgo: 119,
    lastDaysAgo: 45,
  },
  // Signed out: the app keeps the installation, and its pushes, without a person.
  {
    deviceId: 'B1C2D3E4-F5A6-4B7C-8D9E-0F1A2B3C4D5E',
    platform: 'ios',
    appVersion: '3.4.0',
    locale: 'en',
    region: 'hk',
    timeZone: 'Asia/Hong_Kong',
    pushEnabled: true,
    pushToken: apns('jason-signed-out'),
    lastIP: '116.48.90.17',
    firstDaysAgo: 95,
    lastDaysAgo: 20,
  },
  {
    deviceId: '2b8f6d4c1e0a9573',
    user: 'weiling.tan@example.com',
    platform: 'android',
    appVersion: '3.4.1',
    locale: 'en',
    region: 'sg',
    timeZone: 'Asia/Singapore',
    pushEnabled: true,
    pushToken: fcm('dK4mN6bV8-cX0zL2kJ4hG6', 'weiling'),
    lastIP: '116.86.142.55',
    firstDaysAgo: 88,
    lastDaysAgo: 1,
  },
  {
    deviceId: '0E1F2A3B-4C5D-4E6F-9A7B-8C9D0E1F2A3B',
    user: 'weiling.tan@example.com',
    platform: 'ios',
    appVersion: '3.4.1',
    locale: 'en',
    region: 'sg',
    timeZone: 'Asia/Singapore',
    pushEnabled: true,
    pushToken: apns('weiling-ipad'),
    lastIP: '116.86.142.55',
    firstDaysAgo: 40,
    lastDaysAgo: 4,
  },
  {
    deviceId: '9c3e7a1f5b2d8046',
    user: 'junhao.lim@example.com',
    platform: 'android',
    appVersion: '3.4.0',
    locale: 'zh-cn',
    region: 'sg',
    timeZone: 'Asia/Singapore',
    pushEnabled: true,
    pushToken: fcm('eP7qW9rE1-tY3uI5oP7aS9', 'junhao'),
    lastIP: '220.255.17.203',
    firstDaysAgo: 70,
    lastDaysAgo: 5,
  },
  {
    deviceId: '6A5B4C3D-2E1F-4A0B-9C8D-7E6F5A4B3C2D',
    user: 'priya.nair@example.com',
    platform: 'ios',
    appVersion: '3.3.2',
    locale: 'en',
    region: 'sg',
    timeZone: 'Asia/Singapore',
    pushEnabled: false,
    lastIP: '175.156.32.71',
    firstDaysAgo: 55,
    lastDaysAgo: 9,
  },
  {
    deviceId: 'd7f1a3c5e9b20468',
    user: 'rachel.goh@example.com',
    platform: 'android',
    appVersion: '3.4.1',
    locale: 'en',
    region: 'sg',
    timeZone: 'Asia/Singapore',
    pushEnabled: true,
    pushToken: fcm('gH2jK4lZ6-xC8vB0nM2qW4', 'rachel'),
    lastIP: '118.189.66.140',
    firstDaysAgo: 31,
    lastDaysAgo: 0,
  },
  // Signed out in Singapore, in Chinese.
  {
    deviceId: '48c0e2a6b4f81d39',
    platform: 'android',
    appVersion: '3.3.2',
    locale: 'zh-cn',
    region: 'sg',
    timeZone: 'Asia/Singapore',
    pushEnabled: false,
    lastIP: '220.255.90.12',
    firstDaysAgo: 77,
    lastDaysAgo: 33,
  },
  {
    deviceId: 'F0E1D2C3-B4A5-4968-8776-655443322110',
    user: 'hoyin.cheung@example.com',
    platform: 'ios',
    appVersion: '3.4.1',
    locale: 'zh-hk',
    region: 'hk',
    timeZone: 'Asia/Hong_Kong',
    pushEnabled: true,
    pushToken: apns('houyin'),
    lastIP: '58.152.201.7',
    firstDaysAgo: 14,
    lastDaysAgo: 14,
  },
  // Installed, never signed in: registered at its first start.
  {
    deviceId: '1f9e8d7c6b5a4039',
    platform: 'android',
    appVersion: '3.4.1',
    locale: 'zh-hk',
    region: 'hk',
    timeZone: 'Asia/Hong_Kong',
    pushEnabled: true,
    pushToken: fcm('hJ5kL7zX9-cV1bN3mQ5wE7', 'never-signed-in'),
    lastIP: '203.218.140.96',
    firstDaysAgo: 8,
    lastDaysAgo: 8,
  },
  {
    deviceId: 'A9B8C7D6-E5F4-4A3B-8C2D-1E0F9A8B7C6D',
    platform: 'ios',
    appVersion: '3.4.1',
    locale: 'en',
    region: 'sg',
    timeZone: 'Asia/Singapore',
    pushEnabled: false,
    lastIP: '121.7.209.58',
    firstDaysAgo: 3,
    lastDaysAgo: 3,
  },
  {
    deviceId: '83b5d7f9a1c3e520',
    user: 'kayan.chan@example.com',
    platform: 'android',
    appVersion: '3.3.2',
    locale: 'zh-hk',
    region: 'hk',
    timeZone: 'Asia/Hong_Kong',
    pushEnabled: false,
    lastIP: '218.102.77.9',
    firstDaysAgo: 178,
    lastDaysAgo: 64,
  },
];

/**
 * The demo app users and their devices, into tables with no app user yet. The demo app user's
 * password is the README's; the others' is a random one nobody knows, hashed once for all of them.
 */
export async function seedAppUsers(trx: Knex.Transaction, now: Date): Promise<void> {
  // A time that many days back, moved to about the hour given; never after the seed day's moment.
  const at = (daysAgo: number, hour = 10) =>
    new Date(Math.min(now.getTime(), now.getTime() - daysAgo * DAY + (hour - 12) * 3_600_000));
  const [demoHash, othersHash] = await Promise.all([
    hashPassword(DEMO_APP_USER.password),
    hashPassword(newInstallationSecret()),
  ]);
  const ids = new Map<string, string>();
  await trx('app_users').insert(
    APP_USER_SEED.map((person) => {
      const id = newId();
      ids.set(person.email, id);
      return {
        id,
        name: person.name,
        email: person.email,
        password: person.email === DEMO_APP_USER.email ? demoHash : othersHash,
        birth_date: person.birthDay,
        gender: person.gender,
        locale: person.locale,
        region: person.region,
        disabled_at: person.disabledDaysAgo === undefined ? null : at(person.disabledDaysAgo, 15),
        last_sign_in_at: person.signedInDaysAgo === undefined ? null : at(person.signedInDaysAgo, 9),
        session_version: newId(),
        created_at: at(person.joinedDaysAgo, 20),
        updated_at: at(person.disabledDaysAgo ?? person.joinedDaysAgo, 20),
      };
    }),
  );
  await trx('app_devices').insert(
    APP_DEVICE_SEED.map((device) => ({
      id: newId(),
      device_id: device.deviceId,
      app_user_id: device.user ? (ids.get(device.user) ?? null) : null,
      platform: device.platform,
      app_version: device.appVersion,
      locale: device.locale,
      region: device.region,
      time_zone: device.timeZone,
      push_enabled: device.pushEnabled,
      push_token: device.pushToken ?? null,
      last_ip: device.lastIP,
      first_session_at: at(device.firstDaysAgo, 20),
      last_session_at: at(device.lastDaysAgo, 8),
      // Each installation's own secret, which only the phone would know: only its hash is kept.
      secret_hash: hashInstallationSecret(newInstallationSecret()),
      created_at: at(device.firstDaysAgo, 20),
      updated_at: at(device.lastDaysAgo, 8),
    })),
  );
}

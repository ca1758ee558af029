import { describe, expect, it } from 'vitest';
import { appDevices } from '../../../domain/entities/app-devices.ts';
import { appUsers } from '../../../domain/entities/app-users.ts';
import { valueSchema } from '../../../domain/entities/types.ts';
import { passwordSchema } from '../../../domain/validation/password.ts';
import { APP_DEVICE_SEED, APP_USER_SEED, DEMO_APP_USER } from './app-users.ts';

/** The demo app users and devices hold what their definitions accept, as a registration through the API would. */
describe('the apps’ demo people and phones', () => {
  const valid = (definition: typeof appUsers | typeof appDevices, field: string, value: unknown) => {
    const def = definition.fields[field as keyof typeof definition.fields];
    return valueSchema(def as Parameters<typeof valueSchema>[0]).safeParse(value).success;
  };

  it('are people of both markets, languages and genders, one of them disabled', () => {
    expect(APP_USER_SEED.length).toBeGreaterThanOrEqual(12);
    expect(new Set(APP_USER_SEED.map((person) => person.email)).size).toBe(APP_USER_SEED.length);
    expect(new Set(APP_USER_SEED.map((person) => person.region))).toEqual(new Set(['hk', 'sg']));
    expect(new Set(APP_USER_SEED.map((person) => person.locale))).toEqual(new Set(['en', 'zh-hk', 'zh-cn']));
    expect(APP_USER_SEED.filter((person) => person.disabledDaysAgo !== undefined)).toHaveLength(1);
    for (const person of APP_USER_SEED) {
      expect(valid(appUsers, 'name', person.name), person.email).toBe(true);
      expect(valid(appUsers, 'email', person.email), person.email).toBe(true);
      expect(valid(appUsers, 'date', person.birthDay), person.email).toBe(true);
      expect(valid(appUsers, 'gender', person.gender), person.email).toBe(true);
      expect(valid(appUsers, 'region', person.region), person.email).toBe(true);
    }
    expect(passwordSchema.safeParse(DEMO_APP_USER.password).success).toBe(true);
  });

  it('are installations the definition accepts, some signed out and some with pushes off', () => {
    expect(APP_DEVICE_SEED.length).toBeGreaterThanOrEqual(20);
    expect(new Set(APP_DEVICE_SEED.map((device) => device.deviceId)).size).toBe(APP_DEVICE_SEED.length);
    const emails = new Set(APP_USER_SEED.map((person) => person.email));
    for (const device of APP_DEVICE_SEED) {
      expect(valid(appDevices, 'deviceId', device.deviceId), device.deviceId).toBe(true);
      expect(valid(appDevices, 'timeZone', device.timeZone), device.deviceId).toBe(true);
      expect(valid(appDevices, 'appVersion', device.appVersion), device.deviceId).toBe(true);
      if (device.pushToken) expect(valid(appDevices, 'pushToken', device.pushToken), device.deviceId).toBe(true);
      if (device.user) expect(emails.has(device.user), device.deviceId).toBe(true);
      expect(device.firstDaysAgo).toBeGreaterThanOrEqual(device.lastDaysAgo);
    }
    expect(APP_DEVICE_SEED.some((device) => !device.user)).toBe(true);
    expect(APP_DEVICE_SEED.some((device) => !device.pushEnabled)).toBe(true);
    expect(APP_DEVICE_SEED.filter((device) => device.user === DEMO_APP_USER.email).length).toBeGreaterThan(1);
  });
});

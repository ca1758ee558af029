/**
 * Prepares an end-to-end server's database before the production server starts on it: migrates,
 * seeds the catalogue and creates the demo accounts the tests sign in with (tests/e2e/users.ts).
 * A production start never creates demo accounts itself (config.ts), so the tests make their own,
 * as an operator would make real ones. Run as a script with the server's own environment.
 *
 * The demo accounts' addresses count as verified (an unverified account cannot buy): the seed
 * makes them so, and accounts kept from an earlier run are marked here too.
 */
import pino from 'pino';
import { loadConfig } from '../../server/config.ts';
import { openDatabase } from '../../server/database.ts';
import { hashPassword, setPasswordHashing } from '../../server/auth/passwords.ts';
import { newId } from '../../server/db/ids.ts';
import { seedDemoPurchase } from '../../server/db/seed/demo-subscriptions.ts';
import { appsMembers, upgradeMembers, users, VIEWER_DEVICE } from './users.ts';

const config = loadConfig({ ...process.env, NODE_ENV: 'test', DEMO_DATA: 'true' });
const database = await openDatabase(config, pino({ level: 'warn' }));
try {
  await database
    .knex('users')
    .whereIn(
      'email',
      Object.values(users).map((user) => user.email),
    )
    .whereNull('email_verified_at')
    .update({ email_verified_at: new Date() });
  // The members the upgrade tests add functions to, each with a Lite plan of their own.
  setPasswordHashing('fast');
  for (const member of Object.values(upgradeMembers)) {
    const password = await hashPassword(member.password);
    await database.knex.transaction(async (trx) => {
      await trx('users')
        .insert({ id: newId(), email: member.email, password, name: member.name, role: 'member', email_verified_at: new Date() })
        .onConflict('email')
        .ignore();
      // One of them has QR self-ordering already, which the tests try to add again.
      const addOns = member === upgradeMembers.twice ? [{ key: 'qr-self-order', count: 1 }] : [];
      await seedDemoPurchase(trx, { email: member.email, planKey: 'restaurant-lite', addOns, prepaidMonths: 12, country: 'HK', paidDaysAgo: 20 }, new Date());
    });
  }
  // The members the apps tests register devices for, each with a Flexi plan (one kitchen screen) and two kiosks.
  for (const member of Object.values(appsMembers)) {
    const password = await hashPassword(member.password);
    await database.knex.transaction(async (trx) => {
      await trx('users')
        .insert({ id: newId(), email: member.email, password, name: member.name, role: 'member', email_verified_at: new Date() })
        .onConflict('email')
        .ignore();
      await seedDemoPurchase(trx, { email: member.email, planKey: 'restaurant-flexi', addOns: [{ key: 'kiosk-self-order', count: 2 }], prepaidMonths: 24, country: 'HK', paidDaysAgo: 30 }, new Date());
    });
  }
  // The viewer's kitchen screen, as the devices service would have registered it.
  const viewer = (await database.knex('users').where('email', appsMembers.viewer.email).first('id')) as { id: string };
  const subscription = (await database.knex('subscriptions').where('user_id', viewer.id).first('id')) as { id: string };
  const kds = (await database.knex('modules').where('key', 'kds').first('id')) as { id: string };
  await database
    .knex('devices')
    .insert({ id: VIEWER_DEVICE._id, user_id: viewer.id, subscription_id: subscription.id, module_id: kds.id, name: VIEWER_DEVICE.name, code: 'KDS-V1EWER', pairing_code: 'VIEW-0001' })
    .onConflict('id')
    .ignore();
} finally {
  await database.close();
}

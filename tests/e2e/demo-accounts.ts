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
import { users } from './users.ts';

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
} finally {
  await database.close();
}

/**
 * Prepares an end-to-end server's database before the production server starts on it: migrates,
 * seeds the catalogue and creates the demo accounts the tests sign in with (tests/e2e/users.ts).
 * A production start never creates demo accounts itself (config.ts), so the tests make their own,
 * as an operator would make real ones. Run as a script with the server's own environment.
 */
import pino from 'pino';
import { loadConfig } from '../../server/config.ts';
import { openDatabase } from '../../server/database.ts';

const config = loadConfig({ ...process.env, NODE_ENV: 'test', DEMO_DATA: 'true' });
const database = await openDatabase(config, pino({ level: 'warn' }));
await database.close();

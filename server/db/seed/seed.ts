import type { Knex } from 'knex';
import type { PaymentSandbox } from '../../payments/sandbox/sandbox.ts';
import { hashPassword } from '../../auth/passwords.ts';
import { newId } from '../ids.ts';
import { seedAds } from './ads.ts';
import { seedAppSettings } from './app-settings.ts';
import { seedAppUsers } from './app-users.ts';
import { seedBlogs } from './blogs.ts';
import { seedLookupLists } from './lookup-lists.ts';
import { seedPush } from './push.ts';
import { seedCategories, seedNews } from './news.ts';
import { appTemplates, industries, modules } from './catalogue.ts';
import { DEMO_MONTHLY_MEMBER, DEMO_PREPAID_MEMBER, DEMO_PURCHASES, seedDemoPurchase } from './demo-subscriptions.ts';
import { holdDemoCards } from './demo-cards.ts';

export interface SeedOptions {
  adminEmail: string;
  adminPassword: string;
  /** Also create the demo members (two with a plan bought) and the editor and, into an empty blog, the demo articles. */
  demoData: boolean;
  /** Refuse to go on when ADMIN_EMAIL belongs to an account that is not an admin (elsewhere: a warning). */
  production?: boolean;
  /** The seed day the demo purchases are dated from (tests fix it). */
  now?: Date;
  /**
   * The payment sandbox, when it is the gateway: the demo plans' cards are put on file there, so
   * they pay in one press (decision 065). Without it (Stripe), no gateway holds them.
   */
  paymentSandbox?: PaymentSandbox;
}

export interface SeedReport {
  /** What the operator should know; the start logs each as a warning. */
  warnings: string[];
}

export class SeedError extends Error {}

export const DEMO_MEMBER = { email: 'owner@tillpoint.test', password: 'Owner12345', name: 'Mei Chan' };
export const DEMO_EDITOR = { email: 'editor@tillpoint.test', password: 'Editor12345', name: 'Kelvin Lau' };
export { DEMO_MONTHLY_MEMBER, DEMO_PREPAID_MEMBER };

/**
 * Fills an empty database with the product catalogue, the first admin and the apps' settings, and
 * with demo accounts and blog articles while demo data is on. Safe to run at every start.
 */
export async function seed(knex: Knex, options: SeedOptions): Promise<SeedReport> {
  const warnings: string[] = [];
  await knex.transaction(async (trx) => {
    const hasCatalogue = await trx('industries').first('id');
    if (!hasCatalogue) await seedCatalogue(trx);
    if (options.demoData && !(await trx('blogs').first('id'))) await seedBlogs(trx);
    // The apps' one settings record (decision 046), in production too: the apps read it.
    if (!(await trx('app_settings').first('id')))
      await seedAppSettings(trx, options.demoData, options.now ?? new Date());
    // The lookup lists the apps' pickers read (decision 050), in production too.
    await seedLookupLists(trx);
    // The apps' demo people and their phones, into an empty table.
    if (options.demoData && !(await trx('app_users').first('id'))) await seedAppUsers(trx, options.now ?? new Date());
    // The apps' push messages, with some app users and devices to send them to (decision 055).
    if (options.demoData) await seedPush(trx, options.now ?? new Date());
    // The news' categories beside the blog's (decision 056), in production too; demo news with events.
    await seedCategories(trx);
    if (options.demoData) await seedNews(trx, options.now ?? new Date());
    // What the apps advertise and sell (decision 057), into empty tables.
    if (options.demoData && !(await trx('ads').first('id'))) await seedAds(trx, options.now ?? new Date());
    const accounts = [
      { email: options.adminEmail, password: options.adminPassword, name: 'Administrator', role: 'admin' },
      ...(options.demoData
        ? [
            { ...DEMO_MEMBER, role: 'member' },
            { ...DEMO_EDITOR, role: 'editor' },
            { ...DEMO_MONTHLY_MEMBER, role: 'member' },
            { ...DEMO_PREPAID_MEMBER, role: 'member' },
          ]
        : []),
    ];
    // The first admin is made only while there is no admin at all; a demo account while its email is free.
    const hasAdmin = Boolean(await trx('users').where({ role: 'admin' }).first('id'));
    const missing: typeof accounts = [];
    // Whoever registered with ADMIN_EMAIL is never made admin by it (nor given its password).
    const adminEmailTaken = (role: string) => {
      const message =
        `ADMIN_EMAIL ${options.adminEmail} belongs to an account with the role ${role}: no admin was created and that ` +
        'account was left as it is. Set ADMIN_EMAIL to an address no account uses.';
      if (options.production) throw new SeedError(message);
      warnings.push(message);
    };
    const roleOf = async (email: string) =>
      (await trx('users').where({ email }).first<{ role: string } | undefined>('role'))?.role;
    for (const account of accounts) {
      if (account.role === 'admin' && hasAdmin) continue;
      const existing = await roleOf(account.email);
      if (existing !== undefined) {
        if (account.role === 'admin') adminEmailTaken(existing);
        continue;
      }
      // An admin given a demo account's email is that account.
      const taken = missing.some((other) => other.email.toLowerCase() === account.email.toLowerCase());
      if (!taken) missing.push(account);
    }
    // Hashing is the slow part of a first start: the hashes are made side by side.
    const hashes = await Promise.all(missing.map((account) => hashPassword(account.password)));
    for (const [index, account] of missing.entries()) {
      // Made by the operator, not registered: their addresses count as verified (decision 020).
      const row = {
        id: newId(),
        email: account.email,
        password: hashes[index],
        name: account.name,
        role: account.role,
        email_verified_at: new Date(),
      };
      // An account made meanwhile (a registration, another instance's first start) is kept as it is.
      const inserted = await trx('users').insert(row).onConflict('email').ignore().returning('id');
      if (inserted.length === 0 && account.role === 'admin') {
        const role = (await roleOf(account.email)) ?? 'unknown';
        if (role !== 'admin') adminEmailTaken(role);
      }
    }
    // The demo members who have bought a plan, while they have no subscription of their own yet.
    if (options.demoData) {
      const now = options.now ?? new Date();
      for (const purchase of DEMO_PURCHASES) {
        const member = (await trx('users').where({ email: purchase.email }).first('role')) as
          { role: string } | undefined;
        if (member?.role === 'member') await seedDemoPurchase(trx, purchase, now);
      }
    }
  });
  // After the transaction: the sandbox writes through its own connections (PGlite runs one query at a time).
  if (options.demoData && options.paymentSandbox) await holdDemoCards(knex, options.paymentSandbox, options.now);
  return { warnings };
}

async function seedCatalogue(trx: Knex.Transaction): Promise<void> {
  const industryIds = new Map<string, string>();
  for (const industry of industries) {
    const id = newId();
    industryIds.set(industry.key, id);
    await trx('industries').insert({
      id,
      key: industry.key,
      name: JSON.stringify(industry.name),
      description: JSON.stringify(industry.description),
      display_order: industry.order,
      major: industry.major,
      items: JSON.stringify(industry.items.map((item) => ({ _id: newId(), ...item }))),
    });
  }
  const moduleIds = new Map<string, string>();
  for (const module of modules) {
    const id = newId();
    moduleIds.set(module.key, id);
    await trx('modules').insert({
      id,
      key: module.key,
      name: JSON.stringify(module.name),
      short_desc: JSON.stringify(module.shortDesc),
      description: JSON.stringify(module.description),
      counter: module.counter,
      month_price: module.monthPrice,
      currency: 'HKD',
      billing: module.billing,
      released: module.released,
      display_order: module.order,
    });
  }
  for (const template of appTemplates) {
    const industryId = industryIds.get(template.industryKey);
    if (!industryId) throw new Error(`Seed template ${template.key} names unknown industry ${template.industryKey}`);
    await trx('app_templates').insert({
      id: newId(),
      key: template.key,
      name: JSON.stringify(template.name),
      description: JSON.stringify(template.description),
      type: template.type,
      month_price: template.monthPrice,
      currency: 'HKD',
      prepay_month: template.prepayMonth,
      contract_months: template.contractMonths,
      show_on_home: template.showOnHome,
      industry_id: industryId,
      modules: JSON.stringify(
        template.modules.map((m) => {
          const id = moduleIds.get(m.moduleKey);
          if (!id) throw new Error(`Seed template ${template.key} names unknown module ${m.moduleKey}`);
          return { id, monthPrice: m.monthPrice, count: m.count };
        }),
      ),
    });
  }
}

/**
 * Prepares an end-to-end server's database before the production server starts on it: migrates,
 * seeds the catalogue and creates the demo accounts the tests sign in with (tests/e2e/users.ts).
 * A production start never creates demo accounts itself (config.ts), so the tests make their own,
 * as an operator would make real ones. Run as a script with the server's own environment.
 *
 * The demo accounts' addresses count as verified (an unverified account cannot buy): the seed
 * makes them so, and accounts kept from an earlier run are marked here too.
 */
import { randomBytes } from 'node:crypto';
import type { Knex } from 'knex';
import pino from 'pino';
import { loadConfig } from '../../server/config.ts';
import { openDatabase } from '../../server/database.ts';
import { hashPassword, setPasswordHashing } from '../../server/auth/passwords.ts';
import { newId } from '../../server/db/ids.ts';
import { DEMO_PURCHASES, seedDemoPurchase } from '../../server/db/seed/demo-subscriptions.ts';
import { holdCardOnFile as holdCard, holdDemoCards } from '../../server/db/seed/demo-cards.ts';
import { addDays, dayOf, startOfDay } from '../../domain/billing/calendar.ts';
import { renewalCharge } from '../../domain/billing/lifecycle.ts';
import { contractEnd } from '../../domain/billing/schedule.ts';
import { renewalKey } from '../../server/services/subscriptions/renewals.ts';
import { sandboxFor } from '../../server/payments/index.ts';
import {
  adminRows,
  appsMembers,
  appUserRows,
  lifecycleMembers,
  pagerRows,
  terminationMembers,
  UPGRADE_CARDS,
  upgradeMembers,
  users,
  VIEWER_DEVICE,
} from './users.ts';
import type { DemoUser } from './users.ts';

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
  for (const [name, member] of Object.entries(upgradeMembers)) {
    await withMember(member, async (trx) => {
      // One of them has QR self-ordering already, which the tests try to add again.
      const addOns = member === upgradeMembers.twice ? [{ key: 'qr-self-order', count: 1 }] : [];
      // `demo` has the monthly demo member's plan, as the seed makes it.
      const purchase =
        member === upgradeMembers.demo
          ? { ...DEMO_PURCHASES[0]!, email: member.email }
          : {
              email: member.email,
              planKey: 'restaurant-lite',
              addOns,
              prepaidMonths: 12,
              country: 'HK' as const,
              paidDaysAgo: 20,
            };
      await seedDemoPurchase(trx, purchase, new Date());
    });
    const card = UPGRADE_CARDS[name as keyof typeof upgradeMembers];
    if (card) await holdCardOnFile(member, card);
  }
  // The demo plan's card, put on file as a start with demo data on the sandbox puts the seed's (decision 065).
  await holdDemoCards(database.knex, sandboxFor(config, database.knex, pino({ level: 'warn' })), new Date(), [
    upgradeMembers.demo,
  ]);
  // The members who stop, keep and pay their plans: Lite in Hong Kong, and a Flexi in its term.
  for (const member of Object.values(lifecycleMembers)) {
    await withMember(member, async (trx) => {
      const overdue = member === lifecycleMembers.overdueEn || member === lifecycleMembers.overdueZh;
      const flexi = member === lifecycleMembers.stopZh;
      const planKey = flexi ? 'restaurant-flexi' : 'restaurant-lite';
      // Twelve months paid a year and a day ago: the first renewal fell due yesterday.
      const paidDaysAgo = overdue ? 366 : 20;
      const seeded = await seedDemoPurchase(
        trx,
        {
          email: member.email,
          planKey,
          addOns: [{ key: flexi ? 'kiosk-self-order' : 'kds', count: 1 }],
          prepaidMonths: 12,
          country: 'HK',
          paidDaysAgo,
        },
        new Date(),
      );
      if (seeded && overdue) await seedFailedRenewal(trx, member.email);
    });
  }
  // The termination tests' members: Flexis whose two-year term runs a year past its prepaid months, and a Lite plan.
  for (const member of Object.values(terminationMembers)) {
    await withMember(member, async (trx) => {
      const ending = member !== terminationMembers.owner;
      const seeded = await seedDemoPurchase(
        trx,
        {
          email: member.email,
          planKey: ending ? 'restaurant-flexi' : 'restaurant-lite',
          addOns: [{ key: ending ? 'kiosk-self-order' : 'kds', count: 1 }],
          prepaidMonths: 12,
          country: 'HK',
          paidDaysAgo: 20,
        },
        new Date(),
      );
      if (seeded && ending) await lengthenContract(trx, member.email, 24);
    });
  }
  // The members the apps tests register devices for, each with a Flexi plan (one kitchen screen) and two kiosks.
  for (const member of Object.values(appsMembers)) {
    await withMember(member, async (trx) => {
      await seedDemoPurchase(
        trx,
        {
          email: member.email,
          planKey: 'restaurant-flexi',
          addOns: [{ key: 'kiosk-self-order', count: 2 }],
          prepaidMonths: 24,
          country: 'HK',
          paidDaysAgo: 30,
        },
        new Date(),
      );
    });
  }
  // The viewer's kitchen screen, as the devices service would have registered it.
  const viewer = (await database.knex('users').where('email', appsMembers.viewer.email).first('id')) as { id: string };
  const subscription = (await database.knex('subscriptions').where('user_id', viewer.id).first('id')) as { id: string };
  const kds = (await database.knex('modules').where('key', 'kds').first('id')) as { id: string };
  await database
    .knex('devices')
    .insert({
      id: VIEWER_DEVICE._id,
      user_id: viewer.id,
      subscription_id: subscription.id,
      module_id: kds.id,
      name: VIEWER_DEVICE.name,
      code: 'KDS-V1EWER',
      pairing_code: 'VIEW-0001',
    })
    .onConflict('id')
    .ignore();
  // The back office's subscribers, one minute apart (the first the newest), kept as they are from an earlier run.
  const { table, batch, live, ...single } = adminRows;
  const rows = [...table, ...batch, ...live, ...Object.values(single)];
  const now = Date.now();
  await database
    .knex('subscribers')
    .insert(
      rows.map((row, index) => ({
        id: row._id,
        email: row.email,
        name: row.name,
        company_name: row.companyName,
        campaign: row.campaign,
        created_at: new Date(now - index * 60_000),
      })),
    )
    .onConflict('id')
    .ignore();
  // The pager's subscribers, older than those, one second apart (the first the newest).
  const pagerFrom = now - rows.length * 60_000;
  for (let start = 0; start < pagerRows.length; start += 500) {
    await database
      .knex('subscribers')
      .insert(
        pagerRows.slice(start, start + 500).map((row, index) => ({
          id: row._id,
          email: row.email,
          campaign: '23hkrace',
          created_at: new Date(pagerFrom - (start + index) * 1000),
        })),
      )
      .onConflict('id')
      .ignore();
  }
  // A mail that failed after all its retries, as the mail queue records one (decision 035): a
  // password reset for an address with no account, so sending it again ends without a mail.
  await database
    .knex('mail_deliveries')
    .insert({
      id: 'e2efailedmail1',
      kind: 'password-reset-mail',
      recipient: 'nobody-e2e@tillpoint.test',
      subject: 'Reset your password',
      locale: 'en',
      state: 'failed',
      attempts: 5,
      last_error: 'ECONNREFUSED: connect ECONNREFUSED 127.0.0.1:25',
      job_id: randomBytes(16).toString('hex'),
      job_data: JSON.stringify({
        email: 'nobody-e2e@tillpoint.test',
        locale: 'en',
        requestedAt: new Date().toISOString(),
      }),
    })
    .onConflict('id')
    .ignore();
  // The app users the back-office tests edit, as they were before any test changed them, with their phones.
  const appPassword = await hashPassword(randomBytes(18).toString('base64url'));
  for (const person of Object.values(appUserRows)) {
    await database
      .knex('app_users')
      .insert({
        id: person._id,
        name: person.name,
        email: person.email,
        password: appPassword,
        birth_date: person.birthDay,
        gender: person.gender,
        locale: person.locale,
        region: person.region,
        disabled_at: null,
      })
      .onConflict('id')
      .merge();
    for (const device of person.devices) {
      await database
        .knex('app_devices')
        .insert({
          id: device._id,
          device_id: device.deviceId,
          app_user_id: person._id,
          platform: device.platform,
          locale: person.locale,
          region: person.region,
          push_enabled: device.pushToken !== null,
          push_token: device.pushToken,
          last_ip: '203.198.1.20',
          secret_hash: randomBytes(32).toString('hex'),
        })
        .onConflict('id')
        .merge();
    }
  }
  // Two keys pages asked for in a language that lacked them, as development pages report them.
  await database
    .knex('missing_translations')
    .insert([
      { id: 'e2emissing1', locale: 'zh-hk', key: 'pricing.e2eOnlyInTests', url: '/zh-hk/pricing', count: 3 },
      { id: 'e2emissing2', locale: 'zh-cn', key: 'home.e2eOnlyInTests', url: '/zh-cn', count: 1 },
    ])
    .onConflict('id')
    .ignore();
} finally {
  await database.close();
}

/** A verified member of the tests (kept from an earlier run as it is), and what they bought, in one transaction. */
async function withMember(member: DemoUser, work: (trx: Knex.Transaction) => Promise<void>): Promise<void> {
  const password = await hashPassword(member.password);
  await database.knex.transaction(async (trx) => {
    await trx('users')
      .insert({
        id: newId(),
        email: member.email,
        password,
        name: member.name,
        role: 'member',
        email_verified_at: new Date(),
      })
      .onConflict('email')
      .ignore();
    await work(trx);
  });
}

/**
 * The member's card on file held by the sandbox gateway, as paying for the plan by card leaves it
 * (decision 031): their customer there, the test card attached to it, and the subscription's card
 * and references. A plan whose card is held already (an earlier run's) is left as it is.
 */
async function holdCardOnFile(member: DemoUser, number: string): Promise<void> {
  const sandbox = sandboxFor(config, database.knex, pino({ level: 'warn' }));
  await holdCard(database.knex, sandbox, member.email, {
    number,
    expMonth: 12,
    expYear: new Date().getUTCFullYear() + 3,
  });
}

/** A contract of `months` for a member's plan, as one arranged with staff would have. */
async function lengthenContract(trx: Knex.Transaction, email: string, months: number): Promise<void> {
  const sub = (await trx('subscriptions as s')
    .join('users as u', 'u.id', 's.user_id')
    .where('u.email', email)
    .first('s.id', 's.contract_start', 's.billing_anchor_day', 's.prepaid_months')) as {
    id: string;
    contract_start: Date;
    billing_anchor_day: number;
    prepaid_months: number;
  };
  const terms = {
    start: dayOf(sub.contract_start),
    anchorDay: sub.billing_anchor_day,
    prepaidMonths: sub.prepaid_months,
    contractMonths: months,
    period: 'monthly' as const,
  };
  await trx('subscriptions')
    .where('id', sub.id)
    .update({ contract_months: months, contract_end: startOfDay(contractEnd(terms)) });
}

/**
 * What a declined renewal leaves (server/services/subscriptions/renewals.ts): the billing date's
 * renewal order, its declined attempt, and the subscription past due until the retry tomorrow.
 */
async function seedFailedRenewal(trx: Knex.Transaction, email: string): Promise<void> {
  const sub = (await trx('subscriptions as s')
    .join('users as u', 'u.id', 's.user_id')
    .where('u.email', email)
    .first('s.*')) as {
    id: string;
    user_id: string;
    order_id: string;
    plan_id: string;
    industry_id: string;
    plan_type: string;
    currency: string;
    monthly: number;
    modules: { id: string; monthPrice: number; count: number }[];
    next_pay_date: Date;
    contract_start: Date;
    billing_anchor_day: number;
    prepaid_months: number;
    contract_months: number;
  };
  const due = dayOf(sub.next_pay_date);
  const planOrder = (await trx('orders').where('id', sub.order_id).first('seller', 'shipping')) as {
    seller: string;
    shipping: unknown;
  };
  const plan = (await trx('app_templates').where('id', sub.plan_id).first('name')) as { name: unknown };
  const { periodEnd: to } = renewalCharge(
    {
      start: dayOf(sub.contract_start),
      anchorDay: sub.billing_anchor_day,
      prepaidMonths: sub.prepaid_months,
      contractMonths: sub.contract_months,
      period: 'monthly',
    },
    due,
    { monthly: sub.monthly, yearly: 0 },
  );
  const addOns = sub.modules.filter((module) => module.monthPrice > 0);
  const planFee = sub.monthly - addOns.reduce((sum, module) => sum + module.monthPrice * module.count, 0);
  const lines = [
    {
      key: 'plan',
      kind: 'plan',
      name: plan.name,
      billing: 'monthly',
      unitPrice: planFee,
      count: 1,
      amount: planFee,
      from: due,
      to,
    },
    ...addOns.map((module) => ({
      key: `addon:${module.id}`,
      kind: 'addon',
      module: module.id,
      name: { en: module.id },
      billing: 'monthly',
      unitPrice: module.monthPrice,
      count: module.count,
      amount: module.monthPrice * module.count,
      from: due,
      to,
    })),
  ];
  const orderId = newId();
  const at = new Date().toISOString();
  await trx('orders').insert({
    id: orderId,
    number: `TP-E2E${randomBytes(3).toString('hex').toUpperCase()}`.slice(0, 11),
    kind: 'renewal',
    subscription_id: sub.id,
    user_id: sub.user_id,
    status: 'payment_failed',
    seller: planOrder.seller,
    industry_id: sub.industry_id,
    plan_id: sub.plan_id,
    plan_type: sub.plan_type,
    items: JSON.stringify(lines),
    currency: sub.currency,
    prepaid_months: 1,
    contract_months: 0,
    monthly: sub.monthly,
    yearly: 0,
    one_time: 0,
    subtotal: sub.monthly,
    tax_rate: 0,
    tax: 0,
    total: sub.monthly,
    shipping: JSON.stringify(planOrder.shipping),
    idempotency_key: renewalKey(sub.id, due),
    request_hash: 'e2e',
    history: JSON.stringify([
      { from: 'pending_payment', to: 'payment_failed', at, actor: 'system', reason: 'renewal declined' },
    ]),
  });
  await trx('payments').insert({
    id: newId(),
    order_id: orderId,
    user_id: sub.user_id,
    status: 'failed',
    gateway: 'sandbox',
    amount: sub.monthly,
    currency: sub.currency,
    failure_code: 'card_declined',
    failure_message: 'purchase.card.card_declined',
    idempotency_key: `${renewalKey(sub.id, due)}:0`,
    request_hash: 'e2e',
    history: JSON.stringify([]),
  });
  await trx('subscriptions')
    .where('id', sub.id)
    .update({
      status: 'past_due',
      retry_on: startOfDay(addDays(dayOf(new Date()), 1)),
      history: JSON.stringify([
        { from: 'active', to: 'past_due', at, actor: 'system', reason: `renewal of ${due} failed` },
      ]),
    });
}

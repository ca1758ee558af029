import { createHash, randomBytes } from 'node:crypto';
import type { Knex } from 'knex';
import { addDays, dayOf, startOfDay } from '../../../domain/billing/calendar.ts';
import type { ShippingCountry } from '../../../domain/orders/countries.ts';
import { priceOrder, type ModuleToPrice, type TemplateToPrice } from '../../../domain/orders/pricing.ts';
import type { StateMove } from '../../../domain/orders/states.ts';
import { subscriptionTerm } from '../../../domain/orders/term.ts';
import { addWorkingDays } from '../../../domain/orders/working-days.ts';
import { orderNumber } from '../../services/orders/orders.ts';
import { priceColumns } from '../../services/orders/price.ts';
import { takeInvoiceNumber } from '../../services/orders/provision.ts';
import { newId } from '../ids.ts';

/**
 * A demo member's purchase: which plan, add-ons and prepaid months, shipped where, and how many
 * days before the seed day it was paid (at 11:00 in Hong Kong), so the dashboard's figures move
 * with the calendar as a real member's would.
 */
export interface DemoPurchase {
  email: string;
  planKey: string;
  addOns: { key: string; count: number }[];
  prepaidMonths: number;
  country: ShippingCountry;
  paidDaysAgo: number;
}

export const DEMO_MONTHLY_MEMBER = { email: 'monthly@tillpoint.test', password: 'Monthly12345', name: 'Wing Lee' };
export const DEMO_PREPAID_MEMBER = { email: 'prepaid@tillpoint.test', password: 'Prepaid12345', name: 'Ivy Ho' };

export const DEMO_PURCHASES: readonly DemoPurchase[] = [
  // Lite, 12 months paid ahead, then billed monthly: two kitchen screens and loyalty on top.
  {
    email: DEMO_MONTHLY_MEMBER.email,
    planKey: 'restaurant-lite',
    addOns: [
      { key: 'kds', count: 2 },
      { key: 'loyalty', count: 1 },
    ],
    prepaidMonths: 12,
    country: 'HK',
    paidDaysAgo: 40,
  },
  // Flexi in Singapore, 24 months paid ahead: a kiosk and the one-time purchasing set-up.
  {
    email: DEMO_PREPAID_MEMBER.email,
    planKey: 'restaurant-flexi',
    addOns: [
      { key: 'kiosk-self-order', count: 1 },
      { key: 'purchasing', count: 1 },
    ],
    prepaidMonths: 24,
    country: 'SG',
    paidDaysAgo: 220,
  },
];

/** The moment a demo purchase was paid: 11:00 in Hong Kong, `paidDaysAgo` days before `now`'s day there. */
export function demoPaidAt(purchase: Pick<DemoPurchase, 'paidDaysAgo'>, now: Date): Date {
  return new Date(startOfDay(addDays(dayOf(now), -purchase.paidDaysAgo)).getTime() + 11 * 60 * 60 * 1000);
}

const ADDRESSES: Record<
  ShippingCountry,
  { contactNumber: string; street: string; district: string; city: string; zipcode: string }
> = {
  HK: {
    contactNumber: '+852 9123 4567',
    street: '18 Hennessy Road',
    district: 'Wan Chai',
    city: 'Hong Kong',
    zipcode: '',
  },
  SG: {
    contactNumber: '+65 9123 4567',
    street: '1 Raffles Place',
    district: 'Downtown Core',
    city: 'Singapore',
    zipcode: '048616',
  },
  MY: {
    contactNumber: '+60 12 345 6789',
    street: '1 Jalan Sultan Ismail',
    district: 'Bukit Bintang',
    city: 'Kuala Lumpur',
    zipcode: '50250',
  },
  TW: {
    contactNumber: '+886 912 345 678',
    street: '7 Xinyi Road Section 5',
    district: 'Xinyi',
    city: 'Taipei',
    zipcode: '110',
  },
  AU: {
    contactNumber: '+61 412 345 678',
    street: '1 George Street',
    district: 'The Rocks',
    city: 'Sydney',
    zipcode: '2000',
  },
};

const digest = (value: unknown) => createHash('sha256').update(JSON.stringify(value)).digest('hex');
const at = (moment: Date, minutes: number) => new Date(moment.getTime() + minutes * 60 * 1000).toISOString();

interface TemplateRow {
  id: string;
  key: string;
  name: TemplateToPrice['name'];
  type: string;
  month_price: number;
  currency: string;
  contract_months: number;
  industry_id: string;
  modules: { id: string; count?: number }[];
}

interface ModuleRow {
  id: string;
  key: string;
  name: ModuleToPrice['name'];
  counter: boolean;
  month_price: number;
  currency: string;
  billing: string;
  released: boolean;
}

/**
 * Records a demo member's purchase as the purchase flow leaves it once paid and delivered: the
 * order priced by the same function, the payment that went through, the subscription with its
 * term and the invoice with the seller's next number (server/services/orders/provision.ts). No mail
 * is queued. A member who has a subscription already is left alone.
 */
export async function seedDemoPurchase(trx: Knex.Transaction, purchase: DemoPurchase, now: Date): Promise<boolean> {
  const user = (await trx('users').where({ email: purchase.email }).first('id', 'name')) as
    { id: string; name: string } | undefined;
  if (!user || (await trx('subscriptions').where({ user_id: user.id }).first('id'))) return false;
  const template = (await trx('app_templates').where({ key: purchase.planKey }).first()) as TemplateRow | undefined;
  if (!template) throw new Error(`Demo purchase names unknown plan ${purchase.planKey}`);
  const moduleRows = (await trx('modules').select()) as ModuleRow[];
  const catalogue: ModuleToPrice[] = moduleRows.map((row) => ({
    _id: row.id,
    key: row.key,
    name: row.name,
    counter: row.counter,
    monthPrice: row.month_price,
    currency: row.currency,
    billing: row.billing,
    released: row.released,
  }));
  const addOns = purchase.addOns.map(({ key, count }) => {
    const module = catalogue.find((candidate) => candidate.key === key);
    if (!module) throw new Error(`Demo purchase names unknown module ${key}`);
    return { id: module._id, count };
  });
  const price = priceOrder(
    {
      _id: template.id,
      key: template.key,
      name: template.name,
      type: template.type,
      monthPrice: template.month_price,
      currency: template.currency,
      contractMonths: template.contract_months,
      modules: template.modules,
    },
    catalogue,
    { addOns, prepaidMonths: purchase.prepaidMonths },
    purchase.country,
  );

  const paidAt = demoPaidAt(purchase, now);
  const address = ADDRESSES[purchase.country];
  const shipping = {
    contactPerson: user.name,
    contactNumber: address.contactNumber,
    street: address.street,
    district: address.district,
    city: address.city,
    ...(address.zipcode ? { zipcode: address.zipcode } : {}),
    country: purchase.country,
    shippingDate: addWorkingDays(purchase.country, dayOf(paidAt), 2),
  };
  const card = { brand: 'visa', last4: '4242', expMonth: 12, expYear: new Date(paidAt).getUTCFullYear() + 3 };
  const billingAddress = {
    name: user.name,
    line1: address.street,
    city: address.city,
    ...(address.zipcode ? { postalCode: address.zipcode } : {}),
    country: purchase.country,
  };
  const request = { plan: template.id, addOns, prepaidMonths: purchase.prepaidMonths, shipping };

  const orderId = newId();
  const orderHistory: StateMove[] = [
    { from: 'draft', to: 'pending_payment', at: at(paidAt, -10), actor: user.id, reason: 'order placed' },
    {
      from: 'pending_payment',
      to: 'paid',
      at: paidAt.toISOString(),
      actor: 'gateway:sandbox',
      reason: 'payment succeeded',
    },
    {
      from: 'paid',
      to: 'provisioning',
      at: paidAt.toISOString(),
      actor: 'gateway:sandbox',
      reason: 'subscription and invoice issued',
    },
    {
      from: 'provisioning',
      to: 'completed',
      at: startOfDay(shipping.shippingDate).toISOString(),
      actor: 'system',
      reason: 'delivered',
    },
  ];
  await trx('orders').insert({
    id: orderId,
    number: orderNumber(),
    user_id: user.id,
    status: 'completed',
    industry_id: template.industry_id,
    plan_id: template.id,
    plan_type: template.type,
    ...priceColumns(price),
    shipping: JSON.stringify(shipping),
    idempotency_key: randomBytes(16).toString('hex'),
    request_hash: digest(request),
    card: JSON.stringify(card),
    history: JSON.stringify(orderHistory),
    created_at: at(paidAt, -10),
    updated_at: orderHistory.at(-1)?.at,
  });

  await trx('payments').insert({
    id: newId(),
    order_id: orderId,
    user_id: user.id,
    status: 'succeeded',
    gateway: 'sandbox',
    gateway_charge_id: `demo_${randomBytes(12).toString('hex')}`,
    amount: price.total,
    currency: price.currency,
    card: JSON.stringify(card),
    billing_address: JSON.stringify(billingAddress),
    idempotency_key: randomBytes(16).toString('hex'),
    request_hash: digest({ order: orderId, billingAddress }),
    history: JSON.stringify([
      { from: 'created', to: 'processing', at: at(paidAt, -1), actor: user.id, reason: 'sent to the gateway' },
      {
        from: 'processing',
        to: 'succeeded',
        at: paidAt.toISOString(),
        actor: 'gateway:sandbox',
        reason: 'payment succeeded',
      },
    ]),
    created_at: at(paidAt, -1),
    updated_at: paidAt,
  });

  const term = subscriptionTerm(paidAt, price.contractMonths, price.prepaidMonths);
  const included = template.modules.map((item) => ({
    id: item.id,
    count: Math.max(item.count ?? 1, 1),
    monthPrice: 0,
  }));
  const bought = price.items.flatMap((line) =>
    line.kind === 'addon' && line.module
      ? [{ id: line.module, count: line.count, monthPrice: line.unitPrice, billing: line.billing }]
      : [],
  );
  const subscriptionId = newId();
  await trx('subscriptions').insert({
    id: subscriptionId,
    user_id: user.id,
    order_id: orderId,
    industry_id: template.industry_id,
    plan_id: template.id,
    plan_type: template.type,
    modules: JSON.stringify([...included, ...bought]),
    currency: price.currency,
    monthly: price.monthly,
    period: 'monthly',
    prepaid_months: price.prepaidMonths,
    contract_months: price.contractMonths,
    contract_start: term.contractStart,
    contract_end: term.contractEnd,
    billing_anchor_day: term.billingAnchorDay,
    next_pay_date: term.nextPayDate,
    // The card shows on file, held by no gateway here: a start on the sandbox gateway puts it on file there (demo-cards.ts,
    // decision 065); with Stripe a renewal of a demo plan fails until the member puts in a card (decision 031).
    card: JSON.stringify(card),
    created_at: paidAt,
    updated_at: paidAt,
  });

  await trx('invoices').insert({
    id: newId(),
    number: await takeInvoiceNumber(trx, price.seller),
    seller: price.seller,
    user_id: user.id,
    order_id: orderId,
    subscription_id: subscriptionId,
    lines: JSON.stringify(price.items),
    currency: price.currency,
    subtotal: price.subtotal,
    tax_rate: price.taxRate,
    tax: price.tax,
    total: price.total,
    billing_address: JSON.stringify(billingAddress),
    card: JSON.stringify(card),
    issued_at: paidAt,
    paid_at: paidAt,
    created_at: paidAt,
  });
  return true;
}

import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from '../../domain/entities/services.ts';
import type { WireRecordOf } from '../../domain/entities/types.ts';
import type { orders as ordersDef } from '../../domain/entities/orders.ts';
import { DeliveryDatesService } from '../../server/services/delivery-dates/delivery-dates.ts';
import { deliveryDates } from '../../server/purchase/delivery-dates.ts';
import type { RunningServer } from '../../server/server.ts';
import {
  clientService,
  createAccount,
  rejectionOf,
  restClient,
  skipReason,
  socketClient,
  type SocketClient,
  startTestServer,
  type TestAccount,
} from './harness.ts';

type Order = WireRecordOf<typeof ordersDef>;

/**
 * Orders over the wire (REST and socket.io, the official client): a member reaches only their own,
 * staff read all, nobody patches a status; the delivery days and prices on offer to anyone.
 */
describe.skipIf(skipReason)('orders over REST and socket.io', () => {
  let server: RunningServer;
  let a: TestAccount;
  let b: TestAccount;
  let editor: TestAccount;
  let orderOfA: Order;
  const sockets: SocketClient[] = [];

  const signedIn = async (account: TestAccount, transport: 'rest' | 'socket') => {
    if (transport === 'rest') {
      const client = restClient(server.url, { 'x-forwarded-for': `10.6.0.${sockets.length + 10}` });
      await client.authenticate({ strategy: 'local', email: account.email, password: account.password });
      return client;
    }
    const socket = socketClient(server.url);
    sockets.push(socket);
    await socket.client.authenticate({ strategy: 'local', email: account.email, password: account.password });
    return socket.client;
  };

  beforeAll(async () => {
    server = await startTestServer({ trustProxy: 'loopback' });
    const knex = server.database.knex;
    [a, b] = [await createAccount(knex, { label: 'buyer-a' }), await createAccount(knex, { label: 'buyer-b' })];
    editor = await createAccount(knex, { role: 'editor' });
    await knex('users').whereIn('id', [a._id, b._id]).update({ email_verified_at: new Date() });
    const template = await knex('app_templates').where('key', 'restaurant-lite').first('id');
    const client = await signedIn(a, 'rest');
    orderOfA = await clientService(client, 'orders').create({
      plan: template.id,
      addOns: [],
      prepaidMonths: 12,
      shipping: {
        contactPerson: 'A',
        contactNumber: '2123 4567',
        street: '1 Queen’s Road',
        city: 'Hong Kong',
        country: 'HK',
        shippingDate: deliveryDates('HK')[0] as string,
      },
      idempotencyKey: randomBytes(12).toString('hex'),
    });
    expect(orderOfA).toMatchObject({ status: 'pending_payment', user: a._id, createdAt: expect.any(String) });
  });
  afterAll(async () => {
    for (const socket of sockets) socket.close();
    await server?.close();
  });

  it.each(['rest', 'socket'] as const)('keeps a member to their own orders over %s', async (transport) => {
    const client = await signedIn(b, transport);
    const orders = clientService(client, 'orders');
    const page = (await orders.find({ query: { $limit: 50 } })) as Page<Order>;
    expect(page.data.map((order) => order._id)).not.toContain(orderOfA._id);
    // Asking for A's orders by name finds none.
    expect(((await orders.find({ query: { user: a._id } })) as Page<Order>).total).toBe(0);
    expect(await rejectionOf(orders.get(orderOfA._id))).toMatchObject({ code: 404 });
    expect(
      await rejectionOf(orders.patch(orderOfA._id, { shipping: { ...orderOfA.shipping, room: 'mine' } })),
    ).toMatchObject({ code: 403 });
    expect(await rejectionOf(orders.remove(orderOfA._id))).toMatchObject({ code: 403 });
    // The owner reads it, but cannot move its status or change its figures.
    const owner = clientService(await signedIn(a, transport), 'orders');
    expect((await owner.get(orderOfA._id)).number).toBe(orderOfA.number);
    for (const patch of [{ status: 'paid' }, { $set: { status: 'paid' } }, { total: 1 }]) {
      expect(await rejectionOf(owner.patch(orderOfA._id, patch as never))).toMatchObject({ code: 403 });
    }
  });

  it.each(['rest', 'socket'] as const)(
    'lets staff read every order over %s, and an editor change none',
    async (transport) => {
      const orders = clientService(await signedIn(editor, transport), 'orders');
      const page = (await orders.find({ query: { user: a._id } })) as Page<Order>;
      expect(page.data.map((order) => order._id)).toEqual([orderOfA._id]);
      expect(page.data[0]).not.toHaveProperty('requestHash');
      for (const patch of [
        { status: 'completed' },
        { $set: { status: 'completed' } },
        { $push: { history: { from: 'a', to: 'b', at: 'c', actor: 'd', reason: 'e' } } },
      ]) {
        expect([400, 403]).toContain((await rejectionOf(orders.patch(orderOfA._id, patch as never))).code);
      }
      const stored = await server.database.knex('orders').where('id', orderOfA._id).first('status');
      expect(stored.status).toBe('pending_payment');
    },
  );

  it('offers delivery days and prices to anyone', async () => {
    const client = restClient(server.url);
    const days = await clientService(client, 'deliveryDates').find({ query: { country: 'SG' } });
    expect(days.country).toBe('SG');
    expect(days.dates.length).toBeGreaterThan(20);
    for (const day of days.dates) expect([0, 6]).not.toContain(new Date(`${day}T00:00:00Z`).getUTCDay());
    expect(
      await rejectionOf(clientService(client, 'deliveryDates').find({ query: { country: 'US' as never } })),
    ).toMatchObject({ code: 400 });
    const template = await server.database.knex('app_templates').where('key', 'retail-flexi').first('id');
    const quote = await clientService(client, 'quotes').create({
      plan: template.id,
      addOns: [],
      prepaidMonths: 24,
      country: 'SG',
    });
    expect(quote).toMatchObject({
      seller: 'SG',
      currency: 'SGD',
      taxRate: 900,
      taxInclusive: true,
      contractMonths: 12,
      prepaidMonths: 24,
    });
  });

  it("skips weekends and the shipping country's holidays from a fixed day", async () => {
    // Monday 21 December 2026 in Hong Kong: Christmas Day and the day after are holidays there.
    const christmas = new DeliveryDatesService(() => new Date('2026-12-21T02:00:00Z'));
    expect((await christmas.find({ query: { country: 'HK' } })).dates.slice(0, 3)).toEqual([
      '2026-12-23',
      '2026-12-24',
      '2026-12-28',
    ]);
    // Thursday 6 August 2026: Singapore observes National Day on Monday the 10th.
    const nationalDay = new DeliveryDatesService(() => new Date('2026-08-06T02:00:00Z'));
    expect((await nationalDay.find({ query: { country: 'SG' } })).dates.slice(0, 2)).toEqual([
      '2026-08-11',
      '2026-08-12',
    ]);
    expect((await nationalDay.find({ query: { country: 'HK' } })).dates[0]).toBe('2026-08-10');
  });
});

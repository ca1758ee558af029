import { NotFound } from '@feathersjs/errors';
import type { Application } from '@feathersjs/feathers';
import type { Logger } from 'pino';
import type { Definitions } from '../../../domain/entities/index.ts';
import type { RecordOf } from '../../../domain/entities/types.ts';
import { localeOf } from '../../../domain/locales.ts';
import type { Config } from '../../config.ts';
import { invoiceMail, paidOrderStaffMail } from '../../mail/invoice-mail.ts';
import type { MailJobs } from '../../mail/deliveries.ts';
import { INVOICE_MAIL_JOB, type InvoiceMailJob, ORDER_STAFF_MAIL_JOB, type OrderStaffMailJob } from './provision.ts';

type Invoice = RecordOf<Definitions['invoices']>;
type Order = RecordOf<Definitions['orders']>;
type User = RecordOf<Definitions['users']>;

/** Reads a record in-process, or null when it is gone (nothing left to mail about). */
async function found<T>(read: Promise<unknown>): Promise<T | null> {
  try {
    return (await read) as T;
  } catch (error) {
    if (error instanceof NotFound) return null;
    throw error;
  }
}

/**
 * Works the mail jobs of a paid order (queued by `provisionPaidOrder` in the paying
 * transaction): the buyer's invoice in the buyer's language, and the staff's notice.
 */
export function defineOrderMailJobs(app: Application, mail: MailJobs, config: Config, logger: Logger): void {
  mail.define<InvoiceMailJob>(INVOICE_MAIL_JOB, async ({ invoice: invoiceId }, send) => {
    const invoice = await found<Invoice>(app.service('invoices').get(invoiceId));
    if (!invoice) return;
    const order = await found<Order>(app.service('orders').get(invoice.order));
    const buyer = await found<User>(app.service('users').get(invoice.user));
    if (!order || !buyer) return;
    const locale = localeOf(buyer.locale);
    await send(
      invoiceMail({
        invoice,
        order,
        buyer: { email: buyer.email, name: buyer.name, locale },
        brand: config.site.brandName,
        ...(config.publicUrl ? { publicUrl: config.publicUrl } : {}),
      }),
      locale,
    );
    logger.info({ invoice: invoiceId }, 'invoice mailed');
  });
  mail.define<OrderStaffMailJob>(ORDER_STAFF_MAIL_JOB, async ({ order: orderId, invoice: invoiceId }, send) => {
    const order = await found<Order>(app.service('orders').get(orderId));
    const invoice = await found<Invoice>(app.service('invoices').get(invoiceId));
    if (!order || !invoice) return;
    const buyer = await found<User>(app.service('users').get(order.user));
    await send(
      paidOrderStaffMail(order, invoice, buyer?.email ?? '-', config.mail.staffEmail, config.site.brandName),
      'en',
    );
    logger.info({ order: orderId }, 'paid order mailed to staff');
  });
}

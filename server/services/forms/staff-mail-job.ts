import { NotFound } from '@feathersjs/errors';
import type { Logger } from 'pino';
import { entities } from '../../../domain/entities/index.ts';
import type { Config } from '../../config.ts';
import { staffMail } from '../../mail/staff-mail.ts';
import type { MailJobs } from '../../mail/deliveries.ts';
import { entityServiceAt } from '../entity/service-at.ts';
import { STAFF_MAIL_JOB, type StaffMailJob } from './forms.ts';
import type { ServerApp } from '../types.ts';

const FORM_SERVICES = new Set([entities.contactForms.service, entities.enquiries.service]);

/** Works the staff-mail jobs: reads the submission and mails it to staff (SMTP or outbox). */
export function defineStaffMailJob(app: ServerApp, mail: MailJobs, config: Config, logger: Logger): void {
  mail.define<StaffMailJob>(STAFF_MAIL_JOB, async ({ service, id }, send) => {
    const def = Object.values(entities).find((entity) => entity.service === service);
    const forms = entityServiceAt(app, service);
    if (!def || !forms || !FORM_SERVICES.has(service)) {
      logger.error({ service, id }, 'staff mail job for an unknown service dropped');
      return;
    }
    let record: Record<string, unknown>;
    try {
      record = await forms.get(id);
    } catch (error) {
      // Removed by staff before the mail went: nothing left to tell.
      if (error instanceof NotFound) return;
      throw error;
    }
    await send(staffMail(def, record, config.mail.staffEmail, config.site.brandName), 'en');
    logger.info({ service, id }, 'staff mail sent');
  });
}

import type { Redis } from 'ioredis';
import type { Knex } from 'knex';
import type { Logger } from 'pino';
import { definitions, entities } from '../../domain/entities/index.ts';
import { createLimiter, type LoginLimits } from '../auth/limits.ts';
import type { Config } from '../config.ts';
import type { JobQueue } from '../jobs/queue.ts';
import { clockOf } from '../clock.ts';
import { configureAdmins } from './admins/admins.ts';
import { configureAds } from './ads/ads.ts';
import { configureAppSettings } from './app-settings/app-settings.ts';
import { configureAppDevices } from './app-devices/app-devices.ts';
import { configureAppUsers } from './app-users/app-users.ts';
import { LOOKUP_LISTS } from '../../domain/entities/lookup-lists.ts';
import { configureAttachments } from './attachments/attachments.ts';
import { configureBlogs } from './blogs/blogs.ts';
import { configureEventRegistrations } from './event-registrations/event-registrations.ts';
import { configureNews } from './news/news.ts';
import { configureNewsPublishing } from './news/publishing.ts';
import { configureEmailVerifications, VERIFICATION_LINK_LIMIT } from './email-verifications/email-verifications.ts';
import { defineVerificationMailJob } from './email-verifications/verification-mail-job.ts';
import { Verifications } from './email-verifications/verifications.ts';
import { configureDeliveryDates } from './delivery-dates/delivery-dates.ts';
import { configureDevices } from './devices/devices.ts';
import { registerEntityService } from './entity/register.ts';
import { configureExports } from './exports/exports.ts';
import { configureFacebook } from './facebook/facebook.ts';
import { configureFeatures } from './features/features.ts';
import { configureMailQueue } from './mail-deliveries/mail-deliveries.ts';
import { configureForms } from './forms/configure.ts';
import { configureMissingTranslations } from './missing-translate/missing-translate.ts';
import { configureRegistrations } from './registrations/registrations.ts';
import { configureOrders } from './orders/orders.ts';
import { APP_USER_RESETS, configurePasswordResets } from './password-resets/password-resets.ts';
import { configurePaymentOptions } from './payments/payment-options.ts';
import { configurePayments } from './payments/payments.ts';
import { configurePushMessages } from './push-messages/push-messages.ts';
import { configureQuotes } from './quotes/quotes.ts';
import { configureSubscribers } from './subscribers/subscribers.ts';
import { configureSubscriptions } from './subscriptions/subscriptions.ts';
import { configureUserSessions } from './user-sessions/user-sessions.ts';
import { configureUsers } from './users/users.ts';
import type { ServerApp } from './types.ts';

export interface ServiceDependencies {
  config: Config;
  knex: Knex;
  logger: Logger;
  redis: Redis | null;
  limits: LoginLimits;
  jobs: JobQueue;
}

/**
 * Every service of the API. An entity's access, validation, row and output rules come from its
 * definition (domain/entities/); a service folder adds only what is its own. The order matters
 * once: the outbox exists before the forms, whose mail job writes to it.
 */
export function configureServices(app: ServerApp, deps: ServiceDependencies): void {
  const { config, knex, redis } = deps;
  // The catalogue and the outbox are the generic entity service alone.
  registerEntityService(app, definitions.industries);
  registerEntityService(app, definitions.modules);
  registerEntityService(app, definitions.appTemplates);
  registerEntityService(app, definitions.outbox);
  // Every mail goes through the mail queue, which staff see and admins retry (decision 035).
  const mail = configureMailQueue(app, deps);
  // Email verification: codes sent at registration, on request and when an email changes.
  const verifications = new Verifications({
    knex,
    jobs: deps.jobs,
    secret: config.appSecret,
    clock: () => clockOf(app),
  });
  configureUsers(app, deps.limits, verifications);
  // The staff accounts, a scoped view of the users (decision 052).
  configureAdmins(app, deps.limits, verifications);
  configureRegistrations(app, { knex, limits: deps.limits, verifications });
  configureEmailVerifications(
    app,
    verifications,
    createLimiter(redis, `${config.redisPrefix}:limit:verificationLinks`, VERIFICATION_LINK_LIMIT),
  );
  defineVerificationMailJob(app, { mail, config, logger: deps.logger, knex, verifications, now: () => clockOf(app)() });
  // Forgotten passwords: a mailed link, once, for an hour (decision 026).
  configurePasswordResets(app, { config, knex, logger: deps.logger, jobs: deps.jobs, mail, redis });
  configureBlogs(app);
  // What the company's apps dress their home screen with (decision 046).
  configureAppSettings(app, knex);
  // The company's apps' own users and installations (decisions 053 and 054).
  configureAppUsers(app, deps.limits);
  // Their forgotten passwords: the members' rules, links and limits of their own (decision 026).
  configurePasswordResets(app, { config, knex, logger: deps.logger, jobs: deps.jobs, mail, redis }, APP_USER_RESETS);
  configureAppDevices(app);
  // Push messages to the apps' installations: a durable send job, the devices' reports (decision 055).
  configurePushMessages(app, { config, knex, logger: deps.logger, jobs: deps.jobs });
  // What the apps advertise and sell: ads, campaigns, products, picks and reports (decision 057).
  configureAds(app, { knex, secret: config.appSecret, jobs: deps.jobs, logger: deps.logger });
  // The lookup lists staff edit and the apps' pickers read: the generic entity service alone.
  for (const list of LOOKUP_LISTS) registerEntityService(app, definitions[list]);
  // The categories of the news and the blog, the apps' news with their events, and the app users'
  // places at those events (decision 056). A news item's first publication sends its push
  // notification and its Facebook post; its event's registrants are reminded the day before (decision 059).
  registerEntityService(app, definitions.categories);
  configureNews(app, knex, { published: configureNewsPublishing(app, deps) });
  configureEventRegistrations(app, { knex, jobs: deps.jobs, mail, config, logger: deps.logger });
  configureSubscribers(app, { config, redis });
  configureForms(app, { ...deps, mail });
  configureFeatures(app, knex);
  configureMissingTranslations(app, knex, {
    limiter: createLimiter(redis, `${config.redisPrefix}:limit:missingTranslate`, config.translationReportLimit),
    acceptReports: config.env !== 'production',
  });
  configureUserSessions(app);
  // Buying a plan (decision 018): prices, delivery days, orders and the records a payment makes.
  configureQuotes(app, createLimiter(redis, `${config.redisPrefix}:limit:quotes`, config.quoteLimit), knex);
  configureDeliveryDates(app);
  configureOrders(app, { ...deps, mail });
  configurePayments(app, deps);
  // The card on file and the billing address the payment step offers (decision 063).
  configurePaymentOptions(app, knex);
  // After the purchase (decision 031): renewals, failed-renewal mails, the member's changes.
  configureSubscriptions(app, { ...deps, mail });
  // Uploads (decision 022): files, image variants, pictures; the routes are the app's (app.ts).
  configureAttachments(app, deps);
  // The devices registered to a member's apps (decision 030).
  configureDevices(app, knex);
  // What staff changed, written by every entity service as it writes (decision 033).
  registerEntityService(app, definitions.auditLogs);
  // Exports of the back office's tables, written by a job as the staff member who asked (decision 036).
  configureExports(app, { settings: config.exports, knex, logger: deps.logger, jobs: deps.jobs });
  // Staff import the company's Facebook page's posts as draft news (decision 060).
  configureFacebook(app, { config, knex, logger: deps.logger, jobs: deps.jobs });

  const missing = Object.values(entities).filter((def) => !(def.service in app.services));
  if (missing.length > 0)
    throw new Error(`Entities without a service: ${missing.map((def) => def.service).join(', ')}`);
}

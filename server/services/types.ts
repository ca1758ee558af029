import type { Application } from '@feathersjs/feathers';
import type { Definitions, EntityName } from '../../domain/entities/index.ts';
import type { AppAuthenticationService } from '../auth/strategies.ts';
import type { EntityService } from './entity/entity-service.ts';
import type { DeliveryDatesService } from './delivery-dates/delivery-dates.ts';
import type { EmailVerificationsService } from './email-verifications/email-verifications.ts';
import type { ExportsService } from './exports/exports.ts';
import type { FeaturesService } from './features/features.ts';
import type { MissingTranslationsService } from './missing-translate/missing-translate.ts';
import type { PasswordResetsService } from './password-resets/password-resets.ts';
import type { FulfilmentsService } from './orders/fulfilments.ts';
import type { MailRetriesService } from './mail-deliveries/mail-deliveries.ts';
import type { CardChanges, SubscriptionChanges } from './subscriptions/subscriptions.ts';
import type { TerminationsService } from './subscriptions/terminations.ts';
import type { QuotesService } from './quotes/quotes.ts';
import type { RegistrationsService } from './registrations/registrations.ts';
import type { UserSessionsService } from './user-sessions/user-sessions.ts';

/** Each entity's generic service, typed by its definition. */
export type EntityServices = { [K in EntityName]: EntityService<Definitions[K]> };

/**
 * The services the server registers, by path, as their own classes type them. The Feathers
 * application is typed by this map, so `app.service(path)` answers the class registered there,
 * and the application checks against the callers' map (`ServiceMap`, domain/entities/services.ts)
 * wherever it is handed to them (server/pages.ts, the tests' harness).
 */
export interface ServerServices extends EntityServices {
  features: FeaturesService;
  missingTranslate: MissingTranslationsService;
  authentication: AppAuthenticationService;
  userSessions: UserSessionsService;
  registrations: RegistrationsService;
  emailVerifications: EmailVerificationsService;
  passwordResets: PasswordResetsService;
  quotes: QuotesService;
  deliveryDates: DeliveryDatesService;
  fulfilments: FulfilmentsService;
  subscriptionChanges: SubscriptionChanges;
  cardChanges: CardChanges;
  terminations: TerminationsService;
  exports: ExportsService;
  mailRetries: MailRetriesService;
}

/** The Feathers application as the services' own configuration sees it. */
export type ServerApp = Application<ServerServices>;

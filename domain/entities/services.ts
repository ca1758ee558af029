import type { z } from '../zod.ts';
import type { FeaturesPayload } from '../features.ts';
import type { HONEYPOT_FIELD } from '../forms/messages.ts';
import type { RegistrationField, RegistrationInput } from '../forms/registration.ts';
import type { I18nText, Locale } from '../locales.ts';
import type { ShippingCountry } from '../orders/countries.ts';
import type { OrderPrice } from '../orders/pricing.ts';
import type { PaymentRequest } from '../orders/payment-request.ts';
import type { PaymentOptions } from '../orders/payment-options.ts';
import type { OrderRequest, QuoteRequest, UpgradeOrderRequest, UpgradeQuoteRequest } from '../orders/request.ts';
import type { UpgradePrice } from '../billing/upgrade.ts';
import type { CreateOf, FilterOf, PatchOf, PopulatePath, QueryOf, RecordOf, VisibleField, Wire } from './contract.ts';
import type { AdType } from './ads.ts';
import type { featuresPatchSchema } from './features.ts';
import type { Definitions } from './index.ts';
import type { EntityDef, Role } from './types.ts';
import type { PushEvent, PushSendAction, PushStatus } from './push-messages.ts';
import type { FacebookPostState } from '../news/constants.ts';

/*
 * The services as their callers see them: the one data layer of page loaders and actions (their
 * `api`), tests and the back office. Entity services follow from their definitions; the few other
 * services are typed by hand, here and nowhere else.
 */

type EntityName = keyof Definitions;

/**
 * How a caller reaches the services: in-process (the pages, the server's own calls), where records
 * hold `Date`s, or over JSON (REST, socket.io: tests' clients, the back office), where dates are
 * ISO strings.
 */
export type Transport = 'process' | 'json';

/** An answer as the transport delivers it. */
type Answer<T, O extends Transport> = O extends 'json' ? Wire<T> : T;

/** What a paginated find answers (server/services/entity/entity-service.ts). */
export interface Page<R> {
  /** -1 on keyset pages (`$cursor`), which count nothing. */
  total: number;
  /**
   * Answered to a query with `$countUpTo` (page mode only): true when the count stopped there and
   * more than `total` records match, false when `total` is exact (decision 045).
   */
  totalCapped?: boolean;
  limit: number;
  skip: number;
  data: R[];
  sortBy: string[];
  sortDesc: boolean[];
  cursors: { previous: string | null; next: string | null };
}

/** Who an in-process call acts for: the signed-in user (a role the rules do not know grants nothing). */
export type Caller = {
  _id: string;
  role: Role | (string & {});
};

/**
 * How an in-process call is made. With a `provider` ('ssr' for a page acting for a visitor) the
 * access and row rules apply as to an outside call; without one it is the server's own call.
 */
export interface CallParams {
  provider?: string;
  user?: Caller | null;
  /** The visitor's address, which per-address limits count. */
  ip?: string;
  headers?: Record<string, string | string[] | undefined>;
  /** The caller's session: its token, and (as the sign-in answered it) its claims, whose `jti` names the session. */
  authentication?: SessionAuthentication;
}

export interface SessionAuthentication {
  strategy: 'jwt';
  accessToken: string;
  payload?: { jti?: string };
}

/** The record a definition's `$populate` path names, by the service it points to. */
type PopulatedRecord<E extends EntityDef, P extends string> = E extends { populate: Record<P, { service: infer S }> }
  ? S extends EntityName
    ? RecordOf<Definitions[S]>
    : never
  : never;

/** The items of a list with their `key` populated. */
type PopulatedItems<V, Key extends string, T> = V extends readonly (infer I)[]
  ? { [X in keyof I]: X extends Key ? I[X] | T : I[X] }[]
  : V;

/**
 * A record with `$populate` paths filled in: an id becomes the record it names, or stays an id
 * when the caller may not read that record.
 */
type Populated<E extends EntityDef, R, P extends string> = [P] extends [never]
  ? R
  : {
      [K in keyof R]: K extends P
        ? R[K] | PopulatedRecord<E, K>
        : K extends string
          ? P extends `${K}.${infer Key}`
            ? PopulatedItems<R[K], Key, PopulatedRecord<E, P>>
            : R[K]
          : R[K];
    };

/** A record with `$populate` paths filled in, as a read that asks for them answers it. */
export type PopulatedOf<E extends EntityDef, P extends PopulatePath<E>> = Populated<E, RecordOf<E>, P>;

/** The fields `$select` names, and the id, which every record carries. */
type Selected<E extends EntityDef, S> = S extends readonly VisibleField<E>[]
  ? readonly VisibleField<E>[] extends S
    ? RecordOf<E>
    : Pick<RecordOf<E>, Extract<S[number] | '_id', keyof RecordOf<E>>>
  : RecordOf<E>;

/** A read's records as its query shapes them. */
export type Shaped<E extends EntityDef, S, P extends string> = Populated<E, Selected<E, S>, P>;

/** A query whose `$select` and `$populate` shape the answer (their literal values are inferred). */
export type ShapingQuery<E extends EntityDef, S, P> = QueryOf<E> & { $select?: S; $populate?: P | readonly P[] };

/**
 * An entity service as callers see it. Ids are strings; several records at once (`null` ids) are
 * refused by every entity service, so they are not offered.
 */
export interface EntityApi<E extends EntityDef, O extends Transport = 'process'> {
  /** Every matching record, no page: the server's own lookups (an outside caller still gets a page). */
  find<
    const S extends readonly VisibleField<E>[] = readonly VisibleField<E>[],
    const P extends PopulatePath<E> = never,
  >(
    params: CallParams & { paginate: false; query?: ShapingQuery<E, S, P> },
  ): Promise<Answer<Shaped<E, S, P>[], O>>;
  find<
    const S extends readonly VisibleField<E>[] = readonly VisibleField<E>[],
    const P extends PopulatePath<E> = never,
  >(
    params?: CallParams & { paginate?: undefined; query?: ShapingQuery<E, S, P> },
  ): Promise<Answer<Page<Shaped<E, S, P>>, O>>;
  get<const S extends readonly VisibleField<E>[] = readonly VisibleField<E>[], const P extends PopulatePath<E> = never>(
    id: string,
    params?: CallParams & { query?: ShapingQuery<E, S, P> },
  ): Promise<Answer<Shaped<E, S, P>, O>>;
  create(data: CreateOf<E>, params?: CallParams): Promise<Answer<RecordOf<E>, O>>;
  /** `query` narrows the record patched, and matches the item of a positional `$set`. */
  patch(
    id: string,
    data: PatchOf<E> & PatchExtras<E>,
    params?: CallParams & { query?: FilterOf<E> },
  ): Promise<Answer<RecordOf<E>, O>>;
  remove(id: string, params?: CallParams & { query?: FilterOf<E> }): Promise<Answer<RecordOf<E>, O>>;
}

/**
 * What a patch carries beside the record's fields: a user changing their own email or password
 * gives their current password (server/services/users), which is checked and never stored; a
 * password staff set is confirmed (`passwordConfirm`, decision 052), checked and never stored either.
 */
type PatchExtras<E extends EntityDef> = E['service'] extends 'users'
  ? { currentPassword?: string }
  : E['service'] extends 'admins'
    ? { currentPassword?: string; passwordConfirm?: string }
    : unknown;

/**
 * A form's answers as a visitor sent them, on their way to the service that validates them with
 * the form's own schema (once, there): field names are known, values are not yet. The honeypot
 * travels with them (server/services/forms).
 */
export type FormAnswers<E extends EntityDef> = { [K in keyof CreateOf<E> | typeof HONEYPOT_FIELD]?: unknown };

/** Entity services that visitors' forms post to: their create takes the answers as sent. */
type FormServices = 'contactForms' | 'enquiries' | 'subscribers';

/** What an entity service's create takes: a form's answers as sent, an order's request, or the definition's create data. */
export type CreateInput<E extends EntityDef> = E['service'] extends FormServices
  ? CreateOf<E> | FormAnswers<E>
  : E['service'] extends 'orders'
    ? OrderRequest | UpgradeOrderRequest
    : E['service'] extends 'payments'
      ? PaymentRequest
      : E['service'] extends 'admins'
        ? CreateOf<E> & { passwordConfirm?: string }
        : CreateOf<E>;

/** An entity service whose create takes something else than the definition's create data. */
type FormEntityApi<E extends EntityDef, O extends Transport> = Omit<EntityApi<E, O>, 'create'> & {
  create(data: CreateInput<E>, params?: CallParams): Promise<Answer<RecordOf<E>, O>>;
};

/** The site's feature flags and markets (server/services/features/features.ts). */
export interface FeaturesApi {
  find(params?: CallParams): Promise<FeaturesPayload>;
  /** The same as `find`, whatever the id. */
  get(id: string, params?: CallParams): Promise<FeaturesPayload>;
  /**
   * Admins only; every page hears the change. The settings form's answers may go as sent: the
   * service checks them with `featuresPatchSchema`, once, and answers what is wrong per field.
   */
  patch(
    id: null,
    data: z.input<typeof featuresPatchSchema> | { [K in keyof z.input<typeof featuresPatchSchema>]?: unknown },
    params?: CallParams,
  ): Promise<FeaturesPayload>;
}

/** A message key a page lacked in a language (server/services/missing-translate/missing-translate.ts). */
export interface MissingTranslation {
  _id: string;
  locale: Locale;
  key: string;
  url: string;
  count: number;
  createdAt: Date;
  updatedAt: Date;
}

export interface MissingTranslationReport {
  key: string;
  url?: string;
  locale: Locale;
}

export interface MissingTranslationsApi<O extends Transport = 'process'> {
  find(
    params?: CallParams & { query?: { locale?: Locale; $limit?: number; $skip?: number } },
  ): Promise<Answer<Pick<Page<MissingTranslation>, 'total' | 'limit' | 'skip' | 'data'>, O>>;
  create(
    data: MissingTranslationReport | readonly MissingTranslationReport[],
    params?: CallParams,
  ): Promise<{ received: number }>;
  remove(id: string, params?: CallParams): Promise<Answer<MissingTranslation, O>>;
  /** Empties the list: admins only. */
  remove(id: null, params?: CallParams): Promise<Answer<MissingTranslation[], O>>;
}

/**
 * A sign-in: with a password, with a session's token (server/auth/strategies.ts), or, for a page's
 * live connection, with a one-time socket ticket (server/auth/tickets.ts, decision 027).
 */
export type SignIn =
  | { strategy: 'local'; email: string; password: string }
  | { strategy: 'jwt'; accessToken: string }
  | { strategy: 'ticket'; ticket: string };

export interface Authentication {
  accessToken: string;
  authentication: { strategy: string; accessToken?: string; payload?: { jti?: string } };
  user: RecordOf<Definitions['users']>;
}

export interface AuthenticationApi<O extends Transport = 'process'> {
  create(data: SignIn, params?: CallParams): Promise<Answer<Authentication, O>>;
  /**
   * Signing out: revokes the token given in `params.authentication`; over a socket, the one the
   * connection signed in with.
   */
  remove(
    id: string | null,
    ...params: O extends 'json'
      ? [params?: CallParams]
      : [params: CallParams & { authentication: { strategy: 'jwt'; accessToken: string } }]
  ): Promise<Answer<Authentication, O>>;
}

/** Ends every session of an account (server/services/user-sessions/user-sessions.ts). */
export interface UserSessionsApi {
  remove(userId: string, params?: CallParams): Promise<{ _id: string; sessionsEnded: true }>;
}

/** When the code just sent expires, and when another may be asked for. */
export interface VerificationState {
  expiresAt: Date;
  resendAfter: Date;
}

/** A new account and the state of the code sent to it (server/services/registrations). */
export interface RegistrationAnswer {
  user: Pick<
    RecordOf<Definitions['users']>,
    | '_id'
    | 'email'
    | 'name'
    | 'companyName'
    | 'companyAddress'
    | 'phone'
    | 'locale'
    | 'role'
    | 'emailVerifiedAt'
    | 'createdAt'
    | 'updatedAt'
  >;
  verification: VerificationState;
}

/**
 * A business owner registering themselves: the registration form's answers as sent (its schema,
 * domain/forms/registration.ts, checks them on the server again). Public, limited per address;
 * 409 `registration.accountExists` when the email has an account.
 */
export interface RegistrationsApi<O extends Transport = 'process'> {
  create(
    data: RegistrationInput | { [K in RegistrationField]?: unknown },
    params?: CallParams,
  ): Promise<Answer<RegistrationAnswer, O>>;
}

/**
 * Proving an email address (server/services/email-verifications): a code (signed in: one's own
 * account), the mailed link's token (anyone holding it), or asking for a new code (signed in).
 */
export type EmailVerificationRequest = { code: string } | { token: string } | { resend: true };

/** Whether the account is verified now; after a resend, the new code's times. Never a session. */
export interface EmailVerificationAnswer {
  verified: boolean;
  expiresAt?: Date;
  resendAfter?: Date;
}

export interface EmailVerificationsApi<O extends Transport = 'process'> {
  create(data: EmailVerificationRequest, params?: CallParams): Promise<Answer<EmailVerificationAnswer, O>>;
}

/**
 * A forgotten password (server/services/password-resets, decision 026): `{email}` asks for a mailed
 * link (the same answer whether or not an account uses the address); `{token, password}` sets a new
 * password with that link, once, and ends every session of the account. The same for the members
 * (`passwordResets`) and for the users of the company's apps (`appPasswordResets`).
 */
export type PasswordResetRequest = { email: string } | { token: string; password: string };

export type PasswordResetAnswer = { requested: true } | { reset: true; email: string };

export interface PasswordResetsApi<O extends Transport = 'process'> {
  create(data: PasswordResetRequest, params?: CallParams): Promise<Answer<PasswordResetAnswer, O>>;
}

/** The price of a choice shipped to a country, as an order would be priced (server/services/quotes). Public, limited per address. */
export interface QuotesApi {
  create(data: QuoteRequest, params?: CallParams): Promise<OrderPrice>;
  /** Add-ons for the caller's own subscription, priced for today (decision 026). */
  create(data: UpgradeQuoteRequest, params?: CallParams): Promise<UpgradePrice>;
}

/** Staff mark a paid order set up and delivered (server/services/orders/fulfilments.ts). */
export interface FulfilmentsApi {
  create(data: { order: string }, params?: CallParams): Promise<{ order: string; status: 'completed' }>;
}

/** The day a plan asked to stop stops, and what ending it sooner would cost (domain/billing/lifecycle.ts). */
export type CancellationAnswer =
  | { kind: 'periodEnd'; endsOn: string }
  | { kind: 'contractEnd'; endsOn: string; terminationFee: number; monthsLeft: number }
  | { kind: 'notice'; endsOn: string };

/** The owner stops their plan at the end the terms allow, or keeps it (server/services/subscriptions, decision 031). */
export interface SubscriptionChangesApi {
  create(
    data:
      | { subscription: string; action: 'cancel' | 'resume' }
      | { subscription: string; action: 'removeAddOn'; module: string },
    params?: CallParams,
  ): Promise<{
    subscription: string;
    status: string;
    cancelAt: string | null;
    cancellation: CancellationAnswer;
    removed?: { module: string; credit: number; monthly: number };
  }>;
}

/**
 * The owner (or an admin) ends a plan inside its minimum term now, for the fee the plan page shows
 * (decision 044): charged off-session on the card on file and invoiced. 409 when the plan is not in
 * such a term, has ended or is overdue; 402 when the card is not charged (nothing changes).
 */
export interface TerminationsApi {
  create(
    data: { subscription: string; expectedFee?: number },
    params?: CallParams,
  ): Promise<{
    subscription: string;
    status: 'cancelled';
    endedOn: string;
    fee: number;
    currency: string;
    monthsLeft: number;
    order: { _id: string; number: string };
    invoice: { _id: string; number: string } | null;
  }>;
}

/**
 * How the owner can pay for an order of their subscription (decision 063): the card on file and
 * whether one press pays with it now, and the billing address of their last order. 404 for
 * another member's subscription.
 */
export interface PaymentOptionsApi {
  get(subscription: string, params?: CallParams): Promise<PaymentOptions>;
}

/** The owner replaces the card on file; an overdue renewal is tried on it at once (decision 031). */
export interface CardChangesApi {
  create(
    data: { subscription: string; paymentMethodId: string },
    params?: CallParams,
  ): Promise<{
    subscription: string;
    card: { brand: string; last4: string; expMonth: number; expYear: number };
    renewal: string;
    status: string;
  }>;
}

/**
 * An admin sends a mail that failed on its last attempt again (server/services/mail-deliveries,
 * decision 035): the answer is its `mailDeliveries` record, back in `queued`. 409
 * `mail.notFailed` for a mail in any other state.
 */
export interface MailRetriesApi<O extends Transport = 'process'> {
  create(data: { delivery: string }, params?: CallParams): Promise<Answer<RecordOf<Definitions['mailDeliveries']>, O>>;
}

/** The days a delivery to a country can be booked on (server/services/delivery-dates). */
export interface DeliveryDatesAnswer {
  country: ShippingCountry;
  /** YYYY-MM-DD, soonest first. */
  dates: string[];
}

export interface DeliveryDatesApi {
  find(params: CallParams & { query: { country: ShippingCountry } }): Promise<DeliveryDatesAnswer>;
}

/** An export of a back-office table (server/services/exports, decision 036). */
export interface ExportAnswer {
  _id: string;
  source: string;
  format: 'csv' | 'xlsx';
  columns: string[];
  locale: string;
  state: 'queued' | 'running' | 'done' | 'failed' | 'cancelled';
  rows: number;
  total: number | null;
  fileKey: string | null;
  error: string | null;
  user: string;
  createdAt: Date;
  finishedAt: Date | null;
}

export interface ExportRequest {
  source: string;
  format: 'csv' | 'xlsx';
  /** Exported fields of the entity, in the file's order. */
  columns: string[];
  /** The table's filters and sort (`viewQuery` without its page), or `ids`: a selection. */
  query?: Record<string, unknown>;
  ids?: string[];
  locale?: string;
}

/** Staff export a table they may list; the one who asked (or an admin) follows and cancels it. */
export interface ExportsApi<O extends Transport = 'process'> {
  create(data: ExportRequest, params?: CallParams): Promise<Answer<ExportAnswer, O>>;
  get(id: string, params?: CallParams): Promise<Answer<ExportAnswer, O>>;
  patch(id: string, data: { state: 'cancelled' }, params?: CallParams): Promise<Answer<ExportAnswer, O>>;
}

/** Staff's actions on a push message (server/services/push-messages, decision 055). */
export interface PushSendsApi {
  create(
    data: { message: string; action: PushSendAction },
    params?: CallParams,
  ): Promise<{ message: string; action: PushSendAction; status: PushStatus; sent?: boolean; reason?: string }>;
}

/**
 * Staff post a published news item to the company's Facebook page again after its post failed
 * (server/services/news/facebook-posts.ts, decision 059): queued at once, its state `pending`.
 */
export interface FacebookPostsApi {
  create(data: { news: string }, params?: CallParams): Promise<{ news: string; facebookStatus: FacebookPostState }>;
}

/** A device's report that a push message reached it or was opened; public, proven by the installation's secret. */
export interface PushReceiptsApi {
  create(
    data: { message: string; deviceId: string; secret: string; event: PushEvent },
    params?: CallParams,
  ): Promise<{ message: string; event: PushEvent; recorded: boolean }>;
}

/** What an app shows for an ad it asked for (server/services/ads, decision 057). */
export interface AdPick {
  /** The signed id a view or click is reported with. */
  id: string;
  adType: AdType;
  name: I18nText;
  /** Addresses of the uploaded pictures (`/api/attachments/{id}`), none when the ad has none. */
  media: string | null;
  smallImage: string | null;
  targetLink: string | null;
}

/** One ad of a type for a placement, picked by probability then weight; a device that proves itself is capped. Anyone. */
export interface AdPicksApi {
  /** Every ad a campaign (by key) shows now, of one type or all, by weight: its microsite's list. */
  find(params: CallParams & { query: { campaign: string; adType?: AdType } }): Promise<AdPick[]>;
  create(
    data: { adType: AdType; deviceId?: string; secret?: string; campaign?: string },
    params?: CallParams,
  ): Promise<{ ad: AdPick | null }>;
}

/** A device's view or click of an ad it was served, counted once per device, ad and hour. */
export interface AdReportsApi {
  create(
    data: { ad: string; kind: 'view' | 'click'; deviceId: string; secret: string },
    params?: CallParams,
  ): Promise<{ counted: boolean }>;
}

/** A record's figures by day, most recent first (an ad's views and clicks): staff. */
export interface SeriesApi {
  find(
    params: CallParams & { query: Record<string, string> },
  ): Promise<({ day: string } & Record<string, number | string>)[]>;
}

/** The services that have no definition, typed here by hand. */
interface OtherServices<O extends Transport> {
  features: FeaturesApi;
  missingTranslate: MissingTranslationsApi<O>;
  authentication: AuthenticationApi<O>;
  userSessions: UserSessionsApi;
  registrations: RegistrationsApi<O>;
  emailVerifications: EmailVerificationsApi<O>;
  passwordResets: PasswordResetsApi<O>;
  appPasswordResets: PasswordResetsApi<O>;
  quotes: QuotesApi;
  deliveryDates: DeliveryDatesApi;
  fulfilments: FulfilmentsApi;
  subscriptionChanges: SubscriptionChangesApi;
  cardChanges: CardChangesApi;
  paymentOptions: PaymentOptionsApi;
  terminations: TerminationsApi;
  exports: ExportsApi<O>;
  mailRetries: MailRetriesApi<O>;
  pushSends: PushSendsApi;
  pushReceipts: PushReceiptsApi;
  facebookPosts: FacebookPostsApi;
  adPicks: AdPicksApi;
  adReports: AdReportsApi;
  adDays: SeriesApi;
}

/**
 * An entity's service as callers see it: its methods follow from its definition. Forms' services
 * take the answers as sent; orders are placed with a choice, a shipping address and a key
 * (server/services/orders), never with their figures: the server prices them and answers the order.
 */
export type TypedService<E extends EntityDef, O extends Transport = 'process'> = E['service'] extends
  FormServices | 'orders' | 'payments' | 'admins'
  ? FormEntityApi<E, O>
  : EntityApi<E, O>;

export type ServiceName = EntityName | keyof OtherServices<Transport>;

/** Each entity's service by its path. */
type EntityServices<O extends Transport> = { [K in EntityName]: TypedService<Definitions[K], O> };

/**
 * Every service by its path, as `api.service(path)` answers it. An interface, not a mapped type
 * with a condition per path: `Services[K]` then stays a lookup that the compiler relates map to
 * map, so an application typed by its own services (server/services/types.ts) is checked against
 * this one, path by path, wherever it is handed over as a `ServiceMap`.
 */
export interface Services<O extends Transport = 'process'> extends EntityServices<O>, OtherServices<O> {}

/** The data layer: services by path, typed. The Feathers application is one (in-process). */
export interface ServiceMap {
  service<K extends ServiceName>(path: K): Services[K];
}

/** The same over REST or socket.io: the official Feathers client is one. */
export interface ClientServiceMap {
  service<K extends ServiceName>(path: K): Services<'json'>[K];
}

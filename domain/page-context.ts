import type { ServiceMap, SessionAuthentication } from './entities/services.ts';
import type { RecordOf } from './entities/types.ts';
import type { users } from './entities/users.ts';
import type { ClientConfig } from './payment-client.ts';
import type { SiteSettings } from './site.ts';

/*
 * What the server hands every loader and action. Both sides name it: the server builds it for each
 * request (server/pages.ts) and the pages read it through their context key (app/context.ts), so it
 * lives here, below both.
 */

/** What the server hands every loader and action: the in-process API and who is asking. */
export interface ServerContext {
  /**
   * The Feathers application, called in-process with an outside caller's provider and user: the
   * typed services are the pages' one data layer.
   */
  api: ServiceMap;
  user: SessionUser | null;
  accessToken: string | null;
  /** The session, for calls that must know which one is the caller's (a password change keeps it). */
  authentication: SessionAuthentication | null;
  nonce: string;
  ip: string | undefined;
  headers: Record<string, string | string[] | undefined>;
  secureCookies: boolean;
  site: SiteSettings;
  /** What the purchase pages need to show the payment provider's card fields (never a secret). */
  payments: ClientConfig;
  /** The request's logger (its lines carry the request id). */
  log: { error(details: Record<string, unknown>, message: string): void };
  /** Development server: missing translations are reported. */
  development: boolean;
  /** The company's Facebook page is configured: its posts can be imported from the Graph API (decision 060). */
  facebookPage: boolean;
}

/** The signed-in account, as its session names it. */
export type SessionUser = Pick<
  RecordOf<typeof users>,
  '_id' | 'email' | 'name' | 'firstName' | 'lastName' | 'role' | 'picture'
>;

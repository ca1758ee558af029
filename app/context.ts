import { createContext } from 'react-router';
import type { ServiceMap, SessionAuthentication } from '../domain/entities/services';
import type { RecordOf } from '../domain/entities/types';
import type { users } from '../domain/entities/users';
import type { SiteSettings } from '../domain/site';
import type { ClientConfig } from '../server/payments/gateway';

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
}

/** The signed-in account, as its session names it. */
export type SessionUser = Pick<
  RecordOf<typeof users>,
  '_id' | 'email' | 'name' | 'firstName' | 'lastName' | 'role' | 'picture'
>;

export const serverContext = createContext<ServerContext>();

import { createContext } from 'react-router';
import type { SiteSettings } from '../domain/site';

/** What the server hands every loader and action: the in-process API and who is asking. */
export interface ServerContext {
  /** The Feathers application, called in-process with an outside caller's provider and user. */
  api: {
    service(path: string): {
      find(params?: Record<string, unknown>): Promise<unknown>;
      get(id: string, params?: Record<string, unknown>): Promise<unknown>;
      create(data: unknown, params?: Record<string, unknown>): Promise<unknown>;
      remove(id: string | null, params?: Record<string, unknown>): Promise<unknown>;
    };
  };
  user: SessionUser | null;
  accessToken: string | null;
  nonce: string;
  ip: string | undefined;
  headers: Record<string, string | string[] | undefined>;
  secureCookies: boolean;
  site: SiteSettings;
  /** The request's logger (its lines carry the request id). */
  log: { error(details: Record<string, unknown>, message: string): void };
  /** Development server: missing translations are reported. */
  development: boolean;
}

export interface SessionUser {
  _id: string;
  email: string;
  name?: string | null;
  firstName?: string | null;
  lastName?: string | null;
  role: 'member' | 'editor' | 'admin';
}

export const serverContext = createContext<ServerContext>();

import { feathers } from '@feathersjs/feathers';
import socketio from '@feathersjs/socketio-client';
import { io } from 'socket.io-client';
import type { Services } from '../../domain/entities/services';
import { createLive, type Live, type LiveOptions } from './live';

/** Where the API's socket.io listens (server/app.ts), and the calls' timeout. */
const SOCKET_PATH = '/api/socket.io';
const REQUEST_TIMEOUT_MS = 30_000;

/** A Feathers-style error from the ticket endpoint's JSON answer. */
function ticketError(status: number, body: unknown): Error {
  const b = (body ?? {}) as { name?: string; message?: string };
  return Object.assign(new Error(b.message ?? `HTTP ${status}`), {
    name: b.name ?? (status === 401 ? 'NotAuthenticated' : 'GeneralError'),
    code: status,
  });
}

/** A one-time ticket for the socket, asked with the page's own session cookie (same origin only). */
export async function fetchTicket(): Promise<string> {
  const response = await fetch('/api/socketTickets', {
    method: 'POST',
    credentials: 'same-origin',
    cache: 'no-store',
    headers: { accept: 'application/json' },
  });
  const body: unknown = await response.json().catch(() => null);
  if (!response.ok) throw ticketError(response.status, body);
  const ticket = (body as { ticket?: unknown } | null)?.ticket;
  if (typeof ticket !== 'string') throw ticketError(500, null);
  return ticket;
}

/**
 * The portal's live connection: the official Feathers client over socket.io (websocket only,
 * 30 s request timeout) on this site's origin, signed in by ticket (live.ts). Loaded on portal
 * pages only, after they hydrate.
 */
export function connectLive(options: Pick<LiveOptions, 'onLoggedOut' | 'onReconnected'>): Live {
  // The request timeout is socket.io's `ackTimeout`: the Feathers 5 client reads it from the socket
  // (its own `timeout` option is not used any more).
  const socket = io({ path: SOCKET_PATH, transports: ['websocket'], ackTimeout: REQUEST_TIMEOUT_MS });
  // The client is typed by the service map over JSON, so each call through it is typed by the definitions.
  const client = feathers<Services<'json'>>();
  client.configure(socketio<Services<'json'>>(socket));
  return createLive({ client, socket, getTicket: fetchTicket, ...options });
}

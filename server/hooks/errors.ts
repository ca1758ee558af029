import { BadRequest, errors as errorClasses, FeathersError, GeneralError, NotFound } from '@feathersjs/errors';
import type { HookContext, NextFunction as HookNext } from '@feathersjs/feathers';
import type { NextFunction, Request, Response } from 'express';
import type { Logger } from 'pino';
import type { Locale } from '../../domain/locales.ts';
import { DATABASE_RETRY_AFTER, databaseUnavailable, isDatabaseUnavailable } from '../db/unavailable.ts';
import { isMessageKey, localeFromHeaders, translate } from '../i18n.ts';
import { loggableUrl } from '../logging.ts';

/** Unexpected errors already written to the log by the service hook (not logged twice). */
const logged = new WeakSet<object>();

/**
 * Translates an error's message and per-field messages when they are message keys; their `{name}`
 * placeholders are filled from the error's data (`attemptsLeft`).
 */
function translateError(error: FeathersError, locale: Locale): void {
  const values =
    typeof error.data === 'object' && error.data !== null ? (error.data as Record<string, unknown>) : undefined;
  if (isMessageKey(error.message)) error.message = translate(locale, error.message, values);
  const errors = error.errors as Record<string, unknown> | undefined;
  if (errors && typeof errors === 'object') {
    for (const [field, message] of Object.entries(errors)) {
      if (isMessageKey(message)) errors[field] = translate(locale, message, values);
    }
  }
}

/**
 * Every error that leaves through a transport is a Feathers error whose message and per-field
 * messages are in the caller's language. The database away is a 503 with the seconds to wait
 * (decision 032); other unexpected errors are logged and answered as a 500 without internals.
 */
export async function localizeErrors(context: HookContext, next: HookNext): Promise<void> {
  try {
    await next();
  } catch (caught) {
    if (!context.params.provider) throw caught;
    const locale = localeFromHeaders(context.params.headers as Record<string, unknown> | undefined);
    // The database away (refused, dropped, or no connection in time) is a 503 to retry, not a fault.
    if (isDatabaseUnavailable(caught)) {
      const unavailable = databaseUnavailable();
      translateError(unavailable, locale);
      throw unavailable;
    }
    // A 503 is a deliberate answer (a payment provider that did not answer: the caller retries), not a fault of ours.
    if (!(caught instanceof FeathersError) || (caught.code >= 500 && caught.code !== 503)) {
      const logger = context.app.get('logger') as { error: (obj: unknown, msg: string) => void } | undefined;
      logger?.error({ err: caught, path: context.path, method: context.method }, 'service error');
      const generic = new GeneralError(translate(locale, 'errors.generic'));
      logged.add(generic);
      throw generic;
    }
    translateError(caught, locale);
    throw caught;
  }
}

type HttpError = Error & { status?: unknown; statusCode?: unknown; type?: unknown; expose?: unknown };

/** Answers what is not an endpoint under /api with Feathers' NotFound JSON (not the pages' 404). */
export function unknownEndpoint(_req: Request, _res: Response, next: NextFunction): void {
  next(new NotFound('errors.noEndpoint'));
}

const unsupportedBody = () =>
  new FeathersError('errors.unsupportedBody', 'UnsupportedMediaType', 415, 'unsupported-media-type', {});

/** Methods whose body a service reads. */
const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH']);

/**
 * The API reads JSON bodies only; a write with a body of any other type is a 415 before anything
 * reads it. Browsers send urlencoded, multipart and text/plain bodies across sites without asking
 * (no preflight), so this keeps other sites' forms away from every service, sign-in included.
 */
export function jsonBodiesOnly(req: Request, _res: Response, next: NextFunction): void {
  const hasBody = req.headers['transfer-encoding'] !== undefined || Number(req.headers['content-length'] ?? 0) > 0;
  if (BODY_METHODS.has(req.method) && hasBody && !req.is('application/json')) return next(unsupportedBody());
  next();
}

/** Turns an error that never reached a service (body parsing, size limit, a bug) into a Feathers error. */
function toFeathersError(error: unknown): FeathersError {
  if (error instanceof FeathersError) return error;
  const http = error as HttpError;
  const status = Number(http?.status ?? http?.statusCode);
  if (status === 413) return new FeathersError('errors.tooLarge', 'PayloadTooLarge', 413, 'payload-too-large', {});
  if (status === 415) return unsupportedBody();
  if (status === 400) return new BadRequest('errors.badBody');
  const known = (errorClasses as unknown as Record<number, new (message: string) => FeathersError>)[status];
  if (status > 400 && status < 500 && known) return new known(http.message);
  return new GeneralError('errors.generic');
}

/** Seconds a client is told to wait after a 429 that does not say how long (none of ours does). */
export const DEFAULT_RETRY_AFTER = 60;

/** The seconds a TooManyRequests or Unavailable error asks the client to wait (its `data.retryAfter`), at least 1. */
export function retryAfterSeconds(error: FeathersError): number {
  const seconds = Number((error.data as { retryAfter?: unknown } | undefined)?.retryAfter);
  if (Number.isFinite(seconds) && seconds > 0) return Math.ceil(seconds);
  return error.code === 503 ? DATABASE_RETRY_AFTER : DEFAULT_RETRY_AFTER;
}

/**
 * The last word on errors over REST before Feathers' error handler writes the JSON: a Feathers
 * error in the caller's language, and for anything unexpected a 500 with a generic message (the
 * cause goes to the log, never to the client). Headers that the service's hooks set for the
 * answer go with an error too (a failed sign-out still clears the session cookie), and a 429 or a
 * 503 (the database away: decision 032) says when to try again (`Retry-After`).
 */
export function normalizeHttpError(logger: Logger) {
  return (error: unknown, req: Request, res: Response, next: NextFunction): void => {
    let converted = isDatabaseUnavailable(error) ? databaseUnavailable() : toFeathersError(error);
    // A 503 (the database or a payment provider away) is an answer to retry, kept as it is.
    if (converted.code >= 500 && converted.code !== 503) {
      if (!logged.has(error as object)) {
        logger.error({ err: error, url: loggableUrl(req.originalUrl) }, 'request error');
      }
      converted = new GeneralError('errors.generic');
    }
    translateError(converted, localeFromHeaders(req.headers as Record<string, unknown>));
    if (!res.headersSent) {
      // Feathers' REST transport keeps the service call's hook context on the response.
      const hookHeaders = (res as Response & { hook?: { http?: { headers?: Record<string, string | string[]> } } }).hook
        ?.http?.headers;
      if (hookHeaders) res.set(hookHeaders);
      if (converted.code === 429 || converted.code === 503)
        res.set('Retry-After', String(retryAfterSeconds(converted)));
    }
    next(converted);
  };
}

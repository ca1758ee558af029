import { data } from 'react-router';
import type { ServiceMap, ServiceName, Services } from '../domain/entities/services.ts';
import { DATABASE_RETRY_AFTER, isDatabaseUnavailable, isDatabaseUnavailableAnswer } from './db/unavailable.ts';

/** The route error a page's loader or action throws while the database is away. */
export function databaseUnavailablePage() {
  return data(null, {
    status: 503,
    statusText: 'Service Unavailable',
    headers: { 'Retry-After': String(DATABASE_RETRY_AFTER) },
  });
}

/**
 * The services as pages' loaders and actions reach them (decision 032): the same calls, except
 * that a call failing because the database is away throws a 503 route error, so the page answers
 * the error page with that status and message (and a public page its last cached copy), never a
 * generic 500. Every other answer and error passes as it is.
 */
export function pageServices(services: ServiceMap): ServiceMap {
  const wrapped = new Map<string, object>();
  const rethrow = (error: unknown): never => {
    throw isDatabaseUnavailableAnswer(error) || isDatabaseUnavailable(error) ? databaseUnavailablePage() : error;
  };
  return {
    service<K extends ServiceName>(path: K): Services[K] {
      const known = wrapped.get(path);
      if (known) return known as Services[K];
      const service = services.service(path);
      const proxy = new Proxy(service, {
        get(target, property, receiver) {
          const value: unknown = Reflect.get(target, property, receiver);
          if (typeof value !== 'function') return value;
          return (...args: unknown[]) => {
            try {
              const result: unknown = value.apply(target, args);
              return result instanceof Promise ? result.catch(rethrow) : result;
            } catch (error) {
              return rethrow(error);
            }
          };
        },
      });
      wrapped.set(path, proxy);
      return proxy;
    },
  };
}

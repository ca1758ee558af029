import { GeneralError, NotFound } from '@feathersjs/errors';
import { describe, expect, it } from 'vitest';
import type { ServiceMap } from '../domain/entities/services.ts';
import { databaseUnavailable } from './db/unavailable.ts';
import { pageServices } from './page-services.ts';

/** A service map whose one service fails with the given error, or answers. */
function failingWith(error: unknown): ServiceMap {
  const service = {
    name: 'industries',
    async find() {
      if (error) throw error;
      return { total: 0, limit: 10, skip: 0, data: [] };
    },
  };
  return { service: () => service } as unknown as ServiceMap;
}

describe('pageServices', () => {
  it('turns the database away into a 503 route error for the page', async () => {
    for (const cause of [
      databaseUnavailable(),
      Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }),
    ]) {
      const thrown: unknown = await pageServices(failingWith(cause))
        .service('industries')
        .find({})
        .catch((error: unknown) => error);
      const { init } = thrown as { init: { status: number; headers: Record<string, string> } };
      expect(init.status).toBe(503);
      expect(init.headers['Retry-After']).toBe('5');
    }
  });

  it('passes answers, other errors and other properties as they are', async () => {
    expect(await pageServices(failingWith(null)).service('industries').find({})).toMatchObject({ data: [] });
    for (const error of [new NotFound('x'), new GeneralError('x')]) {
      await expect(pageServices(failingWith(error)).service('industries').find({})).rejects.toBe(error);
    }
    expect((pageServices(failingWith(null)).service('industries') as unknown as { name: string }).name).toBe(
      'industries',
    );
  });
});

import { GeneralError, NotFound } from '@feathersjs/errors';
import { describe, expect, it } from 'vitest';
import { databaseUnavailable, isDatabaseUnavailable, isDatabaseUnavailableAnswer } from './unavailable.ts';

const withCode = (code: string, message = 'x') => Object.assign(new Error(message), { code });

describe('isDatabaseUnavailable', () => {
  it('knows what pg, its pool, knex and a socket say when the database is away', () => {
    for (const error of [
      withCode('ECONNREFUSED', 'connect ECONNREFUSED 127.0.0.1:5432'),
      withCode('ECONNRESET', 'read ECONNRESET'),
      withCode('ETIMEDOUT'),
      new Error('Connection terminated unexpectedly'),
      new Error('Connection terminated due to connection timeout'),
      new Error('Client has encountered a connection error and is not queryable'),
      Object.assign(new Error('Knex: Timeout acquiring a connection. The pool is probably full.'), {
        name: 'KnexTimeoutError',
      }),
      withCode('57P01', 'terminating connection due to administrator command'),
      withCode('57P03', 'the database system is starting up'),
      withCode('08006'),
      withCode('53300', 'sorry, too many clients already'),
      new Error('wrapped', { cause: withCode('ECONNREFUSED') }),
      Object.assign(new AggregateError([withCode('ECONNREFUSED'), withCode('ECONNREFUSED')]), {}),
    ]) {
      expect(isDatabaseUnavailable(error), String(error)).toBe(true);
    }
  });

  it('leaves every other failure alone: constraint violations, syntax, our own errors', () => {
    for (const error of [
      withCode('23505', 'duplicate key'),
      withCode('42P01', 'relation does not exist'),
      withCode('25P02'),
      new NotFound('x'),
      new GeneralError('x'),
      new Error('Connection'),
      null,
      'ECONNREFUSED',
    ]) {
      expect(isDatabaseUnavailable(error), String(error)).toBe(false);
    }
  });
});

describe('databaseUnavailable', () => {
  it('is a 503 that says when to retry, recognised after its message is translated', () => {
    const error = databaseUnavailable();
    expect(error).toMatchObject({
      name: 'Unavailable',
      code: 503,
      message: 'errors.databaseUnavailable',
      data: { retryAfter: 5 },
    });
    error.message = '服務暫時未能使用';
    expect(isDatabaseUnavailableAnswer(error)).toBe(true);
    expect(isDatabaseUnavailableAnswer(new GeneralError('x'))).toBe(false);
  });
});

import { BadRequest, GeneralError, TooManyRequests } from '@feathersjs/errors';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ServiceMap } from '../domain/entities/services';
import type { ServerContext } from './context';
import { submitForm } from './forms.server';

/** A page's context whose services fail with `failure`, and whose request log is kept. */
function failingContext(failure: Error) {
  const logged: { details: Record<string, unknown>; message: string }[] = [];
  const api: ServiceMap = {
    service: () => {
      throw failure;
    },
  };
  const ctx: ServerContext = {
    api,
    user: null,
    accessToken: null,
    authentication: null,
    nonce: '',
    ip: '10.0.0.1',
    headers: {},
    secureCookies: false,
    payments: { provider: 'sandbox', origin: 'http://localhost:1' },
    site: {
      brandName: 'Tillpoint',
      brandSlug: 'tillpoint',
      gtmId: undefined,
      chatUrl: '',
      supportEmail: '',
      supportPhone: '',
      publicUrl: undefined,
    },
    log: { error: (details, message) => logged.push({ details, message }) },
    development: false,
    facebookPage: false,
  };
  return { ctx, logged };
}

const answers = { campaign: 'sg23', email: 'ann@kopi', website_url: 'http://spam.example' };

describe('submitting a form to its service', () => {
  afterEach(() => vi.restoreAllMocks());

  it("answers a refusal with the service's errors and message, and the answers to show again", async () => {
    const { ctx, logged } = failingContext(
      new BadRequest('Please check the highlighted fields.', { errors: { email: 'Please Input Correct Email !' } }),
    );
    expect(await submitForm(ctx, 'subscribers', answers, 'en')).toEqual({
      result: {
        ok: false,
        message: 'Please check the highlighted fields.',
        errors: { email: 'Please Input Correct Email !' },
        values: { campaign: 'sg23', email: 'ann@kopi' },
      },
      status: 400,
    });
    const limited = failingContext(new TooManyRequests('Too many sign-ups from your network. Please try again later.'));
    expect(await submitForm(limited.ctx, 'subscribers', answers, 'en')).toMatchObject({
      result: { ok: false, errors: {} },
      status: 429,
    });
    expect([...logged, ...limited.logged]).toEqual([]);
  });

  it("logs an unexpected failure through the request's log, never the console, and answers without a message", async () => {
    const consoleError = vi.spyOn(console, 'error').mockImplementation(() => {});
    const failure = new GeneralError('database down');
    const { ctx, logged } = failingContext(failure);
    expect(await submitForm(ctx, 'contactForms', { email: 'ken@lee.sg' }, 'en')).toEqual({
      result: { ok: false, message: '', errors: {}, values: { email: 'ken@lee.sg' } },
      status: 500,
    });
    expect(logged).toEqual([{ details: { err: failure, service: 'contactForms' }, message: 'form submission failed' }]);
    expect(consoleError).not.toHaveBeenCalled();
  });
});

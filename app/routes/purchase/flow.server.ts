import { data } from 'react-router';
import type { z } from '../../../domain/zod.ts';
import type { FormErrors } from '../../../domain/forms/messages';
import { isLocale, type Locale } from '../../../domain/locales';
import { flowRequestSchema } from '../../../domain/orders/flow-request';
import type { FlowIntent } from '../../../domain/orders/flow-request';
import { isMessageKey, translate } from '../../../server/i18n';
import type { ServerContext } from '../../context';
import { sessionCookie } from '../../auth.server';
import type { FormRead } from '../../components/forms/read-form';
import { refusalOf } from '../../components/forms/refusal';
import type { FlowAnswer, FlowFailure, FlowOrder, FlowAttempt } from '../../components/purchase/flow-api';
import type { Services } from '../../../domain/entities/services';

/*
 * The subscription flow's server side (decision 021, addendum): every call the page makes goes
 * through the route's action, in-process with provider 'ssr' and the session's user, so no page
 * script ever holds a token. Each intent's body is read by its schema (domain/orders/flow-request.ts)
 * and answers JSON: `{ intent, ok: true, ... }` or a failure whose message (and field messages) are
 * already in the page's language.
 */

type FlowValues = z.output<typeof flowRequestSchema>;
type OrderRecord = Awaited<ReturnType<Services['orders']['create']>>;
type PaymentRecord = Awaited<ReturnType<Services['payments']['create']>>;

/** The service's error as the page shows it: status, the localised message, field messages, its data. */
export function failure(intent: FlowIntent, error: unknown, locale: Locale): ReturnType<typeof data<FlowFailure>> {
  const { status, message, errors, data: extra } = refusalOf(error);
  return data(
    {
      intent,
      ok: false as const,
      status,
      message: isMessageKey(message) ? translate(locale, message) : message,
      errors,
      data: extra,
    },
    { status },
  );
}

/** The intents a schema of calls knows (one object per intent), to tell a body naming none of them. */
export function intentsOf(schema: { options: readonly { shape: { intent: { value: FlowIntent } } }[] }) {
  const known = new Set<unknown>(schema.options.map((option) => option.shape.intent.value));
  return (intent: unknown): intent is FlowIntent => known.has(intent);
}

const isFlowIntent = intentsOf(flowRequestSchema);

/**
 * A body its intent's schema refused, answered as the service would have: 400, the summary and the
 * field messages in the page's language; a body that names no intent the page knows, as a bad request.
 */
export function refusedBody(intent: FlowIntent | null, errors: FormErrors, locale: Locale) {
  const failed: FlowFailure = {
    intent,
    ok: false,
    status: 400,
    message: intent ? translate(locale, 'validation.failed') : 'Bad request',
    errors: intent
      ? Object.fromEntries(Object.entries(errors).map(([field, key]) => [field, translate(locale, key)]))
      : {},
    data: {},
  };
  return data(failed, { status: 400 });
}

/** Only what the page shows of an order: never its history, key or request digest. */
export function orderView(order: OrderRecord): FlowOrder {
  const { _id, number, status, currency, total, tax, taxRate, monthly, prepaidMonths } = order;
  return { _id, number, status, currency, total, tax, taxRate, monthly, prepaidMonths };
}

function attemptView(attempt: PaymentRecord): FlowAttempt {
  return {
    _id: attempt._id,
    status: attempt.status,
    failureCode: attempt.failureCode ?? null,
    failureMessage: attempt.failureMessage ?? null,
    actionUrl: attempt.action?.url ?? null,
    clientSecret: attempt.action?.clientSecret ?? null,
  };
}

export function localeOf(lang: string | undefined): Locale {
  return isLocale(lang) ? lang : 'en';
}

function callParams(ctx: ServerContext, locale: Locale) {
  return { provider: 'ssr', user: ctx.user ?? undefined, ip: ctx.ip, headers: { ...ctx.headers, 'x-locale': locale } };
}

/** Paying an order and following the attempt: the same for a plan and for add-ons. */
export async function paymentCall(
  ctx: ServerContext,
  locale: Locale,
  values: Extract<FlowValues, { intent: 'pay' | 'payment' }>,
) {
  const params = callParams(ctx, locale);
  try {
    if (values.intent === 'payment') {
      const attempt = await ctx.api.service('payments').get(values.id, params);
      return { intent: values.intent, ok: true as const, attempt: attemptView(attempt) } satisfies FlowAnswer;
    }
    // The payments service (decision 019) checks every field again and answers the attempt.
    const { intent, ...request } = values;
    const attempt = await ctx.api.service('payments').create(request, params);
    return { intent, ok: true as const, attempt: attemptView(attempt) } satisfies FlowAnswer;
  } catch (error) {
    return failure(values.intent, error, locale);
  }
}

/** The flow's action: one intent per call (`intent` in the JSON body). */
export async function flowAction(ctx: ServerContext, lang: string | undefined, body: FormRead<FlowValues>) {
  const locale = localeOf(lang);
  if (!body.ok) return refusedBody(isFlowIntent(body.input.intent) ? body.input.intent : null, body.errors, locale);
  const values = body.values;
  const params = callParams(ctx, locale);
  const { api } = ctx;
  try {
    switch (values.intent) {
      case 'dates': {
        const answer = await api.service('deliveryDates').find({ ...params, query: { country: values.country } });
        return {
          intent: values.intent,
          ok: true as const,
          country: String(answer.country),
          dates: answer.dates,
        } satisfies FlowAnswer;
      }
      case 'quote': {
        const { intent, ...request } = values;
        const price = await api.service('quotes').create(request, params);
        return { intent, ok: true as const, quote: price } satisfies FlowAnswer;
      }
      case 'register': {
        const { answers } = values;
        await api.service('registrations').create({ ...answers, locale }, params);
        // Registering does not sign in (decision 020): the flow signs in with the password just chosen.
        const text = (value: unknown) => (typeof value === 'string' ? value : '');
        return await signIn(ctx, locale, text(answers.email), text(answers.password), values.intent);
      }
      case 'signIn':
        return await signIn(ctx, locale, values.email, values.password, values.intent);
      case 'verify':
      case 'resend': {
        const answer = await api
          .service('emailVerifications')
          .create(values.intent === 'verify' ? { code: values.code } : { resend: true }, params);
        return {
          intent: values.intent,
          ok: true as const,
          verified: answer.verified,
          resendAfter: answer.resendAfter ? new Date(answer.resendAfter).toISOString() : null,
        } satisfies FlowAnswer;
      }
      case 'order': {
        const { intent, ...request } = values;
        const order = await api.service('orders').create(request, params);
        return { intent, ok: true as const, order: orderView(order) } satisfies FlowAnswer;
      }
      case 'pay':
      case 'payment':
        return await paymentCall(ctx, locale, values);
    }
  } catch (error) {
    return failure(values.intent, error, locale);
  }
}

async function signIn(
  ctx: ServerContext,
  locale: string,
  email: string,
  password: string,
  intent: 'register' | 'signIn',
) {
  const result = await ctx.api
    .service('authentication')
    .create(
      { strategy: 'local', email, password },
      { provider: 'ssr', ip: ctx.ip, headers: { ...ctx.headers, 'x-locale': locale } },
    );
  return data({ intent, ok: true as const } satisfies FlowAnswer, {
    headers: { 'Set-Cookie': sessionCookie(result.accessToken, ctx.secureCookies) },
  });
}

/** Whether the signed-in buyer has proved their email (an unverified account cannot pay). */
export async function emailVerified({ api, user }: Pick<ServerContext, 'api' | 'user'>): Promise<boolean> {
  if (!user) return false;
  try {
    const account = await api.service('users').get(user._id, { provider: 'ssr', user });
    return Boolean(account.emailVerifiedAt);
  } catch {
    return false;
  }
}

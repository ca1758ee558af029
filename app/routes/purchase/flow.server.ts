import { data } from 'react-router';
import type { ServerContext } from '../../context';
import { sessionCookie } from '../../auth.server';
import { isLocale } from '../../../domain/locales';
import type { FlowAnswer, FlowFailure, FlowIntent, FlowOrder, FlowAttempt } from '../../components/purchase/flow-api';

/*
 * The subscription flow's server side (decision 021, addendum): every call the page makes goes
 * through the route's action, in-process with provider 'ssr' and the session's user, so no page
 * script ever holds a token. Each intent answers JSON: `{ intent, ok: true, ... }` or a failure
 * whose message (and field messages) are already in the page's language.
 */

type Body = Record<string, unknown>;

const text = (value: unknown) => (typeof value === 'string' ? value : '');

/** The service's error as the page shows it: status, the localised message, field messages, its data. */
export function failure(intent: FlowIntent, error: unknown): ReturnType<typeof data<FlowFailure>> {
  const e = error as {
    code?: number;
    message?: string;
    errors?: Record<string, string>;
    data?: Record<string, unknown>;
  };
  const status = typeof e.code === 'number' && e.code >= 400 && e.code < 600 ? e.code : 500;
  const fieldErrors = e.errors && typeof e.errors === 'object' && !Array.isArray(e.errors) ? e.errors : {};
  const extra = e.data && typeof e.data === 'object' ? e.data : {};
  return data(
    { intent, ok: false as const, status, message: e.message ?? 'Error', errors: fieldErrors, data: extra },
    { status },
  );
}

/** Only what the page shows of an order: never its history, key or request digest. */
export function orderView(order: Record<string, unknown>): FlowOrder {
  return {
    _id: String(order._id),
    number: String(order.number),
    status: String(order.status),
    currency: String(order.currency),
    total: Number(order.total),
    tax: Number(order.tax),
    taxRate: Number(order.taxRate),
    monthly: Number(order.monthly),
    prepaidMonths: Number(order.prepaidMonths),
  };
}

function attemptView(attempt: Record<string, unknown>): FlowAttempt {
  const action = attempt.action as { url?: unknown; clientSecret?: unknown } | undefined;
  return {
    _id: String(attempt._id),
    status: String(attempt.status),
    failureCode: typeof attempt.failureCode === 'string' ? attempt.failureCode : null,
    failureMessage: typeof attempt.failureMessage === 'string' ? attempt.failureMessage : null,
    actionUrl: typeof action?.url === 'string' ? action.url : null,
    clientSecret: typeof action?.clientSecret === 'string' ? action.clientSecret : null,
  };
}

/** The flow's action: one intent per call (`intent` in the JSON body). */
export async function flowAction(ctx: ServerContext, lang: string | undefined, body: Body) {
  const locale = isLocale(lang) ? lang : 'en';
  const intent = text(body.intent) as FlowIntent;
  const params = {
    provider: 'ssr',
    user: ctx.user ?? undefined,
    ip: ctx.ip,
    headers: { ...ctx.headers, 'x-locale': locale },
  };
  const { api } = ctx;
  try {
    switch (intent) {
      case 'dates': {
        const answer = await api
          .service('deliveryDates')
          .find({ ...params, query: { country: text(body.country) as never } });
        return { intent, ok: true as const, country: String(answer.country), dates: answer.dates } satisfies FlowAnswer;
      }
      case 'quote': {
        const price = await api.service('quotes').create(
          {
            plan: text(body.plan),
            addOns: body.addOns as { id: string; count: number }[],
            prepaidMonths: Number(body.prepaidMonths),
            country: text(body.country) as never,
          },
          params,
        );
        return { intent, ok: true as const, quote: price } satisfies FlowAnswer;
      }
      case 'register': {
        const answers = (body.answers ?? {}) as Record<string, unknown>;
        await api.service('registrations').create({ ...answers, locale } as never, params);
        // Registering does not sign in (decision 020): the flow signs in with the password just chosen.
        return await signIn(ctx, locale, text(answers.email), text(answers.password), intent);
      }
      case 'signIn':
        return await signIn(ctx, locale, text(body.email), text(body.password), intent);
      case 'verify': {
        const answer = await api.service('emailVerifications').create({ code: text(body.code) }, params);
        return {
          intent,
          ok: true as const,
          verified: answer.verified,
          resendAfter: answer.resendAfter ? new Date(answer.resendAfter).toISOString() : null,
        } satisfies FlowAnswer;
      }
      case 'resend': {
        const answer = await api.service('emailVerifications').create({ resend: true }, params);
        return {
          intent,
          ok: true as const,
          verified: answer.verified,
          resendAfter: answer.resendAfter ? new Date(answer.resendAfter).toISOString() : null,
        } satisfies FlowAnswer;
      }
      case 'order': {
        const order = await api.service('orders').create(
          {
            plan: text(body.plan),
            addOns: body.addOns as { id: string; count: number }[],
            prepaidMonths: Number(body.prepaidMonths),
            period: body.period === 'annual' ? 'annual' : 'monthly',
            shipping: body.shipping as never,
            idempotencyKey: text(body.idempotencyKey),
          },
          params,
        );
        return {
          intent,
          ok: true as const,
          order: orderView(order as unknown as Record<string, unknown>),
        } satisfies FlowAnswer;
      }
      case 'pay': {
        // The payments service (decision 019) checks every field again and answers the attempt.
        const attempt = await api.service('payments').create(
          {
            order: text(body.order),
            paymentMethodId: text(body.paymentMethodId),
            billingAddress: body.billingAddress as never,
            idempotencyKey: text(body.idempotencyKey),
            expectedTotal: Number(body.expectedTotal),
          },
          params,
        );
        return {
          intent,
          ok: true as const,
          attempt: attemptView(attempt as unknown as Record<string, unknown>),
        } satisfies FlowAnswer;
      }
      case 'payment': {
        const attempt = await api.service('payments').get(text(body.id), params);
        return {
          intent,
          ok: true as const,
          attempt: attemptView(attempt as unknown as Record<string, unknown>),
        } satisfies FlowAnswer;
      }
      default:
        return data(
          {
            intent,
            ok: false as const,
            status: 400,
            message: 'Bad request',
            errors: {},
            data: {},
          } satisfies FlowFailure,
          { status: 400 },
        );
    }
  } catch (error) {
    return failure(intent, error);
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

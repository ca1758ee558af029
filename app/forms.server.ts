import type { Definitions } from '../domain/entities/index';
import type { FormAnswers } from '../domain/entities/services';
import type { FormResult } from './components/forms/form-result';
import { refusalOf } from './components/forms/refusal';
import type { ServerContext } from './context';

/** The services the visitors' forms post to. */
type FormService = 'contactForms' | 'enquiries' | 'subscribers';

/**
 * Sends a form's answers to its service in-process, as the visitor (their address counts
 * against the limit; errors come back in the page's language). An unexpected failure goes to the
 * request's log and is answered without a message (spec section 8): the visitor keeps what they typed.
 */
export async function submitForm<S extends FormService>(
  ctx: ServerContext,
  service: S,
  answers: FormAnswers<Definitions[S]>,
  lang: string,
): Promise<{ result: FormResult; status: number }> {
  try {
    await ctx.api
      .service(service)
      .create(answers, { provider: 'ssr', user: ctx.user, ip: ctx.ip, headers: { ...ctx.headers, 'x-locale': lang } });
    return { result: { ok: true }, status: 200 };
  } catch (caught) {
    const { website_url: _honeypot, ...values } = answers;
    const { refused, status, message, errors } = refusalOf(caught);
    if (refused) return { result: { ok: false, message, errors, values }, status };
    ctx.log.error({ err: caught, service }, 'form submission failed');
    return { result: { ok: false, message: '', errors: {}, values }, status: 500 };
  }
}

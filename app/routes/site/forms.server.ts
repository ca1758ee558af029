import type { ServerContext } from '../../context';

/** The services the site's own forms post to. */
type FormService = 'contactForms' | 'enquiries';

/** What a form's action answers: success, or the errors and the answers to show again. */
export type FormResult =
  | { ok: true; values?: undefined; errors?: undefined; message?: undefined }
  | { ok: false; message: string; errors: Record<string, string>; values: Record<string, unknown> };

/**
 * Sends a form's answers to its service in-process, as the visitor (their address counts
 * against the limit; errors come back in the page's language). An unexpected failure is logged
 * and answered without a message (spec section 8): the visitor keeps what they typed.
 */
export async function submitForm(
  ctx: ServerContext,
  service: FormService,
  data: Record<string, unknown>,
  lang: string,
): Promise<{ result: FormResult; status: number }> {
  try {
    await ctx.api.service(service).create(data, { provider: 'ssr', user: ctx.user, ip: ctx.ip, headers: { ...ctx.headers, 'x-locale': lang } });
    return { result: { ok: true }, status: 200 };
  } catch (caught) {
    const error = caught as { code?: number; message?: string; errors?: Record<string, string> };
    const { website_url: _honeypot, ...values } = data;
    if (typeof error.code === 'number' && error.code >= 400 && error.code < 500) {
      return { result: { ok: false, message: error.message ?? '', errors: error.errors ?? {}, values }, status: error.code };
    }
    console.error(`${service} submission failed`, caught);
    return { result: { ok: false, message: '', errors: {}, values }, status: 500 };
  }
}

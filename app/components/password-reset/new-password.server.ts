import { data } from 'react-router';
import { passwordResetFromForm, passwordResetSchema, RESET_TOKEN } from '../../../domain/forms/password-reset';
import type { CallParams } from '../../../domain/entities/services';
import type { ServerContext } from '../../context';
import { checkForm } from '../forms/read-form';
import { refusalOf } from '../forms/refusal';
import type { ResetAnswer } from './new-password';

/** The link's token in a page's address, or `''` when it holds none that could be one. */
export function tokenOf(request: Request): string {
  const token = new URL(request.url).searchParams.get('token') ?? '';
  return RESET_TOKEN.test(token) ? token : '';
}

/**
 * A reset page's form sent: the new password checked by the form's rules, then set with the link
 * by the population's reset service (`passwordResets` for members, `appPasswordResets` for the
 * apps' users). Answers the account's email and the password once set, or the page's answer to
 * show (the form's or the service's refusal, a refused link apart).
 */
export async function setNewPassword(
  request: Request,
  ctx: ServerContext,
  lang: string | undefined,
  service: 'passwordResets' | 'appPasswordResets',
): Promise<
  | { set: true; email: string; password: string; callParams: CallParams }
  | { set: false; answer: ReturnType<typeof data<ResetAnswer>> }
> {
  const form = await request.formData();
  const token = typeof form.get('token') === 'string' ? String(form.get('token')) : '';
  const answers = checkForm(passwordResetSchema, passwordResetFromForm(form));
  if (!answers.ok)
    return {
      set: false,
      answer: data<ResetAnswer>({ errors: answers.errors, message: 'validation.failed' }, { status: 400 }),
    };
  const { password } = answers.values;
  const callParams: CallParams = { provider: 'ssr', ip: ctx.ip, headers: { ...ctx.headers, 'x-locale': lang } };
  try {
    const answer = await ctx.api.service(service).create({ token, password }, callParams);
    return { set: true, email: 'email' in answer ? answer.email : '', password, callParams };
  } catch (caught) {
    const { status, message, errors } = refusalOf(caught);
    if (errors.token)
      return {
        set: false,
        answer: data<ResetAnswer>({ errors: {}, message: errors.token, linkProblem: true }, { status }),
      };
    return {
      set: false,
      answer: data<ResetAnswer>(
        { errors, message: Object.keys(errors).length > 0 ? 'validation.failed' : message },
        { status },
      ),
    };
  }
}

import { useEffect } from 'react';
import type { FormErrors } from '../../../domain/forms/messages';
import { firstInvalid } from './fields';
import { useSay } from './say';

/**
 * The field errors an action answered, as its form shows them: each in the page's language, and
 * the first invalid field (in the form's order) focused. On a page the server drew, the field's
 * `autoFocus` does it without JavaScript (`focus`); after an answer in place, this hook does.
 * `answer` is the action's answer: each new one moves the focus again.
 */
export function useFieldErrors(
  answer: unknown,
  errors: FormErrors | undefined,
  order: readonly string[],
  idPrefix: string,
) {
  const say = useSay();
  const focus = firstInvalid(order, errors);
  useEffect(() => {
    if (focus) document.getElementById(`${idPrefix}${focus}`)?.focus();
  }, [answer, focus, idPrefix]);
  return { focus, errorOf: (name: string) => say(errors?.[name]), say };
}

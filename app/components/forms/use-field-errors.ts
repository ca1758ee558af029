import { useEffect, useRef } from 'react';
import type { FormErrors } from '../../../domain/forms/messages';
import { errorUnder, firstInvalid } from './first-invalid';
import { useSay } from './say';

/**
 * The field errors an action answered (or a form's own check found), as its form shows them: each
 * in the page's language, and the first invalid field (in the form's order) focused. On a page the
 * server drew, the field's `autoFocus` does it without JavaScript (`focus`); after an answer in
 * place (an action's, a fetcher's, a check in the browser), this hook does. `answer` is that
 * answer: each new one moves the focus again; the one the page was drawn with does not (the
 * field's `autoFocus` has done it). A list's errors are under its items (`regions.1.code`): the
 * list counts as invalid, and `errorOf('regions')` is the first of them.
 */
export function useFieldErrors(
  answer: unknown,
  errors: FormErrors | undefined,
  order: readonly string[],
  idPrefix: string,
) {
  const say = useSay();
  const focus = firstInvalid(order, errors);
  const drawnWith = useRef(answer);
  useEffect(() => {
    if (answer === drawnWith.current) return;
    drawnWith.current = undefined;
    if (focus) document.getElementById(`${idPrefix}${focus}`)?.focus();
  }, [answer, focus, idPrefix]);
  return { focus, errorOf: (name: string) => say(errorUnder(errors, name)), say };
}

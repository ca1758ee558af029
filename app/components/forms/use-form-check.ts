import { useCallback, useEffect, useRef, useState } from 'react';
import type { z } from '../../../domain/zod.ts';
import { type FormErrors, formErrors, type FormFields, formSummary } from '../../../domain/forms/messages';
import { useLocale } from '../../i18n/messages';

/** Focuses the first field marked invalid, in the order of the form. */
export function focusFirstInvalid(form: HTMLFormElement | null): void {
  form?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
}

/** Loads a form's schema: a dynamic import, so the validation library is fetched only for a visitor who uses the form. */
export type SchemaLoader = () => Promise<z.ZodType>;

/**
 * Checks a form in the browser with the schema the server uses before it is sent: on a problem
 * the errors show (translated), the first invalid field takes the focus and nothing is sent.
 *
 * The schema arrives with the first focus inside the form (`prepare`), or at the latest on submit:
 * the submit is held until it has, then checked and, when the answers pass, sent on. Should the
 * schema fail to load, the form goes to the server, which checks the same schema anyway.
 */
export function useFormCheck(
  loadSchema: SchemaLoader,
  read: (form: FormFields) => Record<string, unknown>,
  incomplete?: string,
) {
  const { t } = useLocale();
  const formRef = useRef<HTMLFormElement>(null);
  const [errors, setErrors] = useState<FormErrors>({});
  const [summary, setSummary] = useState('');
  const [attempt, setAttempt] = useState(0);
  const schema = useRef<Promise<z.ZodType | undefined> | null>(null);
  const loaded = useRef<z.ZodType | null>(null);
  /** Set while a held submit is sent on after its check, so that second submit event passes through. */
  const checked = useRef(false);

  useEffect(() => {
    if (attempt) focusFirstInvalid(formRef.current);
  }, [attempt]);

  const prepare = useCallback(() => {
    schema.current ??= loadSchema().then(
      (value) => (loaded.current = value),
      () => {
        schema.current = null;
        return undefined;
      },
    );
    return schema.current;
  }, [loadSchema]);

  /** True when the answers pass (or no schema could be had: the server checks them anyway). */
  const passes = useCallback(
    (validator: z.ZodType | undefined, answers: Record<string, unknown>) => {
      const parsed = validator?.safeParse(answers);
      if (!parsed || parsed.success) {
        setErrors({});
        setSummary('');
        return true;
      }
      const keys = formErrors(parsed.error, answers);
      setErrors(Object.fromEntries(Object.entries(keys).map(([field, key]) => [field, t(key)])));
      setSummary(t(formSummary(keys, incomplete)));
      setAttempt((n) => n + 1);
      return false;
    },
    [incomplete, t],
  );

  const check = useCallback(
    (event: React.FormEvent<HTMLFormElement>) => {
      if (checked.current) {
        checked.current = false;
        return;
      }
      const form = event.currentTarget;
      const answers = read(new FormData(form));
      if (loaded.current) {
        if (!passes(loaded.current, answers)) event.preventDefault();
        return;
      }
      // The schema is still on its way: hold this submit, and send it on once checked. A form
      // cannot be submitted again while its submit event is being dispatched, hence the timer.
      event.preventDefault();
      const submitter = (event.nativeEvent as SubmitEvent).submitter;
      void prepare().then((validator) =>
        setTimeout(() => {
          if (!passes(validator, answers) || !form.isConnected) return;
          checked.current = true;
          form.requestSubmit(submitter instanceof HTMLButtonElement && submitter.type === 'submit' ? submitter : null);
        }, 0),
      );
    },
    [prepare, passes, read],
  );

  /** Errors that came back from the server take their place, and the focus moves the same way. */
  const showServerErrors = useCallback((serverErrors: FormErrors, message: string) => {
    setErrors(serverErrors);
    setSummary(message);
    setAttempt((n) => n + 1);
  }, []);

  const reset = useCallback(() => {
    setErrors({});
    setSummary('');
  }, []);

  return { formRef, errors, summary, check, prepare, showServerErrors, reset };
}

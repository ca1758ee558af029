import { useEffect, type RefObject } from 'react';

/** A form's values as it would submit them. */
function formValues(form: HTMLFormElement): URLSearchParams {
  const values = new URLSearchParams();
  for (const [name, value] of new FormData(form)) if (typeof value === 'string') values.append(name, value);
  return values;
}

/**
 * Hands `adopt` the form's values as the visitor left them before the page hydrated, once, right
 * after. A page's scripts start only once it has loaded (decision 012), so a visitor may search or
 * tick a box first; a controlled field then holds its state from the address, and React would set
 * it back at the next render, losing what the visitor did. `adopt` compares and takes over what
 * differs. Called after the effects that set the same state on mount, so that the visitor wins.
 * After a client-side navigation the form shows its state, and `adopt` finds nothing to change.
 */
export function useValuesFromBeforeHydration(
  form: RefObject<HTMLFormElement | null>,
  adopt: (values: URLSearchParams) => void,
): void {
  useEffect(() => {
    if (form.current) adopt(formValues(form.current));
  }, []); // Once, when the form first mounts.
}

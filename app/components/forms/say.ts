import { useCallback } from 'react';
import { isMessageKey } from '../../../domain/forms/messages';
import { useLocale } from '../../i18n/messages';

/**
 * How a form shows a message from its action: a message key (the form's own check,
 * `errors.generic`) in the page's language; a message the service already wrote in it, as it is.
 */
export function useSay(): (message: string | undefined) => string {
  const { t } = useLocale();
  return useCallback((message) => (message ? (isMessageKey(message) ? t(message) : message) : ''), [t]);
}

import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState } from 'react';
import { useLocale } from '../../i18n/messages';
import type { Flash } from '../../shell';
import { AlertIcon, CheckIcon, CloseIcon } from '../ui/icons';

interface Snackbars {
  success(text: string): void;
  error(text: string): void;
}

const SnackbarContext = createContext<Snackbars>({ success: () => undefined, error: () => undefined });

/** Shows a message in the global snackbars from any page or action. */
export function useSnackbar(): Snackbars {
  return useContext(SnackbarContext);
}

/** Success messages leave on their own; errors stay until closed. */
const SUCCESS_MS = 6000;

/**
 * The global error and success snackbars (spec "Layouts"), each with a close button. A flash
 * message from the server (after a redirect) shows once when it arrives.
 */
export function SnackbarProvider({ flash, children }: { flash: Flash | null; children: React.ReactNode }) {
  const { t } = useLocale();
  const [error, setError] = useState<string | null>(null);
  const [success, setSuccess] = useState<string | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);

  const api = useMemo<Snackbars>(
    () => ({
      success(text) {
        setSuccess(text);
        clearTimeout(timer.current);
        timer.current = setTimeout(() => setSuccess(null), SUCCESS_MS);
      },
      error(text) {
        setError(text);
      },
    }),
    [],
  );
  useEffect(() => () => clearTimeout(timer.current), []);

  // A flash is shown once per loader answer that carries it.
  const flashText = flash ? t(flash.key) : null;
  useEffect(() => {
    if (!flash || !flashText) return;
    if (flash.type === 'error') api.error(flashText);
    else api.success(flashText);
  }, [flash, flashText, api]);

  const close = useCallback((type: 'error' | 'success') => (type === 'error' ? setError(null) : setSuccess(null)), []);

  return (
    <SnackbarContext.Provider value={api}>
      {children}
      <div className="pointer-events-none fixed inset-x-0 bottom-4 z-50 flex flex-col items-center gap-3 px-4">
        <div role="alert" className="contents">
          {error ? (
            <Snackbar type="error" text={error} closeLabel={t('feedback.close')} onClose={() => close('error')} />
          ) : null}
        </div>
        <div role="status" className="contents">
          {success ? (
            <Snackbar type="success" text={success} closeLabel={t('feedback.close')} onClose={() => close('success')} />
          ) : null}
        </div>
      </div>
    </SnackbarContext.Provider>
  );
}

function Snackbar({
  type,
  text,
  closeLabel,
  onClose,
}: {
  type: 'error' | 'success';
  text: string;
  closeLabel: string;
  onClose: () => void;
}) {
  const tone = type === 'error' ? 'bg-red-700 text-white' : 'bg-brand-800 text-white';
  return (
    <div
      data-testid={`snackbar-${type}`}
      className={`pointer-events-auto flex w-full max-w-md items-start gap-3 rounded-lg px-4 py-3 shadow-lg ${tone}`}
    >
      {type === 'error' ? (
        <AlertIcon className="mt-0.5 h-5 w-5 shrink-0" />
      ) : (
        <CheckIcon className="mt-0.5 h-5 w-5 shrink-0" />
      )}
      <p className="flex-1 text-sm leading-6">{text}</p>
      <button type="button" onClick={onClose} aria-label={closeLabel} className="-m-1 rounded p-1 hover:bg-white/15">
        <CloseIcon className="h-5 w-5" />
      </button>
    </div>
  );
}

/** Shows an action's failure (its `error` message) in the error snackbar. */
export function useActionErrorSnackbar(actionData: { error?: string } | undefined): void {
  const { error } = useSnackbar();
  useEffect(() => {
    if (actionData?.error) error(actionData.error);
  }, [actionData, error]);
}

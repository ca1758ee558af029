import { useLocale } from '../../i18n/messages';
import { secondaryButton } from '../ui/buttons';
import { ModalDialog } from '../ui/modal-dialog';

/**
 * Asks before something that cannot be undone: a modal dialog (focus kept inside, Escape or
 * Cancel closes it), its safe choice focused first.
 */
export function ConfirmDialog({
  title,
  body,
  confirmLabel,
  onConfirm,
  onCancel,
}: {
  title: string;
  body: string;
  confirmLabel: string;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  const { t } = useLocale();
  return (
    <ModalDialog
      role="alertdialog"
      labelledBy="confirm-title"
      describedBy="confirm-body"
      className="w-[min(100vw-2rem,28rem)] p-6"
      onCancel={onCancel}
      testId="confirm-dialog"
    >
      <h2 id="confirm-title" className="text-lg font-semibold">
        {title}
      </h2>
      <p id="confirm-body" className="mt-2 text-muted">
        {body}
      </p>
      <div className="mt-6 flex justify-end gap-3">
        <button type="button" className={secondaryButton} onClick={onCancel} autoFocus data-testid="confirm-cancel">
          {t('admin.cancel')}
        </button>
        <button
          type="button"
          className="inline-flex min-h-11 items-center justify-center rounded-full bg-red-700 px-6 py-2.5 font-semibold text-white hover:bg-red-800 dark:bg-red-400 dark:text-red-950 dark:hover:bg-red-300"
          onClick={onConfirm}
          data-testid="confirm-ok"
        >
          {confirmLabel}
        </button>
      </div>
    </ModalDialog>
  );
}

import { useEffect, useRef, type ReactNode } from 'react';

/**
 * The back office's modal dialog: the browser's own `<dialog>`, opened as a modal when it mounts
 * (focus kept inside, the page behind inert), closed by unmounting it. Escape does not close it by
 * itself: `onCancel` says what it does (close, or stop a running task first).
 */
export function ModalDialog({
  labelledBy,
  describedBy,
  role,
  className,
  onCancel,
  testId,
  state,
  children,
}: {
  /** The id of the dialog's heading. */
  labelledBy: string;
  describedBy?: string;
  /** `alertdialog` for a question that must be answered. */
  role?: 'alertdialog';
  /** Its width and padding (each dialog's own). */
  className: string;
  onCancel: () => void;
  testId: string;
  /** Where the dialog's task stands, for the tests (`data-state`). */
  state?: string;
  children: ReactNode;
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const element = dialog.current;
    if (element && !element.open) element.showModal();
  }, []);
  return (
    <dialog
      ref={dialog}
      role={role}
      aria-labelledby={labelledBy}
      aria-describedby={describedBy}
      className={`m-auto rounded-2xl border border-line bg-raised text-ink shadow-2xl backdrop:bg-black/50 ${className}`}
      onCancel={(event) => {
        event.preventDefault();
        onCancel();
      }}
      data-testid={testId}
      data-state={state}
    >
      {children}
    </dialog>
  );
}

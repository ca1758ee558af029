import type { ReactNode } from 'react';
import { FieldError } from '../forms/fields';

/** The editor's props of a value made of several parts (a map point, a day range). */
export interface PartsFieldProps<Part extends string> {
  /** Each part's input is `${id}-${part}`. */
  id: string;
  field: string;
  legend: string;
  required: boolean;
  /** Each part as its input shows it. */
  values: Record<string, string>;
  /** The whole value's message, and each part's. */
  error?: string;
  partErrors: Partial<Record<Part, string>>;
  autoFocus: boolean;
}

/**
 * The frame of such a value: its legend (with the required mark), its parts side by side, a hint
 * under them, what the widget adds, and the whole value's message.
 */
export function PartsFieldset({
  id,
  legend,
  required,
  error,
  describedBy,
  testId,
  columns,
  hint,
  children,
  after,
}: {
  id: string;
  legend: string;
  required: boolean;
  error?: string;
  describedBy?: string;
  testId: string;
  /** The grid's columns at each width. */
  columns: string;
  hint: { id: string; text: string };
  children: ReactNode;
  after?: ReactNode;
}) {
  return (
    <fieldset className="min-w-0" aria-describedby={describedBy} data-testid={testId}>
      <legend className="font-medium">
        {legend}
        {required ? <span aria-hidden="true"> *</span> : null}
      </legend>
      <div className={`mt-1.5 grid gap-3 ${columns}`}>{children}</div>
      <p id={hint.id} className="mt-1 text-xs text-muted">
        {hint.text}
      </p>
      {after}
      <FieldError id={`${id}-error`} text={error} />
    </fieldset>
  );
}

/** One part: its label, its input, its message. */
export function PartInput({
  id,
  label,
  error,
  children,
}: {
  id: string;
  label: string;
  error?: string;
  children: ReactNode;
}) {
  return (
    <div className="min-w-0">
      <label htmlFor={id} className="block text-sm">
        {label}
      </label>
      {children}
      <FieldError id={`${id}-error`} text={error} />
    </div>
  );
}

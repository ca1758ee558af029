import { HONEYPOT_FIELD } from '../../../domain/forms/messages';
import { useLocale } from '../../i18n/messages';

export const inputClass = 'field-input';

/** A field's error, the target of its `aria-describedby`. */
export function FieldError({ id, text }: { id: string; text?: string }) {
  if (!text) return null;
  return (
    <p
      id={id}
      className="mt-1 text-sm font-medium text-red-700 dark:text-red-300"
      data-testid={`error-${id.replace(/-error$/, '')}`}
    >
      {text}
    </p>
  );
}

/** Props that tie a control to its error. */
export function invalidProps(name: string, error: string | undefined, autoFocus: boolean) {
  return {
    'aria-invalid': error ? true : undefined,
    'aria-describedby': error ? `${name}-error` : undefined,
    autoFocus: autoFocus || undefined,
  };
}

interface TextFieldProps {
  name: string;
  label: string;
  error?: string;
  /** What the field starts with; a password field never shows one. */
  value?: string;
  required?: boolean;
  /** `password`: never filled in from `value`, so no password is written back into a page. */
  type?: 'text' | 'email' | 'tel' | 'url' | 'password';
  autoComplete?: string;
  multiline?: boolean;
  /** Lines of a multiline field (4 unless told). */
  rows?: number;
  /** Server-rendered errors: the first invalid field takes the focus even without JavaScript. */
  focus?: boolean;
  idPrefix?: string;
  /** The id of a text that explains the field (its rules), read out with it. */
  describedBy?: string;
}

export function TextField({
  name,
  label,
  error,
  value,
  required,
  type = 'text',
  autoComplete,
  multiline,
  rows = 4,
  focus = false,
  idPrefix = '',
  describedBy,
}: TextFieldProps) {
  const { t } = useLocale();
  const id = `${idPrefix}${name}`;
  const invalid = invalidProps(id, error, focus);
  const describedByAll = [describedBy, invalid['aria-describedby']].filter(Boolean).join(' ') || undefined;
  const common = { id, name, className: inputClass, ...invalid, 'aria-describedby': describedByAll };
  return (
    <div>
      <label htmlFor={id} className="block font-medium">
        {label}
        {required ? (
          <span aria-hidden="true"> *</span>
        ) : (
          <span className="font-normal text-muted"> ({t('forms.optional')})</span>
        )}
      </label>
      {multiline ? (
        <textarea rows={rows} required={required} defaultValue={value ?? ''} {...common} />
      ) : (
        <input
          type={type}
          autoComplete={autoComplete}
          required={required}
          defaultValue={type === 'password' ? undefined : (value ?? '')}
          {...common}
        />
      )}
      <FieldError id={`${id}-error`} text={error} />
    </div>
  );
}

/** A group of radio buttons or checkboxes: a fieldset whose legend names it. */
export function ChoiceGroup({
  name,
  legend,
  options,
  type,
  error,
  checked,
  focus = false,
}: {
  name: string;
  legend: string;
  options: { value: string; label: string }[];
  type: 'radio' | 'checkbox';
  error?: string;
  checked: readonly string[];
  focus?: boolean;
}) {
  return (
    <fieldset aria-describedby={error ? `${name}-error` : undefined}>
      <legend className="font-medium">
        {legend}
        <span aria-hidden="true"> *</span>
      </legend>
      <div className="mt-2 flex flex-wrap gap-x-6 gap-y-2">
        {options.map((option, index) => (
          <label key={option.value} className="inline-flex items-center gap-2">
            <input
              type={type}
              name={name}
              value={option.value}
              defaultChecked={checked.includes(option.value)}
              {...invalidProps(name, error, focus && index === 0)}
              aria-describedby={undefined}
              className="h-4 w-4 accent-brand-700"
            />
            {option.label}
          </label>
        ))}
      </div>
      <FieldError id={`${name}-error`} text={error} />
    </fieldset>
  );
}

/** A field people never see and robots fill in; a filled one is accepted and thrown away. */
export function Honeypot() {
  const { t } = useLocale();
  return (
    <div className="absolute -left-[10000px] h-px w-px overflow-hidden" aria-hidden="false">
      <label htmlFor={HONEYPOT_FIELD}>{t('forms.honeypot')}</label>
      <input id={HONEYPOT_FIELD} name={HONEYPOT_FIELD} type="text" tabIndex={-1} autoComplete="off" defaultValue="" />
    </div>
  );
}

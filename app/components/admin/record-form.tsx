import { useEffect, useRef, useState } from 'react';
import { Form, useBlocker, useNavigation } from 'react-router';
import { checkChanges, formChanges, inputName, inputValue, partsOf } from '../../../domain/admin/form';
import type { AdminField } from '../../../domain/admin/screens';
import { entities, type EntityName } from '../../../domain/entities/index';
import { useLocale } from '../../i18n/messages';
import { FieldError, inputClass } from '../forms/fields';
import { primaryButton, secondaryButton } from '../ui/buttons';
import { AttachmentImageField } from './attachment-image-field';
import { CellValue, enumLabel } from './cells';
import { ColourField } from './colour-field';
import { DateRangeField } from './date-range-field';
import { ImageField } from './image-field';
import { MapPointField } from './map-point-field';
import { ReferencePicker } from './reference-picker';
import { RichText } from './rich-text';
import { SubListEditor } from './sub-list';
import { TranslatedField } from './translated-field';

/** Where an entity's images are uploaded to (the attachments' folders). */
const IMAGE_FOLDERS: Record<string, string> = { blogs: 'blogs', modules: 'products', appTemplates: 'products', industries: 'products', appSettings: 'settings' };

/** The messages of a value's parts (`mapHongKong.latitude`), by part. */
function partErrorsOf(errors: Record<string, string>, name: string): Record<string, string> {
  return Object.fromEntries(Object.entries(errors).flatMap(([key, text]) => (key.startsWith(`${name}.`) ? [[key.slice(name.length + 1), text]] : [])));
}

/** Whether a field, or one of its parts, has a message. */
const hasError = (errors: Record<string, string>, name: string) => Boolean(errors[name]) || Object.keys(errors).some((key) => key.startsWith(`${name}.`));

export type EditorField = AdminField & { editable: boolean };

/** What the editor's save answered when it did not save. */
export interface SaveProblem {
  conflict: boolean;
  message: string;
  errors: Record<string, string>;
}

export interface RecordFormProps {
  source: string;
  fields: EditorField[];
  /** The record as loaded (patch), the original of a copy, or null (a new record). */
  record: Record<string, unknown> | null;
  /** Patch this record; none: create. */
  id?: string;
  /** The record's `updatedAt` when loaded: a save checks nobody changed it since. */
  version?: string;
  /** The choices of each reference field: the related records' names. */
  options: Record<string, { value: string; label: string }[]>;
  problem?: SaveProblem | null;
  /** Where the form posts (the route showing it). */
  action?: string;
  onCancel: () => void;
  /** Starts the editor again from the record as it is now (after someone else changed it). */
  onReload?: () => void;
  formId: string;
  /** Shown after the fields, above the save bar (the record's history). */
  children?: React.ReactNode;
}

function Label({ field, source, htmlFor }: { field: EditorField; source: string; htmlFor: string }) {
  const { t } = useLocale();
  return (
    <label htmlFor={htmlFor} id={`${htmlFor}-label`} className="block font-medium">
      {t(`resources.${source}.fields.${field.name}`)}
      {field.def.required ? <span aria-hidden="true"> *</span> : null}
    </label>
  );
}

/** One language of a plain translated text: a line, or a box for a longer text. */
function PlainTranslation({ multiline, ...props }: { multiline: boolean } & React.InputHTMLAttributes<HTMLInputElement> & React.TextareaHTMLAttributes<HTMLTextAreaElement>) {
  return multiline ? <textarea rows={3} {...props} /> : <input {...props} />;
}

function FieldInput({
  field,
  source,
  value,
  error,
  partErrors,
  options,
  focus,
  currency,
  onListChange,
}: {
  field: EditorField;
  source: string;
  value: unknown;
  error?: string;
  /** The messages of a value written in parts, by part. */
  partErrors: Record<string, string>;
  options?: { value: string; label: string }[];
  focus: boolean;
  currency: string;
  /** A sub-list's rows changed (added, removed, moved): the form has unsaved changes. */
  onListChange: () => void;
}) {
  const { t } = useLocale();
  const id = `field-${field.name}`;
  const shown = inputValue(field, value);
  const invalid = { 'aria-invalid': error ? true : undefined, 'aria-describedby': error ? `${id}-error` : undefined, autoFocus: focus || undefined };
  const name = inputName(field.name);
  const text = typeof shown === 'string' ? shown : '';
  const required = field.def.required === true;
  let control: React.ReactNode;
  if (field.items) {
    return (
      <fieldset className="min-w-0">
        <legend className="font-medium">{t(`resources.${source}.fields.${field.name}`)}</legend>
        <SubListEditor source={source} name={field.name} columns={field.items} items={Array.isArray(value) ? (value as Record<string, unknown>[]) : []} options={options} onChange={onListChange} />
        <FieldError id={`${id}-error`} text={error} />
      </fieldset>
    );
  }
  // A value of several parts (a map point, a day range): one input a part, each with its message.
  const parts = {
    id,
    field: field.name,
    legend: t(`resources.${source}.fields.${field.name}`),
    required,
    values: shown as Record<string, string>,
    error,
    partErrors,
    autoFocus: focus,
  };
  switch (field.widget) {
    case 'mapPoint':
      return <MapPointField {...parts} onChange={onListChange} />;
    case 'dateRange':
      return <DateRangeField {...parts} />;
    case 'boolean':
      return (
        <div>
          <input type="hidden" name={`${name}.present`} value="1" />
          <label className="inline-flex items-center gap-2 font-medium">
            <input type="checkbox" name={name} id={id} defaultChecked={shown === true} className="h-4 w-4 accent-brand-700" {...invalid} />
            {t(`resources.${source}.fields.${field.name}`)}
          </label>
          <FieldError id={`${id}-error`} text={error} />
        </div>
      );
    case 'i18nText':
    case 'richText':
    case 'textarea': {
      if (field.def.kind !== 'i18n' && field.widget === 'textarea') {
        control = <textarea id={id} name={name} rows={6} defaultValue={text} required={required} className={inputClass} {...invalid} />;
        break;
      }
      if (field.def.kind !== 'i18n' && field.widget === 'richText') {
        control = <RichText id={id} name={name} lang="en" initial={text} labelledBy={`${id}-label`} invalid={invalid} autoFocus={focus} onChange={onListChange} />;
        break;
      }
      const texts = shown as Record<string, string>;
      return (
        <TranslatedField id={id} legend={t(`resources.${source}.fields.${field.name}`)} required={required} texts={texts} error={error}>
          {(language, labelledBy, report) =>
            field.widget === 'richText' ? (
              <RichText
                id={`${id}-${language}`}
                name={inputName(field.name, language)}
                lang={language}
                initial={texts[language] ?? ''}
                labelledBy={labelledBy}
                invalid={invalid}
                autoFocus={focus && language === 'en'}
                onChange={(html) => {
                  report(html);
                  onListChange();
                }}
              />
            ) : (
              <PlainTranslation
                multiline={field.widget === 'textarea'}
                id={`${id}-${language}`}
                name={inputName(field.name, language)}
                lang={language}
                aria-labelledby={labelledBy}
                defaultValue={texts[language] ?? ''}
                required={required && language === 'en'}
                className={inputClass}
                {...invalid}
                autoFocus={(focus && language === 'en') || undefined}
                onChange={(event) => report(event.target.value)}
              />
            )
          }
        </TranslatedField>
      );
    }
    case 'enum':
      control = (
        <select id={id} name={name} defaultValue={text} required={required} className={inputClass} {...invalid}>
          {required ? null : <option value="">—</option>}
          {(field.def.enum ?? []).map((choice) => (
            <option key={choice} value={choice}>
              {enumLabel(t, source, field.name, choice)}
            </option>
          ))}
        </select>
      );
      break;
    case 'ref': {
      const initial = text ? (options ?? []).find((option) => option.value === text) ?? { value: text, label: text } : null;
      control = (
        <ReferencePicker id={id} name={name} target={field.def.ref ?? ''} initial={initial} choices={options} invalid={invalid} autoFocus={focus} testId={`reference-${field.name}`} onChange={onListChange} />
      );
      break;
    }
    case 'list':
      control = (
        <textarea id={id} name={name} rows={field.widget === 'list' ? 4 : 6} defaultValue={text} required={required} className={inputClass} {...invalid} aria-describedby={[invalid['aria-describedby'], field.widget === 'list' ? `${id}-hint` : undefined].filter(Boolean).join(' ') || undefined} />
      );
      break;
    case 'date':
      control = <input type="date" id={id} name={name} defaultValue={text} required={required} className={inputClass} {...invalid} />;
      break;
    case 'image':
      control =
        field.def.kind === 'ref' ? (
          <AttachmentImageField
            id={id}
            name={name}
            value={text}
            fileName={options?.find((option) => option.value === text)?.label}
            folder={IMAGE_FOLDERS[source] ?? 'general'}
            labelledBy={`${id}-label`}
            onChange={onListChange}
          />
        ) : (
          <ImageField id={id} name={name} value={text} folder={IMAGE_FOLDERS[source] ?? 'general'} invalid={invalid} onChange={onListChange} />
        );
      break;
    case 'color':
      control = <ColourField id={id} name={name} value={text} label={t(`resources.${source}.fields.${field.name}`)} invalid={invalid} onChange={onListChange} />;
      break;
    case 'number':
      control = <input type="text" inputMode="numeric" id={id} name={name} defaultValue={text} required={required} className={inputClass} {...invalid} />;
      break;
    case 'money':
      control = (
        <input type="text" inputMode="decimal" id={id} name={name} defaultValue={text} required={required} className={inputClass} {...invalid} aria-describedby={[invalid['aria-describedby'], `${id}-hint`].filter(Boolean).join(' ')} />
      );
      break;
    default:
      control = (
        <input
          type={field.widget === 'email' ? 'email' : field.widget === 'password' ? 'password' : 'text'}
          autoComplete={field.widget === 'password' ? 'new-password' : 'off'}
          id={id}
          name={name}
          defaultValue={field.widget === 'password' ? undefined : text}
          required={required}
          className={inputClass}
          {...invalid}
        />
      );
  }
  return (
    <div>
      <Label field={field} source={source} htmlFor={id} />
      {control}
      {field.widget === 'list' ? (
        <p id={`${id}-hint`} className="mt-1 text-xs text-muted">
          {t('admin.editor.listHint')}
        </p>
      ) : null}
      {field.widget === 'money' ? (
        <p id={`${id}-hint`} className="mt-1 text-xs text-muted">
          {t('admin.editor.moneyHint', { currency })}
        </p>
      ) : null}
      <FieldError id={`${id}-error`} text={error} />
    </div>
  );
}

/**
 * The editor, generated from the definition (issue 21): an input per field the staff member may
 * write, by its widget, and the rest read-only. It posts to the route that shows it; the service
 * checks the values (the same schema as every path) and its errors show by their fields. Leaving
 * with unsaved changes asks first.
 */
export function RecordForm({ source, fields, record, id, version: currentVersion, options, problem, action, onCancel, onReload, formId, children }: RecordFormProps) {
  const { t, locale } = useLocale();
  // The version the edits started from: a save is checked against it, whatever has been read since.
  const [version] = useState(currentVersion);
  const changedElsewhere = version !== currentVersion;
  const navigation = useNavigation();
  const [dirty, setDirtyState] = useState(false);
  // Read by the navigation blocker, which may run before the next render.
  const dirtyNow = useRef(false);
  const setDirty = (value: boolean) => {
    dirtyNow.current = value;
    setDirtyState(value);
  };
  const saving = navigation.state === 'submitting' && navigation.formData?.get('intent') === 'save';
  // What the form found itself before sending (message keys by field): shown until the next save.
  const [found, setFound] = useState<Record<string, string> | null>(null);
  const errors = found ? Object.fromEntries(Object.entries(found).map(([name, key]) => [name, t(key)])) : (problem?.errors ?? {});

  const firstInvalid = fields.find((field) => field.editable && hasError(errors, field.name))?.name;
  // A save that succeeded (the form is gone) or a problem answered: the edits are settled.
  const settled = useRef(problem);
  useEffect(() => {
    if (settled.current !== problem) {
      dirtyNow.current = false;
      setDirtyState(false);
    }
    settled.current = problem;
  }, [problem]);

  const blocker = useBlocker(({ currentLocation, nextLocation }) => dirtyNow.current && currentLocation.pathname + currentLocation.search !== nextLocation.pathname + nextLocation.search);
  useEffect(() => {
    if (blocker.state !== 'blocked') return;
    if (window.confirm(t('admin.editor.unsaved'))) blocker.proceed();
    else blocker.reset();
  }, [blocker, t]);
  useEffect(() => {
    if (!dirty) return;
    const warn = (event: BeforeUnloadEvent) => event.preventDefault();
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [dirty]);

  const cancel = () => {
    if (dirty && !window.confirm(t('admin.editor.unsaved'))) return;
    setDirty(false);
    onCancel();
  };

  const editable = fields.filter((field) => field.editable);
  const readOnly = record ? fields.filter((field) => !field.editable && record[field.name] !== undefined && field.def.kind !== 'password') : [];
  const currency = typeof record?.currency === 'string' ? record.currency : 'HKD';

  return (
    <Form
      method="post"
      action={action}
      id={formId}
      noValidate
      onChange={(event) => {
        setDirty(true);
        // A field changed after the check: its message goes.
        const changed = (event.target as unknown as { name?: string }).name?.split('.')[1];
        if (found && changed && hasError(found, changed)) {
          const rest = Object.fromEntries(Object.entries(found).filter(([key]) => key !== changed && !key.startsWith(`${changed}.`)));
          setFound(Object.keys(rest).length > 0 ? rest : null);
        }
      }}
      onSubmit={(event) => {
        const problems = checkChanges(fields, formChanges(fields, new FormData(event.currentTarget), id ? record : null), !id, { recordRules: entities[source as EntityName]?.recordRules, stored: record });
        if (Object.keys(problems).length > 0) {
          event.preventDefault();
          setFound(problems);
          // The first field to correct, in the form's order, once its message shows.
          const firstField = fields.find((field) => hasError(problems, field.name));
          const first = firstField?.name;
          // A value in parts: its first part with a message, else its first part.
          const parts = firstField ? partsOf(firstField) : undefined;
          const part = parts?.find((name) => problems[`${first}.${name}`]) ?? parts?.[0];
          const target = part ? `#field-${first}-${part}` : `#field-${first}, #field-${first}-en`;
          const form = event.currentTarget;
          requestAnimationFrame(() => form.querySelector<HTMLElement>(target)?.focus());
          return;
        }
        setFound(null);
        setDirty(false);
      }}
      data-testid="record-form"
      preventScrollReset
    >
      <input type="hidden" name="intent" value="save" />
      {id ? <input type="hidden" name="id" value={id} /> : null}
      {version ? <input type="hidden" name="version" value={version} /> : null}
      {problem?.conflict || changedElsewhere ? (
        <div role="alert" className="mb-4 rounded-lg border border-amber-300 bg-amber-50 px-4 py-3 text-amber-950 dark:border-amber-700 dark:bg-amber-950 dark:text-amber-50" data-testid="edit-conflict">
          <p>{t('admin.editor.conflict')}</p>
          {onReload ? (
            <button
              type="button"
              className="mt-2 font-semibold underline underline-offset-4"
              onClick={() => {
                if (dirtyNow.current && !window.confirm(t('admin.editor.unsaved'))) return;
                setDirty(false);
                onReload();
              }}
              data-testid="edit-reload"
            >
              {t('admin.editor.reload')}
            </button>
          ) : null}
        </div>
      ) : found || (problem && (problem.message || Object.keys(errors).length > 0)) ? (
        <div role="alert" className="mb-4 rounded-lg border border-red-300 bg-red-50 px-4 py-3 text-red-900 dark:border-red-800 dark:bg-red-950 dark:text-red-100" data-testid="edit-error">
          {Object.keys(errors).length > 0 ? t('admin.editor.fixErrors') : problem?.message}
        </div>
      ) : null}
      <div className="grid gap-5">
        {editable.map((field) => (
          <FieldInput
            key={field.name}
            field={field}
            source={source}
            value={record?.[field.name]}
            error={errors[field.name]}
            partErrors={partErrorsOf(errors, field.name)}
            options={options[field.name]}
            focus={field.name === firstInvalid}
            currency={currency}
            onListChange={() => setDirty(true)}
          />
        ))}
      </div>
      {readOnly.length > 0 ? (
        <dl className="mt-6 grid gap-x-6 gap-y-3 border-t border-line pt-5 text-sm sm:grid-cols-2" data-testid="record-readonly">
          {readOnly.map((field) => (
            <div key={field.name} className="min-w-0">
              <dt className="text-muted">{t(`resources.${source}.fields.${field.name}`)}</dt>
              <dd className="truncate">
                <CellValue field={field} value={record?.[field.name]} row={record ?? {}} source={source} t={t} locale={locale} />
              </dd>
            </div>
          ))}
        </dl>
      ) : null}
      {children}
      <div className="sticky bottom-0 mt-6 flex justify-end gap-3 border-t border-line bg-raised py-4">
        <button type="button" className={secondaryButton} onClick={cancel} data-testid="editor-cancel">
          {t('admin.cancel')}
        </button>
        <button type="submit" className={primaryButton} disabled={saving} data-testid="editor-save">
          {t('admin.editor.save')}
        </button>
      </div>
    </Form>
  );
}

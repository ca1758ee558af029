import { useEffect, useMemo, useRef, useState } from 'react';
import { useForm, type Path, type UseFormRegisterReturn } from 'react-hook-form';
import { Form, useBlocker, useNavigation, useSubmit } from 'react-router';
import { inputName, inputValue, partsOf, translated } from '../../../domain/admin/form';
import {
  editorDefaults,
  editorErrors,
  editorResolver,
  errorTexts,
  type EditorValue,
  type EditorValues,
} from '../../../domain/admin/resolver';
import type { AdminField } from '../../../domain/admin/screens';
import { entities, type EntityName } from '../../../domain/entities/index';
import { valueSchema } from '../../../domain/entities/types';
import { formatIsoDate } from '../../../domain/format';
import { useLocale } from '../../i18n/messages';
import { FieldError, inputClass } from '../forms/fields';
import { firstInvalid } from '../forms/first-invalid';
import { primaryButton, secondaryButton } from '../ui/buttons';
import { AttachmentImageField } from './attachment-image-field';
import { CellValue, enumLabel } from './cells';
import { ColourField } from './colour-field';
import { DateRangeField } from './date-range-field';
import { GalleryField } from './gallery-field';
import { ImageField } from './image-field';
import { MapPointField } from './map-point-field';
import { ReferenceListPicker } from './reference-list-picker';
import { ReferencePicker } from './reference-picker';
import { RichText } from './rich-text';
import { SubListEditor } from './sub-list';
import { TranslatedField } from './translated-field';

/** Where an entity's images are uploaded to (the attachments' folders). */
const IMAGE_FOLDERS: Record<string, string> = {
  blogs: 'blogs',
  modules: 'products',
  appTemplates: 'products',
  industries: 'products',
  appSettings: 'settings',
  news: 'news',
  ads: 'ads',
  campaigns: 'ads',
  products: 'products',
};

/** The messages of a value's parts (`mapHongKong.latitude`), by part. */
function partErrorsOf(errors: Record<string, string>, name: string): Record<string, string> {
  return Object.fromEntries(
    Object.entries(errors).flatMap(([key, text]) =>
      key.startsWith(`${name}.`) ? [[key.slice(name.length + 1), text]] : [],
    ),
  );
}

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
function PlainTranslation({
  multiline,
  ...props
}: {
  multiline: boolean;
  ref?: React.Ref<HTMLInputElement & HTMLTextAreaElement>;
} & React.InputHTMLAttributes<HTMLInputElement> &
  React.TextareaHTMLAttributes<HTMLTextAreaElement>) {
  return multiline ? <textarea rows={3} {...props} /> : <input {...props} />;
}

/** How a field's inputs are tied to the form's state (react-hook-form). */
interface FieldBinding {
  /** A native input's name, ref and change handlers; `onChange` hears it change too. */
  input: (
    name: string,
    onChange?: (event: React.ChangeEvent<HTMLInputElement & HTMLTextAreaElement & HTMLSelectElement>) => void,
  ) => UseFormRegisterReturn;
  /** A widget that is not one native input (rich text, a reference, parts, rows) says its value changed. */
  set: (name: string, value: EditorValue) => void;
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
  bind,
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
  bind: FieldBinding;
}) {
  const { t } = useLocale();
  const id = `field-${field.name}`;
  const shown = inputValue(field, value);
  const invalid = {
    'aria-invalid': error ? true : undefined,
    'aria-describedby': error ? `${id}-error` : undefined,
    autoFocus: focus || undefined,
  };
  const name = inputName(field.name);
  const text = typeof shown === 'string' ? shown : '';
  const required = field.def.required === true;
  // A password staff may set again on edit: left empty, the current one stays (decision 052).
  const newPassword = field.def.confirmed === true && !required;
  let control: React.ReactNode;
  if (field.items) {
    return (
      <fieldset className="min-w-0">
        <legend className="font-medium">{t(`resources.${source}.fields.${field.name}`)}</legend>
        <SubListEditor
          source={source}
          name={field.name}
          columns={field.items}
          items={Array.isArray(value) ? (value as Record<string, unknown>[]) : []}
          options={options}
          onChange={(rows) => bind.set(name, rows)}
        />
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
      return <MapPointField {...parts} onChange={(values) => bind.set(name, values)} />;
    case 'dateRange':
      return <DateRangeField {...parts} onChange={(values) => bind.set(name, values)} />;
    case 'boolean':
      return (
        <div>
          <input type="hidden" name={`${name}.present`} value="1" />
          <label className="inline-flex items-center gap-2 font-medium">
            <input
              type="checkbox"
              {...bind.input(name)}
              id={id}
              defaultChecked={shown === true}
              className="h-4 w-4 accent-brand-700"
              {...invalid}
            />
            {t(`resources.${source}.fields.${field.name}`)}
          </label>
          <FieldError id={`${id}-error`} text={error} />
        </div>
      );
    case 'timestampSwitch': {
      // A switch that sets a moment (an account disabled): on since when, as the record keeps it.
      const since = typeof value === 'string' || value instanceof Date ? formatIsoDate(value) : null;
      return (
        <div>
          <input type="hidden" name={`${name}.present`} value="1" />
          <label className="inline-flex items-center gap-2 font-medium">
            <input
              type="checkbox"
              role="switch"
              {...bind.input(name)}
              id={id}
              defaultChecked={shown === true}
              className="h-4 w-4 accent-red-700 dark:accent-red-400"
              {...invalid}
              aria-describedby={[invalid['aria-describedby'], `${id}-hint`].filter(Boolean).join(' ')}
            />
            {t(`resources.${source}.fields.${field.name}`)}
          </label>
          <p id={`${id}-hint`} className="mt-1 text-xs text-muted" data-testid={`${id}-since`}>
            {since ? t('admin.editor.switchedSince', { date: since }) : t('admin.editor.switchHint')}
          </p>
          <FieldError id={`${id}-error`} text={error} />
        </div>
      );
    }
    case 'i18nText':
    case 'richText':
    case 'textarea': {
      if (field.def.kind !== 'i18n' && field.widget === 'textarea') {
        control = (
          <textarea
            id={id}
            {...bind.input(name)}
            rows={6}
            defaultValue={text}
            required={required}
            className={inputClass}
            {...invalid}
          />
        );
        break;
      }
      if (field.def.kind !== 'i18n' && field.widget === 'richText') {
        control = (
          <RichText
            id={id}
            name={name}
            lang="en"
            initial={text}
            labelledBy={`${id}-label`}
            invalid={invalid}
            autoFocus={focus}
            pictureFolder={IMAGE_FOLDERS[source] ?? 'general'}
            onChange={(html) => bind.set(name, html)}
          />
        );
        break;
      }
      const texts = shown as Record<string, string>;
      return (
        <TranslatedField
          id={id}
          legend={t(`resources.${source}.fields.${field.name}`)}
          required={required}
          texts={texts}
          error={error}
        >
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
                pictureFolder={IMAGE_FOLDERS[source] ?? 'general'}
                onChange={(html) => {
                  report(html);
                  bind.set(inputName(field.name, language), html);
                }}
              />
            ) : (
              <PlainTranslation
                multiline={field.widget === 'textarea'}
                id={`${id}-${language}`}
                {...bind.input(inputName(field.name, language), (event) => report(event.target.value))}
                lang={language}
                aria-labelledby={labelledBy}
                defaultValue={texts[language] ?? ''}
                required={required && language === 'en'}
                className={inputClass}
                {...invalid}
                autoFocus={(focus && language === 'en') || undefined}
              />
            )
          }
        </TranslatedField>
      );
    }
    case 'enum':
      control = (
        <select
          id={id}
          {...bind.input(name)}
          defaultValue={text}
          required={required}
          className={inputClass}
          {...invalid}
        >
          {required ? null : <option value="">—</option>}
          {(field.def.enum ?? [])
            // What the field's schema takes, and the value it holds (an ad's `meet`, which the server sets).
            .filter((choice) => choice === text || valueSchema(field.def).safeParse(choice).success)
            .map((choice) => (
              <option key={choice} value={choice}>
                {enumLabel(t, source, field.name, choice)}
              </option>
            ))}
        </select>
      );
      break;
    case 'ref': {
      const initial = text
        ? ((options ?? []).find((option) => option.value === text) ?? { value: text, label: text })
        : null;
      control = (
        <ReferencePicker
          id={id}
          name={name}
          target={field.def.ref ?? ''}
          initial={initial}
          choices={options}
          invalid={invalid}
          autoFocus={focus}
          testId={`reference-${field.name}`}
          onChange={(chosen) => bind.set(name, chosen)}
        />
      );
      break;
    }
    case 'refs':
      control = (
        <ReferenceListPicker
          id={id}
          name={name}
          target={field.def.ref ?? ''}
          initial={Array.isArray(value) ? value.map(String) : []}
          choices={options}
          labelledBy={`${id}-label`}
          invalid={invalid}
          autoFocus={focus}
          testId={`references-${field.name}`}
          onChange={(ids) => bind.set(name, ids)}
        />
      );
      break;
    case 'list':
      control = (
        <textarea
          id={id}
          {...bind.input(name)}
          rows={field.widget === 'list' ? 4 : 6}
          defaultValue={text}
          required={required}
          className={inputClass}
          {...invalid}
          aria-describedby={
            [invalid['aria-describedby'], field.widget === 'list' ? `${id}-hint` : undefined]
              .filter(Boolean)
              .join(' ') || undefined
          }
        />
      );
      break;
    case 'day':
    case 'date':
    case 'dateTime':
      // A day as kept (`day`), a day in Hong Kong (`date`) or a moment on Hong Kong's clock
      // (`dateTime`): the form converts the typed text (domain/admin/form.ts), the input shows it as is.
      control = (
        <input
          type={field.widget === 'dateTime' ? 'datetime-local' : 'date'}
          id={id}
          {...bind.input(name)}
          defaultValue={text}
          required={required}
          className={inputClass}
          {...invalid}
        />
      );
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
            onChange={(chosen) => bind.set(name, chosen)}
          />
        ) : (
          <ImageField
            id={id}
            name={name}
            value={text}
            folder={IMAGE_FOLDERS[source] ?? 'general'}
            invalid={invalid}
            onChange={(address) => bind.set(name, address)}
          />
        );
      break;
    case 'gallery':
      control = (
        <GalleryField
          id={id}
          name={name}
          pictures={options ?? []}
          folder={IMAGE_FOLDERS[source] ?? 'general'}
          labelledBy={`${id}-label`}
          onChange={(ids) => bind.set(name, ids)}
        />
      );
      break;
    case 'color':
      control = (
        <ColourField
          id={id}
          name={name}
          value={text}
          label={t(`resources.${source}.fields.${field.name}`)}
          invalid={invalid}
          onChange={(colour) => bind.set(name, colour)}
        />
      );
      break;
    case 'number':
      control = (
        <input
          type="text"
          inputMode="numeric"
          id={id}
          {...bind.input(name)}
          defaultValue={text}
          required={required}
          className={inputClass}
          {...invalid}
        />
      );
      break;
    case 'money':
      control = (
        <input
          type="text"
          inputMode="decimal"
          id={id}
          {...bind.input(name)}
          defaultValue={text}
          required={required}
          className={inputClass}
          {...invalid}
          aria-describedby={[invalid['aria-describedby'], `${id}-hint`].filter(Boolean).join(' ')}
        />
      );
      break;
    default:
      control = (
        <input
          type={field.widget === 'email' ? 'email' : field.widget === 'password' ? 'password' : 'text'}
          autoComplete={field.widget === 'password' ? 'new-password' : 'off'}
          id={id}
          {...bind.input(name)}
          defaultValue={field.widget === 'password' ? undefined : text}
          required={required}
          className={inputClass}
          {...invalid}
          {...(newPassword
            ? { 'aria-describedby': [invalid['aria-describedby'], `${id}-hint`].filter(Boolean).join(' ') }
            : {})}
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
      {newPassword ? (
        <p id={`${id}-hint`} className="mt-1 text-xs text-muted">
          {t('admin.editor.newPasswordHint')}
        </p>
      ) : null}
      <FieldError id={`${id}-error`} text={error} />
    </div>
  );
}

/** The server's messages by field (its answer to a save), where the form keeps its own; none: undefined. */
function serverErrors(problem: SaveProblem | null | undefined) {
  const entries = Object.entries(problem?.errors ?? {});
  return entries.length > 0
    ? editorErrors(Object.fromEntries(entries.map(([name, text]) => [name, { key: 'server', text }])))
    : undefined;
}

/**
 * The editor, generated from the definition (issue 21): an input per field the staff member may
 * write, by its widget, and the rest read-only. Its state is react-hook-form's (decision 039): the
 * values, whether they changed, and the errors, found before a save by the service's own schema
 * and rules (`editorResolver`) or answered by the service after it. A valid save posts the form
 * itself to the route that shows it, as it posts without the page's scripts. Leaving with unsaved
 * changes asks first.
 */
export function RecordForm({
  source,
  fields,
  record,
  id,
  version: currentVersion,
  options,
  problem,
  action,
  onCancel,
  onReload,
  formId,
  children,
}: RecordFormProps) {
  const { t, locale } = useLocale();
  // The version the edits started from: a save is checked against it, whatever has been read since.
  const [version] = useState(currentVersion);
  const changedElsewhere = version !== currentVersion;
  const navigation = useNavigation();
  const submit = useSubmit();
  const saving = navigation.state === 'submitting' && navigation.formData?.get('intent') === 'save';
  const creating = !id;
  // The inputs as the record shows them: untouched ones follow the record when it is read again.
  const values = useMemo(() => editorDefaults(fields, record), [fields, record]);
  // The server's messages the page was drawn with (also without the page's scripts).
  const [drawnWith] = useState(() => serverErrors(problem));
  const { register, setValue, setError, clearErrors, getFieldState, setFocus, handleSubmit, formState } =
    useForm<EditorValues>({
      defaultValues: values,
      values,
      resetOptions: { keepDirtyValues: true, keepErrors: true },
      errors: drawnWith,
      resolver: editorResolver({
        fields,
        record,
        creating,
        recordRules: entities[source as EntityName]?.recordRules,
        translate: t,
      }),
      // Checked on save only; a field changed after it loses its message until the next save.
      mode: 'onSubmit',
      reValidateMode: 'onSubmit',
      // The first field in the form's order gets the focus, a widget's own input included (`focusFirst`).
      shouldFocusError: false,
    });
  const errors = errorTexts(formState.errors);
  // A save sent (or cancelled) settles the edits until the next change, whatever the service answers.
  const [settled, setSettledState] = useState(false);
  const dirty = formState.isDirty && !settled;
  // Read by the navigation blocker, which may run before the next render.
  const dirtyNow = useRef(false);
  useEffect(() => {
    dirtyNow.current = dirty;
  }, [dirty]);
  const settle = () => {
    dirtyNow.current = false;
    setSettledState(true);
  };

  // The fields that can be corrected, in the form's order; the first with a message (its own or a part's) comes first.
  const order = fields.filter((field) => field.editable).map((field) => field.name);
  const focusField = firstInvalid(order, errors);
  // The native inputs the form holds, which react-hook-form focuses itself.
  const registered = useRef(new Set<string>());
  const formElement = useRef<HTMLFormElement>(null);
  /** Focuses the first field to correct, in the form's order: its first part with a message, else its first part or language. */
  const focusFirst = (texts: Record<string, string>) => {
    const invalid = firstInvalid(order, texts);
    const first = fields.find((field) => field.name === invalid);
    if (!first) return;
    const parts = partsOf(first);
    const part = parts?.find((name) => texts[`${first.name}.${name}`]) ?? parts?.[0];
    const name = part
      ? inputName(first.name, part)
      : translated(first)
        ? inputName(first.name, 'en')
        : inputName(first.name);
    if (registered.current.has(name)) {
      setFocus(name as Path<EditorValues>);
      return;
    }
    const target = part ? `#field-${first.name}-${part}` : `#field-${first.name}, #field-${first.name}-en`;
    requestAnimationFrame(() => formElement.current?.querySelector<HTMLElement>(target)?.focus());
  };

  /** A field changed: the edits are unsaved again, and its message (or its parts') goes. */
  const changed = (name: string) => {
    setSettledState(false);
    const fieldPath = name.split('.').slice(0, 2).join('.') as Path<EditorValues>;
    if (getFieldState(fieldPath).error) clearErrors(fieldPath);
  };
  const bind: FieldBinding = {
    input: (name, onChange) => {
      registered.current.add(name);
      return register(name as Path<EditorValues>, {
        onChange: (event: React.ChangeEvent<HTMLInputElement & HTMLTextAreaElement & HTMLSelectElement>) => {
          changed(name);
          onChange?.(event);
        },
      });
    },
    set: (name, value) => {
      setValue(name as Path<EditorValues>, value, { shouldDirty: true });
      changed(name);
    },
  };

  // The service's answer to a save: its messages under their fields (a value before its parts), the first focused.
  const answered = useRef(problem);
  useEffect(() => {
    if (answered.current === problem) return;
    answered.current = problem;
    const texts = problem?.errors ?? {};
    if (Object.keys(texts).length === 0) return;
    clearErrors();
    for (const name of Object.keys(texts).sort((a, b) => a.length - b.length))
      setError(`v.${name}` as Path<EditorValues>, { type: 'server', message: texts[name] });
    focusFirst(texts);
    // Only a new answer is shown.
  }, [problem]);

  const blocker = useBlocker(
    ({ currentLocation, nextLocation }) =>
      dirtyNow.current &&
      currentLocation.pathname + currentLocation.search !== nextLocation.pathname + nextLocation.search,
  );
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
    settle();
    onCancel();
  };

  const editable = fields.filter((field) => field.editable);
  const readOnly = record
    ? fields.filter((field) => !field.editable && record[field.name] !== undefined && field.def.kind !== 'password')
    : [];
  const currency = typeof record?.currency === 'string' ? record.currency : 'HKD';

  return (
    <Form
      method="post"
      action={action}
      id={formId}
      ref={formElement}
      noValidate
      onSubmit={(event) => {
        // Posted as the form would post itself once the values pass the check; `handleSubmit` stops the browser's own post.
        const form = event.currentTarget;
        const submitter = (event.nativeEvent as SubmitEvent).submitter as HTMLButtonElement | HTMLInputElement | null;
        void handleSubmit(
          () => {
            settle();
            void submit(submitter ?? form, { method: 'post', preventScrollReset: true });
          },
          (found) => focusFirst(errorTexts(found)),
        )(event);
      }}
      data-testid="record-form"
      preventScrollReset
    >
      <input type="hidden" name="intent" value="save" />
      {id ? <input type="hidden" name="id" value={id} /> : null}
      {version ? <input type="hidden" name="version" value={version} /> : null}
      {problem?.conflict || changedElsewhere ? (
        <div
          role="alert"
          className="mb-4 rounded-lg border border-amber-300 bg-amber-50 px-4 py-3 text-amber-950 dark:border-amber-700 dark:bg-amber-950 dark:text-amber-50"
          data-testid="edit-conflict"
        >
          <p>{t('admin.editor.conflict')}</p>
          {onReload ? (
            <button
              type="button"
              className="mt-2 font-semibold underline underline-offset-4"
              onClick={() => {
                if (dirtyNow.current && !window.confirm(t('admin.editor.unsaved'))) return;
                settle();
                onReload();
              }}
              data-testid="edit-reload"
            >
              {t('admin.editor.reload')}
            </button>
          ) : null}
        </div>
      ) : Object.keys(errors).length > 0 || problem?.message ? (
        <div
          role="alert"
          className="mb-4 rounded-lg border border-red-300 bg-red-50 px-4 py-3 text-red-900 dark:border-red-800 dark:bg-red-950 dark:text-red-100"
          data-testid="edit-error"
        >
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
            focus={field.name === focusField}
            currency={currency}
            bind={bind}
          />
        ))}
      </div>
      {readOnly.length > 0 ? (
        <dl
          className="mt-6 grid gap-x-6 gap-y-3 border-t border-line pt-5 text-sm sm:grid-cols-2"
          data-testid="record-readonly"
        >
          {readOnly.map((field) => (
            <div key={field.name} className="min-w-0">
              <dt className="text-muted">{t(`resources.${source}.fields.${field.name}`)}</dt>
              <dd className="truncate">
                <CellValue
                  field={field}
                  value={record?.[field.name]}
                  row={record ?? {}}
                  source={source}
                  // A reference the role may not change still shows the related record's name.
                  references={Object.fromEntries(
                    (options[field.name] ?? []).map((option) => [option.value, option.label]),
                  )}
                  t={t}
                  locale={locale}
                />
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

import { useCallback, useEffect, useRef, useState } from 'react';
import { data, Form, useNavigation, useRevalidator } from 'react-router';
import type { FormErrors } from '../../../domain/forms/messages';
import {
  PASSWORD_CHANGE_FIELDS,
  passwordChangeFromForm,
  passwordChangeSchema,
  PROFILE_FIELDS,
  profileFromForm,
  profileSchema,
  type ProfileField,
} from '../../../domain/forms/profile';
import { LOCALES, type Locale } from '../../../domain/locales';
import { pictureUrl } from '../../../domain/uploads/picture';
import { requireUser } from '../../auth.server';
import { useSnackbar } from '../../components/feedback/snackbars';
import { FieldError, inputClass, invalidProps, TextField } from '../../components/forms/fields';
import { checkForm } from '../../components/forms/read-form';
import { refusalOf } from '../../components/forms/refusal';
import { useSay } from '../../components/forms/say';
import { useFieldErrors } from '../../components/forms/use-field-errors';
import { primaryButton } from '../../components/ui/buttons';
import { Uploader } from '../../components/uploader/uploader';
import type { UploadedInfo } from '../../components/uploader/upload-items';
import { serverContext, type ServerContext } from '../../context';
import { useLocale } from '../../i18n/messages';
import { pageMessages } from '../../i18n/messages.server';
import { pageMeta } from '../../meta';
import type { Route } from './+types/profile';
import { useActionAnswer } from '../../action-answer';

export const messageGroups = ['profile', 'uploader', 'forms'] as const;

/** The language names as each language writes its own (the list of the site's language selector). */
const LANGUAGE_NAMES: Record<Locale, string> = { en: 'English', 'zh-hk': '繁體中文（香港）', 'zh-cn': '简体中文' };

export async function loader({ context, request, params }: Route.LoaderArgs) {
  const ctx = context.get(serverContext);
  const user = requireUser(ctx, request, params.lang);
  const own = await ctx.api.service('users').get(user._id, { provider: 'ssr', user });
  return {
    profile: {
      _id: own._id,
      email: own.email,
      name: own.name ?? '',
      firstName: own.firstName ?? '',
      lastName: own.lastName ?? '',
      companyName: own.companyName ?? '',
      phone: own.phone ?? '',
      companyAddress: own.companyAddress ?? '',
      locale: own.locale ?? params.lang,
      picture: pictureUrl(own._id, own.picture, 'medium'),
    },
    messages: pageMessages(params.lang, messageGroups),
  };
}

export function meta({ matches }: Route.MetaArgs) {
  return pageMeta(matches, { title: 'profile.title', index: false });
}

type Intent = 'profile' | 'password';

interface ActionAnswer {
  intent: Intent | null;
  ok: boolean;
  /** Per field: a message key (the page's own check) or a message the server wrote in the page's language. */
  errors: FormErrors;
  /** A message above the form. */
  message?: string;
  /** What was typed in the profile form, so a refusal keeps it (passwords are never sent back). */
  values?: Partial<Record<ProfileField, string>>;
}

function callParams(ctx: ServerContext, lang: string) {
  return {
    provider: 'ssr',
    user: ctx.user,
    ip: ctx.ip,
    headers: { ...ctx.headers, 'x-locale': lang },
    // The session this page runs in: a change of password ends every other one, not this one.
    authentication: ctx.authentication ?? undefined,
  };
}

/** A refused call as the form shows it: the fields' messages, else the error's own message. */
function refusal(caught: unknown, intent: Intent, values?: ActionAnswer['values']) {
  const { status, errors, message } = refusalOf(caught);
  return data<ActionAnswer>({ intent, ok: false, errors, message, values }, { status });
}

export async function action({ request, context, params }: Route.ActionArgs) {
  const ctx = context.get(serverContext);
  const user = requireUser(ctx, request, params.lang);
  const form = await request.formData();
  const intent = form.get('intent');
  if (intent === 'profile') {
    const values = profileFromForm(form);
    const answers = checkForm(profileSchema, values);
    if (!answers.ok) return data<ActionAnswer>({ intent, ok: false, errors: answers.errors, values }, { status: 400 });
    try {
      await ctx.api.service('users').patch(user._id, answers.values, callParams(ctx, params.lang));
    } catch (error) {
      return refusal(error, intent, values);
    }
    return data<ActionAnswer>({ intent, ok: true, errors: {} });
  }
  if (intent === 'password') {
    const answers = checkForm(passwordChangeSchema, passwordChangeFromForm(form));
    if (!answers.ok) return data<ActionAnswer>({ intent, ok: false, errors: answers.errors }, { status: 400 });
    try {
      const { password, currentPassword } = answers.values;
      await ctx.api.service('users').patch(user._id, { password, currentPassword }, callParams(ctx, params.lang));
    } catch (error) {
      return refusal(error, intent);
    }
    return data<ActionAnswer>({ intent, ok: true, errors: {} });
  }
  return data<ActionAnswer>({ intent: null, ok: false, errors: {}, message: 'validation.invalid' }, { status: 400 });
}

/** Tells of a saved form in the snackbar (with scripts) and beside the form (always). */
function useSaved(answer: ActionAnswer | undefined, intent: Intent, text: string): boolean {
  const { success } = useSnackbar();
  const saved = answer?.intent === intent && answer.ok;
  useEffect(() => {
    if (saved) success(text);
  }, [answer, saved, success, text]);
  return saved;
}

function PictureSection({ name, picture }: { name: string; picture: string | null }) {
  const { t } = useLocale();
  const revalidator = useRevalidator();
  const uploaded = useRef(0);
  // Each picture that finishes uploading replaces the last: the page and its header show it.
  const onChange = useCallback(
    (files: UploadedInfo[]) => {
      if (files.length > uploaded.current) void revalidator.revalidate();
      uploaded.current = files.length;
    },
    [revalidator],
  );
  return (
    <section aria-labelledby="picture-heading" className="rounded-2xl border border-line bg-raised p-5 sm:p-6">
      <h2 id="picture-heading" className="text-lg font-semibold">
        {t('profile.picture.heading')}
      </h2>
      <p className="mt-1 text-sm text-muted">{t('profile.picture.lead')}</p>
      <div className="mt-5 flex flex-col gap-5 sm:flex-row sm:items-start">
        {picture ? (
          <img
            src={picture}
            alt={t('profile.picture.current', { name })}
            width={96}
            height={96}
            className="h-24 w-24 shrink-0 rounded-full border border-line object-cover"
            data-testid="profile-picture"
          />
        ) : (
          <span
            aria-hidden="true"
            className="grid h-24 w-24 shrink-0 place-items-center rounded-full bg-accent-400 text-3xl font-semibold text-brand-950"
            data-testid="profile-initial"
          >
            {name.charAt(0).toUpperCase()}
          </span>
        )}
        <div className="min-w-0 flex-1">
          <Uploader url="/api/attachments/upload/profile" multiple={false} onChange={onChange} />
        </div>
      </div>
    </section>
  );
}

export default function Profile({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useLocale();
  const say = useSay();
  const navigation = useNavigation();
  const { profile } = loaderData;
  const answer = useActionAnswer(actionData) as ActionAnswer | undefined;
  const busy = (intent: Intent) => navigation.state === 'submitting' && navigation.formData?.get('intent') === intent;
  const profileSaved = useSaved(answer, 'profile', t('profile.details.saved'));
  const passwordSaved = useSaved(answer, 'password', t('profile.password.saved'));
  const errorsOf = (intent: Intent) => (answer?.intent === intent && !answer.ok ? answer.errors : {});
  const profileErrors = errorsOf('profile');
  const passwordErrors = errorsOf('password');
  const profileFocus = useFieldErrors(
    answer?.intent === 'profile' ? answer : undefined,
    profileErrors,
    PROFILE_FIELDS,
    'profile-',
  ).focus;
  const passwordFocus = useFieldErrors(
    answer?.intent === 'password' ? answer : undefined,
    passwordErrors,
    PASSWORD_CHANGE_FIELDS,
    'profile-',
  ).focus;
  const values = { ...profile, ...(answer?.intent === 'profile' && !answer.ok ? answer.values : {}) };
  const problem = (intent: Intent) =>
    answer?.intent === intent && !answer.ok
      ? Object.keys(answer.errors).length > 0
        ? t('validation.failed')
        : say(answer.message)
      : '';
  const profileKey = answer?.intent === 'profile' && answer.ok ? 'saved' : 'editing';
  // Each answer to the password form starts it afresh: no password stays typed in the page.
  const [passwordRound, setPasswordRound] = useState(0);
  useEffect(() => {
    if (answer?.intent === 'password') setPasswordRound((round) => round + 1);
  }, [answer]);

  return (
    <div className="mx-auto max-w-3xl px-4 py-8 sm:px-6 sm:py-10" data-testid="profile-page">
      <h1 className="text-3xl font-bold tracking-tight">{t('profile.heading')}</h1>
      <p className="mt-2 text-muted">{t('profile.lead')}</p>

      <div className="mt-8 space-y-8">
        <PictureSection name={profile.name || profile.email} picture={profile.picture} />

        <section aria-labelledby="details-heading" className="rounded-2xl border border-line bg-raised p-5 sm:p-6">
          <h2 id="details-heading" className="text-lg font-semibold">
            {t('profile.details.heading')}
          </h2>
          <p className="mt-1 text-sm text-muted">
            {t('profile.details.email')}{' '}
            <span className="font-medium text-ink" data-testid="profile-email">
              {profile.email}
            </span>
          </p>
          <Form method="post" noValidate className="mt-5 space-y-5" key={profileKey} data-testid="profile-form">
            <input type="hidden" name="intent" value="profile" />
            <TextField
              idPrefix="profile-"
              name="name"
              label={t('profile.details.name')}
              value={values.name}
              error={say(profileErrors.name)}
              required
              autoComplete="name"
              focus={profileFocus === 'name'}
            />
            <div className="grid gap-5 sm:grid-cols-2">
              <TextField
                idPrefix="profile-"
                name="firstName"
                label={t('profile.details.firstName')}
                value={values.firstName}
                error={say(profileErrors.firstName)}
                autoComplete="given-name"
                focus={profileFocus === 'firstName'}
              />
              <TextField
                idPrefix="profile-"
                name="lastName"
                label={t('profile.details.lastName')}
                value={values.lastName}
                error={say(profileErrors.lastName)}
                autoComplete="family-name"
                focus={profileFocus === 'lastName'}
              />
            </div>
            <TextField
              idPrefix="profile-"
              name="companyName"
              label={t('profile.details.companyName')}
              value={values.companyName}
              error={say(profileErrors.companyName)}
              autoComplete="organization"
              focus={profileFocus === 'companyName'}
            />
            <TextField
              idPrefix="profile-"
              name="phone"
              type="tel"
              label={t('profile.details.phone')}
              value={values.phone}
              error={say(profileErrors.phone)}
              autoComplete="tel"
              focus={profileFocus === 'phone'}
            />
            <TextField
              idPrefix="profile-"
              name="companyAddress"
              label={t('profile.details.companyAddress')}
              value={values.companyAddress}
              error={say(profileErrors.companyAddress)}
              multiline
              rows={3}
              focus={profileFocus === 'companyAddress'}
            />
            <div>
              <label htmlFor="profile-locale" className="block font-medium">
                {t('profile.details.locale')}
              </label>
              <select
                id="profile-locale"
                name="locale"
                defaultValue={values.locale}
                className={inputClass}
                {...invalidProps('profile-locale', say(profileErrors.locale), profileFocus === 'locale')}
                aria-describedby={
                  profileErrors.locale ? 'profile-locale-hint profile-locale-error' : 'profile-locale-hint'
                }
              >
                {LOCALES.map((locale) => (
                  <option key={locale} value={locale} lang={locale}>
                    {LANGUAGE_NAMES[locale]}
                  </option>
                ))}
              </select>
              <p id="profile-locale-hint" className="mt-1 text-sm text-muted">
                {t('profile.details.localeHint')}
              </p>
              <FieldError id="profile-locale-error" text={say(profileErrors.locale)} />
            </div>
            {problem('profile') ? (
              <p role="alert" className="font-medium text-red-700 dark:text-red-300" data-testid="profile-problem">
                {problem('profile')}
              </p>
            ) : null}
            {profileSaved ? (
              <p role="status" className="font-medium text-brand-700 dark:text-brand-300" data-testid="profile-saved">
                {t('profile.details.saved')}
              </p>
            ) : null}
            <button type="submit" disabled={busy('profile')} className={primaryButton} data-testid="profile-submit">
              {t('profile.details.submit')}
            </button>
          </Form>
        </section>

        <section aria-labelledby="password-heading" className="rounded-2xl border border-line bg-raised p-5 sm:p-6">
          <h2 id="password-heading" className="text-lg font-semibold">
            {t('profile.password.heading')}
          </h2>
          <p className="mt-1 text-sm text-muted" id="password-rules">
            {t('profile.password.rules')}
          </p>
          {/* A new form after each change, so no password stays typed in it. */}
          <Form
            method="post"
            noValidate
            className="mt-5 space-y-5"
            key={`password-${passwordRound}`}
            data-testid="password-form"
          >
            <input type="hidden" name="intent" value="password" />
            <input type="text" name="username" autoComplete="username" defaultValue={profile.email} hidden readOnly />
            <TextField
              idPrefix="profile-"
              name="currentPassword"
              type="password"
              label={t('profile.password.current')}
              error={say(passwordErrors.currentPassword)}
              required
              autoComplete="current-password"
              focus={passwordFocus === 'currentPassword'}
            />
            <TextField
              idPrefix="profile-"
              name="password"
              type="password"
              label={t('profile.password.new')}
              error={say(passwordErrors.password)}
              describedBy="password-rules"
              required
              autoComplete="new-password"
              focus={passwordFocus === 'password'}
            />
            <TextField
              idPrefix="profile-"
              name="passwordConfirm"
              type="password"
              label={t('profile.password.confirm')}
              error={say(passwordErrors.passwordConfirm)}
              required
              autoComplete="new-password"
              focus={passwordFocus === 'passwordConfirm'}
            />
            {problem('password') ? (
              <p role="alert" className="font-medium text-red-700 dark:text-red-300" data-testid="password-problem">
                {problem('password')}
              </p>
            ) : null}
            {passwordSaved ? (
              <p role="status" className="font-medium text-brand-700 dark:text-brand-300" data-testid="password-saved">
                {t('profile.password.saved')}
              </p>
            ) : null}
            <button type="submit" disabled={busy('password')} className={primaryButton} data-testid="password-submit">
              {t('profile.password.submit')}
            </button>
          </Form>
        </section>
      </div>
    </div>
  );
}

import { Form, Link, useNavigation, useSearchParams } from 'react-router';
import { DEVICE_NAME_MAX } from '../../../domain/apps/devices';
import { formatDate } from '../../../domain/format';
import { localeOf, localized } from '../../../domain/locales';
import { requireUser } from '../../auth.server';
import { FieldError, inputClass, invalidProps } from '../../components/forms/fields';
import { DEVICE_FIELDS, RemoveConfirm } from '../../components/portal/app-parts';
import { useFieldErrors } from '../../components/forms/use-field-errors';
import { primaryButton, secondaryButton } from '../../components/ui/buttons';
import { serverContext } from '../../context';
import { useLocale } from '../../i18n/messages';
import { pageMessages } from '../../i18n/messages.server';
import { pageMeta } from '../../meta';
import { useSsoLink } from '../../components/portal/sso';
import { useLiveRefresh } from '../../api/use-live';
import type { Route } from './+types/device';
import { deviceAction, type DeviceAnswer, loadDevice } from './apps.server';
import { useActionAnswer } from '../../action-answer';

/*
 * `/{locale}/portal/apps/{app}/{entry}`: one device registered to an app (decision 030): its
 * details, the pairing code its app enters until it has paired, renaming and removing it. Another
 * member's device, or one of another app, is not found.
 */

export const messageGroups = ['apps', 'dashboard', 'forms'] as const;

const LIVE_SERVICES = ['devices'] as const;

export async function loader({ context, request, params }: Route.LoaderArgs) {
  const ctx = context.get(serverContext);
  const user = requireUser(ctx, request, params.lang);
  return {
    ...(await loadDevice(ctx, user, localeOf(params.lang), params.app, params.entry)),
    messages: pageMessages(params.lang, messageGroups),
  };
}

export async function action({ context, request, params }: Route.ActionArgs) {
  const ctx = context.get(serverContext);
  const user = requireUser(ctx, request, params.lang);
  return deviceAction(ctx, user, request, params.lang, params.app, params.entry);
}

export function meta({ matches, loaderData }: Route.MetaArgs) {
  return pageMeta(matches, {
    title: 'apps.deviceTitle',
    values: { name: loaderData?.device.name ?? '' },
    index: false,
  });
}

function Detail({ label, children, testId }: { label: string; children: React.ReactNode; testId: string }) {
  return (
    <div className="grid gap-1 px-4 py-3 sm:grid-cols-[12rem_1fr] sm:px-5">
      <dt className="text-sm font-medium text-muted">{label}</dt>
      <dd data-testid={testId}>{children}</dd>
    </div>
  );
}

export default function Device({ loaderData, actionData }: Route.ComponentProps) {
  const { t, locale } = useLocale();
  const link = useSsoLink();
  const [search] = useSearchParams();
  const navigation = useNavigation();
  useLiveRefresh(LIVE_SERVICES);
  const { app, device } = loaderData;
  const answer = useActionAnswer(actionData) as DeviceAnswer | undefined;
  const appPath = `/${locale}/portal/apps/${app.slug}`;
  const appName = localized(app.name, locale);
  const busy = (intent: string) => navigation.state === 'submitting' && navigation.formData?.get('intent') === intent;
  const renamed = answer?.intent === 'rename' && answer.ok;
  const refused = answer && !answer.ok ? answer : undefined;
  const { focus, errorOf, say } = useFieldErrors(
    answer,
    refused?.intent === 'rename' ? refused.errors : undefined,
    DEVICE_FIELDS,
    'rename-',
  );
  const nameError = errorOf('name');
  const problem = refused && !nameError ? say(refused.message) : '';
  return (
    <div className="mx-auto max-w-3xl px-4 py-8 sm:px-6 lg:py-10" data-testid="device-page" data-code={device.code}>
      <p>
        <Link
          to={link(appPath)}
          className="text-sm font-medium text-brand-700 underline-offset-2 hover:underline dark:text-brand-300"
          data-testid="app-back"
        >
          ← {appName}
        </Link>
      </p>
      <h1 className="mt-3 text-3xl font-bold break-words" data-testid="device-name">
        {device.name}
      </h1>
      <p className="mt-1 font-mono text-muted">{device.code}</p>
      {search.has('registered') ? (
        <p
          role="status"
          className="mt-6 rounded-xl border border-emerald-600 bg-raised p-4 font-medium"
          data-testid="device-registered"
        >
          {t('apps.device.registered')}
        </p>
      ) : null}

      {device.pairingCode ? (
        <section
          aria-labelledby="pairing-heading"
          className="mt-6 rounded-2xl border-2 border-brand-500 bg-raised p-5 text-center sm:p-6"
          data-testid="pairing"
        >
          <h2 id="pairing-heading" className="text-lg font-semibold">
            {t('apps.device.pairingHeading')}
          </h2>
          <p className="mt-3 font-mono text-4xl font-bold tracking-[0.2em] sm:text-5xl" data-testid="pairing-code">
            {device.pairingCode}
          </p>
          <p className="mx-auto mt-3 max-w-prose text-muted">{t('apps.device.pairingHelp', { app: appName })}</p>
        </section>
      ) : null}

      <section aria-labelledby="details-heading" className="mt-6 rounded-2xl border border-line bg-raised">
        <h2 id="details-heading" className="border-b border-line px-4 py-3 text-lg font-semibold sm:px-5">
          {t('apps.device.details')}
        </h2>
        <dl className="divide-y divide-line">
          <Detail label={t('apps.columns.code')} testId="detail-code">
            <span className="font-mono">{device.code}</span>
          </Detail>
          <Detail label={t('apps.columns.status')} testId="detail-status">
            {t(device.paired ? 'apps.deviceStatus.paired' : 'apps.deviceStatus.waiting')}
          </Detail>
          <Detail label={t('apps.columns.registered')} testId="detail-registered">
            {formatDate(device.registeredAt, locale)}
          </Detail>
          <Detail label={t('apps.columns.lastSeen')} testId="detail-last-seen">
            {device.lastSeenAt ? formatDate(device.lastSeenAt, locale) : t('apps.never')}
          </Detail>
        </dl>
      </section>

      <section aria-labelledby="rename-heading" className="mt-6 rounded-2xl border border-line bg-raised p-5 sm:p-6">
        <h2 id="rename-heading" className="text-lg font-semibold">
          {t('apps.device.rename')}
        </h2>
        {renamed ? (
          <p role="status" className="mt-2 font-medium" data-testid="device-renamed">
            {t('apps.device.saved')}
          </p>
        ) : null}
        {problem ? (
          <p role="alert" className="mt-2 font-medium text-red-700 dark:text-red-300" data-testid="device-problem">
            {problem}
          </p>
        ) : null}
        <Form method="post" className="mt-3" noValidate data-testid="rename-form">
          <input type="hidden" name="intent" value="rename" />
          <label htmlFor="rename-name" className="block font-medium">
            {t('apps.nameLabel')}
          </label>
          <div className="flex flex-wrap items-start gap-3">
            <input
              id="rename-name"
              name="name"
              type="text"
              required
              maxLength={DEVICE_NAME_MAX}
              defaultValue={refused?.intent === 'rename' ? refused.name : device.name}
              key={`${device.name}-${answer ? String(answer.ok) : ''}`}
              className={`${inputClass} max-w-sm flex-1`}
              {...invalidProps('rename-name', nameError, focus === 'name')}
              data-testid="rename-name"
            />
            <button
              type="submit"
              disabled={busy('rename')}
              className={`${primaryButton} mt-1.5`}
              data-testid="rename-submit"
            >
              {t('apps.device.save')}
            </button>
          </div>
          <FieldError id="rename-name-error" text={nameError} />
        </Form>
      </section>

      <section aria-labelledby="remove-heading" className="mt-6 rounded-2xl border border-line bg-raised p-5 sm:p-6">
        <h2 id="remove-heading" className="text-lg font-semibold">
          {t('apps.device.removeHeading')}
        </h2>
        <p className="mt-1 text-muted">{t('apps.device.removeLead')}</p>
        {search.has('remove') ? (
          <RemoveConfirm device={device} cancel={link(`${appPath}/${device._id}`)} busy={busy('remove')} />
        ) : (
          <Link
            to={link(`${appPath}/${device._id}?remove=1`)}
            preventScrollReset
            className={`${secondaryButton} mt-4`}
            data-testid="device-remove"
          >
            {t('apps.remove')}
          </Link>
        )}
      </section>
    </div>
  );
}

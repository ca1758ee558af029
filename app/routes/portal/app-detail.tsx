import { Form, Link, useNavigation, useSearchParams } from 'react-router';
import { DEVICE_NAME_MAX } from '../../../domain/apps/devices';
import { formatDate, formatMoney, formatNumber } from '../../../domain/format';
import { localeOf, localized } from '../../../domain/locales';
import { requireUser } from '../../auth.server';
import { DEVICE_FIELDS, RemoveConfirm, StatusBadge, upgradeLink } from '../../components/portal/app-parts';
import { useSay } from '../../components/forms/say';
import { useFieldErrors } from '../../components/forms/use-field-errors';
import { PRICE_KEYS } from '../../components/portal/plan-text';
import { FieldError, inputClass, invalidProps } from '../../components/forms/fields';
import { primaryButton, smallButton } from '../../components/ui/buttons';
import { serverContext } from '../../context';
import { useLocale } from '../../i18n/messages';
import { pageMessages } from '../../i18n/messages.server';
import { pageMeta } from '../../meta';
import { useSsoLink } from '../../components/portal/sso';
import { useLiveRefresh } from '../../api/use-live';
import { siteLinks, useSite } from '../../shell';
import type { Route } from './+types/app-detail';
import { type AppData, deviceAction, type DeviceAnswer, type DeviceView, loadApp } from './apps.server';
import { useActionAnswer } from '../../action-answer';

/*
 * `/{locale}/portal/apps/{app}`: one app (decision 030), by its module's key. What it does and its
 * status; when it is on the plan, how to set it up, what to download and the devices registered
 * to it (register, remove); when it is not, what it does and the way into the upgrade.
 */

export const messageGroups = ['apps', 'dashboard', 'forms'] as const;

const LIVE_SERVICES = ['subscriptions', 'devices'] as const;

export async function loader({ context, request, params }: Route.LoaderArgs) {
  const ctx = context.get(serverContext);
  const user = requireUser(ctx, request, params.lang);
  return {
    ...(await loadApp(ctx, user, localeOf(params.lang), params.app)),
    messages: pageMessages(params.lang, messageGroups),
  };
}

export async function action({ context, request, params }: Route.ActionArgs) {
  const ctx = context.get(serverContext);
  const user = requireUser(ctx, request, params.lang);
  return deviceAction(ctx, user, request, params.lang, params.app);
}

export function meta({ matches, loaderData, params }: Route.MetaArgs) {
  return pageMeta(matches, {
    title: 'apps.appTitle',
    values: { name: localized(loaderData?.app.name, localeOf(params.lang)) },
    index: false,
  });
}

function SetUp({ steps, downloads }: AppData['setup']) {
  const { t } = useLocale();
  return (
    <>
      <section aria-labelledby="setup-heading" className="mt-6 rounded-2xl border border-line bg-raised p-5 sm:p-6">
        <h2 id="setup-heading" className="text-lg font-semibold">
          {t('apps.setupHeading')}
        </h2>
        {steps.length === 0 ? (
          <p className="mt-2 text-muted">{t('apps.setupNone')}</p>
        ) : (
          <ol className="mt-3 list-decimal space-y-2 pl-6 marker:font-semibold" data-testid="setup-steps">
            {steps.map((step) => (
              <li key={step} className="pl-1">
                {t(step)}
              </li>
            ))}
          </ol>
        )}
      </section>
      {downloads.length > 0 ? (
        <section
          aria-labelledby="downloads-heading"
          className="mt-6 rounded-2xl border border-line bg-raised p-5 sm:p-6"
        >
          <h2 id="downloads-heading" className="text-lg font-semibold">
            {t('apps.downloadsHeading')}
          </h2>
          <ul className="mt-3 flex flex-wrap gap-3" data-testid="downloads">
            {downloads.map((download) => (
              <li key={download.url}>
                <a
                  href={download.url}
                  target="_blank"
                  rel="noopener noreferrer"
                  className={smallButton}
                  data-testid="download"
                  data-kind={download.kind}
                >
                  {t(`apps.downloads.${download.kind}`)}
                  <span className="sr-only"> {t('apps.newTab')}</span>
                </a>
              </li>
            ))}
          </ul>
        </section>
      ) : null}
    </>
  );
}

/** A device's row: its name (to its page), code, days, status, and its removal, confirmed in place. */
function DeviceRow({ device, slug, confirming }: { device: DeviceView; slug: string; confirming: boolean }) {
  const { t, locale } = useLocale();
  const link = useSsoLink();
  const navigation = useNavigation();
  const busy = navigation.state === 'submitting' && navigation.formData?.get('device') === device._id;
  const appPath = `/${locale}/portal/apps/${slug}`;
  return (
    <li className="px-4 py-3 sm:px-5" data-testid="device" data-code={device.code}>
      <div className="flex flex-wrap items-baseline justify-between gap-x-4 gap-y-1">
        <Link
          to={link(`${appPath}/${device._id}`)}
          className="font-semibold text-brand-700 underline-offset-2 hover:underline dark:text-brand-300"
          data-testid="device-open"
        >
          {device.name}
        </Link>
        {confirming ? null : (
          <Link
            to={link(`${appPath}?remove=${device._id}`)}
            preventScrollReset
            className="text-sm font-semibold text-red-700 underline-offset-2 hover:underline dark:text-red-300"
            aria-label={t('apps.removeThis', { name: device.name })}
            data-testid="device-remove"
          >
            {t('apps.remove')}
          </Link>
        )}
      </div>
      <dl className="mt-1 flex flex-wrap gap-x-5 gap-y-1 text-sm text-muted">
        <div className="flex gap-1">
          <dt>{t('apps.columns.code')}:</dt>
          <dd className="font-mono" data-testid="device-code">
            {device.code}
          </dd>
        </div>
        <div className="flex gap-1">
          <dt>{t('apps.columns.registered')}:</dt>
          <dd>{formatDate(device.registeredAt, locale)}</dd>
        </div>
        <div className="flex gap-1">
          <dt>{t('apps.columns.lastSeen')}:</dt>
          <dd>{device.lastSeenAt ? formatDate(device.lastSeenAt, locale) : t('apps.never')}</dd>
        </div>
        <div className="flex gap-1">
          <dt>{t('apps.columns.status')}:</dt>
          <dd data-testid="device-status">
            {t(device.paired ? 'apps.deviceStatus.paired' : 'apps.deviceStatus.waiting')}
          </dd>
        </div>
      </dl>
      {confirming ? <RemoveConfirm device={device} cancel={link(appPath)} busy={busy} /> : null}
    </li>
  );
}

function Register({ answer }: { answer: DeviceAnswer | undefined }) {
  const { t } = useLocale();
  const navigation = useNavigation();
  const busy = navigation.state === 'submitting' && navigation.formData?.get('intent') === 'register';
  const refused = answer?.intent === 'register' && !answer.ok ? answer : undefined;
  const { focus, errorOf, say } = useFieldErrors(answer, refused?.errors, DEVICE_FIELDS, 'device-');
  const error = errorOf('name');
  const problem = refused && !error ? say(refused.message) : '';
  return (
    <Form method="post" className="border-t border-line px-4 py-4 sm:px-5" data-testid="register-form" noValidate>
      <h3 className="font-semibold">{t('apps.registerHeading')}</h3>
      {problem ? (
        <p role="alert" className="mt-2 font-medium text-red-700 dark:text-red-300" data-testid="register-problem">
          {problem}
        </p>
      ) : null}
      <input type="hidden" name="intent" value="register" />
      <label htmlFor="device-name" className="mt-3 block font-medium">
        {t('apps.nameLabel')}
      </label>
      <p id="device-name-hint" className="text-sm text-muted">
        {t('apps.nameHint', { max: DEVICE_NAME_MAX })}
      </p>
      <div className="flex flex-wrap items-start gap-3">
        <input
          id="device-name"
          name="name"
          type="text"
          required
          maxLength={DEVICE_NAME_MAX}
          defaultValue={refused?.name ?? ''}
          key={answer ? `${answer.intent}-${String(answer.ok)}` : 'new'}
          className={`${inputClass} max-w-sm flex-1`}
          {...invalidProps('device-name', error, focus === 'name')}
          aria-describedby={['device-name-hint', error ? 'device-name-error' : null].filter(Boolean).join(' ')}
          data-testid="register-name"
        />
        <button type="submit" disabled={busy} className={`${primaryButton} mt-1.5`} data-testid="register-submit">
          {t('apps.register')}
        </button>
      </div>
      <FieldError id="device-name-error" text={error} />
    </Form>
  );
}

function Devices({
  devices,
  limit,
  slug,
  state,
  answer,
}: Pick<AppData, 'devices' | 'limit' | 'state'> & { slug: string; answer: DeviceAnswer | undefined }) {
  const { t, locale } = useLocale();
  const [search] = useSearchParams();
  const say = useSay();
  const removing = search.get('remove');
  const removed = search.has('removed');
  const refused = answer?.intent === 'remove' && !answer.ok ? say(answer.message) : '';
  return (
    <section
      aria-labelledby="devices-heading"
      className="mt-6 rounded-2xl border border-line bg-raised"
      data-testid="devices"
    >
      <div className="flex flex-wrap items-baseline justify-between gap-3 border-b border-line px-4 py-3 sm:px-5">
        <h2 id="devices-heading" className="text-lg font-semibold">
          {t('apps.devicesHeading')}
        </h2>
        {limit !== null ? (
          <span className="text-sm text-muted" data-testid="devices-limit">
            {t('apps.devicesLimit', {
              count: formatNumber(devices.length, locale),
              limit: formatNumber(limit, locale),
            })}
          </span>
        ) : null}
      </div>
      {removed ? (
        <p role="status" className="border-b border-line px-4 py-3 font-medium sm:px-5" data-testid="device-removed">
          {t('apps.removed')}
        </p>
      ) : null}
      {refused ? (
        <p role="alert" className="border-b border-line px-4 py-3 font-medium text-red-700 sm:px-5 dark:text-red-300">
          {refused}
        </p>
      ) : null}
      {devices.length === 0 ? (
        <p className="px-4 py-3 text-muted sm:px-5" data-testid="devices-none">
          {t('apps.devicesNone')}
        </p>
      ) : (
        <ul className="divide-y divide-line" data-testid="device-list">
          {devices.map((device) => (
            <DeviceRow key={device._id} device={device} slug={slug} confirming={removing === device._id} />
          ))}
        </ul>
      )}
      {state.kind === 'pending' ? (
        <p className="border-t border-line px-4 py-3 text-muted sm:px-5">{t('apps.pendingDevices')}</p>
      ) : state.kind === 'suspended' || state.kind === 'ended' ? (
        <p className="border-t border-line px-4 py-3 text-muted sm:px-5" data-testid="devices-suspended">
          {t(state.kind === 'ended' ? 'dashboard.moduleEnded' : 'dashboard.suspended')}
        </p>
      ) : limit !== null && devices.length >= limit ? (
        <p className="border-t border-line px-4 py-3 text-muted sm:px-5" data-testid="devices-full">
          {t('apps.limitReached', { limit: formatNumber(limit, locale) })}
        </p>
      ) : (
        <Register answer={answer} />
      )}
    </section>
  );
}

function NotOnPlan({ data }: { data: AppData }) {
  const { t, locale } = useLocale();
  const { site } = useSite();
  const link = useSsoLink();
  const { state, subscription, app } = data;
  const name = localized(app.name, locale);
  if (state.kind === 'offered' && subscription) {
    return (
      <section
        aria-labelledby="add-heading"
        className="mt-6 rounded-2xl border border-brand-500 bg-raised p-5 sm:p-6"
        data-testid="app-offered"
      >
        <h2 id="add-heading" className="text-lg font-semibold">
          {t('apps.notOnPlan')}
        </h2>
        <p className="mt-1 text-muted">{t('apps.addLead')}</p>
        <p className="mt-3 font-semibold" data-testid="offered-price">
          {t(PRICE_KEYS[state.billing], {
            price: formatMoney({ amount: state.unitPrice, currency: subscription.currency }, locale),
          })}
          {app.counter ? <span className="font-normal text-muted"> · {t('dashboard.perUnit')}</span> : null}
        </p>
        <Link
          to={link(upgradeLink(locale, subscription._id, app.id))}
          reloadDocument
          className={`${primaryButton} mt-4`}
          aria-label={t('dashboard.addThis', { name })}
          data-testid="app-add"
        >
          {t('dashboard.add')}
        </Link>
      </section>
    );
  }
  return (
    <section
      aria-labelledby="unavailable-heading"
      className="mt-6 rounded-2xl border border-line bg-raised p-5 sm:p-6"
      data-testid="app-unavailable"
    >
      <h2 id="unavailable-heading" className="text-lg font-semibold">
        {t('apps.notOnPlan')}
      </h2>
      {subscription ? (
        <p className="mt-1 text-muted">{t(app.released ? 'apps.unavailable' : 'apps.comingLater')}</p>
      ) : (
        <>
          <p className="mt-1 text-muted">{t('dashboard.emptyBody')}</p>
          <Link
            to={link(siteLinks(locale, site.brandSlug).subscription)}
            reloadDocument
            className={`${primaryButton} mt-4`}
          >
            {t('dashboard.emptyAction')}
          </Link>
        </>
      )}
    </section>
  );
}

export default function AppDetail({ loaderData, actionData }: Route.ComponentProps) {
  const { t, locale } = useLocale();
  const link = useSsoLink();
  useLiveRefresh(LIVE_SERVICES);
  const { app, state, setup } = loaderData;
  const answer = useActionAnswer(actionData) as DeviceAnswer | undefined;
  const onPlan =
    state.kind === 'active' || state.kind === 'pending' || state.kind === 'suspended' || state.kind === 'ended';
  return (
    <div
      className="mx-auto max-w-4xl px-4 py-8 sm:px-6 lg:py-10"
      data-testid="app-page"
      data-app={app.slug}
      data-state={state.kind}
    >
      <p>
        <Link
          to={link(`/${locale}/portal/apps`)}
          className="text-sm font-medium text-brand-700 underline-offset-2 hover:underline dark:text-brand-300"
          data-testid="apps-back"
        >
          ← {t('apps.back')}
        </Link>
      </p>
      <h1 className="mt-3 flex flex-wrap items-center gap-x-3 gap-y-2 text-3xl font-bold">
        <span>{localized(app.name, locale)}</span>
        {onPlan ? <StatusBadge status={state.kind} availableOn={state.availableOn} /> : null}
      </h1>
      {app.shortDesc ? <p className="mt-2 text-lg text-muted">{localized(app.shortDesc, locale)}</p> : null}
      {app.description ? (
        <section aria-labelledby="about-heading" className="mt-6">
          <h2 id="about-heading" className="sr-only">
            {t('apps.about')}
          </h2>
          <p className="max-w-prose" data-testid="app-description">
            {localized(app.description, locale)}
          </p>
        </section>
      ) : null}
      {onPlan ? (
        <>
          {state.kind === 'pending' ? (
            <p className="mt-6 rounded-xl border border-amber-500 bg-raised p-4" data-testid="app-pending">
              {t('apps.pendingNote')}
            </p>
          ) : null}
          <SetUp {...setup} />
          {setup.takesDevices ? (
            <Devices
              devices={loaderData.devices}
              limit={loaderData.limit}
              slug={app.slug}
              state={state}
              answer={answer}
            />
          ) : null}
        </>
      ) : (
        <NotOnPlan data={loaderData} />
      )}
    </div>
  );
}

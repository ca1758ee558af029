import { useEffect, useRef } from 'react';
import { Form, Link } from 'react-router';
import type { AppStatus } from '../../../domain/apps/apps';
import { useLocale } from '../../i18n/messages';
import { secondaryButton } from '../ui/buttons';
import { dayText } from './plan-text';

/*
 * What the apps pages share (decision 030): an app's status as a badge, the way into the upgrade
 * with the add-on chosen, and removing a device, asked again.
 */

/** The upgrade with one add-on chosen (`?add=id`, a count of one), as the dashboard's "Add" links to it. */
export function upgradeLink(locale: string, subscription: string, module: string): string {
  return `/${locale}/upgrade/${subscription}?add=${encodeURIComponent(module)}`;
}

/** Active, being set up with the day it is expected (decision 028), suspended until a renewal is paid (decision 031), or ended with the plan (decision 044). */
export function StatusBadge({ status, availableOn }: { status: AppStatus; availableOn: string | null }) {
  const { t, locale } = useLocale();
  if (status === 'active') {
    return (
      <span
        className="rounded-full bg-emerald-100 px-2.5 py-0.5 text-xs font-semibold text-emerald-950 dark:bg-emerald-900 dark:text-emerald-50"
        data-testid="app-status"
      >
        {t('apps.status.active')}
      </span>
    );
  }
  if (status === 'ended') {
    return (
      <span className="rounded-full bg-sunken px-2.5 py-0.5 text-xs font-semibold text-muted" data-testid="app-status">
        {t('dashboard.moduleEnded')}
      </span>
    );
  }
  if (status === 'suspended') {
    return (
      <span
        className="rounded-full bg-red-100 px-2.5 py-0.5 text-xs font-semibold text-red-900 dark:bg-red-950 dark:text-red-100"
        data-testid="app-status"
      >
        {t('dashboard.suspended')}
      </span>
    );
  }
  return (
    <span
      className="rounded-full bg-amber-100 px-2.5 py-0.5 text-xs font-semibold text-amber-950 dark:bg-amber-900 dark:text-amber-50"
      data-testid="app-status"
    >
      {availableOn ? t('dashboard.pending', { date: dayText(availableOn, locale) }) : t('dashboard.pendingNoDate')}
    </span>
  );
}

/** A device's form's fields, in its order: its name. */
export const DEVICE_FIELDS = ['name'] as const;

/** Removing a device, asked again in place: a form of its own, so it works without scripts too. */
export function RemoveConfirm({
  device,
  cancel,
  busy,
}: {
  device: { _id: string; name: string };
  cancel: string;
  busy: boolean;
}) {
  const { t } = useLocale();
  const question = useRef<HTMLParagraphElement>(null);
  // Opened from a link: the question takes the focus, so a screen reader reads it out.
  useEffect(() => question.current?.focus(), []);
  return (
    <div
      role="group"
      aria-labelledby={`remove-${device._id}`}
      className="mt-3 rounded-xl border border-red-600 p-4"
      data-testid="remove-confirm"
    >
      <p id={`remove-${device._id}`} ref={question} tabIndex={-1} className="font-medium outline-none">
        {t('apps.confirmRemove', { name: device.name })}
      </p>
      <Form method="post" className="mt-3 flex flex-wrap gap-3">
        <input type="hidden" name="intent" value="remove" />
        <input type="hidden" name="device" value={device._id} />
        <button
          type="submit"
          disabled={busy}
          className="inline-flex min-h-11 items-center justify-center rounded-full bg-red-700 px-5 py-2.5 font-semibold text-white hover:bg-red-800 disabled:opacity-60"
          data-testid="remove-yes"
        >
          {t('apps.confirmRemoveYes')}
        </button>
        <Link to={cancel} preventScrollReset className={secondaryButton} data-testid="remove-cancel">
          {t('apps.cancel')}
        </Link>
      </Form>
    </div>
  );
}
